/*
 * pid.c - /proc/<pid>/: stat, status, cmdline and comm, in Linux's formats
 * (fs/proc/array.c's field order, so that busybox's ps reads them), from
 * the kernel's proc_info, and environ and maps (proc_environ, proc_maps).
 * World-readable as on Linux, but environ (0400); owned by the process's
 * effective uid and gid, its files by root when it is not dumpable.
 * fd/, cwd and exe are in the listing but the file manager answers them.
 */
#include "procfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int pid_info(int pid, struct myrmex_procinfo *info)
{
	long r = myrmex_syscall6(MYRMEX_SYS_PROC_INFO, pid, (long)info, 0, 0, 0, 0);
	return r == pid ? 0 : -ENOENT;
}

static const char *state_name(uint32_t s)
{
	return s == 'R' ? "running" : s == 'Z' ? "zombie" : "sleeping";
}

static void stat_file(const struct myrmex_procinfo *p, struct procfs_out *o)
{
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
	 * majflt cmajflt utime stime cutime cstime priority nice num_threads
	 * itrealvalue starttime vsize rss, then 28 fields Myrmex keeps as 0. */
	out_printf(o, "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 %llu %llu %llu %llu 20 0 %u 0 %llu %llu %llu",
	           p->pid, p->name, (char)p->state, p->ppid, p->pgid, p->sid,
	           (unsigned long long)p->utime_ticks, (unsigned long long)p->stime_ticks,
	           (unsigned long long)p->cutime_ticks, (unsigned long long)p->cstime_ticks,
	           p->threads, (unsigned long long)p->start_ticks,
	           (unsigned long long)p->vm_pages * 4096, (unsigned long long)p->vm_pages);
	for (int i = 0; i < 28; i++)
		out_printf(o, " 0");
	out_printf(o, "\n");
}

static void status_file(const struct myrmex_procinfo *p, struct procfs_out *o)
{
	out_printf(o, "Name:\t%s\nUmask:\t0022\nState:\t%c (%s)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\n"
	           "PPid:\t%d\nTracerPid:\t0\nUid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t64\n"
	           "Groups:\t\nVmSize:\t%8llu kB\nVmRSS:\t%8llu kB\nThreads:\t%u\n",
	           p->name, (char)p->state, state_name(p->state), p->pid, p->pid, p->ppid,
	           p->uid[0], p->uid[1], p->uid[2], p->uid[3], p->gid[0], p->gid[1], p->gid[2], p->gid[3],
	           (unsigned long long)p->vm_pages * 4, (unsigned long long)p->vm_pages * 4, p->threads);
}

/* environ: the strings as they lie in the process's memory now (the
 * kernel reads them), up to what the answer holds. Owner-only on Linux
 * (0400; /proc's objects have no owners yet, docs/posix.md). */
static void environ_file(int pid, struct procfs_out *o)
{
	o->perm = 0400;
	while (o->len < o->size) {
		long n = myrmex_syscall6(MYRMEX_SYS_PROC_ENVIRON, pid, (long)o->len,
		                         (long)(o->buf + o->len), (long)(o->size - o->len), 0, 0);
		if (n <= 0)
			break;
		o->len += (size_t)n;
	}
}

/* maps, in Linux's format: start-end perms offset dev inode name. The
 * program's own segments are copies, not file mappings here, so they show
 * as anonymous; file mappings show no path (the kernel knows none). */
static void maps_file(int pid, struct procfs_out *o)
{
	static struct myrmex_region regions[512];
	long n = myrmex_syscall6(MYRMEX_SYS_PROC_MAPS, pid, (long)regions, 512, 0, 0, 0);
	for (long i = 0; i < n && i < 512; i++) {
		const struct myrmex_region *r = &regions[i];
		uint32_t f = r->flags;
		const char *name = (f & MYRMEX_REGION_STACK) ? "[stack]" : (f & MYRMEX_REGION_HEAP) ? "[heap]"
		                 : (f & MYRMEX_REGION_VVAR) ? "[vvar]" : (f & MYRMEX_REGION_VDSO) ? "[vdso]" : "";
		out_printf(o, "%08llx-%08llx %c%c%c%c %08llx 00:00 0%s%s\n",
		           (unsigned long long)r->start, (unsigned long long)r->end,
		           (f & MYRMEX_REGION_R) ? 'r' : '-', (f & MYRMEX_REGION_W) ? 'w' : '-',
		           (f & MYRMEX_REGION_X) ? 'x' : '-', (f & MYRMEX_REGION_SHARED) ? 's' : 'p',
		           (unsigned long long)r->offset, name[0] ? "                          " : "", name);
	}
}

int pid_get(int pid, const char *rest, struct procfs_out *o)
{
	struct myrmex_procinfo p;
	if (pid_info(pid, &p) < 0)
		return -ENOENT;
	/* The asker waits for this answer, but from its own view it is
	 * running (as a Linux process reading its own stat). */
	if (pid == procfs_asker && p.state == 'S')
		p.state = 'R';
	o->ino = 1000 + (uint64_t)pid * 16;
	/* Owned by the process's effective ids, as Linux's task_dump_owner
	 * (busybox ps's USER column is the directory's owner); its files by
	 * root while the process is not dumpable (it changed its ids since
	 * its exec), the directory (0555) still by those ids. */
	bool root_owned = !p.dumpable && rest[0] != '\0';
	o->uid = root_owned ? 0 : p.uid[1];
	o->gid = root_owned ? 0 : p.gid[1];
	if (rest[0] == '\0') {
		o->type = PROCFS_DIR;
		o->perm = 0555;
		static const char *const names[] = { "stat", "status", "cmdline", "comm", "environ",
		                                     "maps" };
		for (unsigned i = 0; i < 6; i++)
			out_entry(o, names[i], 'f');
		out_entry(o, "fd", 'd');
		out_entry(o, "cwd", 'l');
		out_entry(o, "exe", 'l');
		return 0;
	}
	if (strcmp(rest, "stat") == 0)
		stat_file(&p, o);
	else if (strcmp(rest, "status") == 0)
		status_file(&p, o);
	else if (strcmp(rest, "cmdline") == 0)
		out_bytes(o, p.cmdline, p.cmdline_len);
	else if (strcmp(rest, "comm") == 0) {
		o->perm = 0644;
		out_printf(o, "%s\n", p.name);
	} else if (strcmp(rest, "environ") == 0)
		environ_file(pid, o);
	else if (strcmp(rest, "maps") == 0)
		maps_file(pid, o);
	else if (strncmp(rest, "stat/", 5) == 0 || strncmp(rest, "status/", 7) == 0 ||
	         strncmp(rest, "cmdline/", 8) == 0 || strncmp(rest, "comm/", 5) == 0 ||
	         strncmp(rest, "environ/", 8) == 0 || strncmp(rest, "maps/", 5) == 0)
		return -ENOTDIR;
	else
		return -ENOENT;
	o->ino += 1 + (uint64_t)(rest[0] + rest[3]) % 15;
	return 0;
}
