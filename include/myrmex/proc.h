/*
 * The process manager's protocol (servers/proc/pm) and the kernel calls it
 * uses to fork and exec processes. See docs/posix.md.
 *
 * Requests come from the kernel, on behalf of a thread of a POSIX process
 * that made a Linux fork/vfork/clone (without CLONE_VM|CLONE_THREAD) or
 * execve: one frame with target MYRMEX_COREID_PM, the requester is the
 * process's pid, arg[0] the thread's tid.
 *
 *   PM_FORK  arg[1] the child's stack pointer (0: the caller's). status: the
 *            child's pid, or -EAGAIN, -ENOMEM.
 *   PM_EXEC  data[0]: the path, NUL-terminated; arg[1] argc, arg[2] envc
 *            of the call (the strings stay in the kernel, for proc_exec's
 *            MYRMEX_EXEC_CALLER_ARGS), arg[3] bytes used (the path's).
 *            status 0 (the thread now runs the new program) or -ENOENT,
 *            -EACCES, -ENOEXEC, -E2BIG, -ENOMEM, -ENAMETOOLONG, -ENOTDIR.
 */
#ifndef MYRMEX_PROC_H
#define MYRMEX_PROC_H

#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/ica.h>

#define MYRMEX_COREID_PM 5u

#define PM_FORK 1u
#define PM_EXEC 2u

/* Typed views of the frame's uint64_t arg[8]: one uint64_t field per
 * argument word, as above, so that they hold on 32-bit targets too. */
struct pm_fork_args {     /* PM_FORK */
	uint64_t tid;         /* the calling thread */
	uint64_t sp;          /* the child's stack pointer, 0: the caller's */
};
struct pm_exec_args {     /* PM_EXEC */
	uint64_t tid;
	uint64_t argc;
	uint64_t envc;
	uint64_t used;        /* bytes of the data ICA used */
};
_Static_assert(sizeof(struct pm_fork_args) <= 64, "pm_fork_args fits arg[]");
_Static_assert(sizeof(struct pm_exec_args) <= 64, "pm_exec_args fits arg[]");

/* spawn's flag MYRMEX_SPAWN_POSIX and the call server_pid: include/myrmex/ica.h. */

/*
 * Kernel calls for the process manager. Only the process registered as
 * MYRMEX_COREID_PM may make them (-EPERM); tid must name a thread that is
 * blocked in a call the caller is handling now (-ESRCH).
 *
 * proc_fork(int tid, uint64_t sp) -> child pid
 *     A new process, child of tid's process: a copy-on-write copy of its
 *     address space, its signal dispositions, process group and session,
 *     its POSIX flag, and one thread with tid's user registers at the
 *     system call, rax = 0 and, when sp != 0, rsp = sp. The child is
 *     stopped until proc_start. -EAGAIN process limit, -ENOMEM.
 * proc_start(int pid, int discard) -> 0
 *     A child made by proc_fork and not yet started runs (discard 0) or is
 *     destroyed without a trace (discard 1). -ESRCH not such a child,
 *     -EINVAL discard neither 0 nor 1.
 * proc_exec(int tid, const struct myrmex_exec *how) -> 0
 *     Replaces the image of tid's process with the static ELF executable
 *     held in the caller's image ICAs (the file's bytes in order, each ICA
 *     full but the last), with the argument strings of the args ICA. The
 *     kernel checks the whole image first; then other threads end, every
 *     mapping goes (not the ICA window), handlers reset to default (ignored
 *     signals stay ignored), the name becomes argv[0]'s last component, and
 *     tid starts at the entry point with Linux's initial stack.
 *     -ENOEXEC bad ELF, -E2BIG strings too large (over 786432 argv or
 *     envp entries, or a stack image over 6 MiB and a bit), -EINVAL bad
 *     handles, lengths or flags (or tid is a thread of the caller's, or
 *     MYRMEX_EXEC_CALLER_ARGS for a thread not in execve), -EFAULT how unreadable, -ENOMEM (before the point of no
 *     return; after it the process is killed with SIGKILL, as Linux does).
 * server_pid(unsigned coreid) -> pid
 *     Anyone: the pid of the server registered for coreid, or -ESRCH.
 */
#define MYRMEX_SYS_PROC_FORK  (MYRMEX_SYS_BASE + 30)
#define MYRMEX_SYS_PROC_START (MYRMEX_SYS_BASE + 31)
#define MYRMEX_SYS_PROC_EXEC  (MYRMEX_SYS_BASE + 32)

#define MYRMEX_EXEC_MAX_IMAGES 64   /* 64 x 256 KiB: a 16 MiB executable */

struct myrmex_exec {
	uint32_t image[MYRMEX_EXEC_MAX_IMAGES];   /* ICA handles, attached to the caller */
	uint32_t nimage;
	uint32_t args;          /* ICA handle: argc strings then envc strings */
	uint64_t image_size;    /* bytes of the executable */
	uint32_t argc, envc;
	uint32_t args_size;     /* bytes used in the args ICA */
	uint32_t flags;         /* MYRMEX_EXEC_*, others -EINVAL */
	uint32_t uid, gid;      /* with MYRMEX_EXEC_SETUID, MYRMEX_EXEC_SETGID */
};

/* The strings of the thread's own execve follow the args ICA's argc strings
 * (envc must then be 0; args may be 0 when argc is): the kernel keeps them
 * from the system call on, so that they need not travel (Linux's 2 MiB). */
#define MYRMEX_EXEC_CALLER_ARGS 1u
/* With MYRMEX_EXEC_CALLER_ARGS: leave out the caller's argv[0] (a script,
 * whose interpreter, its argument and the path come first). */
#define MYRMEX_EXEC_SKIP_ARGV0  2u
/* A set-user-id (set-group-id) file: the effective, saved and file-system
 * uid (gid) become uid (gid). At every exec, as Linux, the saved and
 * file-system ids become the effective ones. */
#define MYRMEX_EXEC_SETUID      4u
#define MYRMEX_EXEC_SETGID      8u
_Static_assert(sizeof(struct myrmex_exec) == 296, "struct myrmex_exec layout");

#endif
