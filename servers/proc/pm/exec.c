/*
 * exec.c - PM_EXEC: checks the strings the kernel marshalled, finds the
 * executable (image.c), follows one "#!" line, lays the argument strings
 * into an args ICA and asks the kernel to replace the caller's image
 * (proc_exec). After success the file manager closes the close-on-exec
 * descriptors.
 */
#include "pm.h"

#include <errno.h>
#include <string.h>

#define ARGS_MAX_PAGES  64u
#define SHEBANG_MAX     256u
#define STRINGS_MAX     4096u

/* The argument strings handed to the kernel, built in an ICA. */
struct args {
	char *base;
	uint32_t handle, size, used, argc, envc;
};

static int args_add(struct args *a, const char *s, size_t len)
{
	if (a->used + len + 1 > a->size)
		return -E2BIG;
	memcpy(a->base + a->used, s, len);
	a->base[a->used + len] = '\0';
	a->used += (uint32_t)len + 1;
	return 0;
}

/* Counts the NUL-terminated strings in [p, p + len), which ends in a NUL. */
static uint32_t count_strings(const char *p, size_t len)
{
	uint32_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += p[i] == '\0';
	return n;
}

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

/* Fills the args ICA: argv (rewritten for a script), then envp. */
static long build_args(struct args *a, const char *path, const char *argv, uint32_t argc,
                       const char *envp, uint32_t envc, const char *interp, const char *optarg)
{
	long r = 0;
	const char *s = argv;
	if (interp) {
		r = args_add(a, interp, strlen(interp));
		if (!r && optarg[0])
			r = args_add(a, optarg, strlen(optarg));
		if (!r)
			r = args_add(a, path, strlen(path));
		a->argc = optarg[0] ? 3 : 2;
		if (argc > 0)   /* the script's argv[0] gives way to its path */
			s += strlen(s) + 1;
		for (uint32_t i = 1; !r && i < argc; i++, s += strlen(s) + 1, a->argc++)
			r = args_add(a, s, strlen(s));
	} else {
		for (uint32_t i = 0; !r && i < argc; i++, s += strlen(s) + 1, a->argc++)
			r = args_add(a, s, strlen(s));
	}
	s = envp;
	for (uint32_t i = 0; !r && i < envc; i++, s += strlen(s) + 1, a->envc++)
		r = args_add(a, s, strlen(s));
	return r;
}

int64_t do_exec(struct server_request *rq)
{
	const struct pm_exec_args *in = SERVER_IN(rq, struct pm_exec_args);
	int pid = rq->d.requester;
	int tid = (int)in->tid;
	uint64_t argc = in->argc, envc = in->envc, used = in->used;
	if (rq->d.ndata < 1 || argc > STRINGS_MAX || envc > STRINGS_MAX)
		return -EINVAL;
	uint64_t size;
	const char *data = server_data(rq, 0, &size);
	if (!data || size == 0)
		return -EINVAL;
	if (used == 0 || used > size || data[used - 1] != '\0' ||
	    count_strings(data, used) != 1 + argc + envc)
		return -EINVAL;
	const char *path = data;
	const char *argv = path + strlen(path) + 1;
	const char *envp = argv;
	for (uint64_t i = 0; i < argc; i++)
		envp += strlen(envp) + 1;

	/* The caller's file-system ids, stamped by the kernel on its own
	 * channel (include/myrmex/fs.h, FS_CRED_*); another caller counts as root. */
	uint32_t uid = 0, gid = 0;
	if (rq->d.origin == MYRMEX_ORIGIN_KERNEL) {
		const struct myrmex_ctl_header *h = (const struct myrmex_ctl_header *)(uintptr_t)rq->d.control;
		uid = h->reserved[FS_CRED_UID];
		gid = h->reserved[FS_CRED_GID];
	}
	const struct image *im;
	long r = image_get(pid, path, uid, gid, &im);
	if (r < 0)
		return r;
	char interp[SHEBANG_MAX], optarg[SHEBANG_MAX];
	uint64_t n;
	const char *head = image_head(im, &n);
	int script = n >= 2 && head[0] == '#' && head[1] == '!';
	if (script) {
		r = parse_shebang(head, n, interp, optarg);
		if (r == 0)
			r = image_get(pid, interp, uid, gid, &im);
		if (r < 0)
			return r;
		head = image_head(im, &n);
		if (n >= 2 && head[0] == '#' && head[1] == '!')
			return -ELOOP;   /* one level of interpreter */
	}

	long h = myrmex_ica_alloc(ARGS_MAX_PAGES);
	if (h < 0)
		return h;
	struct args a = { myrmex_ica_addr((uint32_t)h), (uint32_t)h, ARGS_MAX_PAGES * 4096, 0, 0, 0 };
	r = build_args(&a, path, argv, (uint32_t)argc, envp, (uint32_t)envc,
	               script ? interp : NULL, optarg);
	if (r == 0) {
		struct myrmex_exec how;
		memset(&how, 0, sizeof(how));
		memcpy(how.image, im->ica, im->nica * sizeof(uint32_t));
		how.nimage = im->nica;
		how.image_size = im->size;
		how.args = a.handle;
		how.argc = a.argc;
		how.envc = a.envc;
		how.args_size = a.used;
		r = myrmex_proc_exec(tid, &how);
	}
	myrmex_ica_free(a.handle);
	if (r == 0) {
		uint64_t args[8] = { (uint64_t)pid };
		pm_fs_call(FS_EXEC, args, 0, NULL);
	}
	return r;
}
