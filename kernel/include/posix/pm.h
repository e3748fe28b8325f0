/*
 * The kernel calls of the process manager (include/myrmex/proc.h,
 * docs/posix.md): fork the process of a thread copy-on-write, start or
 * discard the child, replace a process's image. pm is the calling process;
 * the system-call handlers (kernel/posix/sys_pm.c) have checked that it is
 * the one registered as MYRMEX_COREID_PM. A forged tid gains nothing: the
 * thread must be waiting in a call that pm is handling now.
 */
#ifndef KERNEL_PM_H
#define KERNEL_PM_H

#include <kernel/types.h>
#include <kernel/personality.h>

struct process;
struct thread;
struct myrmex_exec;

/* Thread tid if it is blocked in a call that pm handles now (and its
 * process is alive and not being killed), else NULL. */
struct thread *pm_blocked_thread(struct process *pm, int tid);

/* A child of tid's process: a copy-on-write copy of its address space, its
 * name, priority ceiling, POSIX flag, process group, session, umask and
 * signal dispositions, and one thread with tid's user registers at its
 * system call (return value 0, stack sp unless 0) and thread pointer. The
 * child is stopped (fork_pending) until proc_start. Returns its pid, or
 * -ESRCH, -EAGAIN (PROC_MAX), -ENOMEM (memory, commitment limits). */
int proc_fork(struct process *pm, int tid, uptr_t sp);
/* Runs a child of proc_fork not yet started, or destroys it without a trace
 * (no zombie, no SIGCHLD). 0 or -ESRCH. */
int proc_start(int pid, bool discard);
/* The process pm ends: when it was the process manager, the children it
 * forked and never started are discarded. */
void proc_fork_process_exit(struct process *pm);

/* Replaces the image of tid's process with the executable how describes
 * (a kernel copy of the caller's struct): see kernel/posix/exec.c. 0, or
 * -ESRCH, -EINVAL, -ENOEXEC, -E2BIG, -ENOMEM before the point of no return;
 * after it any failure kills the process (SIGKILL) and is returned. */
int proc_exec(struct process *pm, int tid, const struct myrmex_exec *how);
/* personality_thread_gone (kernel/personality.h) is exec.c's: an exec
 * waiting for the other threads of its target to go looks again. */

#endif
