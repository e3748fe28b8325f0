/*
 * files.c - descriptors, per requesting process.
 *
 * A process's descriptors live in a table found by its pid (the kernel's
 * requester pid, which cannot be forged, and which the kernel never reuses).
 * A table is taken at the process's first open and given back when its last
 * descriptor closes; when all tables are taken, the tables of processes
 * that no longer exist (kill(pid, 0) says -ESRCH) are reclaimed.
 */
#include "fileman.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#define TABLES 64u

struct fd_table {
	int pid;                      /* 0: free */
	unsigned open;
	struct open_file f[FS_MAX_FDS];
};

static struct fd_table tables[TABLES];

static struct fd_table *table_of(int pid)
{
	for (unsigned i = 0; i < TABLES; i++)
		if (tables[i].pid == pid)
			return &tables[i];
	return NULL;
}

static bool process_gone(int pid)
{
	return myrmex_syscall6(62 /* kill */, pid, 0, 0, 0, 0, 0) == -ESRCH;
}

static struct fd_table *table_new(int pid)
{
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < TABLES; i++) {
			if (tables[i].pid == 0) {
				memset(&tables[i], 0, sizeof(tables[i]));
				tables[i].pid = pid;
				return &tables[i];
			}
		}
		/* All taken: free the tables of processes that have ended. */
		for (unsigned i = 0; i < TABLES; i++)
			if (process_gone(tables[i].pid))
				tables[i].pid = 0;
	}
	return NULL;
}

struct open_file *files_get(int pid, uint64_t fd)
{
	struct fd_table *t = table_of(pid);
	if (!t || fd >= FS_MAX_FDS || t->f[fd].kind == FM_FREE)
		return NULL;
	return &t->f[fd];
}

int files_alloc(int pid, struct open_file **out)
{
	struct fd_table *t = table_of(pid);
	if (!t && !(t = table_new(pid)))
		return -ENFILE;
	for (unsigned fd = 0; fd < FS_MAX_FDS; fd++) {
		if (t->f[fd].kind == FM_FREE) {
			memset(&t->f[fd], 0, sizeof(t->f[fd]));
			t->open++;
			*out = &t->f[fd];
			return (int)fd;
		}
	}
	return -EMFILE;
}

void files_close(int pid, int fd)
{
	struct fd_table *t = table_of(pid);
	if (!t || fd < 0 || (unsigned)fd >= FS_MAX_FDS || t->f[fd].kind == FM_FREE)
		return;
	t->f[fd].kind = FM_FREE;
	if (--t->open == 0)
		t->pid = 0;
}

void files_forget_inode(uint32_t ino)
{
	for (unsigned i = 0; i < TABLES; i++)
		for (unsigned fd = 0; tables[i].pid && fd < FS_MAX_FDS; fd++)
			if ((tables[i].f[fd].kind == FM_FILE || tables[i].f[fd].kind == FM_DIR) &&
			    tables[i].f[fd].ino == ino)
				tables[i].f[fd].ino = 0;   /* stale: every use gives -ESTALE */
}

unsigned files_open_count(uint32_t ino)
{
	unsigned n = 0;
	for (unsigned i = 0; i < TABLES; i++)
		for (unsigned fd = 0; tables[i].pid && fd < FS_MAX_FDS; fd++)
			if (tables[i].f[fd].kind != FM_FREE && tables[i].f[fd].ino == ino)
				n++;
	return n;
}
