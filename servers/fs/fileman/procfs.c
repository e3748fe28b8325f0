/*
 * procfs.c - /proc in the file manager. Every path is the file manager's,
 * so a path under /proc comes here first:
 *
 *   - "self" becomes the requester's pid;
 *   - what the file manager itself knows of a process it answers here:
 *     /proc/<pid>/fd/ (its descriptors; each a link to what it is open on),
 *     /proc/<pid>/cwd (its current directory) and /proc/<pid>/exe (the file
 *     the process manager opened for its last exec), and /proc/self;
 *   - everything else is asked of the procfs server (servers/proc/procfs,
 *     PROCFS_GET) in one synchronous call on a control ICA and a data ICA
 *     of our own: procfs never calls us, so we cannot wait on each other.
 *
 * An open keeps the whole answer as a snapshot in the description (struct
 * procfs_snap): reads, seeks and listings are served from it, so a reader
 * sees one consistent state (Linux's seq files do the same per read call).
 * Every /proc object but /proc/<pid>/comm is read-only: a write gives -EIO
 * (as Linux's files without a write method, which root may open for
 * writing). A write to comm renames pid when pid writes it (-EINVAL for
 * any other writer, as Linux's comm_write), through the kernel's
 * proc_set_name. Links are
 * followed only as the last component of open and stat ("fd/0", "cwd",
 * "exe"); a path that goes through a link inside /proc, or a link outside
 * /proc that leads into it, is not (docs/posix.md lists this).
 */
#include "fileman.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <myrmex/procfs.h>

#define PROC_INO_BASE 0x10000000u   /* /proc's inode numbers, apart from the disk's */

struct procfs_snap {
	uint32_t type, perm;
	uint64_t ino;
	uint32_t uid, gid;            /* the owner */
	int comm_pid;                 /* /proc/<pid>/comm: pid (its one writable file), else 0 */
	uint32_t len;
	char bytes[];                 /* len bytes: the answer */
};

/* An object below /proc, as resolved here or answered by procfs. */
struct obj {
	uint32_t type, perm;
	uint64_t ino;
	const char *bytes;            /* contents, listing or link target */
	uint32_t len;
	struct open_file *fd_target;  /* a link fd/<n>: the description it names */
	uint32_t uid, gid;            /* the owner (procfs says; root for /proc/self) */
};

static struct myrmex_ctl_header *ctl;
static uint8_t *data;
static uint32_t data_handle;
static char local[FS_PATH_MAX];   /* answers made here */
static char asked[FS_PATH_MAX];   /* the path as procfs gets it */

/* ---- executables, for /proc/<pid>/exe ---- */

#define EXE_SLOTS 64
static struct {
	int pid;
	char path[256];
	char pending[256];            /* opened for an exec not yet done */
} exes[EXE_SLOTS];

static int exe_slot(int pid, bool make)
{
	for (int i = 0; i < EXE_SLOTS; i++)
		if (exes[i].pid == pid)
			return i;
	if (!make)
		return -1;
	for (int i = 0; i < EXE_SLOTS; i++)
		if (exes[i].pid == 0) {
			memset(&exes[i], 0, sizeof(exes[i]));
			exes[i].pid = pid;
			return i;
		}
	return -1;
}

void procfs_exe_opened(int pid, const char *cwd, const char *path)
{
	const char *normal = path_normal(cwd, path);
	int i = exe_slot(pid, true);
	if (i >= 0 && normal)
		snprintf(exes[i].pending, sizeof(exes[i].pending), "%s", normal);
}

void procfs_exe_exec(int pid)
{
	int i = exe_slot(pid, false);
	if (i >= 0 && exes[i].pending[0]) {
		memcpy(exes[i].path, exes[i].pending, sizeof(exes[i].path));
		exes[i].pending[0] = '\0';
	}
}

void procfs_exe_fork(int parent, int child)
{
	int p = exe_slot(parent, false);
	if (p < 0)
		return;
	int c = exe_slot(child, true);
	if (c >= 0)
		memcpy(exes[c].path, exes[p].path, sizeof(exes[c].path));
}

void procfs_exe_exit(int pid)
{
	int i = exe_slot(pid, false);
	if (i >= 0)
		exes[i].pid = 0;
}

/* ---- resolution ---- */

const char *procfs_rest(const char *normal)
{
	if (strncmp(normal, "/proc", 5) != 0)
		return NULL;
	if (normal[5] == '\0')
		return "";
	return normal[5] == '/' ? normal + 6 : NULL;
}

/* PROCFS_GET of path: 0 with *o filled (bytes in our data ICA), or -errno. */
static int ask(int pid, const char *path, struct obj *o)
{
	if (!ctl) {
		long c = myrmex_ica_alloc(1), d = myrmex_ica_alloc(PROCFS_DATA_PAGES);
		if (c < 0 || d < 0)
			return -ENOMEM;
		ctl = myrmex_ica_addr((uint32_t)c);
		data_handle = (uint32_t)d;
	}
	data = myrmex_ica_addr(data_handle);
	size_t n = strlen(path);
	memcpy(data, path, n + 1);
	myrmex_ctl_init(ctl);
	struct myrmex_frame *f = myrmex_ctl_push(ctl, 1, MYRMEX_COREID_PROCFS, PROCFS_GET);
	if (!f)
		return -EIO;
	f->arg[0] = (uint64_t)pid;
	f->ndata = 1;
	f->data[0] = data_handle;
	long r = myrmex_callsync(ctl);
	if (r < 0)
		return r == -ESRCH || r == -EPERM ? -ENOENT : (int)r;   /* no procfs: an empty /proc */
	struct myrmex_frame *res = myrmex_ctl_result(ctl);
	if (!res)
		return -EIO;
	data = myrmex_ica_addr(data_handle);
	if (res->status < 0)
		return res->status >= -4095 ? (int)res->status : -EIO;
	if ((uint64_t)res->status > PROCFS_DATA_PAGES * 4096ull)
		return -EIO;
	o->type = (uint32_t)res->arg[0];
	o->perm = (uint32_t)res->arg[1] & 07777;
	o->ino = PROC_INO_BASE + res->arg[2];
	o->uid = (uint32_t)res->arg[3];
	o->gid = (uint32_t)(res->arg[3] >> 32);
	o->bytes = (const char *)data;
	o->len = (uint32_t)res->status;
	o->fd_target = NULL;
	if (o->type < PROCFS_FILE || o->type > PROCFS_LINK)
		return -EIO;
	return 0;
}

static void answer_local(struct obj *o, uint32_t type, uint64_t ino, int len)
{
	o->type = type;
	o->perm = type == PROCFS_LINK ? 0777 : 0500;
	o->ino = PROC_INO_BASE + ino;
	o->uid = o->gid = 0;
	o->fd_target = NULL;
	o->bytes = local;
	o->len = len < 0 ? 0 : (uint32_t)len;
}

/* What descriptor description f is open on, as Linux's fd links read. */
static int describe_fd(struct server_request *rq, const struct open_file *f)
{
	switch (f->kind) {
	case FM_PIPE:
		return snprintf(local, sizeof local, "pipe:[%u]", 1000u + pipe_number(f->pipe));
	case FM_CONSOLE:
		return snprintf(local, sizeof local, "%s", f->rdev == 0x500 ? "/dev/tty" : "/dev/console");
	case FM_NULL:
		return snprintf(local, sizeof local, "/dev/null");
	case FM_ZERO:
		return snprintf(local, sizeof local, "/dev/zero");
	case FM_FULL:
		return snprintf(local, sizeof local, "/dev/full");
	case FM_RANDOM:
		return snprintf(local, sizeof local, "/dev/random");
	case FM_URANDOM:
		return snprintf(local, sizeof local, "/dev/urandom");
	case FM_DIR: {
		int n = f->ino ? path_of_dir(rq, f->ino, local, sizeof local) : -ENOENT;
		return n >= 0 ? n : snprintf(local, sizeof local, "/ (deleted)");
	}
	case FM_PROC:
		return snprintf(local, sizeof local, "/proc");
	case FM_SOCKET:
		return snprintf(local, sizeof local, "socket:[2000]");
	case FM_EPOLL:
		return snprintf(local, sizeof local, "anon_inode:[eventpoll]");
	case FM_EVENTFD:
		return snprintf(local, sizeof local, "anon_inode:[eventfd]");
	case FM_TIMERFD:
		return snprintf(local, sizeof local, "anon_inode:[timerfd]");
	case FM_SIGNALFD:
		return snprintf(local, sizeof local, "anon_inode:[signalfd]");
	default:
		if (f->path)
			return snprintf(local, sizeof local, "%s%s", f->path, f->ino ? "" : " (deleted)");
		return snprintf(local, sizeof local, "/inode:%u", f->ino);
	}
}

/* /proc/net/... (procnet.c) as an object: 0, 1 when rest is not below
 * net, or -errno (with *o cleared). */
static int procnet_obj(const char *rest, struct obj *o)
{
	const char *bytes;
	uint32_t len, type;
	uint64_t ino;
	int rc = procnet_answer(rest, &bytes, &len, &type, &ino);
	memset(o, 0, sizeof(*o));
	if (rc != 0)
		return rc;
	o->type = type;
	o->perm = type == PROCFS_DIR ? 0555 : 0444;
	o->ino = PROC_INO_BASE + ino;
	o->bytes = bytes;
	o->len = len;
	return 0;
}

static int local_fact(struct server_request *rq, long pid, const char *end, struct obj *o);

/* The pid "self" names: the requester's, unless procfs_disk_target says
 * another (the process manager opens a program for a process). */
static int self_pid;

/* Resolves rest (below /proc) for the requester: 0 and *o, or -errno. */
static int resolve(struct server_request *rq, const char *rest, struct obj *o)
{
	int me = self_pid ? self_pid : rq->d.requester;
	if (strncmp(rest, "self", 4) == 0 && (rest[4] == '\0' || rest[4] == '/')) {
		if (rest[4] == '\0') {
			answer_local(o, PROCFS_LINK, 1, snprintf(local, sizeof local, "%d", me));
			return 0;
		}
		snprintf(asked, sizeof asked, "%d%s", me, rest + 4);
	} else {
		snprintf(asked, sizeof asked, "%s", rest);
	}
	char *end;
	long pid = strtol(asked, &end, 10);
	int net = procnet_obj(asked[0] >= '1' && asked[0] <= '9' && *end == '/' ? end + 1 : asked, o);
	if (net <= 0)
		return net;   /* /proc/net, /proc/<pid>/net (procnet.c) */
	bool per_pid = asked[0] >= '1' && asked[0] <= '9' && *end == '/' && pid > 0 && pid < (1l << 30);
	if (!per_pid || (strncmp(end, "/fd", 3) != 0 && strcmp(end, "/cwd") != 0 && strcmp(end, "/exe") != 0))
		return ask(me, asked, o);
	/* The file manager's own facts of process pid, which must exist. */
	char dir[24];
	snprintf(dir, sizeof dir, "%ld", pid);
	struct obj exists;
	int rc = ask(me, dir, &exists);
	if (rc < 0)
		return rc;
	rc = local_fact(rq, pid, end, o);
	if (rc == 0) {   /* the process's, as its directory */
		o->uid = exists.uid;
		o->gid = exists.gid;
	}
	return rc;
}

/* /proc/<pid>/<end> of the file manager's own facts (end: "/cwd", "/exe",
 * "/fd" or "/fd/<n>"). */
static int local_fact(struct server_request *rq, long pid, const char *end, struct obj *o)
{
	uint64_t base = (uint64_t)pid << 8;
	if (strcmp(end, "/cwd") == 0) {
		const char *text;
		uint32_t ino = files_cwd((int)pid, &text);
		answer_local(o, PROCFS_LINK, base + 1, snprintf(local, sizeof local, "%s", ino && text ? text : "/"));
		return 0;
	}
	if (strcmp(end, "/exe") == 0) {
		int i = exe_slot((int)pid, false);
		if (i < 0 || !exes[i].path[0])
			return -ENOENT;   /* as Linux for a process without one (a kernel thread) */
		answer_local(o, PROCFS_LINK, base + 2, snprintf(local, sizeof local, "%s", exes[i].path));
		return 0;
	}
	if (end[3] == '\0') {   /* the listing of fd/ */
		int len = 0;
		for (uint64_t fd = 0; fd < FS_MAX_FDS; fd++)
			if (files_get((int)pid, fd))
				len += snprintf(local + len, sizeof local - (size_t)len, "%u l\n", (unsigned)fd);
		answer_local(o, PROCFS_DIR, base + 3, len);
		return 0;
	}
	if (end[3] != '/')
		return -ENOENT;
	char *after;
	long fd = strtol(end + 4, &after, 10);
	struct open_file *f = end[4] >= '0' && end[4] <= '9' && *after == '\0' && fd >= 0 && fd < (long)FS_MAX_FDS
	                      ? files_get((int)pid, (uint64_t)fd) : NULL;
	if (!f)
		return *after == '/' && f ? -ENOTDIR : -ENOENT;
	answer_local(o, PROCFS_LINK, base + 16 + (uint64_t)fd, describe_fd(rq, f));
	o->fd_target = f;
	return 0;
}

const char *procfs_disk_target(struct server_request *rq, const char *cwd, const char *path,
                               int self, char *out, size_t size)
{
	const char *normal = path_normal(cwd, path);
	const char *rest = normal ? procfs_rest(normal) : NULL;
	if (!rest)
		return NULL;
	struct obj o;
	self_pid = self;
	int rc = resolve(rq, rest, &o);
	self_pid = 0;
	/* Only cwd and exe: their target, a disk path, is in local. */
	if (rc < 0 || o.type != PROCFS_LINK || o.fd_target || o.bytes != local ||
	    local[0] != '/' || o.len == 0 || o.len >= size || procfs_rest(local))
		return NULL;
	memcpy(out, local, o.len);
	out[o.len] = '\0';
	return out;
}

/* ---- the handlers' /proc branches ---- */

/* Whether the caller may do want (PERM_*) to o, by its owner and bits. */
static int obj_perm(const struct server_request *rq, const struct obj *o, unsigned want)
{
	struct ext2_stat st;
	memset(&st, 0, sizeof(st));
	st.mode = (o->type == PROCFS_DIR ? EXT2_S_IFDIR : EXT2_S_IFREG) | o->perm;
	st.uid = o->uid;
	st.gid = o->gid;
	return perm_check(rq, &st, want);
}

static int64_t stat_obj(struct server_request *rq, const struct obj *o)
{
	struct myrmex_stat st;
	if (!rq->data || rq->data_size < sizeof(st))
		return -EINVAL;
	memset(&st, 0, sizeof(st));
	st.st_dev = FS_ST_DEV_PROC;
	st.st_ino = o->ino;
	st.st_nlink = o->type == PROCFS_DIR ? 2 : 1;
	st.st_mode = (o->type == PROCFS_DIR ? EXT2_S_IFDIR : o->type == PROCFS_LINK ? EXT2_S_IFLNK
	                                                                           : EXT2_S_IFREG) | o->perm;
	/* As Linux: files and links show size 0, but fd/<n> links 64. */
	st.st_size = o->fd_target ? 64 : 0;
	st.st_blksize = 1024;
	st.st_uid = o->uid;
	st.st_gid = o->gid;
	memcpy(rq->data, &st, sizeof(st));
	return 0;
}

int64_t procfs_stat(struct server_request *rq, const char *rest, bool follow)
{
	struct obj o;
	int rc = resolve(rq, rest, &o);
	if (rc < 0)
		return rc;
	if (follow && o.type == PROCFS_LINK) {
		if (o.fd_target)
			return stat_description(rq, o.fd_target);
		if (o.len && local[0] == '/' && o.bytes == local) {
			/* cwd, exe: a path outside /proc (the disk's). */
			char target[FS_PATH_MAX];
			memcpy(target, local, o.len + 1);
			uint32_t ino;
			rc = path_lookup(rq, 0, target, true, &ino);
			return rc < 0 ? rc : stat_inode(rq, ino);
		}
		/* self: the pid's directory */
		char target[32];
		snprintf(target, sizeof target, "%.*s", (int)o.len, o.bytes);
		rc = resolve(rq, target, &o);
		if (rc < 0)
			return rc;
	}
	return stat_obj(rq, &o);
}

int64_t procfs_readlink(struct server_request *rq, const char *rest)
{
	struct obj o;
	int rc = resolve(rq, rest, &o);
	if (rc < 0)
		return rc;
	if (o.type != PROCFS_LINK)
		return -EINVAL;
	uint64_t size = SERVER_IN(rq, struct fs_readlink_args)->size;
	uint64_t room = size && size < rq->data_size ? size : rq->data_size;
	uint64_t n = o.len < room ? o.len : room;
	memcpy(rq->data, o.bytes, n);
	return (int64_t)n;
}

int64_t procfs_access(struct server_request *rq, const char *rest, uint64_t want)
{
	struct obj o;
	int rc = resolve(rq, rest, &o);
	if (rc < 0)
		return rc;
	return obj_perm(rq, &o, (unsigned)want & (PERM_R | PERM_W | PERM_X));
}

/* The pid whose comm rest ("<pid>/comm", "self/comm") names, or 0. */
static int comm_pid(const struct server_request *rq, const char *rest)
{
	long pid;
	char *end;
	if (strncmp(rest, "self/", 5) == 0) {
		pid = self_pid ? self_pid : rq->d.requester;
		end = (char *)rest + 4;
	} else {
		pid = strtol(rest, &end, 10);
		if (end == rest || rest[0] == '0' || rest[0] == '-' || rest[0] == '+')
			return 0;
	}
	return strcmp(end, "/comm") == 0 && pid > 0 && pid <= INT32_MAX ? (int)pid : 0;
}

int64_t procfs_write(struct server_request *rq, struct open_file *f)
{
	struct procfs_snap *s = f->snap;
	if (!s || !s->comm_pid)
		return -EIO;   /* read-only, as Linux's files without a write method */
	if (s->comm_pid != rq->d.requester)
		return -EINVAL;   /* as Linux: only a process renames itself */
	uint64_t len = SERVER_IN(rq, struct fs_io_args)->length;
	uint64_t keep = len < MYRMEX_PROC_COMM_MAX ? len : MYRMEX_PROC_COMM_MAX;
	long r = myrmex_syscall6(MYRMEX_SYS_PROC_SET_NAME, s->comm_pid, (long)rq->data, (long)keep,
	                         0, 0, 0);
	return r < 0 ? r : (int64_t)len;
}

int64_t procfs_open(struct server_request *rq, const char *rest, int keep, bool cloexec, int flags)
{
	struct obj o;
	int rc = resolve(rq, rest, &o);
	if (rc < 0)
		return rc;
	if (o.type == PROCFS_LINK) {
		if (flags & O_NOFOLLOW)
			return -ELOOP;
		if (o.fd_target)   /* reopened: the same description, as a dup */
			return files_install(rq->d.requester, o.fd_target, 0, cloexec);
		if (o.bytes == local && local[0] != '/') {   /* self */
			char target[32];
			snprintf(target, sizeof target, "%.*s", (int)o.len, o.bytes);
			rc = resolve(rq, target, &o);
			if (rc < 0)
				return rc;
		} else {
			return -EOPNOTSUPP;   /* cwd, exe: open the path itself */
		}
	}
	if (o.type == PROCFS_DIR && (keep & O_ACCMODE) != O_RDONLY)
		return -EISDIR;
	rc = obj_perm(rq, &o, ((keep & O_ACCMODE) != O_WRONLY ? PERM_R : 0) |
	                      ((keep & O_ACCMODE) != O_RDONLY ? PERM_W : 0));
	if (rc < 0)
		return rc;   /* another user's environ, fd/ (as Linux) */
	if (o.type == PROCFS_FILE && (flags & O_DIRECTORY))
		return -ENOTDIR;
	if (flags & O_CREAT && flags & O_EXCL)
		return -EEXIST;
	struct procfs_snap *s = malloc(sizeof(*s) + o.len + 1);
	if (!s)
		return -ENOMEM;
	s->type = o.type;
	s->perm = o.perm;
	s->ino = o.ino;
	s->uid = o.uid;
	s->gid = o.gid;
	s->len = o.len;
	s->comm_pid = comm_pid(rq, rest);
	memcpy(s->bytes, o.bytes, o.len);
	struct open_file *f = ofd_new(FM_PROC, keep);
	if (!f) {
		free(s);
		return -ENFILE;
	}
	f->snap = s;
	int fd = files_install(rq->d.requester, f, 0, cloexec);
	ofd_unref(f);
	return fd;
}

void procfs_snap_free(struct procfs_snap *s)
{
	free(s);
}

uint64_t procfs_size(const struct open_file *f)
{
	return f->snap ? f->snap->len : 0;
}

int64_t procfs_read(struct server_request *rq, struct open_file *f, uint64_t off, uint64_t len)
{
	const struct procfs_snap *s = f->snap;
	if (s->type == PROCFS_DIR)
		return -EISDIR;
	if (off >= s->len)
		return 0;
	uint64_t n = s->len - off < len ? s->len - off : len;
	memcpy(rq->data, s->bytes + off, n);
	return (int64_t)n;
}

int64_t procfs_readdir(struct server_request *rq, struct open_file *f, uint64_t room)
{
	const struct procfs_snap *s = f->snap;
	if (s->type != PROCFS_DIR)
		return -ENOTDIR;
	uint64_t used = 0, pos = f->offset;
	while (pos < s->len) {
		const char *line = s->bytes + pos, *nl = memchr(line, '\n', s->len - pos);
		if (!nl || nl - line < 3)
			break;
		size_t name_len = (size_t)(nl - line) - 2;
		char t = line[name_len + 1];
		uint64_t reclen = (offsetof(struct myrmex_dirent64, d_name) + name_len + 1 + 7) & ~7ull;
		if (used + reclen > room) {
			if (used == 0)
				return -EINVAL;
			break;
		}
		uint64_t next = pos + (uint64_t)(nl - line) + 1;
		struct myrmex_dirent64 *d = (struct myrmex_dirent64 *)(rq->data + used);
		memset(d, 0, reclen);
		d->d_ino = s->ino + 1 + pos;
		d->d_off = (int64_t)next;
		d->d_reclen = (uint16_t)reclen;
		d->d_type = t == 'd' ? 4 : t == 'l' ? 10 : 8;   /* DT_DIR, DT_LNK, DT_REG */
		memcpy(d->d_name, line, name_len);
		used += reclen;
		pos = next;
	}
	f->offset = pos;
	return (int64_t)used;
}

int64_t procfs_fstat(struct server_request *rq, const struct open_file *f)
{
	struct obj o = { f->snap->type, f->snap->perm, f->snap->ino, f->snap->bytes, f->snap->len, NULL,
	                 f->snap->uid, f->snap->gid };
	return stat_obj(rq, &o);
}
