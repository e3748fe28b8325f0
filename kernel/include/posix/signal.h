/*
 * Linux signals (docs/posix.md, "Signals"): per-process dispositions, a
 * blocked mask per thread, pending sets per process (kill, SIGCHLD, SIGALRM)
 * and per thread (tkill, tgkill, faults), an alternate stack per thread.
 * Signals are delivered on the way back to user mode: a handler gets a
 * frame built by the architecture (arch_signal_setup), a default action
 * ends the process or drops the signal.
 *
 * Numbers, codes and the struct sigaction layout are Linux's; a signal set
 * is 64 bits, bit (sig - 1) for signal sig. The stop signals (SIGSTOP,
 * SIGTSTP, SIGTTIN, SIGTTOU) stop a process and SIGCONT continues it
 * (job control, kernel/posix/jobctl.c).
 *
 * Locking: the kernel lock (kernel/klock.h) guards dispositions, masks and
 * pending sets; the timer tick sends SIGALRM from interrupt context, which
 * holds it like any kernel entry.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <kernel/types.h>
#include <kernel/personality.h>
#include <kernel/sched.h>
#include <kernel/list.h>

struct process;
struct thread;

#define SIG_MAX 64

#define SIGHUP     1
#define SIGINT     2
#define SIGQUIT    3
#define SIGILL     4
#define SIGTRAP    5
#define SIGABRT    6
#define SIGBUS     7
#define SIGFPE     8
#define SIGKILL    9
#define SIGUSR1   10
#define SIGSEGV   11
#define SIGUSR2   12
#define SIGPIPE   13
#define SIGALRM   14
#define SIGTERM   15
#define SIGCHLD   17
#define SIGCONT   18
#define SIGSTOP   19
#define SIGTSTP   20
#define SIGTTIN   21
#define SIGTTOU   22
#define SIGURG    23
#define SIGXCPU   24
#define SIGXFSZ   25
#define SIGWINCH  28
#define SIGSYS    31

/* Dispositions (the handler word). */
#define SIG_DFL 0
#define SIG_IGN 1

/* sa_flags the kernel keeps (others are dropped, as Linux does). */
#define SA_NOCLDSTOP 0x00000001u
#define SA_NOCLDWAIT 0x00000002u
#define SA_SIGINFO   0x00000004u
#define SA_RESTORER  0x04000000u
#define SA_ONSTACK   0x08000000u
#define SA_RESTART   0x10000000u
#define SA_NODEFER   0x40000000u
#define SA_RESETHAND 0x80000000u
#define SA_KNOWN (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_RESTORER | SA_ONSTACK | \
                  SA_RESTART | SA_NODEFER | SA_RESETHAND)

/* si_code values. */
#define SI_USER      0
#define SI_KERNEL    0x80
#define SI_QUEUE     (-1)
#define SI_TKILL     (-6)
#define SEGV_MAPERR  1
#define SEGV_ACCERR  2
#define BUS_ADRERR   2
#define ILL_ILLOPN   2
#define FPE_INTDIV   1
#define FPE_FLTINV   7
#define TRAP_BRKPT   1
#define CLD_EXITED   1
#define CLD_KILLED   2
#define CLD_DUMPED   3
#define CLD_STOPPED  5
#define CLD_CONTINUED 6

/* sigaltstack flags and the smallest stack it accepts. */
#define SS_ONSTACK    1
#define SS_DISABLE    2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ   2048

static inline uint64_t sig_bit(int sig) { return 1ull << (sig - 1); }
#define SIG_UNBLOCKABLE (sig_bit(SIGKILL) | sig_bit(SIGSTOP))
#define SIG_STOP_SET (sig_bit(SIGSTOP) | sig_bit(SIGTSTP) | sig_bit(SIGTTIN) | sig_bit(SIGTTOU))

/* One disposition, as rt_sigaction gives it (in the port's struct
 * linux_sigaction, <arch/linux_abi.h>). */
struct sig_action {
	uptr_t handler;      /* SIG_DFL, SIG_IGN or the handler's address */
	uint64_t flags;      /* SA_* */
	uptr_t restorer;     /* return address of the handler (SA_RESTORER) */
	uint64_t mask;       /* blocked while the handler runs */
};

/* What a pending signal tells its handler (siginfo). Packed to 18 bytes:
 * a process keeps 64 of them beside its 64 dispositions and its
 * credentials in one slab page. Every si_code Linux makes fits 16 bits; a
 * sigqueue that claims one beyond is stored as SI_QUEUE (sys_sigwait.c). */
struct __attribute__((packed, aligned(2))) sig_info {
	int16_t code;        /* SI_USER, SI_TKILL, SI_QUEUE, SEGV_MAPERR, CLD_EXITED... */
	int32_t pid;         /* the sender (kill) or the child (SIGCHLD) */
	uint64_t value;      /* SIGCHLD: the child's status; faults: the address;
	                        sigqueue (a negative code): si_value */
	uint32_t uid;        /* the sender's uid, as the sender stated it */
};
_Static_assert(sizeof(struct sig_info) == 18, "struct sig_info is packed");

#define SIGRTMIN 32   /* the kernel's first real-time signal (musl's SIGRTMIN is 35) */
#define SIG_QUEUE_MAX 64   /* further instances of real-time signals per pending set */

/* A pending set: one instance of each standard signal, as Linux; a
 * real-time signal sent while pending queues its further instances, in
 * order, in `extra` (struct sig_queued, sigqueue.c), at most SIG_QUEUE_MAX
 * (then the newest is dropped). A zeroed set is empty (extra's NULL link
 * reads as an empty list). */
struct sig_pending {
	uint64_t set;
	struct sig_info info[SIG_MAX];
	struct list_node extra;
	uint32_t extra_count;
};

struct sig_altstack {
	uptr_t sp;           /* lowest address */
	uint64_t size;
	uint32_t flags;      /* SS_DISABLE when none; SS_AUTODISARM */
};

/* How a system call that returns -EINTR may be restarted (its number back
 * in the return register, its instruction run again) when no handler runs,
 * or when the handler has SA_RESTART (Linux's -ERESTARTSYS and
 * -ERESTARTNOHAND, which never reach user space here). */
enum sig_restart {
	SIG_RESTART_NONE,
	SIG_RESTART_SA,        /* restart unless a handler without SA_RESTART runs */
	SIG_RESTART_NOHAND,    /* restart only when no handler runs */
};

/* In struct process. */
struct sig_process {
	struct sig_action action[SIG_MAX];   /* index sig - 1 */
	struct sig_pending pending;          /* kill, SIGCHLD, SIGALRM */
	uint64_t itimer_deadline;            /* ITIMER_REAL: monotonic ns, 0 = disarmed */
	uint64_t itimer_interval;            /* ns, 0 = one shot */
	/* Job control (jobctl.c). Invariant: while stopped, no thread of the
	 * process returns to user mode; each parks on `continued` on its way
	 * there, and pending signals wake none of them (SIGKILL still does,
	 * through proc_kill). */
	bool stopped;
	uint8_t stop_sig;                    /* the signal that stopped it */
	uint8_t wait_report;                 /* JOB_REPORT_*: news for the parent's wait4 */
	struct waitq continued;              /* threads parked while stopped */
};

/* In struct thread. */
struct sig_thread {
	uint64_t blocked;
	uint64_t saved_mask;         /* the mask to restore after sigsuspend */
	bool restore_mask;           /* saved_mask is valid */
	uint8_t restart;             /* enum sig_restart, for the current system call */
	struct sig_altstack altstack;
	struct sig_pending pending;  /* tkill, tgkill, faults */
	/* The set rt_sigtimedwait waits for (0: none). A signal of it that the
	 * thread blocks is queued and wakes the thread whatever its action
	 * (sigwait takes it), as Linux does for a blocked signal. */
	uint64_t waiting;
};

/* ---- State across process and thread creation ---- */
/* A new process made by fork: the parent's dispositions, nothing pending, no
 * interval timer. */
void signal_fork_copy(struct process *child, const struct process *parent);
/* The thread of a forked child: the forking thread's blocked mask and
 * alternate stack, nothing pending. */
void signal_thread_fork(struct thread *child, const struct thread *parent);
/* A new thread of the same process (clone): the creator's blocked mask, no
 * alternate stack, nothing pending. */
void signal_thread_clone(struct thread *child, const struct thread *parent);
/* execve: handled signals back to default (ignored ones stay ignored), flags
 * and masks cleared, no alternate stack. The blocked mask, pending signals
 * and the interval timer stay, as POSIX says. */
void signal_exec_reset(struct process *p);
/* The process ends: its interval timer stops. */
void signal_process_exit(struct process *p);

/* ---- Sending ---- */
/* Sends sig (1..SIG_MAX) to process p, or to thread t only. A default
 * action that ends the process kills it at once (unless every candidate
 * thread blocks the signal); an ignored one is dropped; a handled one is
 * queued and a thread that does not block it is interrupted if it waits. */
void signal_send_process(struct process *p, int sig, const struct sig_info *info);
void signal_send_thread(struct thread *t, int sig, const struct sig_info *info);
/* Whether p has a handler for sig. Init (pid 1) receives only the signals
 * it handles; the others are dropped (faults still kill it). */
bool signal_has_handler(const struct process *p, int sig);
/* Whether sig would be dropped by p (SIG_IGN, or a default of ignore). */
bool signal_ignored(const struct process *p, int sig);
/* A user-mode fault of the current thread: with a handler the signal is
 * queued for it; otherwise (no handler, or the signal blocked) the process
 * dies, with the one-line kernel message naming cause at msg_addr and ip. */
void signal_fault(int sig, int code, uptr_t si_addr, const char *cause, uptr_t msg_addr,
                  uptr_t ip);
/* personality_child_exit (kernel/personality.h) is signal.c's: SIGCHLD
 * unless ignored; true when the parent keeps no zombies (SIGCHLD ignored,
 * or SA_NOCLDWAIT). */
/* The Linux wait status of a death by sig. */
int signal_kill_status(int sig);

/* ---- Waiting and the way out ---- */
/* personality_interrupts (kernel/personality.h) is signal.c's: a pending
 * signal interrupts t's wait when it is unblocked, and handled or fatal;
 * never in an uninterruptible wait (t->only_death_wakes). */
/* Whether any signal t does not block is pending (sigsuspend, pause). */
bool signal_unblocked_pending(const struct thread *t);
/* For a system call about to return -EINTR: how it may be restarted.
 * Returns -EINTR. */
long signal_eintr(enum sig_restart how);
/* personality_return_to_user (kernel/personality.h) is
 * signal_deliver.c's: delivers the current thread's deliverable signals,
 * restarts or finishes an interrupted system call; may end the thread (a
 * fatal signal, a bad stack). */
/* Takes off t's pending sets (the thread's first, then the process's) the
 * lowest signal of `set`, with its information; 0 when none is pending. */
int signal_dequeue_from(struct thread *t, uint64_t set, struct sig_info *info);
/* ---- Real-time signals queued (kernel/posix/sigqueue.c) ---- */
/* Queues another instance of real-time signal sig (pending in q already). */
void sigq_push(struct sig_pending *q, int sig, const struct sig_info *info);
/* Sig was taken off q: its next queued instance, if any, becomes the
 * pending one (q->info, the bit set again). */
void sigq_next(struct sig_pending *q, int sig);
/* Drops q's queued instances of sig (0: of every signal). */
void sigq_drop(struct sig_pending *q, int sig);
/* Changes the current thread's blocked mask (SIGKILL and SIGSTOP stay
 * unblocked); signals it blocks now may go to another thread. */
void signal_set_blocked(struct thread *t, uint64_t mask);

/* ---- Job control (kernel/posix/jobctl.c) ---- */
/* What a stopped or continued process has not yet told its parent's wait4
 * (struct sig_process.wait_report); each is reported once. */
#define JOB_REPORT_STOPPED   1
#define JOB_REPORT_CONTINUED 2
/* Linux's wait4 options that ask for them (personality_wait_event). */
#define JOB_WUNTRACED  0x00000002u
#define JOB_WCONTINUED 0x00000008u
/* Sets up p's job-control state (a new process is not stopped). */
void job_init(struct process *p);
/* Whether sig's action in p is the default stop. */
bool signal_stops(const struct process *p, int sig);
/* A signal is about to be sent to p (before its fate is decided): SIGCONT
 * continues p and discards its pending stop signals; a stop signal
 * discards a pending SIGCONT. */
void job_signal_sent(struct process *p, int sig);
/* Stops p for sig: its threads park on their way to user mode; the
 * parent's wait4 hears of it (WUNTRACED) and it gets SIGCHLD (CLD_STOPPED)
 * unless its SIGCHLD action has SA_NOCLDSTOP. Nothing if p is stopped, or
 * for a stop signal other than SIGSTOP when p's group is orphaned. */
void job_stop(struct process *p, int sig);
/* p is ending (its children not yet given to init): a process group its
 * end orphans that has a stopped member gets SIGHUP and SIGCONT. */
void job_process_exit(struct process *p);
/* The current thread, on its way to user mode: waits while its process is
 * stopped; leaves (thread_exit) if the process is killed meanwhile. */
void job_park(struct thread *t);
/* personality_wait_event (kernel/personality.h) is jobctl.c's. */

/* ---- The alternate stack ---- */
/* sigaltstack's rules for a new stack while the user stack pointer is sp:
 * 0, -EPERM (running on the current alternate stack), -EINVAL, -ENOMEM. */
int signal_altstack_set(struct thread *t, const struct sig_altstack *ss, uptr_t sp);
/* The alternate stack as sigaltstack reports it (SS_ONSTACK when sp is on it). */
struct sig_altstack signal_altstack_get(const struct thread *t, uptr_t sp);

/* ---- The architecture's part (kernel/arch/<arch>/signal.c) ---- */
struct sig_frame {
	int sig;
	struct sig_info info;
	const struct sig_action *action;
	uint64_t saved_mask;          /* restored by rt_sigreturn */
	uptr_t stack_top;             /* the alternate stack's top, or 0: the user stack */
	struct sig_altstack altstack; /* saved in the frame (uc_stack) */
};
struct sig_restored {
	uint64_t mask;
	struct sig_altstack altstack;
	uint64_t retval;              /* the restored return-value register */
};
/* The architecture builds and checks the frames: arch_signal_setup,
 * arch_signal_return, arch_signal_user_sp and arch_signal_restart_syscall
 * in kernel/arch.h. */

#endif
