/*
 * memcpy, memmove and memset for the SH-4 kernel (each port supplies these
 * three; kernel/core/string.c has the rest): words when the pointers allow,
 * bytes otherwise.
 */
#include <kernel/string.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(uint32_t *)d = *(const uint32_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	if (((uintptr_t)d & 3) == 0) {
		uint32_t w = (uint8_t)c * 0x01010101u;
		for (; n >= 4; n -= 4, d += 4)
			*(uint32_t *)d = w;
	}
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}
