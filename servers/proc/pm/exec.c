/*
 * exec.c - PM_EXEC: checks the path the kernel marshalled, finds the
 * executable (image.c), follows one "#!" line (its interpreter, argument
 * and path into an args ICA) and asks the kernel to replace the caller's
 * image (proc_exec) with the strings the kernel kept from the call. After success the file manager closes the close-on-exec
 * descriptors.
 */
#include "pm.h"

#include <errno.h>
#include <string.h>

#define SHEBANG_MAX        256u
#define PATH_BYTES         4096u   /* the kernel's EXEC_PATH_MAX */
#define SCRIPT_ARGS_PAGES  2u      /* an interpreter, its argument and a path */

/* Parses "#!interp [arg]\n" from the head of a script: 0, or -ENOEXEC. */
static int parse_shebang(const char *head, uint64_t n, char *interp, char *optarg)
{
	uint64_t end = 2;
	while (end < n && end < SHEBANG_MAX && head[end] != '\n')
		end++;
	if (end >= n || head[end] != '\n')
		return -ENOEXEC;
	uint64_t i = 2;
	while (i < end && (head[i] == ' ' || head[i] == '\t'))
		i++;
	uint64_t s = i;
	while (i < end && head[i] != ' ' && head[i] != '\t')
		i++;
	if (i == s)
		return -ENOEXEC;
	memcpy(interp, head + s, i - s);
	interp[i - s] = '\0';
	while (i < end && (head[i] == ' ' || head[i] == '\t'))
		i++;
	uint64_t e = end;
	while (e > i && (head[e - 1] == ' ' || head[e - 1] == '\t' || head[e - 1] == '\r'))
		e--;
	memcpy(optarg, head + i, e - i);
	optarg[e - i] = '\0';
	return 0;
}

/* A script's first arguments (interp, its argument if any, the path) into
 * a fresh ICA: its handle, with the count and bytes used, or -errno. */
static long script_args(const char *interp, const char *optarg, const char *path,
                        uint32_t *argc, uint32_t *used)
{
	long h = myrmex_ica_alloc(SCRIPT_ARGS_PAGES);
	if (h < 0)
		return h;
	char *base = myrmex_ica_addr((uint32_t)h);
	const char *strings[3] = { interp, optarg, path };
	*argc = *used = 0;
	for (int i = 0; i < 3; i++) {
		if (strings[i] == optarg && !optarg[0])
			continue;
		size_t len = strlen(strings[i]) + 1;
		memcpy(base + *used, strings[i], len);
		*used += (uint32_t)len;
		(*argc)++;
	}
	return h;
}

int64_t do_exec(struct server_request *rq)
{
	const struct pm_exec_args *in = SERVER_IN(rq, struct pm_exec_args);
	int pid = rq->d.requester;
	int tid = (int)in->tid;
	uint64_t used = in->used;
	if (rq->d.ndata < 1)
		return -EINVAL;
	uint64_t size;
	const char *path = server_data(rq, 0, &size);
	if (!path || size == 0 || used == 0 || used > size || used > PATH_BYTES ||
	    path[used - 1] != '\0' || strlen(path) != used - 1)
		return -EINVAL;

	/* The caller's file-system ids, stamped by the kernel on its own
	 * channel (include/myrmex/fs.h, FS_CRED_*); another caller counts as root. */
	uint32_t uid = 0, gid = 0;
	if (rq->d.origin == MYRMEX_ORIGIN_KERNEL) {
		const struct myrmex_ctl_header *h = (const struct myrmex_ctl_header *)(uintptr_t)rq->d.control;
		uid = h->reserved[FS_CRED_UID];
		gid = h->reserved[FS_CRED_GID];
	}
	const struct image *im;
	struct myrmex_stat st;
	long r = image_get(pid, path, uid, gid, &im, &st);
	if (r < 0)
		return r;
	char interp[SHEBANG_MAX], optarg[SHEBANG_MAX];
	uint64_t n;
	const char *head = image_head(im, &n);
	int script = n >= 2 && head[0] == '#' && head[1] == '!';
	if (script) {
		r = parse_shebang(head, n, interp, optarg);
		if (r == 0)
			r = image_get(pid, interp, uid, gid, &im, &st);
		if (r < 0)
			return r;
		head = image_head(im, &n);
		if (n >= 2 && head[0] == '#' && head[1] == '!')
			return -ELOOP;   /* one level of interpreter */
	}

	/* The argument strings stay in the kernel (MYRMEX_EXEC_CALLER_ARGS);
	 * a script's interpreter, its argument and its path go first, in
	 * place of argv[0]. */
	struct myrmex_exec how;
	memset(&how, 0, sizeof(how));
	memcpy(how.image, im->ica, im->nica * sizeof(uint32_t));
	how.nimage = im->nica;
	how.image_size = im->size;
	how.flags = MYRMEX_EXEC_CALLER_ARGS;
	/* Set-user-id and set-group-id, as Linux: the bits of the file that
	 * runs (a script's interpreter's, never the script's own); set-group-id
	 * only with the group's execute bit (without it, it means locking). */
	if (st.st_mode & 04000) {
		how.flags |= MYRMEX_EXEC_SETUID;
		how.uid = st.st_uid;
	}
	if ((st.st_mode & 02010) == 02010) {
		how.flags |= MYRMEX_EXEC_SETGID;
		how.gid = st.st_gid;
	}
	long h = 0;
	if (script) {
		h = script_args(interp, optarg, path, &how.argc, &how.args_size);
		if (h < 0)
			return h;
		how.args = (uint32_t)h;
		if (in->argc > 0)
			how.flags |= MYRMEX_EXEC_SKIP_ARGV0;
	}
	r = myrmex_proc_exec(tid, &how);
	if (h > 0)
		myrmex_ica_free((uint32_t)h);
	if (r == 0) {
		uint64_t args[8] = { (uint64_t)pid };
		pm_fs_call(FS_EXEC, args, 0, NULL);
	}
	return r;
}
