/*
 * The /proc server's protocol (servers/proc/procfs) and the kernel call it
 * reads processes with. See docs/posix.md, "/proc".
 *
 * The file manager owns every path, so it is the procfs server's one
 * client: a path under /proc that is not the file manager's own (a
 * process's fd/, cwd, exe) is asked of procfs in one request, and the
 * answer is the whole object at that moment, which the file manager keeps
 * as the open description's snapshot (reads, seeks and listings are served
 * from it, as Linux's seq files are generated at the first read).
 *
 *   PROCFS_GET  data in: the path below /proc, NUL-terminated, without a
 *               leading '/' ("" is /proc itself, "1/stat"), with "self"
 *               already replaced by the requester's pid; arg[0] the pid of
 *               the process asking (for the fd/environ rules).
 *               data out (the same ICA): a file's bytes; a link's target;
 *               a directory's entries as lines "<name> <d|f|l>\n".
 *               status: bytes written, or -ENOENT (no such name, no such
 *               process), -ENOTDIR, -EFBIG (does not fit the data ICA).
 *               result arg[0] PROCFS_FILE / PROCFS_DIR / PROCFS_LINK,
 *               arg[1] the permission bits, arg[2] an inode number,
 *               arg[3] the owner: uid | gid << 32 (a process's objects
 *               belong to its effective ids, the rest to root).
 */
#ifndef MYRMEX_PROCFS_H
#define MYRMEX_PROCFS_H

#include <stdint.h>
#include <myrmex/syscall.h>

/* 7 and 8 are left to the network servers being added beside. */
#define MYRMEX_COREID_PROCFS 9u

#define PROCFS_GET 1u

#define PROCFS_FILE 1u
#define PROCFS_DIR  2u
#define PROCFS_LINK 3u

#define PROCFS_DATA_PAGES 16u   /* the data ICA the file manager lends: 64 KiB */

struct procfs_get_args {    /* PROCFS_GET */
	uint64_t pid;           /* who asks */
};
_Static_assert(sizeof(struct procfs_get_args) <= 64, "procfs_get_args fits arg[]");

/*
 * proc_info(int pid, struct myrmex_procinfo *out) -> the pid described
 *     The first process whose pid is >= pid (so a loop from 1 lists them
 *     all), zombies included; -ESRCH when there is none. Only the server
 *     registered as MYRMEX_COREID_PROCFS may ask (-EPERM); -EFAULT for a
 *     bad out. What is given is what Linux shows every user in
 *     /proc/<pid>/stat and status: no memory contents but the command line.
 */
#define MYRMEX_SYS_PROC_INFO (MYRMEX_SYS_BASE + 60)

#define MYRMEX_PROCINFO_CMDLINE 256   /* bytes of the command line kept */

struct myrmex_procinfo {
	int32_t pid, ppid, pgid, sid;
	uint32_t state;          /* 'R' running or runnable, 'S' sleeping, 'Z' zombie */
	uint32_t threads;
	uint32_t posix;          /* 1: a POSIX process */
	uint32_t cmdline_len;    /* bytes of cmdline used (argv strings, each with its NUL) */
	uint64_t vm_pages;       /* pages committed to its regions */
	uint64_t utime_ticks;    /* CPU time in user mode, in 100 Hz ticks */
	uint64_t stime_ticks;    /* CPU time in the kernel, in 100 Hz ticks */
	uint64_t cutime_ticks;   /* the same of the children it reaped */
	uint64_t cstime_ticks;
	uint64_t start_ticks;    /* start after boot, in 100 Hz ticks */
	char name[16];           /* the command name (comm), NUL-terminated */
	char cmdline[MYRMEX_PROCINFO_CMDLINE];
	uint32_t uid[4], gid[4]; /* real, effective, saved, file-system (0 for native ones) */
	uint32_t dumpable;       /* 1: Linux's "dumpable" (always for native ones), 0: not */
	uint32_t reserved;
};
_Static_assert(sizeof(struct myrmex_procinfo) == 392, "struct myrmex_procinfo layout");

/*
 * proc_environ(int pid, uint64_t offset, void *buf, uint64_t size) -> bytes
 *     The bytes of pid's environment strings (as its last exec laid them on
 *     its stack, each with its NUL: /proc/<pid>/environ) from offset, read
 *     from its memory as it is now; 0 past the end or once a page there is
 *     gone. -ESRCH no such live process; the procfs server only (-EPERM);
 *     -EFAULT a bad buf. At most 64 KiB a call.
 * proc_maps(int pid, struct myrmex_region *buf, uint64_t max) -> count
 *     pid's regions in address order (at most max; the count is the whole
 *     number, so a caller sees when its buffer was short): /proc/<pid>/maps.
 *     Same errors.
 */
#define MYRMEX_SYS_PROC_ENVIRON (MYRMEX_SYS_BASE + 61)
#define MYRMEX_SYS_PROC_MAPS    (MYRMEX_SYS_BASE + 62)
#define MYRMEX_PROC_READ_MAX    65536u

/*
 * proc_set_name(int pid, const char *name, uint64_t len) -> 0
 *     pid's command name (comm) becomes the len bytes at name (at most
 *     MYRMEX_PROC_COMM_MAX; the rest of the name is zeroed): a write to
 *     /proc/<pid>/comm, which the file manager allows only to pid itself,
 *     as Linux. The file manager only (-EPERM); -ESRCH no such live
 *     process; -EINVAL len too long; -EFAULT a bad name.
 */
#define MYRMEX_SYS_PROC_SET_NAME (MYRMEX_SYS_BASE + 65)
#define MYRMEX_PROC_COMM_MAX     15u   /* Linux's TASK_COMM_LEN less its NUL */

#define MYRMEX_REGION_R      1u
#define MYRMEX_REGION_W      2u
#define MYRMEX_REGION_X      4u
#define MYRMEX_REGION_SHARED 8u    /* shared anonymous or a shared file mapping */
#define MYRMEX_REGION_FILE   16u   /* a file mapping */
#define MYRMEX_REGION_STACK  32u   /* the stack */
#define MYRMEX_REGION_HEAP   64u   /* the program break's */
#define MYRMEX_REGION_VVAR   128u  /* the vDSO's clock page */
#define MYRMEX_REGION_VDSO   256u  /* the vDSO's image */

struct myrmex_region {
	uint64_t start, end;     /* [start, end) */
	uint64_t offset;         /* a file mapping's offset in the file, bytes */
	uint32_t flags;          /* MYRMEX_REGION_* */
	uint32_t pad;
};
_Static_assert(sizeof(struct myrmex_region) == 32, "struct myrmex_region layout");

#endif
