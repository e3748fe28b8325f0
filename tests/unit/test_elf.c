/*
 * Host unit tests of the ELF64 executable parser (kernel/posix/elf.c): a
 * hand-built valid image and one mutation of it per rejection rule, a real
 * static binary (MYRMEX_TEST_ELF), and random mutations run under ASan.
 * Every image is copied into a heap buffer of exactly its size, so a read
 * past the end of the file is an ASan error. An image split into pieces
 * (as exec's ICAs hold it), each piece its own exact heap buffer, parses
 * exactly as the whole.
 */
/* unit-sources: kernel/posix/elf.c */
#define UNIT_SUITE "elf"
#include "unit.h"

#include <posix/elf.h>
#include <kernel/errno.h>

/* The loader's bound (USER_MMAP_TOP in kernel/vm.h). */
#define USER_TOP (0x00007ffffffff000ull - (8ull << 20) - (1ull << 30))
#define REJECTED (-ENOEXEC)

/* The ELF64 structures, written out here independently of elf.c. */
struct t_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct t_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

_Static_assert(sizeof(struct t_ehdr) == 64, "ELF64 header size");
_Static_assert(sizeof(struct t_phdr) == 56, "ELF64 program header size");

#define T_PT_NULL 0
#define T_PT_LOAD 1
#define T_PT_INTERP 3
#define T_PT_NOTE 4
#define T_PT_PHDR 6
#define T_PT_TLS 7
#define T_PT_GNU_STACK 0x6474e551u
#define T_PF_X 1u
#define T_PF_W 2u
#define T_PF_R 4u

#define MAX_PH 24

/* An image described field by field; image_bytes lays it out. The program
 * headers always go at file offset 64, whatever eh.phoff says, so a test can
 * point phoff elsewhere. */
struct image {
	struct t_ehdr eh;
	struct t_phdr ph[MAX_PH];
	int nph;
	size_t size;
};

#define TEXT_VADDR 0x400000ull
#define TEXT_SIZE 0x1800ull
#define ENTRY 0x401000ull
#define DATA_OFFSET 0x2010ull
#define DATA_VADDR 0x402010ull
#define DATA_FILESZ 0x100ull
#define DATA_MEMSZ 0x2000ull
#define IMAGE_SIZE 0x3000u

/* A valid static executable: PT_PHDR, text (R X, maps the headers too),
 * data + bss (R W, memsz > filesz), PT_GNU_STACK. */
static void valid_image(struct image *im)
{
	memset(im, 0, sizeof(*im));
	static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	memcpy(im->eh.ident, ident, sizeof(ident));
	im->eh.type = 2;           /* ET_EXEC */
	im->eh.machine = 62;       /* EM_X86_64 */
	im->eh.version = 1;
	im->eh.entry = ENTRY;
	im->eh.phoff = 64;
	im->eh.ehsize = 64;
	im->eh.phentsize = 56;
	im->eh.phnum = 4;
	im->eh.shentsize = 64;
	im->nph = 4;
	im->ph[0] = (struct t_phdr){ T_PT_PHDR, T_PF_R, 64, TEXT_VADDR + 64, TEXT_VADDR + 64,
	                             4 * 56, 4 * 56, 8 };
	im->ph[1] = (struct t_phdr){ T_PT_LOAD, T_PF_R | T_PF_X, 0, TEXT_VADDR, TEXT_VADDR,
	                             TEXT_SIZE, TEXT_SIZE, 0x1000 };
	im->ph[2] = (struct t_phdr){ T_PT_LOAD, T_PF_R | T_PF_W, DATA_OFFSET, DATA_VADDR,
	                             DATA_VADDR, DATA_FILESZ, DATA_MEMSZ, 0x1000 };
	im->ph[3] = (struct t_phdr){ T_PT_GNU_STACK, T_PF_R | T_PF_W, 0, 0, 0, 0, 0, 16 };
	im->size = IMAGE_SIZE;
}

/* Sets the program-header count in both the description and the header. */
static void set_nph(struct image *im, int n)
{
	im->nph = n;
	im->eh.phnum = (uint16_t)n;
}

/* The image's bytes in a heap buffer of exactly im->size bytes (at least 1). */
static uint8_t *image_bytes(const struct image *im)
{
	uint8_t *b = malloc(im->size ? im->size : 1);
	if (!b)
		abort();
	memset(b, 0, im->size);
	/* Some recognizable payload: hlt at the entry point, a data pattern. */
	for (size_t i = 0x1000; i < im->size && i < TEXT_SIZE; i++)
		b[i] = 0xf4;
	for (size_t i = DATA_OFFSET; i < im->size && i < DATA_OFFSET + DATA_FILESZ; i++)
		b[i] = (uint8_t)i;
	size_t n = sizeof(im->eh) < im->size ? sizeof(im->eh) : im->size;
	memcpy(b, &im->eh, n);
	for (int i = 0; i < im->nph; i++) {
		size_t at = 64 + (size_t)i * sizeof(struct t_phdr);
		if (at >= im->size)
			break;
		n = im->size - at < sizeof(struct t_phdr) ? im->size - at : sizeof(struct t_phdr);
		memcpy(b + at, &im->ph[i], n);
	}
	return b;
}

static int parse_image(const struct image *im, struct elf_info *out)
{
	uint8_t *b = image_bytes(im);
	int rc = elf_parse(b, im->size, USER_TOP, out);
	free(b);
	return rc;
}

/* Applies the statements to a fresh valid image (named im) and checks that
 * the parser refuses the result. */
#define EXPECT_REJECTED(...)                                                   \
	do {                                                                   \
		struct image im_;                                              \
		struct elf_info info_;                                         \
		valid_image(&im_);                                             \
		{                                                              \
			struct image *im = &im_;                               \
			__VA_ARGS__;                                           \
		}                                                              \
		int rc_ = parse_image(&im_, &info_);                           \
		if (rc_ != REJECTED)                                           \
			unit_fail(__FILE__, __LINE__, "not rejected (rc %d): %s", rc_, \
			          #__VA_ARGS__);                                 \
	} while (0)

/* The same, for mutations that must be accepted. */
#define EXPECT_ACCEPTED(...)                                                   \
	do {                                                                   \
		struct image im_;                                              \
		struct elf_info info_;                                         \
		valid_image(&im_);                                             \
		{                                                              \
			struct image *im = &im_;                               \
			__VA_ARGS__;                                           \
		}                                                              \
		int rc_ = parse_image(&im_, &info_);                           \
		if (rc_ != 0)                                                  \
			unit_fail(__FILE__, __LINE__, "rejected (rc %d): %s", rc_, #__VA_ARGS__); \
	} while (0)

UNIT_TEST(enoexec_is_8)
{
	CHECK_EQ(REJECTED, -8);
}

UNIT_TEST(valid_exec)
{
	struct image im;
	struct elf_info info;
	valid_image(&im);
	memset(&info, 0xa5, sizeof(info));
	REQUIRE_EQ(parse_image(&im, &info), 0);
	CHECK_EQ(info.entry, ENTRY);
	CHECK_EQ(info.phdr_vaddr, TEXT_VADDR + 64);
	CHECK_EQ(info.phnum, 4);
	CHECK_EQ(info.phentsize, 56);
	REQUIRE_EQ(info.segment_count, 2);
	const struct elf_segment *t = &info.segments[0], *d = &info.segments[1];
	CHECK_EQ(t->vaddr, TEXT_VADDR);
	CHECK_EQ(t->memsz, TEXT_SIZE);
	CHECK_EQ(t->offset, 0);
	CHECK_EQ(t->filesz, TEXT_SIZE);
	CHECK_EQ(t->prot, ELF_PROT_R | ELF_PROT_X);
	CHECK_EQ(d->vaddr, DATA_VADDR);
	CHECK_EQ(d->memsz, DATA_MEMSZ);
	CHECK_EQ(d->offset, DATA_OFFSET);
	CHECK_EQ(d->filesz, DATA_FILESZ);
	CHECK_EQ(d->prot, ELF_PROT_R | ELF_PROT_W);
}

UNIT_TEST(phdr_vaddr_sources)
{
	struct image im;
	struct elf_info info;
	/* No PT_PHDR: found through the segment that maps file offset 64. */
	valid_image(&im);
	im.ph[0].type = T_PT_NULL;
	REQUIRE_EQ(parse_image(&im, &info), 0);
	CHECK_EQ(info.phdr_vaddr, TEXT_VADDR + 64);
	/* PT_PHDR wins over the computed address. */
	valid_image(&im);
	im.ph[0].vaddr = TEXT_VADDR + 0x200;
	REQUIRE_EQ(parse_image(&im, &info), 0);
	CHECK_EQ(info.phdr_vaddr, TEXT_VADDR + 0x200);
	/* Neither: the headers are not in memory. */
	valid_image(&im);
	im.ph[0].type = T_PT_NULL;
	im.ph[1].offset = 0x1000;
	im.ph[1].vaddr = ENTRY;
	im.ph[1].filesz = im.ph[1].memsz = 0x800;
	REQUIRE_EQ(parse_image(&im, &info), 0);
	CHECK_EQ(info.phdr_vaddr, 0);
}

UNIT_TEST(accepted_variants)
{
	/* Other program-header types are ignored. */
	EXPECT_ACCEPTED(im->ph[3].type = T_PT_NOTE; im->ph[3].offset = ~0ull);
	EXPECT_ACCEPTED(im->ph[3].type = T_PT_TLS);
	/* An empty PT_LOAD is skipped, whatever its other fields. */
	EXPECT_ACCEPTED(im->ph[3] = (struct t_phdr){ T_PT_LOAD, T_PF_R, ~0ull, ~0ull, 0, 0, 0, 0 });
	/* A bss-only segment (filesz 0). */
	EXPECT_ACCEPTED(im->ph[2].filesz = 0);
	/* Data starting on the last page of text (segments may share a page). */
	EXPECT_ACCEPTED(im->ph[2].vaddr = TEXT_VADDR + TEXT_SIZE + 0x10;
	                im->ph[2].offset = TEXT_SIZE + 0x10);
	/* Directly adjacent segments. */
	EXPECT_ACCEPTED(im->ph[2].vaddr = TEXT_VADDR + TEXT_SIZE; im->ph[2].offset = TEXT_SIZE);
	/* A segment ending exactly at user_top. */
	EXPECT_ACCEPTED(im->ph[2].vaddr = USER_TOP - DATA_MEMSZ; im->ph[2].offset = 0x2000);
	/* The entry at the first and at the last byte of the text. */
	EXPECT_ACCEPTED(im->eh.entry = TEXT_VADDR);
	EXPECT_ACCEPTED(im->eh.entry = TEXT_VADDR + TEXT_SIZE - 1);
	/* The entry in bss beyond filesz, as long as the segment is executable. */
	EXPECT_ACCEPTED(im->ph[2].flags |= T_PF_X; im->eh.entry = DATA_VADDR + DATA_MEMSZ - 1);
	/* A file ending exactly where the data does. */
	EXPECT_ACCEPTED(im->size = DATA_OFFSET + DATA_FILESZ);
	/* Exactly ELF_MAX_SEGMENTS loadable segments. */
	EXPECT_ACCEPTED(set_nph(im, ELF_MAX_SEGMENTS + 1);
	                for (int i = 2; i <= ELF_MAX_SEGMENTS; i++)
	                        im->ph[i] = (struct t_phdr){ T_PT_LOAD, T_PF_R, 0x2000,
	                                                     0x500000 + 0x1000ull * (uint64_t)i,
	                                                     0, 0x10, 0x10, 0x1000 });
}

UNIT_TEST(max_segments)
{
	struct image im;
	struct elf_info info;
	valid_image(&im);
	set_nph(&im, ELF_MAX_SEGMENTS + 1);
	for (int i = 1; i <= ELF_MAX_SEGMENTS; i++)
		im.ph[i] = (struct t_phdr){ T_PT_LOAD, T_PF_R, 0,
		                            TEXT_VADDR + 0x1000ull * (uint64_t)(i - 1), 0, 0x10, 0x10,
		                            0x1000 };
	im.ph[1].flags |= T_PF_X;
	im.eh.entry = TEXT_VADDR;
	REQUIRE_EQ(parse_image(&im, &info), 0);
	CHECK_EQ(info.segment_count, ELF_MAX_SEGMENTS);
	CHECK_EQ(info.segments[ELF_MAX_SEGMENTS - 1].vaddr,
	         TEXT_VADDR + 0x1000ull * (ELF_MAX_SEGMENTS - 1));
	/* One more loadable segment is refused. */
	set_nph(&im, ELF_MAX_SEGMENTS + 2);
	im.ph[ELF_MAX_SEGMENTS + 1] = (struct t_phdr){ T_PT_LOAD, T_PF_R, 0x2000, 0x600000, 0,
	                                               0x10, 0x10, 0x1000 };
	CHECK_EQ(parse_image(&im, &info), REJECTED);
}

UNIT_TEST(reject_ident)
{
	for (int i = 0; i < 4; i++)
		EXPECT_REJECTED(im->eh.ident[i] ^= 0x20);
	EXPECT_REJECTED(im->eh.ident[4] = 1);          /* ELFCLASS32 */
	EXPECT_REJECTED(im->eh.ident[4] = 0);
	EXPECT_REJECTED(im->eh.ident[4] = 3);
	EXPECT_REJECTED(im->eh.ident[5] = 2);          /* big endian */
	EXPECT_REJECTED(im->eh.ident[5] = 0);
}

UNIT_TEST(reject_type_and_machine)
{
	EXPECT_REJECTED(im->eh.type = 3);              /* ET_DYN (PIE) */
	EXPECT_REJECTED(im->eh.type = 1);              /* ET_REL */
	EXPECT_REJECTED(im->eh.type = 4);              /* ET_CORE */
	EXPECT_REJECTED(im->eh.type = 0);
	EXPECT_REJECTED(im->eh.machine = 3);           /* i386 */
	EXPECT_REJECTED(im->eh.machine = 183);         /* aarch64 */
	EXPECT_REJECTED(im->eh.machine = 0);
}

UNIT_TEST(reject_phdr_table)
{
	EXPECT_REJECTED(im->eh.phentsize = 0);
	EXPECT_REJECTED(im->eh.phentsize = 55);
	EXPECT_REJECTED(im->eh.phentsize = 57);
	EXPECT_REJECTED(im->eh.phentsize = 64);
	EXPECT_REJECTED(im->eh.phnum = 0);
	/* The table outside the file. */
	EXPECT_REJECTED(im->eh.phoff = IMAGE_SIZE);
	EXPECT_REJECTED(im->eh.phoff = IMAGE_SIZE + 1);
	EXPECT_REJECTED(im->eh.phoff = ~0ull);
	EXPECT_REJECTED(im->eh.phoff = IMAGE_SIZE - 4 * 56 + 1);
	EXPECT_REJECTED(im->eh.phoff = IMAGE_SIZE - 55);
	/* phoff + phnum * 56 wraps around to a small number. */
	EXPECT_REJECTED(im->eh.phoff = 0ull - 56);
	EXPECT_REJECTED(im->eh.phoff = 0ull - 56 * 4 + 64);
	EXPECT_REJECTED(im->eh.phoff = 1ull << 63);
	/* Too many entries for the file. */
	EXPECT_REJECTED(im->eh.phnum = 0xffff);
	EXPECT_REJECTED(im->eh.phnum = (IMAGE_SIZE - 64) / 56 + 1);
	/* The table ends exactly at the end of the file: fine. */
	EXPECT_ACCEPTED(im->eh.phnum = (IMAGE_SIZE - 64) / 56);
}

UNIT_TEST(reject_segment_file_range)
{
	EXPECT_REJECTED(im->ph[2].filesz = DATA_MEMSZ + 1);            /* filesz > memsz */
	EXPECT_REJECTED(im->ph[1].memsz = TEXT_SIZE - 1);
	EXPECT_REJECTED(im->ph[2].filesz = IMAGE_SIZE - DATA_OFFSET + 1);
	EXPECT_REJECTED(im->size = DATA_OFFSET + DATA_FILESZ - 1);
	EXPECT_REJECTED(im->ph[2].offset = IMAGE_SIZE + 0x10; im->ph[2].vaddr = 0x403010);
	EXPECT_REJECTED(im->ph[2].offset = 0x7fffffffff000010ull; im->ph[2].vaddr = 0x403010);
	/* offset + filesz wraps around. */
	EXPECT_REJECTED(im->ph[2].offset = 0ull - 0xff0; im->ph[2].vaddr = 0x403010;
	                im->ph[2].filesz = 0x1000; im->ph[2].memsz = 0x1000);
	EXPECT_REJECTED(im->ph[2].filesz = ~0ull; im->ph[2].memsz = ~0ull);
}

UNIT_TEST(reject_segment_addresses)
{
	/* vaddr + memsz wraps around. */
	EXPECT_REJECTED(im->ph[2].memsz = ~0ull);
	EXPECT_REJECTED(im->ph[2].memsz = 0ull - DATA_VADDR);
	EXPECT_REJECTED(im->ph[2].vaddr = 0xfffffffffffff010ull; im->ph[2].memsz = 0x2000);
	/* Beyond user_top: at it, past it, or crossing it by one byte. */
	EXPECT_REJECTED(im->ph[2].vaddr = USER_TOP + 0x10);
	EXPECT_REJECTED(im->ph[2].vaddr = USER_TOP + 0x1010);
	EXPECT_REJECTED(im->ph[2].vaddr = USER_TOP - DATA_MEMSZ + 0x10);
	EXPECT_REJECTED(im->ph[2].vaddr = 0xffff800000000010ull);     /* kernel half */
	EXPECT_REJECTED(im->ph[2].memsz = USER_TOP);
	/* vaddr and offset disagree within the page. */
	EXPECT_REJECTED(im->ph[2].vaddr = DATA_VADDR + 8);
	EXPECT_REJECTED(im->ph[2].offset = DATA_OFFSET - 1);
	EXPECT_REJECTED(im->ph[1].vaddr = TEXT_VADDR + 0x800; im->eh.entry = TEXT_VADDR + 0x800);
	/* The same low 12 bits but a different page is fine. */
	EXPECT_ACCEPTED(im->ph[2].vaddr = DATA_VADDR + 0x5000);
}

UNIT_TEST(reject_overlap_and_order)
{
	/* Data starting inside text. */
	EXPECT_REJECTED(im->ph[2].vaddr = TEXT_VADDR + TEXT_SIZE - 0x10;
	                im->ph[2].offset = TEXT_SIZE - 0x10);
	EXPECT_REJECTED(im->ph[2].vaddr = TEXT_VADDR + 0x10; im->ph[2].offset = 0x10);
	/* The same address twice. */
	EXPECT_REJECTED(im->ph[2].vaddr = TEXT_VADDR; im->ph[2].offset = 0);
	/* Descending: data below text. */
	EXPECT_REJECTED(im->ph[2].vaddr = TEXT_VADDR - 0x4000 + 0x10);
	/* Overlap through the bss part of the first segment. */
	EXPECT_REJECTED(im->ph[1].memsz = 0x3000; im->ph[2].vaddr = TEXT_VADDR + 0x2010);
}

UNIT_TEST(reject_interp)
{
	EXPECT_REJECTED(im->ph[3].type = T_PT_INTERP; im->ph[3].offset = 0x1000;
	                im->ph[3].filesz = 0x20);
	EXPECT_REJECTED(im->ph[0].type = T_PT_INTERP);
	EXPECT_REJECTED(set_nph(im, 5); im->ph[4] = (struct t_phdr){ T_PT_INTERP, T_PF_R, 0x1000,
	                                                              0, 0, 0x20, 0x20, 1 });
}

UNIT_TEST(reject_entry_outside_code)
{
	EXPECT_REJECTED(im->eh.entry = DATA_VADDR);                   /* in data (RW) */
	EXPECT_REJECTED(im->eh.entry = TEXT_VADDR + TEXT_SIZE);       /* one past text */
	EXPECT_REJECTED(im->eh.entry = TEXT_VADDR - 1);
	EXPECT_REJECTED(im->eh.entry = 0);
	EXPECT_REJECTED(im->eh.entry = ~0ull);
	EXPECT_REJECTED(im->ph[1].flags = T_PF_R);                    /* no code at all */
	EXPECT_REJECTED(im->ph[1].flags = T_PF_R | T_PF_W);
}

UNIT_TEST(reject_no_loadable_segment)
{
	EXPECT_REJECTED(im->ph[1].type = T_PT_NULL; im->ph[2].type = T_PT_NULL);
	EXPECT_REJECTED(im->ph[1].memsz = im->ph[1].filesz = 0;
	                im->ph[2].memsz = im->ph[2].filesz = 0);
	EXPECT_REJECTED(set_nph(im, 1));                              /* only PT_PHDR */
}

UNIT_TEST(reject_truncated)
{
	struct image im;
	struct elf_info info;
	valid_image(&im);
	for (size_t size = 0; size < 64; size++) {
		im.size = size;
		CHECK_EQ(parse_image(&im, &info), REJECTED);
	}
	/* A header but no room for the program headers. */
	for (size_t size = 64; size < 64 + 4 * 56; size++) {
		im.size = size;
		CHECK_EQ(parse_image(&im, &info), REJECTED);
	}
	/* Room for the program headers, not for the segments. */
	im.size = 0x1000;
	CHECK_EQ(parse_image(&im, &info), REJECTED);
}

/* ------------------------------------------------------- a real binary -- */

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
			buf = malloc((size_t)n);
			if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
				free(buf);
				buf = NULL;
			}
			*size = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

UNIT_TEST(real_static_binary)
{
	const char *path = getenv("MYRMEX_TEST_ELF");
	if (!path || !*path) {
		printf("  note: MYRMEX_TEST_ELF is not set; the real-binary check is skipped\n");
		return;
	}
	size_t size = 0;
	uint8_t *b = read_file(path, &size);
	if (!b) {
		unit_fail(__FILE__, __LINE__, "cannot read MYRMEX_TEST_ELF=%s", path);
		return;
	}
	struct elf_info info;
	int rc = elf_parse(b, size, USER_TOP, &info);
	CHECK_EQ(rc, 0);
	if (rc == 0) {
		/* Compare with the file's own headers, read here. */
		struct t_ehdr eh;
		memcpy(&eh, b, sizeof(eh));
		CHECK_EQ(info.entry, eh.entry);
		CHECK_EQ(info.phnum, eh.phnum);
		CHECK_EQ(info.phentsize, 56);
		CHECK(info.phdr_vaddr != 0);
		unsigned loads = 0, code = 0;
		for (unsigned i = 0; i < eh.phnum; i++) {
			struct t_phdr ph;
			memcpy(&ph, b + eh.phoff + i * sizeof(ph), sizeof(ph));
			if (ph.type != T_PT_LOAD || ph.memsz == 0)
				continue;
			if (loads < info.segment_count) {
				const struct elf_segment *s = &info.segments[loads];
				CHECK_EQ(s->vaddr, ph.vaddr);
				CHECK_EQ(s->memsz, ph.memsz);
				CHECK_EQ(s->offset, ph.offset);
				CHECK_EQ(s->filesz, ph.filesz);
				CHECK_EQ(!!(s->prot & ELF_PROT_X), !!(ph.flags & T_PF_X));
				CHECK_EQ(!!(s->prot & ELF_PROT_W), !!(ph.flags & T_PF_W));
				CHECK_EQ(!!(s->prot & ELF_PROT_R), !!(ph.flags & T_PF_R));
			}
			loads++;
		}
		CHECK_EQ(info.segment_count, loads);
		for (unsigned i = 0; i < info.segment_count; i++) {
			const struct elf_segment *s = &info.segments[i];
			if ((s->prot & ELF_PROT_X) && info.entry >= s->vaddr &&
			    info.entry - s->vaddr < s->memsz)
				code++;
		}
		CHECK_EQ(code, 1);
	}
	/* Truncated copies, each in an exactly sized buffer: refused when the
	 * cut loses program headers or segment data, accepted when it only
	 * loses what follows (section headers, symbols). */
	if (rc == 0) {
		struct t_ehdr eh;
		memcpy(&eh, b, sizeof(eh));
		uint64_t need = eh.phoff + (uint64_t)eh.phnum * 56;
		for (unsigned i = 0; i < info.segment_count; i++) {
			uint64_t end = info.segments[i].offset + info.segments[i].filesz;
			need = end > need ? end : need;
		}
		CHECK(need <= size);
		size_t step = 1 + size / 97;
		for (size_t cut = 0; cut <= size + step; cut += step) {
			size_t n = cut == size + step ? (size_t)need - 1 : cut > size ? (size_t)need : cut;
			uint8_t *t = malloc(n ? n : 1);
			memcpy(t, b, n);
			struct elf_info tinfo;
			int trc = elf_parse(t, n, USER_TOP, &tinfo);
			if (trc != (n < need ? REJECTED : 0))
				unit_fail(__FILE__, __LINE__, "file cut to %zu bytes (needs %llu): rc %d", n,
				          (unsigned long long)need, trc);
			free(t);
		}
	}
	free(b);
}

/* ----------------------------------------------------------------- fuzz -- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* What an accepted image must satisfy, whatever it looks like. */
static void check_accepted(const struct elf_info *info, size_t size, int iter)
{
	int ok = info->segment_count >= 1 && info->segment_count <= ELF_MAX_SEGMENTS &&
	         info->phentsize == 56 && info->phnum > 0;
	int code = 0;
	for (unsigned i = 0; ok && i < info->segment_count; i++) {
		const struct elf_segment *s = &info->segments[i];
		ok = s->memsz > 0 && s->filesz <= s->memsz && s->offset <= size &&
		     s->filesz <= size - s->offset && s->vaddr < USER_TOP &&
		     s->memsz <= USER_TOP - s->vaddr && s->vaddr % 4096 == s->offset % 4096 &&
		     (s->prot & ~(ELF_PROT_R | ELF_PROT_W | ELF_PROT_X)) == 0 &&
		     (i == 0 || s->vaddr >= info->segments[i - 1].vaddr + info->segments[i - 1].memsz);
		if ((s->prot & ELF_PROT_X) && info->entry >= s->vaddr && info->entry - s->vaddr < s->memsz)
			code = 1;
	}
	if (!ok || !code)
		unit_fail(__FILE__, __LINE__, "iteration %d: accepted an image that breaks the rules",
		          iter);
}

#define FUZZ_ITERS 20000

UNIT_TEST(fuzz_mutations)
{
	static const uint64_t interesting[] = {
		0, 1, 8, 55, 56, 64, 0xfff, 0x1000, 0x1010, IMAGE_SIZE - 1, IMAGE_SIZE,
		IMAGE_SIZE + 1, TEXT_VADDR, ENTRY, USER_TOP - 1, USER_TOP, USER_TOP + 1,
		0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull - 0xfff, ~0ull,
	};
	struct image im;
	valid_image(&im);
	/* Also a PT_LOAD spare slot for mutations to bring to life. */
	set_nph(&im, 5);
	im.ph[4] = (struct t_phdr){ T_PT_NULL, T_PF_R | T_PF_W, 0x2800, 0x404800, 0, 0x100, 0x100, 8 };
	uint8_t *base = image_bytes(&im);
	const size_t hdr_bytes = 64 + 5 * 56;
	int accepted = 0, rejected = 0;
	rng_state = 0x656c6636345f667aull;
	for (int iter = 0; iter < FUZZ_ITERS; iter++) {
		size_t size = IMAGE_SIZE;
		if (rng() % 10 == 0)
			size = (size_t)(rng() % IMAGE_SIZE);
		uint8_t *b = malloc(size ? size : 1);
		memcpy(b, base, size);
		int nmut = 1 + (int)(rng() % 4);
		for (int k = 0; k < nmut; k++) {
			size_t limit = size < hdr_bytes ? size : hdr_bytes;
			if (rng() % 10 == 0)
				limit = size;   /* anywhere, not only the headers */
			if (limit < 8)
				break;
			size_t at = (size_t)(rng() % limit);
			switch (rng() % 5) {
			case 0:                 /* flip one bit */
				b[at] ^= (uint8_t)(1u << (rng() % 8));
				break;
			case 1:                 /* a random byte */
				b[at] = (uint8_t)rng();
				break;
			case 2:                 /* an interesting 64-bit field */
			case 3: {
				at = (at & ~(size_t)7) < limit - 8 ? at & ~(size_t)7 : limit - 8;
				uint64_t v = interesting[rng() % (sizeof(interesting) / sizeof(interesting[0]))];
				if (rng() % 4 == 0)
					v += (rng() % 33) - 16;
				memcpy(b + at, &v, 8);
				break;
			}
			default: {              /* a random 16-bit field (counts, types) */
				at = (at & ~(size_t)1) < limit - 2 ? at & ~(size_t)1 : limit - 2;
				uint16_t v = (uint16_t)(rng() % 3 == 0 ? rng() : rng() % 24);
				memcpy(b + at, &v, 2);
				break;
			}
			}
		}
		struct elf_info info;
		int rc = elf_parse(b, size, USER_TOP, &info);
		if (rc == 0) {
			accepted++;
			check_accepted(&info, size, iter);
		} else if (rc == REJECTED) {
			rejected++;
		} else {
			unit_fail(__FILE__, __LINE__, "iteration %d: rc %d", iter, rc);
		}
		free(b);
		if (unit_failures > 10)
			break;
	}
	free(base);
	/* Both outcomes occurred, so the mutations reached the checks. */
	CHECK(accepted > 100);
	CHECK(rejected > 100);
}

/* --------------------------------------------------------------- pieces -- */

#define MAX_PIECES 16384

/* An image cut into pieces of piece_size bytes (the last shorter), each in
 * its own heap buffer of exactly its size. */
struct pieces {
	uint8_t *piece[MAX_PIECES];
	size_t piece_size;
	size_t count;
};

static size_t view_pieces(const struct elf_image *im, uint64_t off, const void **bytes)
{
	const struct pieces *p = im->ctx;
	size_t i = (size_t)(off / p->piece_size), within = (size_t)(off % p->piece_size);
	size_t len = i + 1 == p->count ? (size_t)(im->size - i * p->piece_size) : p->piece_size;
	*bytes = p->piece[i] + within;
	return len - within;
}

static void pieces_make(struct pieces *p, struct elf_image *im, const uint8_t *b, size_t size,
                        size_t piece_size)
{
	p->piece_size = piece_size;
	p->count = size ? (size + piece_size - 1) / piece_size : 0;
	if (p->count > MAX_PIECES)
		abort();
	for (size_t i = 0; i < p->count; i++) {
		size_t n = size - i * piece_size < piece_size ? size - i * piece_size : piece_size;
		p->piece[i] = malloc(n);
		if (!p->piece[i])
			abort();
		memcpy(p->piece[i], b + i * piece_size, n);
	}
	im->size = size;
	im->view = view_pieces;
	im->ctx = p;
}

static void pieces_free(struct pieces *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->piece[i]);
}

/* Parses b whole and in pieces of each size; both must agree exactly. */
static void check_pieces_agree(const uint8_t *b, size_t size, int iter)
{
	static const size_t sizes[] = { 1, 3, 7, 56, 64, 100, 4096 };
	struct elf_info whole, split;
	memset(&whole, 0, sizeof(whole));
	int rc = elf_parse(b, size, USER_TOP, &whole);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct pieces p;
		struct elf_image im;
		pieces_make(&p, &im, b, size, sizes[k]);
		memset(&split, 0, sizeof(split));
		int src = elf_parse_image(&im, USER_TOP, &split);
		if (src != rc || (rc == 0 && memcmp(&whole, &split, sizeof(whole)) != 0))
			unit_fail(__FILE__, __LINE__, "iteration %d, pieces of %zu: rc %d, whole %d",
			          iter, sizes[k], src, rc);
		pieces_free(&p);
	}
}

UNIT_TEST(pieces_parse_as_whole)
{
	struct image im;
	valid_image(&im);
	uint8_t *b = image_bytes(&im);
	check_pieces_agree(b, im.size, -1);
	/* elf_read across piece boundaries gives the same bytes. */
	struct pieces p;
	struct elf_image img;
	pieces_make(&p, &img, b, im.size, 7);
	uint8_t out[300];
	elf_read(&img, 60, out, sizeof(out));
	CHECK(memcmp(out, b + 60, sizeof(out)) == 0);
	pieces_free(&p);
	/* Mutated headers too: same verdicts, same results. */
	rng_state = 0x7069656365735f31ull;
	for (int iter = 0; iter < 500 && unit_failures == 0; iter++) {
		uint8_t *m = malloc(im.size);
		memcpy(m, b, im.size);
		for (int k = 0; k < 3; k++)
			m[rng() % (64 + 4 * 56)] = (uint8_t)rng();
		size_t size = rng() % 4 == 0 ? (size_t)(rng() % im.size) : im.size;
		check_pieces_agree(m, size, iter);
		free(m);
	}
	free(b);
}
