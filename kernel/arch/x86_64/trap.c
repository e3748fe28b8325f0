/*
 * Trap dispatch: exceptions, the timer interrupt and spurious interrupts.
 * A fault in user mode raises the signal Linux would send in the faulting
 * thread (a handler runs, or only that process dies); a fault in kernel
 * mode is a panic, except a page fault inside the user-copy routines, which
 * either is resolved (demand paging) or makes the copy fail with -EFAULT.
 */
#include <kernel/cputime_edges.h>
#include <kernel/arch.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/klock.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/personality.h>
#include <kernel/stats.h>
#include <kernel/vm.h>
#include <arch/x86.h>


#define PF_PRESENT 1u
#define PF_WRITE   2u
#define PF_USER    4u
#define PF_FETCH   16u

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range",
	"invalid opcode", "device not available", "double fault", "coprocessor overrun",
	"invalid TSS", "segment not present", "stack fault", "general protection fault",
	"page fault", "reserved", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error", "virtualization", "control protection",
};

/* What the personality is told of a CPU exception in user mode. */
static enum user_fault exception_kind(uint64_t vector)
{
	switch (vector) {
	case 0: return USER_FAULT_DIVIDE;
	case 16: case 19: return USER_FAULT_FLOAT;
	case 1: case 3: return USER_FAULT_BREAKPOINT;
	case 6: return USER_FAULT_ILLEGAL;
	case 12: return USER_FAULT_SEGMENT;
	case 17: return USER_FAULT_ALIGNMENT;
	default: return USER_FAULT_GENERAL;
	}
}

static void page_fault(struct trapframe *tf)
{
	uint64_t addr = read_cr2();
	unsigned access = (tf->error & PF_WRITE) ? VM_ACCESS_WRITE
	                : (tf->error & PF_FETCH) ? VM_ACCESS_EXEC : VM_ACCESS_READ;
	struct thread *t = current_thread();
	struct process *p = t ? t->proc : NULL;
	STAT_INC(page_faults);

	if (arch_tf_from_user(tf)) {
		int err = vm_fault(&p->vm, addr, access);
		if (err == 0 || err == -EINTR)   /* -EINTR: dying, on the way out */
			return;
		char cause[64];
		if (err == -ENXIO || err == -EIO || err == -ENOMEM) {
			/* A file page past the end, revoked, or unreadable, or no
			 * memory left for a page of a noreserve region (a stack):
			 * SIGBUS. */
			ksnprintf(cause, sizeof(cause), "bus error (%s)",
			          err == -ENXIO ? "file page past the end of the file"
			          : err == -EIO ? "file page not available" : "out of memory");
			personality_user_fault(USER_FAULT_BUS, addr, cause, tf->rip);
			return;
		}
		ksnprintf(cause, sizeof(cause), "page fault (%s, %s)",
		          access == VM_ACCESS_WRITE ? "write" : access == VM_ACCESS_EXEC ? "exec" : "read",
		          (tf->error & PF_PRESENT) ? "protection" : "not mapped");
		personality_user_fault(vm_is_mapped(&p->vm, addr) ? USER_FAULT_PROTECTION
		                                                   : USER_FAULT_UNMAPPED,
		                       addr, cause, tf->rip);
		return;
	}
	bool in_usercopy = tf->rip >= (uint64_t)usercopy_begin && tf->rip < (uint64_t)usercopy_end;
	if (in_usercopy && p && addr < ARCH_USER_TOP) {
		if (vm_fault(&p->vm, addr, access) != 0)
			tf->rip = (uint64_t)usercopy_fault;
		return;
	}
	panic_trap(tf, "page fault in kernel mode at %#lx (error %#lx)", addr, tf->error);
}

static void exception(struct trapframe *tf)
{
	const char *name = tf->vector < 32 && exception_names[tf->vector]
	                   ? exception_names[tf->vector] : "exception";
	if (!arch_tf_from_user(tf))
		panic_trap(tf, "%s (vector %lu, error %#lx) in kernel mode", name, tf->vector, tf->error);
	/* The address that explains the fault: the faulting instruction. */
	personality_user_fault(exception_kind(tf->vector), tf->rip, name, tf->rip);
}

void trap_dispatch(struct trapframe *tf)
{
	/* Held already only in a fault of a user copy inside a system call. */
	bool entered = !kernel_lock_held();
	if (entered)
		kernel_lock_take();
	if (arch_tf_from_user(tf))
		cputime_from_user(current_thread());
	if (tf->vector == 14) {
		page_fault(tf);
	} else if (tf->vector < 32) {
		exception(tf);
	} else if (tf->vector == VEC_TIMER) {
		STAT_INC(interrupts);
		STAT_INC(timer_ticks);
		lapic_eoi();
		sched_tick();
	} else if (tf->vector >= VEC_IRQ_BASE && tf->vector < VEC_IRQ_BASE + ARCH_IRQ_LINES) {
		STAT_INC(interrupts);
		device_interrupt((unsigned)(tf->vector - VEC_IRQ_BASE));
		lapic_eoi();
	} else if (tf->vector == VEC_SPURIOUS ||
	           (tf->vector >= VEC_PIC_BASE && tf->vector < VEC_PIC_BASE + 16)) {
		/* Spurious: no end-of-interrupt. */
	} else {
		STAT_INC(interrupts);
		lapic_eoi();
		printk("trap: unexpected vector %lu\n", tf->vector);
	}
	if (arch_tf_from_user(tf))
		sched_return_to_user();
	if (entered)
		kernel_lock_give();
}

/* ---- Trapframe accessors (the contract's registers by role) ---- */

uint64_t arch_tf_frame_pointer(const struct trapframe *tf) { return tf->rbp; }

void arch_tf_dump(const struct trapframe *tf)
{
	printk("rip=%016lx cs=%04lx rflags=%08lx rsp=%016lx ss=%04lx\n",
	       tf->rip, tf->cs, tf->rflags, tf->rsp, tf->ss);
	printk("rax=%016lx rbx=%016lx rcx=%016lx rdx=%016lx\n", tf->rax, tf->rbx, tf->rcx, tf->rdx);
	printk("rsi=%016lx rdi=%016lx rbp=%016lx r8 =%016lx\n", tf->rsi, tf->rdi, tf->rbp, tf->r8);
	printk("r9 =%016lx r10=%016lx r11=%016lx r12=%016lx\n", tf->r9, tf->r10, tf->r11, tf->r12);
	printk("r13=%016lx r14=%016lx r15=%016lx\n", tf->r13, tf->r14, tf->r15);
	printk("vector=%lu error=%#lx cr2=%016lx cr3=%016lx\n", tf->vector, tf->error,
	       read_cr2(), read_cr3());
}

void arch_backtrace(uint64_t fp, void (*visit)(uint64_t ip))
{
	if (fp == 0)
		fp = (uint64_t)__builtin_frame_address(0);
	for (int depth = 0; depth < 32; depth++) {
		/* Follow only frames inside the kernel's address range. */
		if (fp < DIRECT_MAP || (fp & 7))
			break;
		uint64_t *frame = (uint64_t *)fp;
		uint64_t ip = frame[1];
		if (ip < KERNEL_VMA)
			break;
		visit(ip);
		fp = frame[0];
	}
}
