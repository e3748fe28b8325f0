/*
 * ops_proc.c - the handlers for a process's life and its current
 * directory: fork, exec and exit (the process manager's, and exit from the
 * process itself as it ends), chdir/fchdir and getcwd.
 *
 * The current directory is kept as an inode (where relative paths start)
 * and as text (what getcwd answers): the text is the directory's absolute
 * path found by walking ".." up to the root when the directory is chosen,
 * so symbolic links on the way do not show, as on Linux.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>

/* An argument word as a pid: 1..INT32_MAX, else 0. */
static int pid_arg(uint64_t v)
{
	return v > 0 && v <= INT32_MAX ? (int)v : 0;
}

int64_t do_fork(struct server_request *rq)
{
	if (!request_from_pm(rq))
		return -EPERM;
	const struct fs_fork_args *a = SERVER_IN(rq, struct fs_fork_args);
	int parent = pid_arg(a->parent), child = pid_arg(a->child);
	if (!parent || !child || parent == child)
		return -EINVAL;
	int rc = files_fork(parent, child);
	if (rc == 0) {
		procfs_exe_fork(parent, child);
		text_fork(parent, child);
	}
	return rc;
}

int64_t do_exec(struct server_request *rq)
{
	if (!request_from_pm(rq))
		return -EPERM;
	int pid = pid_arg(SERVER_IN(rq, struct fs_pid_args)->pid);
	if (!pid)
		return -EINVAL;
	files_exec(pid);
	procfs_exe_exec(pid);
	text_exec(pid);
	return 0;
}

int64_t do_exit(struct server_request *rq)
{
	int pid = pid_arg(SERVER_IN(rq, struct fs_pid_args)->pid);
	if (!pid)
		return -EINVAL;
	if (pid != rq->d.requester && !request_from_pm(rq))
		return -EPERM;
	files_exit(pid);
	procfs_exe_exit(pid);
	text_exit(pid);
	return 0;
}

int64_t do_cancel(struct server_request *rq)
{
	/* Only the requester's own calls: a handle of another's finds nothing. */
	uint64_t handle = SERVER_IN(rq, struct fs_cancel_args)->handle;
	if (handle <= UINT32_MAX) {
		pipe_cancel(rq->d.requester, (uint32_t)handle);
		socket_cancel(rq->d.requester, (uint32_t)handle);
		events_cancel(rq->d.requester, (uint32_t)handle);
		locks_cancel(rq->d.requester, (uint32_t)handle);
	}
	return 0;
}

int64_t do_chdir(struct server_request *rq)
{
	static char text[FS_PATH_MAX];
	const struct fs_chdir_args *a = SERVER_IN(rq, struct fs_chdir_args);
	uint32_t ino;
	if (a->by_fd == 1) {   /* fchdir */
		struct open_file *f = files_get(rq->d.requester, a->fd);
		if (!f)
			return -EBADF;
		if (f->kind != FM_DIR)
			return -ENOTDIR;
		if (f->ino == 0)
			return -ENOENT;
		ino = f->ino;
	} else if (a->by_fd != 0) {
		return -EINVAL;
	} else {
		int err = 0;
		const char *cwd;
		uint32_t base;
		const char *path = request_path_at(rq, &base, &cwd, &err);
		if (!path)
			return err;
		struct ext2_stat st;
		int rc = path_lookup(rq, base, path, true, &ino);
		if (rc == 0)
			rc = ext2_stat(fm_fs_for(rq), ino, &st);
		if (rc == 0 && (st.mode & EXT2_S_IFMT) != EXT2_S_IFDIR)
			rc = -ENOTDIR;
		if (rc < 0)
			return fm_result(rc, "chdir");
	}
	int allowed = perm_search(rq, ino);   /* perm.c: the new directory searchable */
	if (allowed < 0)
		return allowed;
	int len = path_of_dir(rq, ino, text, sizeof(text));
	if (len < 0)
		return fm_result(len, "chdir");
	return files_set_cwd(rq->d.requester, ino, text);
}

int64_t do_getcwd(struct server_request *rq)
{
	const char *text;
	if (files_cwd(rq->d.requester, &text) == 0)
		return -ENOENT;   /* removed, as Linux says */
	if (!rq->data)
		return -EINVAL;
	uint64_t len = strlen(text) + 1;
	if (len > SERVER_IN(rq, struct fs_getcwd_args)->size || len > rq->data_size)
		return -ERANGE;
	memcpy(rq->data, text, len);
	return (int64_t)len;
}
