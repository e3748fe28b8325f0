/*
 * Host unit test of the TCP/IP server's Internet checksum
 * (servers/net/tcpip/chksum.c) against the plain definition (16-bit words
 * in memory order, end-around carry): every length up to 600 bytes from
 * every start offset 0..7, on random bytes, on all-ones bytes (the carries)
 * and on a known IPv4 header (RFC 1071's example sums aside, a header whose
 * checksum field makes the whole sum 0xffff).
 */
/* unit-sources: servers/net/tcpip/chksum.c */
#define UNIT_SUITE "chksum"
#include "unit.h"

uint16_t tcpip_chksum(const void *data, int len);

static uint16_t reference(const uint8_t *p, int len)
{
	uint32_t sum = 0;
	for (int i = 0; i + 1 < len; i += 2) {
		uint16_t w;
		memcpy(&w, p + i, 2);
		sum += w;
	}
	if (len & 1) {
		uint8_t last[2] = { p[len - 1], 0 };
		uint16_t w;
		memcpy(&w, last, 2);
		sum += w;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static uint8_t buf[608];

/* Every length up to 600 from every start offset 0..7 agrees with the
 * reference: the count of disagreements. */
static int sweep(void)
{
	int bad = 0;
	for (int off = 0; off < 8; off++)
		for (int len = 0; len <= 600; len++)
			bad += tcpip_chksum(buf + off, len) != reference(buf + off, len);
	return bad;
}

UNIT_TEST(random_bytes)
{
	srand(1);
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)rand();
	CHECK_EQ(sweep(), 0);
}

UNIT_TEST(all_ones_carries)
{
	memset(buf, 0xff, sizeof buf);
	CHECK_EQ(sweep(), 0);
}

/* An IPv4 header with its checksum field filled in sums to 0xffff. */
UNIT_TEST(ipv4_header)
{
	static const uint8_t ip[20] = { 0x45, 0, 0, 0x73, 0, 0, 0x40, 0, 0x40, 0x11, 0xb8, 0x61,
	                                0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0, 0xc7 };
	CHECK_EQ(tcpip_chksum(ip, 20), 0xffff);
}
