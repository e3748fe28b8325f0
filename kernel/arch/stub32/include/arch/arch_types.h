/*
 * The stub port's types (kernel/arch.h): a 32-bit CPU with 32-bit pointers
 * and a 3 GiB user space. The stub runs nothing; it exists so that the
 * portable kernel is compiled and linked for 32 bits by `make port-check`,
 * which proves that kernel/core and kernel/posix make no 64-bit assumption
 * and that every function of the contract is provided.
 */
#ifndef ARCH_ARCH_TYPES_H
#define ARCH_ARCH_TYPES_H

#include <stdint.h>
#include <stdbool.h>

#define ARCH_USER_TOP 0xbffff000ull
#define ARCH_IRQ_LINES 16

/* The CPU's name, for the boot banner. */
#define ARCH_NAME "stub32"

/* One CPU (kernel/arch.h). */
#define ARCH_MAX_CPUS 1
static inline unsigned arch_cpu_id(void)
{
	return 0;
}

struct arch_as {
	uint32_t page_directory;   /* physical address of the top table */
	uint32_t table_pages, table_limit;
};

/* Registers by role, as a 32-bit CPU would save them. */
struct trapframe {
	uint32_t nr, args[6], ret;
	uint32_t ip, sp, fp;
	uint32_t user;             /* nonzero: entered from user mode */
};

struct arch_thread {
	uint32_t saved_sp;
	uint32_t tls;
	struct trapframe *tf;
};

static inline uint64_t arch_tf_syscall_nr(const struct trapframe *tf) { return tf->nr; }
static inline void arch_tf_set_return(struct trapframe *tf, uint64_t v) { tf->ret = (uint32_t)v; }

/* All RAM is mapped at this offset (stub.c's DIRECT_MAP). */
static inline void *arch_phys_to_virt(uint64_t pa) { return (void *)(uintptr_t)(0xc0000000u + (uint32_t)pa); }
static inline uint64_t arch_tf_ip(const struct trapframe *tf) { return tf->ip; }
static inline bool arch_tf_from_user(const struct trapframe *tf) { return tf->user != 0; }

static inline uint64_t arch_tf_syscall_arg(const struct trapframe *tf, int index)
{
	return tf->args[index < 0 || index > 5 ? 5 : index];
}

static inline void arch_cpu_relax(void)
{
}

#endif
