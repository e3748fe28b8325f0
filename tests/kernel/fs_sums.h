/*
 * fs_sums.h - what the file-system tests share with the host tools: the
 * CRC-32 of the manifest /SUMS that tools/mkfsimage.py writes into fs.img
 * (zlib's crc32: reflected polynomial 0xedb88320, starting from 0), the
 * parser of its lines, and the byte pattern the write tests write, which
 * tools/fscheck.py computes to judge the image afterwards.
 *
 * Header only and pure C (no system calls): the booted tests t_fs*.c
 * include it, and so does the host unit test tests/unit/test_fsimages.c,
 * which checks the manifest against the image with the ext2 library.
 *
 * /SUMS lines (sorted by path; the root and /SUMS itself are not listed):
 *     f <size> <crc32 as 8 hex digits> <path>     a regular file
 *     d <entries, . and .. left out> <path>        a directory
 */
#ifndef FS_SUMS_H
#define FS_SUMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* crc32(0, data) is the checksum of data; crc32(crc32(0, a), b) that of a
 * followed by b. */
static inline uint32_t fs_crc32(uint32_t crc, const void *data, size_t len)
{
	static uint32_t table[256];
	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	const uint8_t *p = data;
	crc = ~crc;
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

struct fs_sum {
	char kind;             /* 'f' or 'd' */
	uint64_t size;         /* f: bytes; d: entries */
	uint32_t crc;          /* f only */
	const char *path;      /* into the parsed text */
	int seen;              /* for the caller's bookkeeping */
};

/*
 * Parses the NUL-terminated line (without its newline) into *out; the path
 * points into line. Returns 1 for an entry, 0 for an empty line, -1 for a
 * malformed one.
 */
static inline int fs_sum_parse(char *line, struct fs_sum *out)
{
	char *p = line, *end;
	if (*p == '\0')
		return 0;
	if ((*p != 'f' && *p != 'd') || p[1] != ' ')
		return -1;
	memset(out, 0, sizeof(*out));
	out->kind = *p;
	p += 2;
	out->size = strtoull(p, &end, 10);
	if (end == p || *end != ' ')
		return -1;
	p = end + 1;
	if (out->kind == 'f') {
		out->crc = (uint32_t)strtoul(p, &end, 16);
		if (end != p + 8 || *end != ' ')
			return -1;
		p = end + 1;
	}
	if (*p != '/')
		return -1;
	out->path = p;
	return 1;
}

/*
 * The pattern of the files the write tests make: byte i of stream seed is
 * the top byte of (i * 2654435761 + seed * 40503) mod 2^32. Consecutive
 * blocks differ, so a block read from the wrong place shows.
 */
static inline uint8_t fs_pattern(uint32_t seed, uint64_t i)
{
	return (uint8_t)(((uint32_t)i * 2654435761u + seed * 40503u) >> 24);
}

static inline void fs_fill(void *buf, uint32_t seed, uint64_t offset, size_t len)
{
	uint8_t *p = buf;
	for (size_t i = 0; i < len; i++)
		p[i] = fs_pattern(seed, offset + i);
}

#endif
