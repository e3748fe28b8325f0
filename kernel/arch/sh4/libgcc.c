/*
 * The compiler's helpers that Debian's SH-4 libgcc.a cannot provide to a
 * kernel: its C helpers are position-independent code reaching their
 * tables through a GOT (r12) that a static kernel does not set up, so
 * __clzsi2 faulted and __udivdi3, which reads the same table, returned
 * wrong quotients. 64-bit division by shift and subtract; bit counts by
 * loops. libgcc's assembly helpers (32-bit division, block moves) are fine
 * and still come from it.
 */
#include <stdint.h>

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
int __clzsi2(uint32_t x);
int __ctzsi2(uint32_t x);
int __clzdi2(uint64_t x);
int __ctzdi2(uint64_t x);

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, r = 0;
	if (d == 0) {
		if (rem)
			*rem = 0;
		return 0;   /* the kernel never divides by zero; no trap to give */
	}
	int bits = 64;
	while (bits > 0 && !(n >> 63)) {   /* skip the leading zeros */
		n <<= 1;
		bits--;
	}
	for (; bits > 0; bits--) {
		r = (r << 1) | (n >> 63);
		n <<= 1;
		q <<= 1;
		if (r >= d) {
			r -= d;
			q |= 1;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	return __udivmoddi4(n, d, 0);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;
	__udivmoddi4(n, d, &r);
	return r;
}

int64_t __divdi3(int64_t n, int64_t d)
{
	uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
	uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
	uint64_t q = __udivmoddi4(un, ud, 0);
	return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}

int64_t __moddi3(int64_t n, int64_t d)
{
	uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
	uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
	uint64_t r;
	__udivmoddi4(un, ud, &r);
	return n < 0 ? -(int64_t)r : (int64_t)r;
}

/* Leading and trailing zeros; undefined for 0 (GCC's contract), 32 or 64 here. */
int __clzsi2(uint32_t x)
{
	int n = 0;
	for (uint32_t bit = 1u << 31; bit && !(x & bit); bit >>= 1)
		n++;
	return n;
}

int __ctzsi2(uint32_t x)
{
	int n = 0;
	for (uint32_t bit = 1; bit && !(x & bit); bit <<= 1)
		n++;
	return n;
}

int __clzdi2(uint64_t x)
{
	return (x >> 32) ? __clzsi2((uint32_t)(x >> 32)) : 32 + __clzsi2((uint32_t)x);
}

int __ctzdi2(uint64_t x)
{
	return (uint32_t)x ? __ctzsi2((uint32_t)x) : 32 + __ctzsi2((uint32_t)(x >> 32));
}
