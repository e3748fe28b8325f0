/*
 * Processes and threads. A process owns an address space and its threads; a
 * thread is what the scheduler runs. Threads and processes share one id
 * space: a process's pid is the tid of its first thread, as on Linux.
 *
 * Locking (kernel/klock.h): every field below is guarded by the kernel
 * lock, which a CPU holds whenever it runs kernel code, except those marked
 * [self] (touched only by the thread itself, or before it first runs) and
 * [arch] (the port's, saved and restored by the context switch). The tags in
 * brackets name the finer lock each group moves to when the kernel lock is
 * split (docs/architecture.md, "Locks"): [sched] the scheduler's lock,
 * [proc] the process table's, [ipc] the communication mechanism's, [ica]
 * the ICA table's, [vm] the address space's own, [dev] the device table's.
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include <kernel/types.h>
#include <kernel/cputime.h>
#include <kernel/list.h>
#include <kernel/vm.h>
#include <kernel/sched.h>
#include <kernel/arch.h>
#include <myrmex/rights.h>

#define PROC_NAME_MAX        32
#define PROC_MAX             1024   /* processes in the system */
#define PROC_MAX_THREADS     32     /* threads per process */
#define KSTACK_PAGES         4      /* kernel stack per thread */

/* THREAD_UNSTARTED: the thread of a child made by proc_fork, on no queue
 * until proc_start (posix/pm.h); nothing wakes it. */
enum thread_state { THREAD_RUNNABLE, THREAD_RUNNING, THREAD_BLOCKED, THREAD_DEAD,
                    THREAD_UNSTARTED };

struct process;
struct device;

/* The native IPC call a thread is in, for the fast path (struct thread). */
enum ipc_resume { IPC_RESUME_NONE, IPC_RESUME_CALL, IPC_RESUME_GET };

struct thread {
	/* Fixed at creation. */
	int tid;
	struct process *proc;          /* NULL for the idle thread */
	void *kstack;                  /* KSTACK_PAGES pages, through the direct map */
	/* [sched] */
	enum thread_state state;
	int prio;                      /* 0..MYRMEX_PRIO_MAX, higher runs first */
	int slice_left;                /* timer ticks left in this round */
	struct list_node run_link;     /* on a run queue or a wait queue */
	struct list_node sleep_link;   /* on the timed-sleep list while it has a deadline */
	uint64_t wake_deadline;        /* ns of monotonic time, 0 = none */
	int wake_result;               /* what thread_block returns */
	struct waitq *waiting_on;      /* set while blocked on a wait queue */
	uint8_t io_hops;               /* I/O preference it may still pass on to a thread it
	                                  wakes (sched.c, wake_preferred) */
	bool only_death_wakes;         /* an uninterruptible wait: only the thread's death
	                                  cuts it short, not personality_interrupts */
	bool exit_pending;             /* leaves at its next return towards user mode, and
	                                  blocks no more (exec ends the other threads) */
	long (*restart)(struct thread *);   /* a hand-off gave up its kernel stack: what
	                                       to run before it leaves (sched_hand_off) */
	/* [proc] */
	struct list_node proc_link;    /* on proc->threads */
	/* [self] */
	uptr_t clear_child_tid;        /* CLONE_CHILD_CLEARTID / set_tid_address */
	uptr_t futex_addr;             /* the word a futex waiter sleeps on (futex.c) */
	bool futex_shared;             /* futex_addr is a frame's address + offset */
	/* [ipc] */
	struct ica *ipc_waiting;       /* callsync: the control ICA whose result we await */
	struct ica *ipc_delivered;     /* callsync: set with the result when it arrives */
	int64_t ipc_status;            /* callsync: why there is no result (-ECANCELED...) */
	/* The system call the thread is in, when the fast path may finish it for
	 * the thread: then its kernel stack holds nothing else of value. Set by
	 * sys_callsync and sys_get around their work; the only place either
	 * blocks is callsync's wait for the result (ipc_waiting set) and get's
	 * wait on ipc_waiters. */
	enum ipc_resume ipc_resume;
	uptr_t ipc_get_out;            /* get: where its delivery goes (0: nowhere) */
	uptr_t ipc_get_out_written;    /* where the last get wrote a delivery (sys_get) */
	/* [cputime] CPU time in TSC ticks, and the TSC at its last edge
	 * (kernel/cputime.h). */
	uint64_t cpu_user, cpu_sys, cpu_stamp;
	/* The personality's state (kernel/personality.h), under its own rules. */
	struct posix_thread *px;
	struct arch_thread arch;       /* [arch] */
};

enum proc_state { PROC_ALIVE, PROC_ZOMBIE };

struct process {
	/* [proc] */
	int pid;
	char name[PROC_NAME_MAX];
	enum proc_state state;
	bool killed;                   /* threads leave at their next kernel exit */
	int wait_status;               /* Linux wait status, valid once killed or a zombie */
	int prio_ceiling;              /* no thread may be raised above this */
	struct process *parent;        /* init (pid 1) once orphaned; NULL for init, or
	                                  when init has gone */
	int pgid, sid;                 /* process group and session: inherited from the parent
	                                  (spawn, fork); a parentless process leads both */
	struct posix_process *px;      /* the personality's state (kernel/personality.h) */
	struct list_node children;     /* of struct process, via sibling_link */
	struct list_node sibling_link;
	struct list_node table_link;   /* on the process table */
	struct list_node threads;      /* of struct thread, via proc_link */
	unsigned thread_count;         /* threads not yet exited */
	struct waitq child_exit;       /* the parent's threads wait here in wait4 [sched] */
	struct vm_space vm;            /* [vm] */
	bool fork_pending;             /* made by proc_fork, not yet started (posix/pm.h) */
	bool may_serve;                /* may call registserver */
	bool may_manage;               /* may give devices and rights at spawn (pid 1 and
	                                  the service manager, include/myrmex/rights.h) */
	uint8_t may_call[MYRMEX_MAX_COREID + 1];   /* 1: may call that coreid (rights.h, kept
	                                              a byte per coreid: one compare on the
	                                              call path); never widened */
	bool posix;                    /* a POSIX process: file calls go to the file manager,
	                                  fork/execve to the process manager (docs/posix.md) */
	unsigned nproc_limit;          /* RLIMIT_NPROC: fork refuses (-EAGAIN) from this
	                                  many processes on (at most PROC_MAX) */
	/* [ipc] The communication mechanism (kernel/ipc.h). */
	int server_coreid;             /* -1 when not a server */
	struct list_node requests;     /* control ICAs queued for this server */
	unsigned request_count;
	unsigned calls_queued;         /* requests this process made that wait in some server's
	                                  queue: at most IPC_QUEUE_PER_CALLER (kernel/ipc.h) */
	struct list_node results;      /* control ICAs whose results wait for get */
	struct waitq ipc_waiters;      /* threads blocked in get [sched] */
	/* [cputime] TSC ticks of its ended threads, and of the children it
	 * reaped (theirs and their reaped children's; kernel/cputime.h). */
	uint64_t cpu_gone_user, cpu_gone_sys, cpu_child_user, cpu_child_sys;
	/* [dev] */
	struct device *device;         /* the device given to this driver, or NULL */
	/* [ica] */
	unsigned ica_count;            /* ICAs charged to this process */
	uint64_t ica_pages;
};

/* What a spawned process may do: register as a server, give devices and
 * rights itself, call which coreids; and whether it is a POSIX process. */
struct spawn_powers {
	bool may_serve, may_manage, posix;
	struct myrmex_rights rights;
};
/* Starts a program from a boot module. argv/envp are kernel strings. The new
 * process is a child of parent (NULL for init) with the given powers.
 * Returns the pid or -errno. */
int proc_spawn(const char *module, const char *const *argv, int argc,
               const char *const *envp, int envc, int prio,
               const struct spawn_powers *powers, struct process *parent);
/* Creates a thread in the current process that enters user mode at the
 * current system call's return point, with stack sp (clone). Returns the
 * tid or -EAGAIN/-ENOMEM. */
int thread_clone(struct thread *parent, uptr_t sp, bool set_tls, uptr_t tls,
                 uptr_t clear_child_tid);
/* Frees an exited thread's kernel stack and structure (from the scheduler). */
void thread_destroy(struct thread *t);
/* Ends the calling thread; the last thread ends its process. */
NORETURN void thread_exit(void);
/* Marks p for death with Linux wait status `status` and wakes its blocked
 * threads so that each leaves at its next return towards user mode. */
void proc_kill(struct process *p, int status);
/* Kills the current process for a fault with wait status `status`,
 * printing the one-line message. */
void proc_fault_kill(int status, const char *cause, uptr_t addr, uptr_t ip);
/* Called on every return to user mode: a thread of a killed process exits. */
static inline void proc_check_killed(void)
{
	struct thread *t = current_thread();
	if (t->proc && (t->proc->killed || t->exit_pending))
		thread_exit();
}
struct process *proc_find(int pid);
/* p's call rights as the ABI's bit set, and back. */
void proc_get_rights(const struct process *p, struct myrmex_rights *out);
void proc_set_rights(struct process *p, const struct myrmex_rights *rights);
/* The table in order, zombies included: proc_next(NULL) is the first
 * process, NULL follows the last. p must stay in the table meanwhile. */
struct process *proc_next(struct process *p);
struct thread *proc_find_thread(struct process *p, int tid);
/* wait4 and waitid: which children a wait is for, and how. */
enum { PROC_WAIT_ANY, PROC_WAIT_PID, PROC_WAIT_PGID };
struct proc_wait_req {
	int which;          /* PROC_WAIT_* */
	int id;             /* the pid, or the group (0: the caller's) */
	bool nohang;        /* return 0 at once when no child is ready */
	bool exited;        /* report (and reap) ended children */
	bool keep;          /* leave what is reported waitable (WNOWAIT) */
	unsigned events;    /* the personality's news of live children */
	struct cpu_usage *usage;   /* if not NULL: the reported child's CPU time */
};
/* Waits for a child of the caller that req matches: an ended one (reaped
 * unless keep) or a live one with news the personality reports for
 * req->events (personality_wait_event: stopped, continued). Returns its
 * pid, 0 (nohang, none ready) or -errno (-ECHILD: no such child, -EINTR);
 * *status receives the Linux wait status. */
int proc_wait(const struct proc_wait_req *req, int *status);
unsigned proc_count(void);
unsigned thread_count(void);

/* ---- Building blocks of proc_fork (kernel/posix/proc_fork.c) ---- */
/* A zeroed process with its lists and wait queues ready and server_coreid
 * -1, counted by proc_count but in no list yet; NULL without memory. */
struct process *process_alloc(void);
/* Enters p (its pid set) in the table and among parent's children. */
void process_insert(struct process *p, struct process *parent);
/* Takes p out of the table and its parent's children (if it is there)
 * and frees the structure. */
void process_free(struct process *p);
/* A thread of p with a kernel stack and a new tid, on no list; NULL without
 * memory. Undone with state THREAD_DEAD and thread_destroy. */
struct thread *thread_alloc(struct process *p);
/* Counts t among p's threads. */
void thread_attach(struct process *p, struct thread *t);
/* The thread with this tid in any process, or NULL. */
struct thread *thread_find(int tid);

#endif
