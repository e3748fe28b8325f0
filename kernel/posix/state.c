/*
 * The personality's side of kernel/personality.h that is not a system call:
 * its state in every thread and process, loading boot modules, the ends of
 * threads and processes, and user faults turned into signals. The hooks on
 * the hot paths live beside what they run: personality_return_to_user in
 * signal_deliver.c, personality_interrupts and personality_child_exit in
 * signal.c, personality_tick in itimer.c, personality_thread_gone in exec.c,
 * the system-call table in the port (kernel/arch/<arch>/posix/).
 */
#include <kernel/personality.h>
#include <kernel/errno.h>
#include <kernel/kmem.h>
#include <kernel/time.h>
#include <kernel/proc.h>
#include <posix/fmap.h>
#include <posix/forward.h>
#include <posix/loader.h>
#include <posix/pm.h>
#include <posix/posix.h>
#include <posix/signal.h>
#include <posix/vdso.h>

static struct kmem_cache thread_state_cache =
	KMEM_CACHE_INIT(thread_state_cache, "posix_thread", struct posix_thread);
static struct kmem_cache process_state_cache =
	KMEM_CACHE_INIT(process_state_cache, "posix_process", struct posix_process);
/* kmem objects fit one page with its slab header (kernel/core/kmem.c); the
 * per-descriptor hint bits are what makes this struct large. */
_Static_assert(sizeof(struct posix_process) <= PAGE_SIZE - 64, "struct posix_process in a slab page");

void personality_init(void)
{
	vdso_init();
}

int personality_process_init(struct process *p, struct process *parent)
{
	(void)parent;   /* a spawned program inherits nothing of the personality's */
	p->px = kmem_alloc(&process_state_cache);   /* zeroed: default dispositions */
	if (!p->px)
		return -ENOMEM;
	p->px->umask = 022;
	job_init(p);
	p->px->start_ns = time_monotonic_ns();
	return 0;
}

void personality_process_free(struct process *p)
{
	if (p->px) {
		sigq_drop(&p->px->sig.pending, 0);
		kmem_free(&process_state_cache, p->px);
	}
	p->px = NULL;
}

int personality_thread_init(struct thread *t, const struct thread *creator)
{
	t->px = kmem_alloc(&thread_state_cache);   /* zeroed: nothing blocked or pending */
	if (!t->px)
		return -ENOMEM;
	if (creator)
		signal_thread_clone(t, creator);
	return 0;
}

void personality_thread_free(struct thread *t)
{
	if (t->px) {
		sigq_drop(&t->px->sig.pending, 0);
		kmem_free(&thread_state_cache, t->px);
	}
	t->px = NULL;
}

int personality_load_module(struct vm_space *vm, const struct boot_module *m,
                            const char *const *argv, int argc,
                            const char *const *envp, int envc, bool posix,
                            uptr_t *entry, uptr_t *sp)
{
	struct program_args args = { argv, argc, envp, envc, posix, 0, 0, 0, 0, false };   /* root */
	return loader_load(vm, m, &args, entry, sp);
}

void personality_thread_exit(struct thread *t)
{
	forward_thread_exit(t);
}

void personality_process_exit(struct process *p)
{
	forward_process_exit(p);      /* the file manager closes p's descriptors */
	fmap_process_exit(p);         /* ... and lets go of p's file mappings */
	proc_fork_process_exit(p);    /* a process manager's unstarted children go */
	signal_process_exit(p);
	job_process_exit(p);          /* groups it orphans are told (SIGHUP) */
	vdso_process_exit(p);         /* a time server's clock leaves the vDSO */
}

void personality_user_fault(enum user_fault kind, uptr_t addr, const char *cause, uptr_t ip)
{
	/* The signal and si_code Linux gives; si_addr is addr, except for the
	 * faults whose address is unknown (Linux's SI_KERNEL, si_addr 0). */
	int sig = SIGSEGV, code = SI_KERNEL;
	uptr_t si_addr = addr;
	switch (kind) {
	case USER_FAULT_UNMAPPED:   code = SEGV_MAPERR; break;
	case USER_FAULT_PROTECTION: code = SEGV_ACCERR; break;
	case USER_FAULT_BUS:
	case USER_FAULT_ALIGNMENT:  sig = SIGBUS; code = BUS_ADRERR; break;
	case USER_FAULT_SEGMENT:    sig = SIGBUS; si_addr = 0; break;
	case USER_FAULT_ILLEGAL:    sig = SIGILL; code = ILL_ILLOPN; break;
	case USER_FAULT_DIVIDE:     sig = SIGFPE; code = FPE_INTDIV; break;
	case USER_FAULT_FLOAT:      sig = SIGFPE; code = FPE_FLTINV; break;
	case USER_FAULT_BREAKPOINT: sig = SIGTRAP; code = TRAP_BRKPT; break;
	case USER_FAULT_GENERAL:    si_addr = 0; break;
	}
	signal_fault(sig, code, si_addr, cause, addr, ip);
}
