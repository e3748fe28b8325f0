/*
 * Trap dispatch (vectors.S calls sh4_trap_dispatch with the trapframe):
 * trapa is a system call; a TLB miss is refilled from the page tables or
 * becomes a page fault (demand paging, or the offender's death); the TMU
 * interrupt is the scheduler's tick, an IRL interrupt a device's message
 * (irq.c). A fault in kernel mode is a panic,
 * except in the user-copy routine, where an unresolved fault makes the
 * copy return -EFAULT. An interrupted gUSA atomic sequence restarts.
 */
#include <kernel/arch.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/klock.h>
#include <kernel/panic.h>
#include <kernel/personality.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <kernel/syscall.h>
#include <kernel/vm.h>
#include <arch/sh4.h>

void sh4_trap_dispatch(struct trapframe *tf);

_Static_assert(__builtin_offsetof(struct myrmex_kstats, tlb_misses) == 30 * 8,
               "vectors.S's TLB_MISSES_OFFSET");

static bool is_tlb_event(uint32_t ev)
{
	return ev == EXP_TLB_MISS_READ || ev == EXP_TLB_MISS_WRITE || ev == EXP_INITIAL_WRITE ||
	       ev == EXP_TLB_PROT_READ || ev == EXP_TLB_PROT_WRITE;
}

static bool in_usercopy(const struct trapframe *tf)
{
	return tf->spc >= (uint32_t)(uintptr_t)sh4_usercopy_begin &&
	       tf->spc < (uint32_t)(uintptr_t)sh4_usercopy_end;
}

/* A TLB miss or protection violation at va; the kernel lock is held. */
static void memory_fault(struct trapframe *tf, uint32_t va)
{
	bool write = tf->event == EXP_TLB_MISS_WRITE || tf->event == EXP_TLB_PROT_WRITE ||
	             tf->event == EXP_INITIAL_WRITE;
	bool prot = tf->event == EXP_TLB_PROT_READ || tf->event == EXP_TLB_PROT_WRITE;
	unsigned access = write ? VM_ACCESS_WRITE : VM_ACCESS_READ;
	struct thread *t = current_thread();
	struct process *p = t ? t->proc : NULL;
	STAT_INC(page_faults);

	if (arch_tf_from_user(tf)) {
		int err = vm_fault(&p->vm, va, access);
		if (err == 0 || err == -EINTR)
			return;
		char cause[64];
		if (err == -ENXIO || err == -EIO || err == -ENOMEM) {
			ksnprintf(cause, sizeof(cause), "bus error (file page %s)",
			          err == -ENXIO ? "past the end of the file" : "not available");
			personality_user_fault(USER_FAULT_BUS, va, cause, tf->spc);
			return;
		}
		ksnprintf(cause, sizeof(cause), "page fault (%s, %s)", write ? "write" : "read",
		          prot ? "protection" : "not mapped");
		personality_user_fault(vm_is_mapped(&p->vm, va) ? USER_FAULT_PROTECTION
		                                                : USER_FAULT_UNMAPPED,
		                       va, cause, tf->spc);
		return;
	}
	if (in_usercopy(tf) && p && va < ARCH_USER_TOP) {
		if (vm_fault(&p->vm, va, access) != 0)
			tf->spc = (uint32_t)(uintptr_t)sh4_usercopy_fault;
		return;
	}
	panic_trap(tf, "TLB exception %#x in kernel mode at %#x", tf->event, va);
}

static enum user_fault exception_kind(uint32_t ev)
{
	switch (ev) {
	case EXP_ILLEGAL: case EXP_SLOT_ILLEGAL: case EXP_FPU_DISABLE: case EXP_SLOT_FPU_DISABLE:
		return USER_FAULT_ILLEGAL;
	case EXP_ADDR_ERR_READ: case EXP_ADDR_ERR_WRITE:
		return USER_FAULT_SEGMENT;
	case EXP_USER_BREAK:
		return USER_FAULT_BREAKPOINT;
	default:
		return USER_FAULT_GENERAL;
	}
}

static void exception(struct trapframe *tf)
{
	if (!arch_tf_from_user(tf)) {
		if ((tf->event == EXP_ADDR_ERR_READ || tf->event == EXP_ADDR_ERR_WRITE) && in_usercopy(tf)) {
			tf->spc = (uint32_t)(uintptr_t)sh4_usercopy_fault;
			return;
		}
		panic_trap(tf, "exception %#x in kernel mode (TEA %#x)", tf->event,
		           mmio_read32(SH4_TEA));
	}
	const char *name = tf->event == EXP_ADDR_ERR_READ || tf->event == EXP_ADDR_ERR_WRITE
	                   ? "address error" : "illegal instruction";
	uptr_t addr = tf->event == EXP_ADDR_ERR_READ || tf->event == EXP_ADDR_ERR_WRITE
	              ? mmio_read32(SH4_TEA) : tf->spc;
	personality_user_fault(exception_kind(tf->event), addr, name, tf->spc);
}

/*
 * gUSA, the atomic sequences of musl and of GCC's -m4-nofpu code (SH-4 has
 * no LL/SC): a sequence puts its end in r0, the stack pointer in r1 and
 * minus its length in r15 (the mark), then loads, computes and stores, the
 * store last. Interrupted inside, it must start again at the instruction
 * that sets the mark (2 bytes before the sequence), with r15 back, or a
 * thread that ran meanwhile may have its update lost. A mark is at least
 * 0xc0000000: no user stack is there.
 */
static void gusa_rollback(struct trapframe *tf)
{
	uint32_t mark = tf->r[15], end = tf->r[0];
	if (mark < 0xc0000000u)
		return;
	uint32_t start = end + mark;
	if (tf->spc < start || tf->spc >= end)
		return;
	tf->spc = start - 2;
	tf->r[15] = tf->r[1];
}

void sh4_trap_dispatch(struct trapframe *tf)
{
	if (tf->vector == 0x100 && tf->event == EXP_TRAPA) {
		current_thread()->arch.syscall_r0 = tf->r[0];
		syscall_dispatch(tf);
		return;
	}
	if (arch_tf_from_user(tf))
		gusa_rollback(tf);
	if (tf->vector == 0x400) {
		/* vectors.S counted the miss (kstats.tlb_misses) and found no
		 * entry it could load at once; try again in C (tlb_fast=off). */
		uint32_t va = mmio_read32(SH4_TEA);
		if (sh4_tlb_refill(va, tf->event == EXP_TLB_MISS_WRITE, arch_tf_from_user(tf)) == 0)
			return;
	}
	/* Held already only in a fault of a user copy inside a system call. */
	bool entered = !kernel_lock_held();
	if (entered)
		kernel_lock_take();
	if (tf->vector == 0x600) {
		STAT_INC(interrupts);
		int line = sh4_irq_line_of(tf->event);
		if (tf->event == INT_TMU0)
			sh4_timer_interrupt();
		else if (line >= 0)
			device_interrupt((unsigned)line);   /* masks the line until the owner's ack */
		else
			printk("trap: unexpected interrupt %#x\n", tf->event);
	} else if (is_tlb_event(tf->event)) {
		memory_fault(tf, mmio_read32(SH4_TEA));
	} else {
		exception(tf);
	}
	if (arch_tf_from_user(tf))
		sched_return_to_user();
	if (entered)
		kernel_lock_give();
}
