/*
 * procfs: the /proc server. What its files share.
 *
 *   main.c     start-up and the server library's loop; the one opcode
 *   system.c   the files of /proc itself (meminfo, cpuinfo, stat, uptime,
 *              loadavg, mounts, filesystems, version) and its listing
 *   pid.c      /proc/<pid>/: stat, status, cmdline, comm, and its listing
 *
 * Facts come from the kernel only (proc_info, sysinfo, uname, the clock),
 * never from another server, so the file manager, which waits for our
 * answer, can never be waited for by us. One thread, one request at a time.
 */
#ifndef PROCFS_H
#define PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/procfs.h>
#include <server.h>

#define PROCFS_NAME "procfs"

/* What a generator writes: text into buf (size bytes), the object's type
 * and permission bits. */
struct procfs_out {
	char *buf;
	size_t size, len;
	uint32_t type, perm;
	uint64_t ino;
	int overflow;           /* something did not fit */
	uint32_t uid, gid;      /* the owner: root, or a process's effective ids */
};

__attribute__((format(printf, 2, 3)))
void out_printf(struct procfs_out *o, const char *fmt, ...);
void out_bytes(struct procfs_out *o, const void *p, size_t n);
/* A directory entry line: name, then 'd', 'f' or 'l'. */
void out_entry(struct procfs_out *o, const char *name, char type);

/* system.c: path below /proc ("" the root). 0 or -ENOENT, -ENOTDIR. */
int system_get(const char *path, struct procfs_out *o);
/* pid.c: the rest of path after "<pid>" ("" the directory). */
int pid_get(int pid, const char *rest, struct procfs_out *o);
/* The process asking now (the file manager asks for it). */
extern int procfs_asker;
/* The kernel's description of pid exactly: 0, or -ENOENT. */
int pid_info(int pid, struct myrmex_procinfo *info);

#endif
