/*
 * x86-64 types and small inline helpers named by the architecture contract
 * (kernel/arch.h). Only this port's files include <arch/x86.h>; portable code
 * sees this header through kernel/arch.h.
 */
#ifndef ARCH_ARCH_TYPES_H
#define ARCH_ARCH_TYPES_H

#include <stdint.h>
#include <stdbool.h>

/* User space is the lower canonical half, minus its last page (so that no
 * user range ends at the non-canonical boundary). */
#define ARCH_USER_TOP 0x00007ffffffff000ull

/* Device interrupt lines: the I/O APIC's inputs. */
#define ARCH_IRQ_LINES 24

/* The CPU's name, for the boot banner. */
#define ARCH_NAME "x86-64"

/* CPUs the port brings up (kernel/arch.h): the boot CPU only, for now. */
#define ARCH_MAX_CPUS 1

/* The calling CPU's index. With one CPU it is a constant, so the core's
 * per-CPU arrays cost nothing over plain variables; the SMP step reads it
 * from a per-CPU word. */
static inline unsigned arch_cpu_id(void)
{
	return 0;
}

/* The time-stamp counter, inline (kernel/arch.h: arch_read_tsc). */
#define ARCH_READ_TSC_INLINE 1
static inline uint64_t arch_read_tsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* A user address space: its top-level table and its PCID. */
/* Leaf page tables of the ICA window remembered per address space, by 2 MiB
 * region, direct-mapped (paging.c: ICA attach and detach). */
#define ARCH_ICA_TABLE_CACHE 16

struct arch_as {
	uint64_t pml4;          /* physical address of the PML4 */
	uint16_t pcid;          /* 0 when PCIDs are not in use */
	bool needs_flush;       /* stale TLB entries may exist for this PCID */
	uint64_t table_pages;   /* page-table pages held, PML4 included */
	uint64_t table_limit;
	/* ica_tables[r % N] maps ICA-window region ica_region[r % N] (NULL: none
	 * remembered). Page tables live as long as the address space, so a
	 * remembered one stays valid. */
	uint64_t *ica_tables[ARCH_ICA_TABLE_CACHE];
	uint32_t ica_region[ARCH_ICA_TABLE_CACHE];
};

/* Registers saved on kernel entry (interrupt, exception or system call).
 * The order matches the pushes in entry.S. */
struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;   /* pushed by the CPU (or by syscall_entry) */
};
_Static_assert(sizeof(struct trapframe) == 22 * 8, "trapframe layout is shared with entry.S");

struct arch_thread {
	uint64_t saved_rsp;        /* kernel stack pointer while switched out */
	uint64_t kstack_top;
	uint64_t fs_base;          /* the user thread pointer */
	struct trapframe *tf;      /* user registers, at the top of the kernel stack */
	uint8_t fpu[512] __attribute__((aligned(16)));   /* FXSAVE area */
};

/* Trapframe accessors: the contract's registers by role (kernel/arch.h). */
static inline uint64_t arch_tf_syscall_nr(const struct trapframe *tf) { return tf->rax; }
static inline void arch_tf_set_return(struct trapframe *tf, uint64_t v) { tf->rax = v; }

/* All RAM is mapped at this offset (arch/x86.h's DIRECT_MAP). */
static inline void *arch_phys_to_virt(uint64_t pa) { return (void *)(0xffff800000000000ull + pa); }
static inline uint64_t arch_tf_ip(const struct trapframe *tf) { return tf->rip; }
static inline bool arch_tf_from_user(const struct trapframe *tf) { return (tf->cs & 3) == 3; }

static inline uint64_t arch_tf_syscall_arg(const struct trapframe *tf, int index)
{
	switch (index) {
	case 0: return tf->rdi;
	case 1: return tf->rsi;
	case 2: return tf->rdx;
	case 3: return tf->r10;
	case 4: return tf->r8;
	default: return tf->r9;
	}
}

static inline void arch_cpu_relax(void)
{
	__asm__ volatile("pause");
}

#endif
