/*
 * brk/sbrk through the raw system call (musl's malloc does not use the break,
 * so nothing else moves it): brk(0) reads the break, growing gives zeroed
 * writable memory, shrinking gives it back (it reads as zeros when grown
 * again), an impossible break leaves it where it was. Only relations to the
 * first break are printed.
 */
#include "posix_test.h"

#include <stdint.h>
#include <sys/syscall.h>

#define STEP (64 * 1024)

static uintptr_t brk_call(uintptr_t to)
{
	return (uintptr_t)syscall(SYS_brk, to);
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(void)
{
	uintptr_t start = brk_call(0);
	say("brk(0) returns a break: %s\n", yes(start != 0));
	say("brk(0) again is the same: %s\n", yes(brk_call(0) == start));
	uintptr_t grown = brk_call(start + STEP);
	say("grow by 64 KiB: new break is start + 64 KiB: %s\n", yes(grown == start + STEP));
	unsigned char *mem = (unsigned char *)start;
	say("grown memory reads as zeros: %s\n", yes(all_zero(mem, STEP)));
	memset(mem, 0xa5, STEP);
	say("grown memory is writable: %s\n", yes(mem[0] == 0xa5 && mem[STEP - 1] == 0xa5));
	uintptr_t bigger = brk_call(start + 16 * STEP);
	say("grow to 1 MiB: %s\n", yes(bigger == start + 16 * STEP));
	say("earlier contents kept: %s\n", yes(mem[STEP / 2] == 0xa5));
	memset(mem + STEP, 0x5a, 15 * STEP);
	uintptr_t shrunk = brk_call(start + STEP / 2);
	say("shrink to 32 KiB: %s\n", yes(shrunk == start + STEP / 2));
	say("memory below the break kept: %s\n", yes(mem[0] == 0xa5 && mem[STEP / 2 - 1] == 0xa5));
	brk_call(start + 4 * STEP);
	/* The page holding the old break may keep its bytes; the pages after it
	 * were given back and come back as zeros. */
	say("memory given back returns as zeros: %s\n", yes(all_zero(mem + STEP, 3 * STEP)));
	uintptr_t huge = brk_call(start + ((uintptr_t)1 << 46));
	say("an impossible break is refused, break unchanged: %s\n",
	    yes(huge == start + 4 * STEP && brk_call(0) == start + 4 * STEP));
	uintptr_t low = brk_call(start - 16 * STEP);
	say("a break below the start is refused: %s\n", yes(low == start + 4 * STEP));
	say("back to the start: %s\n", yes(brk_call(start) == start));
	return 0;
}
