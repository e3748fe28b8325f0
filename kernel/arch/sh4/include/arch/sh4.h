/*
 * SH7751R registers the port uses (SH7750 series hardware manual), and the
 * few control-register accessors. Only kernel/arch/sh4 includes this.
 */
#ifndef ARCH_SH4_H
#define ARCH_SH4_H

#include <stdint.h>

#define P1_BASE 0x80000000u
#define P2_BASE 0xa0000000u

/* Status register. */
#define SR_MD    (1u << 30)
#define SR_RB    (1u << 29)
#define SR_BL    (1u << 28)
#define SR_FD    (1u << 15)
#define SR_IMASK (0xfu << 4)

/* Exception and MMU registers (P4). */
#define SH4_PTEH   0xff000000u   /* VPN (31..10), ASID (7..0) */
#define SH4_PTEL   0xff000004u   /* PPN (28..10), V, SZ, PR, C, D, SH, WT */
#define SH4_TTB    0xff000008u
#define SH4_TEA    0xff00000cu   /* the faulting address of a TLB exception */
#define SH4_MMUCR  0xff000010u
#define SH4_TRA    0xff000020u   /* trapa's immediate << 2 */
#define SH4_EXPEVT 0xff000024u
#define SH4_INTEVT 0xff000028u
#define SH4_PTEA   0xff000034u

#define MMUCR_AT        (1u << 0)
#define MMUCR_TI        (1u << 2)
#define MMUCR_SV        (1u << 8)
#define MMUCR_SQMD      (1u << 9)   /* store queues: privileged mode only */
#define MMUCR_URC_SHIFT 10
#define MMUCR_URB_SHIFT 18
#define MMUCR_URC_MASK  (0x3fu << MMUCR_URC_SHIFT)

/* PTEL bits. */
#define PTEL_WT (1u << 0)
#define PTEL_SH (1u << 1)
#define PTEL_D  (1u << 2)
#define PTEL_C  (1u << 3)
#define PTEL_SZ0 (1u << 4)           /* with SZ1 = 0: 4 KiB pages */
#define PTEL_PR_KRO (0u << 5)
#define PTEL_PR_KRW (1u << 5)
#define PTEL_PR_URO (2u << 5)        /* user and kernel read only */
#define PTEL_PR_URW (3u << 5)
#define PTEL_V  (1u << 8)

/* The UTLB's memory-mapped arrays: entry n at bits 13..8; bit 7 asks for
 * an associative write (the entry matching VPN and ASID). */
#define SH4_UTLB_ADDR 0xf6000000u
#define SH4_UTLB_DATA 0xf7000000u
#define SH4_ITLB_ADDR 0xf2000000u
#define SH4_UTLB_ENTRIES 64
#define SH4_ITLB_ENTRIES 4
#define UTLB_ASSOC (1u << 7)

/* Exception codes (EXPEVT) and interrupt codes (INTEVT). */
#define EXP_TLB_MISS_READ   0x040
#define EXP_TLB_MISS_WRITE  0x060
#define EXP_INITIAL_WRITE   0x080
#define EXP_TLB_PROT_READ   0x0a0
#define EXP_TLB_PROT_WRITE  0x0c0
#define EXP_ADDR_ERR_READ   0x0e0
#define EXP_ADDR_ERR_WRITE  0x100
#define EXP_TRAPA           0x160
#define EXP_ILLEGAL         0x180
#define EXP_SLOT_ILLEGAL    0x1a0
#define EXP_USER_BREAK      0x1e0
#define EXP_FPU_DISABLE     0x800
#define EXP_SLOT_FPU_DISABLE 0x820
#define INT_TMU0            0x400
#define INT_IRL_FIRST       0x200    /* IRL code n: 0x200 + 0x20 * n (irq.c) */
#define INT_IRL_LAST        0x3c0

/* Interrupt controller. */
#define SH4_ICR  0xffd00000u
#define SH4_IPRA 0xffd00004u

/* The r2d's FPGA interrupt controller (physical 0x04000000, through P2):
 * IRLMSK lets a source reach the IRL pins (irq.c). The lines (IRL codes)
 * of the sources the port's devices use. */
#define R2D_IRLMSK 0xa4000000u
#define R2D_LINE_PCI_INTD 0
#define R2D_LINE_CF_IDE   1
#define R2D_LINE_PCI_INTC 3
#define R2D_LINE_PCI_INTA 9
#define R2D_LINE_PCI_INTB 10

/* The PCI bridge (PCIC, P4): configuration address and data, the memory
 * window's PCI address, the I/O window's place (pci.c). */
#define SH4_PCIPAR  0xfe2001c0u
#define SH4_PCIMBR  0xfe2001c4u
#define SH4_PCIIOBR 0xfe2001c8u
#define SH4_PCIPDR  0xfe200220u
#define SH4_PCI_MEM_BASE 0x1d000000u   /* area 7's shadow of P4 0xfd000000 */
#define SH4_PCI_MEM_SIZE 0x01000000u

/* Timer unit, channel 0 (the scheduler clock) and 1 (free running). */
#define SH4_TOCR  0xffd80000u
#define SH4_TSTR  0xffd80004u
#define SH4_TCOR0 0xffd80008u
#define SH4_TCNT0 0xffd8000cu
#define SH4_TCR0  0xffd80010u
#define SH4_TCOR1 0xffd80014u
#define SH4_TCNT1 0xffd80018u
#define SH4_TCR1  0xffd8001cu
#define TCR_UNF   (1u << 8)
#define TCR_UNIE  (1u << 5)

/* SCIF (the r2d's console, QEMU's second serial port). */
#define SH4_SCIF_BASE 0xffe80000u
#define SCSMR2  (SH4_SCIF_BASE + 0x00)
#define SCBRR2  (SH4_SCIF_BASE + 0x04)
#define SCSCR2  (SH4_SCIF_BASE + 0x08)
#define SCFTDR2 (SH4_SCIF_BASE + 0x0c)
#define SCFSR2  (SH4_SCIF_BASE + 0x10)
#define SCFRDR2 (SH4_SCIF_BASE + 0x14)
#define SCFCR2  (SH4_SCIF_BASE + 0x18)
#define SCFDR2  (SH4_SCIF_BASE + 0x1c)
#define SCFSR_TEND (1u << 6)
#define SCFSR_TDFE (1u << 5)
#define SCSCR_TE   (1u << 5)
#define SCSCR_RE   (1u << 4)

/* The r2d's peripheral clock as QEMU models it (sh7750.c: 60 MHz); TMU
 * channels count it divided by 4. */
#define SH4_PERIPH_HZ 60000000u
#define SH4_TMU_HZ    (SH4_PERIPH_HZ / 4)

/* Always inlined, whatever SH4_OPT (mk/arch-sh4.mk) is: they are on the
 * TLB paths. */
#define SH4_INLINE static inline __attribute__((always_inline))

SH4_INLINE uint32_t mmio_read32(uint32_t a) { return *(volatile uint32_t *)(uintptr_t)a; }
SH4_INLINE uint16_t mmio_read16(uint32_t a) { return *(volatile uint16_t *)(uintptr_t)a; }
SH4_INLINE uint8_t mmio_read8(uint32_t a) { return *(volatile uint8_t *)(uintptr_t)a; }
SH4_INLINE void mmio_write32(uint32_t a, uint32_t v) { *(volatile uint32_t *)(uintptr_t)a = v; }
SH4_INLINE void mmio_write16(uint32_t a, uint16_t v) { *(volatile uint16_t *)(uintptr_t)a = v; }
SH4_INLINE void mmio_write8(uint32_t a, uint8_t v) { *(volatile uint8_t *)(uintptr_t)a = v; }

SH4_INLINE uint32_t sh4_get_sr(void)
{
	uint32_t sr;
	__asm__ volatile("stc sr, %0" : "=r"(sr));
	return sr;
}

SH4_INLINE void sh4_set_sr(uint32_t sr)
{
	__asm__ volatile("ldc %0, sr" :: "r"(sr) : "memory");
}

/* Loads PTEH/PTEL (and PTEA) into the UTLB entry MMUCR.URC names. */
SH4_INLINE void sh4_ldtlb(void)
{
	__asm__ volatile("ldtlb\n\tnop" ::: "memory");
}

/* The port's symbols of the user-copy routines (usercopy.S) and the kernel
 * stack the exception entry switches to from user mode (vectors.S). */
extern char sh4_usercopy_begin[], sh4_usercopy_end[], sh4_usercopy_fault[];
extern uint32_t sh4_kstack_top;

/* tlb.c */
struct arch_as;
extern uint32_t sh4_asid_gen;
extern unsigned sh4_tlb_reserved;
void sh4_tlb_init(unsigned reserved);
void sh4_tlb_set_asid(uint8_t asid);
uint8_t sh4_asid_of(struct arch_as *as);
void sh4_tlb_flush_page(uint8_t asid, uint32_t va);
void sh4_tlb_flush_all(void);
void sh4_tlb_load(int entry, uint32_t va, uint8_t asid, uint32_t ptel);
/* paging.c */
uint32_t sh4_ptel_of(uint32_t pa, unsigned prot);
/* ica.c */
unsigned sh4_ica_boot_option(void);
void sh4_ica_release_all(struct arch_as *as);
/* paging.c: the TLB-miss refill from the current address space. */
struct trapframe;
int sh4_tlb_refill(uint32_t va, int write, int user);
void sh4_timer_interrupt(void);
/* irq.c: the FPGA's lines; the line of an interrupt code, or -1. */
void sh4_irq_init(void);
int sh4_irq_line_of(uint32_t intevt);
/* pci.c: places BARs and interrupt lines before the portable scan. */
void sh4_pci_init(void);
/* cf.c: the CF slot as a legacy device, its ports from CF_PORT_BASE (the
 * PC's primary IDE numbering; the r2d has no port space of its own).
 * SH4_LEGACY_CF is its device number (vendor MYRMEX_DEV_VENDOR_LEGACY). */
#define CF_PORT_BASE  0x1f0u
#define SH4_LEGACY_CF 0x0002u
struct myrmex_pci_info;
struct device_ops;
void sh4_cf_describe(struct myrmex_pci_info *out, const struct device_ops **guard);

#endif
