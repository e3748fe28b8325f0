/*
 * Device calls for the SH-4 test programs (include/myrmex/device.h), and the
 * operand-cache operations a driver's DMA needs. The SH-4's operand cache is
 * write-back and the PCI bridge does not snoop it, so a driver writes back
 * (ocbwb) what a device will read and invalidates (ocbi) what a device has
 * written before reading it. These instructions are not privileged: they go
 * through the TLB with the program's own rights (ocbi needs write access),
 * so a driver can only touch the lines of its own pages, and no system call
 * is needed. The line is 32 bytes.
 */
#ifndef SH4_DEV_H
#define SH4_DEV_H

#include "sh4_user.h"
#include <myrmex/device.h>

#define SH4_CACHE_LINE 32u

static inline long u_dev_info(uint32_t i, struct myrmex_pci_info *out)
{
	return sys2(MYRMEX_SYS_DEV_INFO, i, out);
}
static inline long u_dev_config_read(uint32_t off) { return sys1(MYRMEX_SYS_DEV_CONFIG_READ, off); }
static inline long u_dev_config_write(uint32_t off, uint32_t v)
{
	return sys2(MYRMEX_SYS_DEV_CONFIG_WRITE, off, v);
}
static inline long u_dev_map_bar(uint32_t bar) { return sys1(MYRMEX_SYS_DEV_MAP_BAR, bar); }
static inline long u_dev_irq_ack(void) { return sys0(MYRMEX_SYS_DEV_IRQ_ACK); }
static inline long u_ica_phys(uint32_t h) { return sys1(MYRMEX_SYS_ICA_PHYS, h); }
static inline long u_dev_port_read(uint32_t off, uint32_t width)
{
	return sys2(MYRMEX_SYS_DEV_PORT_READ, off, width);
}
static inline long u_dev_port_write(uint32_t off, uint32_t width, uint32_t value)
{
	return sys3(MYRMEX_SYS_DEV_PORT_WRITE, off, width, value);
}

/* Writes back the dirty lines of [p, p + n) (before a device reads it). */
static inline void u_cache_wback(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(SH4_CACHE_LINE - 1);
	for (; a < (uintptr_t)p + n; a += SH4_CACHE_LINE)
		__asm__ volatile("ocbwb @%0" :: "r"(a) : "memory");
}

/* Drops the lines of [p, p + n) without writing them back (before reading
 * what a device wrote): the range should cover whole lines. */
static inline void u_cache_inval(void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(SH4_CACHE_LINE - 1);
	for (; a < (uintptr_t)p + n; a += SH4_CACHE_LINE)
		__asm__ volatile("ocbi @%0" :: "r"(a) : "memory");
}

/* Writes back and drops (purges) the lines of [p, p + n). */
static inline void u_cache_purge(void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(SH4_CACHE_LINE - 1);
	for (; a < (uintptr_t)p + n; a += SH4_CACHE_LINE)
		__asm__ volatile("ocbp @%0" :: "r"(a) : "memory");
}

#endif
