/*
 * The Internet checksum for lwIP (its LWIP_CHKSUM, port/lwipopts.h): the
 * 16-bit ones' complement sum of the bytes taken as 16-bit words in memory
 * order, returned unfolded into no more than 16 bits and not inverted, as
 * lwIP's own lwip_standard_chksum returns it. Eight bytes per addition
 * (lwIP's portable versions take two or four), with unaligned loads, which
 * x86-64 allows: it runs over every segment's payload on send and receive,
 * and was most of the cost per byte of sending (docs/benchmarks.md).
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

uint16_t tcpip_chksum(const void *data, int len)
{
	const uint8_t *p = data;
	uint64_t sum = 0, w;
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
