/*
 * execve's strings copied from the caller into kernel runs
 * (posix/exec_strings.h), with Linux's accounting: the pointers are counted
 * first (one word each, argc at least 1), then the path, then every string.
 */
#include <posix/exec_strings.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

uint64_t exec_args_limit(uint64_t stack_rlimit)
{
	uint64_t limit = MIN((uint64_t)EXEC_ARGS_MAX, stack_rlimit / 4);
	return MAX(limit, (uint64_t)EXEC_ARGS_MIN);
}

/* The number of entries of a NULL-terminated user vector, counting no
 * further than max (then max + 1 is returned: too many in any case). */
static long count_vector(uptr_t vec, uint64_t max)
{
	if (!vec)
		return 0;
	for (uint64_t n = 0;; n++) {
		linux_ulong ptr;   /* a user pointer of the ABI */
		if (copy_from_user(&ptr, vec + n * sizeof(ptr), sizeof(ptr)) < 0)
			return -EFAULT;
		if (!ptr || n > max)
			return (long)n;
	}
}

/* Copies one string into the runs, opening a new run when it does not fit
 * in the last one's rest. *left: the bytes the limit still allows. */
static int copy_one(struct exec_strings *s, uptr_t str, uint64_t *left)
{
	uint64_t max = MIN((uint64_t)EXEC_ARG_STRLEN, *left);
	for (;;) {
		uint32_t i = s->nchunks - 1;
		uint64_t room = s->nchunks ? EXEC_CHUNK_PAGES * PAGE_SIZE - s->used[i] : 0;
		if (room > 0) {
			char *dst = (char *)arch_phys_to_virt(s->chunk[i]) + s->used[i];
			long len = copy_string_from_user(dst, str, MIN(max, room));
			if (len >= 0) {
				s->used[i] += (uint32_t)len + 1;
				*left -= (uint64_t)len + 1;
				return 0;
			}
			if (len != -E2BIG || room >= max)
				return (int)len;   /* a fault, or too long for the limit */
		}
		/* It may fit a fresh run (a string never crosses a run's end). */
		if (s->nchunks == EXEC_CHUNKS)
			return -E2BIG;
		paddr_t run = pmm_alloc(EXEC_CHUNK_PAGES);
		if (!run)
			return -ENOMEM;
		s->chunk[s->nchunks] = run;
		s->used[s->nchunks++] = 0;
	}
}

static int copy_vector(struct exec_strings *s, uptr_t vec, uint32_t count, uint64_t *left)
{
	for (uint32_t n = 0; n < count; n++) {
		linux_ulong ptr;
		if (copy_from_user(&ptr, vec + (uint64_t)n * sizeof(ptr), sizeof(ptr)) < 0)
			return -EFAULT;
		if (!ptr)
			return -EFAULT;   /* the vector changed under us (another thread) */
		int err = copy_one(s, ptr, left);
		if (err)
			return err;
	}
	return 0;
}

int exec_strings_copy(struct exec_strings *s, uptr_t argv, uptr_t envp, uint64_t path_bytes,
                      uint64_t limit)
{
	uint64_t max_ptrs = limit / sizeof(linux_ulong);
	long argc = count_vector(argv, max_ptrs);
	if (argc < 0)
		return (int)argc;
	long envc = count_vector(envp, max_ptrs);
	if (envc < 0)
		return (int)envc;
	uint64_t ptr_bytes = ((uint64_t)MAX(argc, 1) + (uint64_t)envc) * sizeof(linux_ulong);
	if (ptr_bytes >= limit || path_bytes > limit - ptr_bytes)
		return -E2BIG;
	uint64_t left = limit - ptr_bytes - path_bytes;
	s->argc = (uint32_t)argc;
	s->envc = (uint32_t)envc;
	int err = copy_vector(s, argv, s->argc, &left);
	if (!err)
		err = copy_vector(s, envp, s->envc, &left);
	return err;
}

void exec_strings_vector(const struct exec_strings *s, const char **vec)
{
	uint32_t n = 0, count = s->argc + s->envc;
	for (uint32_t i = 0; i < s->nchunks && n < count; i++) {
		const char *p = arch_phys_to_virt(s->chunk[i]);
		const char *end = p + s->used[i];
		while (p < end && n < count) {
			vec[n++] = p;
			p += strlen(p) + 1;
		}
	}
}

void exec_strings_free(struct exec_strings *s)
{
	for (uint32_t i = 0; i < s->nchunks; i++)
		pmm_free(s->chunk[i], EXEC_CHUNK_PAGES);
	s->nchunks = 0;
}
