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
 *               arg[1] the permission bits, arg[2] an inode number.
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
	uint64_t utime_ticks;    /* CPU time in 100 Hz ticks */
	uint64_t start_ticks;    /* start after boot, in 100 Hz ticks */
	char name[16];           /* the command name (comm), NUL-terminated */
	char cmdline[MYRMEX_PROCINFO_CMDLINE];
	uint32_t uid[4], gid[4]; /* real, effective, saved, file-system (0 for native ones) */
};
_Static_assert(sizeof(struct myrmex_procinfo) == 360, "struct myrmex_procinfo layout");

#endif
