/*
 * procfs: the /proc server (coreid MYRMEX_COREID_PROCFS, protocol
 * include/myrmex/procfs.h). The file manager asks it for a path below /proc
 * (PROCFS_GET) and keeps the answer as a snapshot; the descriptors, current
 * directory and executable of a process (/proc/<pid>/fd, cwd, exe) are the
 * file manager's own facts and never reach here. The service manager starts
 * it with the server right:
 *
 *     procfs
 */
#include "procfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <myrmex/fs.h>

void out_bytes(struct procfs_out *o, const void *p, size_t n)
{
	if (o->len + n > o->size) {
		o->overflow = 1;
		n = o->size - o->len;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void out_printf(struct procfs_out *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_bytes(o, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void out_entry(struct procfs_out *o, const char *name, char type)
{
	out_printf(o, "%s %c\n", name, type);
}

int procfs_asker;

/* Only the file manager asks: the paths it sends are already resolved,
 * "self" replaced, and the answer goes to its snapshot. */
static int64_t do_get(struct server_request *rq)
{
	long fs = myrmex_server_pid(MYRMEX_COREID_FS);
	if (fs <= 0 || fs != rq->d.requester)
		return -EPERM;
	uint64_t size;
	if (!server_data(rq, 0, &size) || size == 0)
		return -EINVAL;   /* the path and the answer travel in data ICA 0 */
	size_t n = strnlen((const char *)rq->data, rq->data_size);
	if (n >= rq->data_size || n >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	static char path[FS_PATH_MAX];
	memcpy(path, rq->data, n + 1);
	procfs_asker = (int)SERVER_IN(rq, struct procfs_get_args)->pid;
	struct procfs_out o = { (char *)rq->data, rq->data_size, 0, PROCFS_FILE, 0444, 1, 0, 0, 0 };
	int rc;
	char *end;
	long pid = strtol(path, &end, 10);
	if (path[0] >= '1' && path[0] <= '9' && (*end == '\0' || *end == '/') && pid > 0 && pid <= INT32_MAX)
		rc = pid_get((int)pid, *end == '/' ? end + 1 : end, &o);
	else
		rc = system_get(path, &o);
	if (rc < 0)
		return rc;
	if (o.overflow)
		return -EFBIG;
	server_out(rq, 0, o.type);
	server_out(rq, 1, o.perm);
	server_out(rq, 2, o.ino);
	server_out(rq, 3, (uint64_t)o.gid << 32 | o.uid);
	return (int64_t)o.len;
}

static const struct server_op ops[] = {
	[PROCFS_GET] = { do_get, 0 },
};

static const struct server procfs_server = {
	.name = PROCFS_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
};

int main(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PROCFS);
	if (r < 0) {
		myrmex_log(PROCFS_NAME, "registserver(%u): %ld", MYRMEX_COREID_PROCFS, r);
		return 1;
	}
	server_run(&procfs_server);
}
