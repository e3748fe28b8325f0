/*
 * SH-4 types and small inline helpers named by the architecture contract
 * (kernel/arch.h). The port runs on QEMU's r2d board (SH7751R): 32-bit
 * addresses, user space the 2 GiB U0 area translated by the software-filled
 * UTLB, the kernel in P1 (0x80000000 + physical, cached, untranslated),
 * which is the direct map. Only this port's files include <arch/sh4.h>.
 */
#ifndef ARCH_ARCH_TYPES_H
#define ARCH_ARCH_TYPES_H

#include <stdint.h>
#include <stdbool.h>

/* U0 is [0, 2 GiB); its last page stays unused so no user range ends at
 * the P1 boundary. */
#define ARCH_USER_TOP 0x7ffff000ull

/* Device interrupt lines: none delivered to drivers yet (docs/sh4.md). */
#define ARCH_IRQ_LINES 16

#define ARCH_NAME "sh4"

/* One CPU. */
#define ARCH_MAX_CPUS 1
static inline unsigned arch_cpu_id(void)
{
	return 0;
}

/* A user address space: a two-level table of the port's own format
 * (paging.c), its ASID and that ASID's generation (tlb.c). The reserved
 * UTLB entries of its ICAs are kept by ica.c, for all spaces at once. */
struct arch_as {
	uint32_t *dir;             /* 512 entries (va >> 22), P1 address; NULL: none */
	uint32_t asid_gen;         /* asid is valid while this equals tlb.c's generation */
	uint8_t asid;
	uint32_t table_pages, table_limit;
};

/*
 * Registers saved on kernel entry (vectors.S builds it with pre-decrement
 * pushes, from vector down to r[0]; the layout is shared with it).
 * r[0..7] are the user's bank-0 registers, r[15] the stack pointer before
 * the exception, spc/ssr the PC and SR to return to, event the EXPEVT or
 * INTEVT code, vector the VBR offset taken (0x100, 0x400, 0x600).
 */
struct trapframe {
	uint32_t r[16];
	uint32_t pr, gbr, mach, macl;
	uint32_t spc, ssr;
	uint32_t event, vector;
};
_Static_assert(sizeof(struct trapframe) == 24 * 4, "trapframe layout is shared with vectors.S");

struct arch_thread {
	uint32_t saved_sp;         /* kernel stack pointer while switched out */
	uint32_t kstack_top;
	struct trapframe *tf;      /* user registers, at the top of the kernel stack */
	uint32_t syscall_r0;       /* r0 at the last trapa: the fifth argument, which
	                            * the result overwrites; a restart puts it back */
};

#define SH4_SR_MD (1u << 30)

/* Linux's SH convention: number in r3, arguments in r4..r7, r0, r1, result in r0. */
static inline uint64_t arch_tf_syscall_nr(const struct trapframe *tf) { return tf->r[3]; }
static inline void arch_tf_set_return(struct trapframe *tf, uint64_t v) { tf->r[0] = (uint32_t)v; }

static inline uint64_t arch_tf_syscall_arg(const struct trapframe *tf, int index)
{
	static const unsigned char reg[6] = { 4, 5, 6, 7, 0, 1 };
	return tf->r[reg[index < 0 || index > 5 ? 5 : index]];
}

/* P1: all of physical memory below 512 MiB, cached, at 0x80000000. */
static inline void *arch_phys_to_virt(uint64_t pa) { return (void *)(uintptr_t)(0x80000000u | (uint32_t)pa); }
static inline uint64_t arch_tf_ip(const struct trapframe *tf) { return tf->spc; }
static inline bool arch_tf_from_user(const struct trapframe *tf) { return (tf->ssr & SH4_SR_MD) == 0; }

static inline void arch_cpu_relax(void)
{
}

#endif
