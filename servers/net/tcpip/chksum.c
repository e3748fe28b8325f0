/*
 * The Internet checksum for lwIP (its LWIP_CHKSUM, port/lwipopts.h): the
 * 16-bit ones' complement sum of the bytes taken as 16-bit words in memory
 * order, returned unfolded into no more than 16 bits and not inverted, as
 * lwIP's own lwip_standard_chksum returns it. Eight bytes per addition
 * (lwIP's portable versions take two or four), with unaligned loads, which
 * x86-64 allows: it runs over every segment's payload on send and receive,
 * and was most of the cost per byte of sending (docs/benchmarks.md). Where
 * words have 32 bits, aligned 32-bit loads do the bulk (sum_aligned32).
 *
 * Why 64-bit words may be summed as they are: 2^16 = 1 modulo 0xffff, so a
 * ones' complement sum of 64-bit words with end-around carry, folded to 16
 * bits, equals the sum of their four 16-bit parts; a 16-bit word added at
 * any even offset lands in the same sum.
 */
#include <stdint.h>
#include <string.h>

static inline uint64_t add_carry(uint64_t sum, uint64_t v)
{
	sum += v;
	return sum + (sum < v);
}

#if UINTPTR_MAX <= 0xffffffffu
/*
 * Where words have 32 bits (the SH-4), a load of 64 bits through memcpy from
 * a byte pointer is a call to memcpy (the CPU faults on a misaligned load, so
 * GCC may not assume better): about 9 instructions a byte of a send, against
 * 1.2 here. The bytes from the first 4-byte boundary on are summed as
 * aligned 32-bit words into a 64-bit sum, which cannot overflow (2^32 additions at most); the same
 * congruence lets 32-bit words stand for their two 16-bit halves. A buffer
 * at an odd address is summed by the general loop below.
 */
static uint64_t sum_aligned32(const uint8_t **pp, int *lenp)
{
	const uint8_t *p = *pp;
	int len = *lenp;
	uint64_t sum = 0;
	if (((uintptr_t)p & 2) && len >= 2) {   /* to the 4-byte boundary */
		uint16_t h;
		memcpy(&h, __builtin_assume_aligned(p, 2), 2);
		sum += h;
		p += 2, len -= 2;
	}
	/* memcpy from a pointer known aligned: one 32-bit load, no aliasing
	 * question about the buffer's bytes. */
	uint32_t w[4];
	for (; len >= 16; len -= 16, p += 16) {
		memcpy(w, __builtin_assume_aligned(p, 4), 16);
		sum += (uint64_t)w[0] + w[1] + w[2] + w[3];
	}
	for (; len >= 4; len -= 4, p += 4) {
		memcpy(w, __builtin_assume_aligned(p, 4), 4);
		sum += w[0];
	}
	*pp = p;
	*lenp = len;
	return sum;
}
#endif

uint16_t tcpip_chksum(const void *data, int len)
{
	const uint8_t *p = data;
	uint64_t sum = 0, w;
#if UINTPTR_MAX <= 0xffffffffu
	if (!((uintptr_t)p & 1))
		sum = sum_aligned32(&p, &len);
#endif
	for (; len >= 32; len -= 32, p += 32) {
		uint64_t a, b, c, d;
		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&c, p + 16, 8);
		memcpy(&d, p + 24, 8);
		sum = add_carry(add_carry(add_carry(add_carry(sum, a), b), c), d);
	}
	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		sum = add_carry(sum, w);
	}
	for (; len >= 2; len -= 2, p += 2) {
		uint16_t h;
		memcpy(&h, p, 2);
		sum = add_carry(sum, h);
	}
	if (len > 0) {   /* the last byte is the first of its word: in memory order, then 0 */
		uint8_t last[2] = { p[0], 0 };
		uint16_t h;
		memcpy(&h, last, 2);
		sum = add_carry(sum, h);
	}
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffffu) + (sum >> 16);
	sum = (sum & 0xffffu) + (sum >> 16);
	return (uint16_t)sum;
}
