/*
 * random.c - getrandom(2) and the kernel's random words.
 *
 * Each word comes from the CPU's generator when it has one
 * (arch_random64: RDRAND on x86-64, present under QEMU's -cpu max and on
 * every x86-64 CPU since 2013). Without it (or when it stays empty) a
 * xorshift1024* generator is used, seeded at its first use from the jitter
 * of 64 time-stamp counter readings taken around a short busy loop and
 * stirred with the counter again at every word: unpredictable enough for
 * hash seeds, stack canaries and address randomisation, not for keys
 * (docs/posix.md). /dev/random and /dev/urandom (the file manager) read
 * this same call.
 *
 * The flags are Linux's: GRND_NONBLOCK and GRND_RANDOM are accepted (the
 * source never blocks, as Linux's once seeded), GRND_INSECURE too, but not
 * GRND_INSECURE with GRND_RANDOM (-EINVAL), nor any other bit.
 */
#include <posix/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

#define GRND_NONBLOCK 1u   /* Linux's flags */
#define GRND_RANDOM   2u
#define GRND_INSECURE 4u

#define GETRANDOM_MAX (1u << 20)   /* bytes one call gives at most (Linux: 32 MiB - 1) */

static uint64_t state[16];
static unsigned state_pos;
static bool seeded;

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The seed: the low bits of successive counter deltas vary with caches,
 * interrupts and (under emulation) the host's scheduling. */
static void seed(void)
{
	uint64_t mix = arch_read_tsc();
	for (int i = 0; i < 64; i++) {
		uint64_t t0 = arch_read_tsc();
		for (volatile int spin = 0; spin < 100 + (int)(t0 & 63); spin++)
			;
		mix = (mix << 5 | mix >> 59) ^ (arch_read_tsc() - t0);
	}
	for (unsigned i = 0; i < 16; i++)
		state[i] = splitmix(&mix);
	seeded = true;
}

static uint64_t xorshift1024(void)
{
	if (!seeded)
		seed();
	uint64_t s0 = state[state_pos];
	state_pos = (state_pos + 1) & 15;
	uint64_t s1 = state[state_pos] ^ arch_read_tsc();
	s1 ^= s1 << 31;
	state[state_pos] = s1 ^ s0 ^ (s1 >> 11) ^ (s0 >> 30);
	return state[state_pos] * 0x106689d45497fdb5ull;
}

static uint64_t random_word(void)
{
	uint64_t v;
	return arch_random64(&v) ? v : xorshift1024();
}

long sys_getrandom(const struct syscall_args *a)
{
	uptr_t buf = a->arg[0];
	uint64_t len = a->arg[1], flags = a->arg[2];
	if (flags & ~(uint64_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & GRND_INSECURE) && (flags & GRND_RANDOM))
		return -EINVAL;
	len = MIN(len, GETRANDOM_MAX);
	if (!user_range_ok(buf, len))
		return -EFAULT;
	for (uint64_t done = 0; done < len;) {
		uint64_t r = random_word(), n = MIN(len - done, sizeof(r));
		if (copy_to_user(buf + done, &r, n) < 0)
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)len;
}
