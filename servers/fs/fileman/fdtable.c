/*
 * fdtable.c - descriptors and current directories, per process.
 *
 * A process's table is found by its pid (the kernel's requester pid, which
 * cannot be forged, and which the kernel never reuses). An entry points to
 * an open-file description (ofd.c) and carries the close-on-exec flag. A
 * table is taken at the process's first descriptor (or chdir, or fork) and
 * given back when it holds nothing a fresh process would not have (no
 * descriptor, the root as current directory) or when the process ends
 * (FS_EXIT). Native programs end without FS_EXIT: when all tables are
 * taken, the tables of processes that no longer exist (kill(pid, 0) says
 * -ESRCH) are reclaimed, their descriptors closed.
 */
#include "fileman.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define TABLES 1024u   /* one per process: the kernel's PROC_MAX */

struct fd_entry {
	struct open_file *f;          /* NULL: free */
	bool cloexec;
};

struct fd_table {
	int pid;                      /* 0: free */
	unsigned open;
	uint32_t cwd_ino;             /* 0 once the directory was removed */
	char *cwd;                    /* its absolute path (malloc'd); NULL: "/" */
	struct fd_entry fd[FS_MAX_FDS];
};

static struct fd_table tables[TABLES];

/* pid's table: the last one found first (requests of one process come
 * in runs; a table freed since has pid 0 and fails the check), else a
 * scan of all TABLES. */
static struct fd_table *table_of(int pid)
{
	static struct fd_table *last;
	if (pid <= 0)
		return NULL;
	if (last && last->pid == pid)
		return last;
	for (unsigned i = 0; i < TABLES; i++)
		if (tables[i].pid == pid)
			return last = &tables[i];
	return NULL;
}

static bool process_gone(int pid)
{
	return myrmex_syscall6(62 /* kill */, pid, 0, 0, 0, 0, 0) == -ESRCH;
}

/* Empties table t (every descriptor closed) and frees it. */
static void table_drop(struct fd_table *t)
{
	for (unsigned fd = 0; fd < FS_MAX_FDS; fd++) {
		struct open_file *f = t->fd[fd].f;
		if (f) {
			t->fd[fd].f = NULL;
			ofd_unref(f);
		}
	}
	free(t->cwd);
	t->cwd = NULL;
	t->open = 0;
	t->pid = 0;
}

/* Gives t back when it holds nothing a fresh process lacks. */
static void table_tidy(struct fd_table *t)
{
	if (t->open == 0 && !t->cwd && t->cwd_ino == EXT2_ROOT_INO)
		t->pid = 0;
}

static struct fd_table *table_new(int pid)
{
	if (pid <= 0)
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < TABLES; i++) {
			if (tables[i].pid == 0) {
				memset(&tables[i], 0, sizeof(tables[i]));
				tables[i].pid = pid;
				tables[i].cwd_ino = EXT2_ROOT_INO;
				return &tables[i];
			}
		}
		/* All taken: reclaim the tables of processes that have ended. */
		for (unsigned i = 0; i < TABLES; i++) {
			if (tables[i].pid != pid && process_gone(tables[i].pid)) {
				pipe_drop_pid(tables[i].pid);
				socket_drop_pid(tables[i].pid);
				events_drop_pid(tables[i].pid);
				table_drop(&tables[i]);
			}
		}
	}
	return NULL;
}

static struct fd_table *table_for(int pid)
{
	struct fd_table *t = table_of(pid);
	return t ? t : table_new(pid);
}

struct open_file *files_get(int pid, uint64_t fd)
{
	struct fd_table *t = table_of(pid);
	if (!t || fd >= FS_MAX_FDS)
		return NULL;
	return t->fd[fd].f;
}

/* Entry fd of t becomes f (which gains a reference), closing what was there. */
static void set_entry(struct fd_table *t, unsigned fd, struct open_file *f, bool cloexec)
{
	struct open_file *old = t->fd[fd].f;
	ofd_ref(f);
	t->fd[fd].f = f;
	t->fd[fd].cloexec = cloexec;
	if (old && old->kind == FM_FILE && old->ino)
		locks_closed(t->pid, old->ino);   /* dup2 closed it */
	if (old)
		ofd_unref(old);
	else
		t->open++;
}

int files_install(int pid, struct open_file *f, uint64_t lowest, bool cloexec)
{
	if (lowest >= FS_MAX_FDS)
		return -EINVAL;
	struct fd_table *t = table_for(pid);
	if (!t)
		return -ENFILE;
	for (unsigned fd = (unsigned)lowest; fd < FS_MAX_FDS; fd++) {
		if (!t->fd[fd].f) {
			set_entry(t, fd, f, cloexec);
			return (int)fd;
		}
	}
	table_tidy(t);
	return -EMFILE;
}

int files_install_at(int pid, uint64_t fd, struct open_file *f, bool cloexec)
{
	struct fd_table *t = fd < FS_MAX_FDS ? table_for(pid) : NULL;
	if (!t)
		return fd < FS_MAX_FDS ? -ENFILE : -EBADF;
	set_entry(t, (unsigned)fd, f, cloexec);
	return 0;
}

int files_room(int pid)
{
	struct fd_table *t = table_of(pid);
	return t && t->open == FS_MAX_FDS ? -EMFILE : 0;
}

int files_close(int pid, uint64_t fd)
{
	struct fd_table *t = table_of(pid);
	if (!t || fd >= FS_MAX_FDS || !t->fd[fd].f)
		return -EBADF;
	struct open_file *f = t->fd[fd].f;
	t->fd[fd].f = NULL;
	t->open--;
	if (f->kind == FM_FILE && f->ino)
		locks_closed(pid, f->ino);   /* POSIX: any close lets the process's locks go */
	ofd_unref(f);
	table_tidy(t);
	return 0;
}

bool files_cloexec(int pid, uint64_t fd)
{
	struct fd_table *t = table_of(pid);
	return t && fd < FS_MAX_FDS && t->fd[fd].f && t->fd[fd].cloexec;
}

void files_set_cloexec(int pid, uint64_t fd, bool on)
{
	struct fd_table *t = table_of(pid);
	if (t && fd < FS_MAX_FDS && t->fd[fd].f)
		t->fd[fd].cloexec = on;
}

int files_fork(int parent, int child)
{
	if (table_of(child))
		return -EEXIST;
	if (!table_of(parent))
		return 0;   /* nothing to copy: the child starts fresh */
	struct fd_table *c = table_new(child);
	struct fd_table *p = table_of(parent);   /* again: table_new may reclaim */
	if (!c)
		return -EAGAIN;
	if (!p) {
		c->pid = 0;
		return 0;
	}
	if (p->cwd && !(c->cwd = strdup(p->cwd))) {
		c->pid = 0;
		return -ENOMEM;
	}
	c->cwd_ino = p->cwd_ino;
	for (unsigned fd = 0; fd < FS_MAX_FDS; fd++) {
		if (p->fd[fd].f) {
			c->fd[fd] = p->fd[fd];
			ofd_ref(c->fd[fd].f);
			c->open++;
		}
	}
	return 0;
}

void files_exec(int pid)
{
	struct fd_table *t = table_of(pid);
	for (unsigned fd = 0; t && fd < FS_MAX_FDS; fd++)
		if (t->fd[fd].f && t->fd[fd].cloexec)
			files_close(pid, fd);   /* may free t: then table_of finds nothing */
}

void files_exit(int pid)
{
	locks_drop_pid(pid);
	pipe_drop_pid(pid);
	socket_drop_pid(pid);
	events_drop_pid(pid);
	struct fd_table *t = table_of(pid);
	if (t)
		table_drop(t);
}

uint32_t files_cwd(int pid, const char **text)
{
	struct fd_table *t = table_of(pid);
	*text = t && t->cwd ? t->cwd : "/";
	return t ? t->cwd_ino : EXT2_ROOT_INO;
}

int files_set_cwd(int pid, uint32_t ino, const char *text)
{
	bool root = strcmp(text, "/") == 0;
	char *copy = root ? NULL : strdup(text);
	if (!root && !copy)
		return -ENOMEM;
	struct fd_table *t = table_for(pid);
	if (!t) {
		free(copy);
		return -ENFILE;
	}
	free(t->cwd);
	t->cwd = copy;
	t->cwd_ino = ino;
	table_tidy(t);
	return 0;
}

void files_forget_inode(uint32_t ino)
{
	ofd_forget_inode(ino);
	for (unsigned i = 0; i < TABLES; i++)
		if (tables[i].pid && tables[i].cwd_ino == ino)
			tables[i].cwd_ino = 0;   /* relative paths now give -ENOENT */
}
