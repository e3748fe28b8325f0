/*
 * Builds the initial user stack image (see posix/ustack.h). The image is
 * assembled downwards from the end of buf, mirroring the user stack: strings
 * and random bytes first (highest), then, 16-byte aligned, the vectors.
 */
#include <posix/ustack.h>
#include <kernel/string.h>

struct builder {
	uint8_t *buf;
	size_t size, used;   /* bytes used at the end of buf */
	uint64_t top;        /* the user address of the end of buf */
	int overflow;
};

/* Reserves n bytes below what is used; returns their user address. */
static uint64_t reserve(struct builder *b, size_t n)
{
	if (n > b->size - b->used) {
		b->overflow = 1;
		return 0;
	}
	b->used += n;
	return b->top - b->used;
}

static uint8_t *at(struct builder *b, uint64_t uaddr)
{
	return b->buf + b->size - (size_t)(b->top - uaddr);
}

static uint64_t push_bytes(struct builder *b, const void *data, size_t n)
{
	uint64_t ua = reserve(b, n);
	if (!b->overflow)
		memcpy(at(b, ua), data, n);
	return ua;
}

static uint64_t push_string(struct builder *b, const char *s)
{
	return push_bytes(b, s, strlen(s) + 1);
}

uint64_t ustack_build(const struct ustack_params *p, uint64_t top, void *buf, size_t size,
                      size_t *used)
{
	struct builder b = { buf, size, 0, top, 0 };
	/* Strings, highest first: execfn, platform, random bytes, envp, argv. */
	uint64_t execfn = push_string(&b, p->execfn);
	uint64_t platform = push_string(&b, p->platform);
	uint64_t random = push_bytes(&b, p->random, sizeof(p->random));
	/* Pushed last to first, each vector's strings lie in order, the first
	 * lowest: only its address is kept (no array as long as the vector, which
	 * may hold thousands of strings, on the kernel stack). */
	uint64_t env_next = 0, arg_next = 0;
	uint64_t env_end = b.top - b.used;
	for (int i = p->envc - 1; i >= 0; i--)
		env_next = push_string(&b, p->envp[i]);
	if (p->layout)
		*p->layout = (struct ustack_layout){ p->envc ? env_next : env_end, env_end };
	for (int i = p->argc - 1; i >= 0; i--)
		arg_next = push_string(&b, p->argv[i]);
	if (b.overflow)
		return 0;

	/* AT_SYSINFO_EHDR first, as Linux puts it, and only with a vDSO. */
	const uint64_t aux[][2] = {
		{ AT_SYSINFO_EHDR, p->sysinfo_ehdr },
		{ AT_PHDR, p->phdr }, { AT_PHENT, p->phent }, { AT_PHNUM, p->phnum },
		{ AT_PAGESZ, p->pagesz }, { AT_BASE, 0 }, { AT_FLAGS, 0 }, { AT_ENTRY, p->entry },
		{ AT_UID, p->uid }, { AT_EUID, p->euid }, { AT_GID, p->gid }, { AT_EGID, p->egid },
		{ AT_HWCAP, p->hwcap }, { AT_CLKTCK, p->clktck }, { AT_SECURE, p->secure },
		{ AT_RANDOM, random }, { AT_PLATFORM, platform }, { AT_EXECFN, execfn },
		{ AT_NULL, 0 },
	};
	size_t first = p->sysinfo_ehdr ? 0 : 1, naux = sizeof(aux) / sizeof(aux[0]) - first;
	size_t words = 1 + (size_t)p->argc + 1 + (size_t)p->envc + 1 + 2 * naux;
	/* Align so that the stack pointer (at argc) ends up 16-byte aligned. */
	uint64_t below = b.top - b.used - words * sizeof(linux_auxv_word);
	reserve(&b, (size_t)(below & 15));
	uint64_t sp = reserve(&b, words * sizeof(linux_auxv_word));
	if (b.overflow)
		return 0;
	linux_auxv_word *w = (linux_auxv_word *)at(&b, sp);
	*w++ = (linux_auxv_word)p->argc;
	for (int i = 0; i < p->argc; i++) {
		*w++ = arg_next;
		arg_next += strlen(p->argv[i]) + 1;
	}
	*w++ = 0;
	for (int i = 0; i < p->envc; i++) {
		*w++ = env_next;
		env_next += strlen(p->envp[i]) + 1;
	}
	*w++ = 0;
	for (size_t i = first; i < first + naux; i++) {
		*w++ = aux[i][0];
		*w++ = aux[i][1];
	}
	*used = b.used;
	return sp;
}
