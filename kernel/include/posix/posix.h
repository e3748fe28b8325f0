/*
 * Helpers shared by the system calls of the POSIX personality
 * (kernel/posix/sys_file.c, sys_path.c, sys_poll.c, sys_ioctl.c, sys_fork.c;
 * docs/posix.md), and the kernel console that native processes keep.
 */
#ifndef KERNEL_POSIX_H
#define KERNEL_POSIX_H

#include <posix/cred.h>
#include <kernel/types.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/personality.h>

struct forward_channel;
struct exec_strings;

/* The personality's state in every thread (struct thread.px), allocated by
 * personality_thread_init (kernel/posix/state.c). */
struct posix_thread {
	struct sig_thread sig;           /* blocked mask, pending signals, alternate stack */
	struct forward_channel *channel; /* forwarded Linux calls (posix/forward.h), or NULL */
	/* While this thread forks (PM_FORK): the child's CLONE_CHILD_SETTID /
	 * CLONE_CHILD_CLEARTID word, which proc_fork hands to the child. */
	uptr_t fork_child_tid;
	bool fork_set_tid, fork_clear_tid;
	/* While this thread is in execve (PM_EXEC): its argument and
	 * environment strings, which proc_exec takes (posix/exec_strings.h). */
	struct exec_strings *exec_args;
};

/* The personality's state in every process (struct process.px). */
#define POSIX_CMDLINE_MAX 256

#define POSIX_INLINE_FDS 1024
#define POSIX_QUICK_FDS  256   /* quick_io's reach: struct posix_process fits a slab page */

struct posix_process {
	struct sig_process sig;          /* dispositions, pending signals, interval timer */
	unsigned umask;                  /* file mode creation mask */
	/* For /proc (sys_procinfo.c): when the process was made (monotonic
	 * ns), and its argv strings as the last exec gave them (each with its
	 * NUL, cut at POSIX_CMDLINE_MAX bytes; kept by fork). */
	uint64_t start_ns;
	uint32_t cmdline_len;
	char cmdline[POSIX_CMDLINE_MAX];
	/* Descriptors below POSIX_INLINE_FDS whose small reads and writes the
	 * file manager wants with a data ICA (the console), bit per fd: a hint,
	 * cleared when a call finds another kind there (sys_file.c). */
	uint64_t no_inline[POSIX_INLINE_FDS / 64];
	/* Descriptors below POSIX_QUICK_FDS last found on an object whose
	 * reads and writes never wait (a regular file, a directory, a memory
	 * device), bit per fd: their calls wait for the answer as Linux's do,
	 * not cut short by a signal (forward.h, fwd.uninterruptible). Learnt
	 * from each answer's kind; a close of the number (close, dup2 onto it,
	 * a batch's close) and exec forget it, so a number reused for a pipe
	 * is not believed quick (posix_fd_gone). Fork starts without. */
	uint64_t quick_io[POSIX_QUICK_FDS / 64];
	/* The process has called execve since it was forked: its parent may
	 * no longer move it to another group (setpgid gives -EACCES). */
	bool execed;
	struct posix_cred cred;          /* ids and groups (sys_cred.c); zeroed: root */
	int8_t nice;                     /* -20..19 (sys_nice.c); 0 at the start, fork copies it */
};


/* Descriptor fd of the current process was closed (or replaced): its
 * number's hints go (sys_file.c). */
void posix_fd_gone(uint64_t fd);
/* An open or dup made descriptor fd on an object of kind (FS_KIND_*, the
 * answer's FS_RESULT_KIND; 0 unknown): its hints start from that. */
void posix_fd_made(uint64_t fd, uint64_t kind);

struct syscall_args;
struct cpu_usage;

/* Writes Linux's struct rusage with u's times (NULL: all zeros) to out:
 * 0 or -EFAULT (sys_task.c). */
long posix_rusage_out(uptr_t out, const struct cpu_usage *u);

/* Whether the calling process is a POSIX one (its file calls go to the file
 * manager). */
static inline bool posix_process(void)
{
	return current_thread()->proc->posix;
}

/* A request to the file manager without a data ICA: the status; res (may be
 * NULL) receives the result frame's arg[]. */
long posix_fs_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t res[8]);
/* Copies the file manager's stat record m to out as the port's struct
 * stat (<arch/linux_abi.h>): 0 or -EFAULT. */
struct myrmex_stat;
long posix_stat_out(uptr_t out, const struct myrmex_stat *m);
/* SIGPIPE for the calling thread (a write found no reader). */
void posix_raise_sigpipe(void);

/* The kernel console of native processes (kernel/posix/sys_console.c):
 * descriptors 1 and 2 write to it, nothing reads from it. */
long kconsole_read(const struct syscall_args *a);
long kconsole_write(const struct syscall_args *a);
long kconsole_writev(const struct syscall_args *a);
long kconsole_ioctl(const struct syscall_args *a);

#endif
