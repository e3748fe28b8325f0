/*
 * Host unit tests of the initial user stack builder (kernel/posix/ustack.c):
 * the image is built into a heap buffer, then read back the way a program's
 * start-up code would, translating each user address into the buffer.
 */
/* unit-sources: kernel/posix/ustack.c */
#define UNIT_SUITE "ustack"
#include "unit.h"

#include <posix/ustack.h>

#define TOP 0x7ffffffff000ull
#define CANARY 0xa5

/* A stack image under test: the builder gets the last size bytes of a larger
 * heap region (whose end stands for the user address top); the bytes before
 * them hold a canary that must survive. */
struct stk {
	uint8_t *region;
	size_t region_size;
	uint8_t *buf;         /* region + region_size - size */
	size_t size;
	uint64_t top;
	uint64_t sp;
	size_t used;
};

static void stk_build(struct stk *s, const struct ustack_params *p, uint64_t top, size_t size)
{
	s->region_size = size + 64;
	s->region = malloc(s->region_size);
	if (!s->region)
		abort();
	memset(s->region, CANARY, s->region_size);
	s->buf = s->region + s->region_size - size;
	s->size = size;
	s->top = top;
	s->used = (size_t)-1;
	s->sp = ustack_build(p, top, s->buf, size, &s->used);
}

static void stk_free(struct stk *s)
{
	free(s->region);
}

/* Nothing was written below the image [top - used, top) when it was built,
 * or below the buffer when it was refused. */
static int stk_outside_untouched(const struct stk *s)
{
	size_t keep = s->region_size - (s->sp ? s->used : s->size);
	for (size_t i = 0; i < keep; i++)
		if (s->region[i] != CANARY)
			return 0;
	return 1;
}

/* The buffer bytes of user addresses [u, u + n), or NULL when they are not
 * all inside the image. */
static const uint8_t *at(const struct stk *s, uint64_t u, size_t n)
{
	uint64_t lo = s->top - s->used;
	if (u < lo || u > s->top || n > s->top - u)
		return NULL;
	return s->region + s->region_size - (size_t)(s->top - u);
}

static uint64_t word(const struct stk *s, uint64_t u)
{
	const uint8_t *b = at(s, u, 8);
	uint64_t v = 0xdeadbeefdeadbeefull;
	if (b)
		memcpy(&v, b, 8);
	return v;
}

/* The string at user address u, if it is NUL-terminated inside the image. */
static const char *string_at(const struct stk *s, uint64_t u)
{
	const uint8_t *b = at(s, u, 1);
	if (!b)
		return NULL;
	size_t room = (size_t)(s->top - u);
	return memchr(b, 0, room) ? (const char *)b : NULL;
}

static struct ustack_params sample_params(void)
{
	static const char *const argv[] = { "prog", "a", "bc" };
	static const char *const envp[] = { "X=1" };
	struct ustack_params p = {
		.argv = argv, .argc = 3, .envp = envp, .envc = 1,
		.execfn = "/bin/prog", .platform = "x86_64",
		.phdr = 0x400040, .phent = 56, .phnum = 4, .entry = 0x401000,
		.hwcap = 0x178bfbff, .clktck = 100, .pagesz = 4096,
	};
	for (int i = 0; i < 16; i++)
		p.random[i] = (uint8_t)(0xa0 + i * 7);
	return p;
}

/* Reads the whole image back and checks it against p. */
static void check_image(const struct stk *s, const struct ustack_params *p)
{
	REQUIRE(s->sp != 0);
	CHECK_EQ(s->sp % 16, 0);
	REQUIRE(s->used <= s->size);
	CHECK_EQ(s->sp, s->top - s->used);
	CHECK(stk_outside_untouched(s));

	uint64_t u = s->sp;
	CHECK_EQ(word(s, u), (uint64_t)p->argc);
	u += 8;
	uint64_t lowest_string = s->top;
	for (int i = 0; i < p->argc; i++, u += 8) {
		uint64_t ptr = word(s, u);
		const char *str = string_at(s, ptr);
		CHECK_STR(str, p->argv[i]);
		lowest_string = ptr < lowest_string ? ptr : lowest_string;
	}
	CHECK_EQ(word(s, u), 0);                /* argv[argc] */
	u += 8;
	for (int i = 0; i < p->envc; i++, u += 8) {
		uint64_t ptr = word(s, u);
		CHECK_STR(string_at(s, ptr), p->envp[i]);
		lowest_string = ptr < lowest_string ? ptr : lowest_string;
	}
	CHECK_EQ(word(s, u), 0);                /* envp[envc] */
	u += 8;

	/* The auxiliary vector: each key at most once, AT_NULL last. */
	int seen[64] = { 0 };
	int pairs = 0, ended = 0;
	while (pairs < 64 && at(s, u, 16)) {
		uint64_t key = word(s, u), val = word(s, u + 8);
		u += 16;
		pairs++;
		if (key == AT_NULL) {
			CHECK_EQ(val, 0);
			ended = 1;
			break;
		}
		REQUIRE(key < 64);
		CHECK_EQ(seen[key], 0);
		seen[key]++;
		switch (key) {
		case AT_PHDR:
			CHECK_EQ(val, p->phdr);
			break;
		case AT_PHENT:
			CHECK_EQ(val, p->phent);
			break;
		case AT_PHNUM:
			CHECK_EQ(val, p->phnum);
			break;
		case AT_PAGESZ:
			CHECK_EQ(val, p->pagesz);
			break;
		case AT_ENTRY:
			CHECK_EQ(val, p->entry);
			break;
		case AT_HWCAP:
			CHECK_EQ(val, p->hwcap);
			break;
		case AT_CLKTCK:
			CHECK_EQ(val, p->clktck);
			break;
		case AT_BASE: case AT_FLAGS: case AT_UID: case AT_EUID: case AT_GID:
		case AT_EGID: case AT_SECURE:
			CHECK_EQ(val, 0);
			break;
		case AT_RANDOM: {
			const uint8_t *r = at(s, val, 16);
			CHECK(r && memcmp(r, p->random, 16) == 0);
			lowest_string = val < lowest_string ? val : lowest_string;
			break;
		}
		case AT_PLATFORM:
			CHECK_STR(string_at(s, val), p->platform);
			lowest_string = val < lowest_string ? val : lowest_string;
			break;
		case AT_EXECFN:
			CHECK_STR(string_at(s, val), p->execfn);
			lowest_string = val < lowest_string ? val : lowest_string;
			break;
		default:
			unit_fail(__FILE__, __LINE__, "unexpected auxv key %llu",
			          (unsigned long long)key);
		}
	}
	CHECK(ended);
	static const int required[] = { AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_ENTRY,
	                                AT_RANDOM, AT_PLATFORM, AT_EXECFN, AT_UID, AT_EUID,
	                                AT_GID, AT_EGID, AT_SECURE, AT_CLKTCK, AT_HWCAP };
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!seen[required[i]])
			unit_fail(__FILE__, __LINE__, "auxv lacks key %d", required[i]);
	/* The vectors end below every string (nothing overlaps). */
	CHECK(u <= lowest_string);
}

UNIT_TEST(sample_layout)
{
	struct ustack_params p = sample_params();
	struct stk s;
	stk_build(&s, &p, TOP, 4096);
	check_image(&s, &p);
	/* The details the brief spells out, checked once more by position. */
	CHECK_EQ(s.sp % 16, 0);
	CHECK_EQ(word(&s, s.sp), 3);
	CHECK_STR(string_at(&s, word(&s, s.sp + 8)), "prog");
	CHECK_STR(string_at(&s, word(&s, s.sp + 16)), "a");
	CHECK_STR(string_at(&s, word(&s, s.sp + 24)), "bc");
	CHECK_EQ(word(&s, s.sp + 32), 0);
	CHECK_STR(string_at(&s, word(&s, s.sp + 40)), "X=1");
	CHECK_EQ(word(&s, s.sp + 48), 0);
	/* The first auxv entry follows envp's NULL. */
	CHECK(word(&s, s.sp + 56) != AT_NULL);
	CHECK(s.used < 4096);
	stk_free(&s);
}

UNIT_TEST(auxv_values)
{
	struct ustack_params p = sample_params();
	struct stk s;
	stk_build(&s, &p, TOP, 4096);
	REQUIRE(s.sp != 0);
	/* Look the keys up as getauxval would. */
	uint64_t u = s.sp + 8 * (1 + 3 + 1 + 1 + 1);
	uint64_t pagesz = 0, phdr = 0, phnum = 0, entry = 0, random = 0, execfn = 0, platform = 0;
	int n = 0;
	for (; n < 64; n++, u += 16) {
		uint64_t key = word(&s, u), val = word(&s, u + 8);
		if (key == AT_NULL)
			break;
		if (key == AT_PAGESZ)
			pagesz = val;
		if (key == AT_PHDR)
			phdr = val;
		if (key == AT_PHNUM)
			phnum = val;
		if (key == AT_ENTRY)
			entry = val;
		if (key == AT_RANDOM)
			random = val;
		if (key == AT_EXECFN)
			execfn = val;
		if (key == AT_PLATFORM)
			platform = val;
	}
	CHECK(n < 64);
	CHECK_EQ(pagesz, 4096);
	CHECK_EQ(phdr, 0x400040);
	CHECK_EQ(phnum, 4);
	CHECK_EQ(entry, 0x401000);
	const uint8_t *r = at(&s, random, 16);
	REQUIRE(r != NULL);
	for (int i = 0; i < 16; i++)
		CHECK_EQ(r[i], (uint8_t)(0xa0 + i * 7));
	CHECK_STR(string_at(&s, execfn), "/bin/prog");
	CHECK_STR(string_at(&s, platform), "x86_64");
	/* AT_NULL is the last word of the vectors; the strings come after. */
	CHECK(u + 16 <= random && u + 16 <= execfn && u + 16 <= platform);
	stk_free(&s);
}

UNIT_TEST(alignment_for_all_string_lengths)
{
	char arg[64], env[64];
	const char *argv[2] = { arg, "x" };
	const char *envp[1] = { env };
	for (int alen = 0; alen < 40; alen++) {
		for (int elen = 0; elen < 20; elen++) {
			memset(arg, 'a', (size_t)alen);
			arg[alen] = '\0';
			memset(env, 'e', (size_t)elen);
			env[elen] = '\0';
			struct ustack_params p = sample_params();
			p.argv = argv;
			p.argc = 2;
			p.envp = envp;
			p.envc = 1;
			p.execfn = arg;
			struct stk s;
			stk_build(&s, &p, TOP, 2048);
			check_image(&s, &p);
			stk_free(&s);
			if (unit_failures)
				return;
		}
	}
}

UNIT_TEST(top_not_16_byte_aligned)
{
	/* The stack pointer is aligned even when the top is only 8-aligned. */
	struct ustack_params p = sample_params();
	for (uint64_t top = TOP - 64; top <= TOP; top += 8) {
		struct stk s;
		stk_build(&s, &p, top, 4096);
		check_image(&s, &p);
		stk_free(&s);
	}
}

UNIT_TEST(too_small_buffer)
{
	struct ustack_params p = sample_params();
	struct stk s;
	stk_build(&s, &p, TOP, 4096);
	REQUIRE(s.sp != 0);
	size_t need = s.used;
	uint64_t sp = s.sp;
	stk_free(&s);

	/* Exactly the size it needs: the same image. */
	stk_build(&s, &p, TOP, need);
	CHECK_EQ(s.sp, sp);
	CHECK_EQ(s.used, need);
	check_image(&s, &p);
	stk_free(&s);

	/* Any smaller: refused, and nothing written outside the buffer. */
	static const size_t sizes[] = { 0, 1, 8, 16, 24, 32, 64, 100 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		stk_build(&s, &p, TOP, sizes[i]);
		CHECK_EQ(s.sp, 0);
		CHECK(stk_outside_untouched(&s));
		stk_free(&s);
	}
	for (size_t size = need - 48; size < need; size++) {
		stk_build(&s, &p, TOP, size);
		CHECK_EQ(s.sp, 0);
		CHECK(stk_outside_untouched(&s));
		stk_free(&s);
	}
	/* Room for the strings but not for the vectors. */
	stk_build(&s, &p, TOP, 64);
	CHECK_EQ(s.sp, 0);
	stk_free(&s);
}

UNIT_TEST(zero_args)
{
	struct ustack_params p = sample_params();
	p.argv = NULL;
	p.argc = 0;
	p.envp = NULL;
	p.envc = 0;
	p.execfn = "";
	struct stk s;
	stk_build(&s, &p, TOP, 1024);
	check_image(&s, &p);
	CHECK_EQ(word(&s, s.sp), 0);            /* argc */
	CHECK_EQ(word(&s, s.sp + 8), 0);        /* argv[0] */
	CHECK_EQ(word(&s, s.sp + 16), 0);       /* envp[0] */
	CHECK(word(&s, s.sp + 24) != AT_NULL); /* auxv starts here */
	stk_free(&s);
}

UNIT_TEST(many_args)
{
	enum { N = 128 };
	static char strings[2 * N][24];
	const char *argv[N], *envp[N];
	for (int i = 0; i < N; i++) {
		snprintf(strings[i], sizeof(strings[i]), "arg-%d", i);
		snprintf(strings[N + i], sizeof(strings[N + i]), "VAR%d=%d", i, i * i);
		argv[i] = strings[i];
		envp[i] = strings[N + i];
	}
	struct ustack_params p = sample_params();
	p.argv = argv;
	p.argc = N;
	p.envp = envp;
	p.envc = N;
	struct stk s;
	stk_build(&s, &p, TOP, 32768);
	check_image(&s, &p);
	stk_free(&s);
	/* The loader's 32 KiB is not enough for 128 + 128 strings of 200 bytes. */
	static char big[2 * N][200];
	for (int i = 0; i < N; i++) {
		memset(big[i], 'a', 199);
		memset(big[N + i], 'e', 199);
		argv[i] = big[i];
		envp[i] = big[N + i];
	}
	stk_build(&s, &p, TOP, 32768);
	CHECK_EQ(s.sp, 0);
	CHECK(stk_outside_untouched(&s));
	stk_free(&s);
}
