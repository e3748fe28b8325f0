/*
 * ELF executable validation and decoding (see posix/elf.h). Every offset
 * and size is checked against the image before it is used, and all sums are
 * checked for overflow: the image is untrusted input. The image is read
 * through its view, so that it may lie in several pieces. The port's Linux
 * ABI (<arch/linux_abi.h>) names the class, byte order and machine of its
 * programs, and which of the two header layouts below they use.
 */
#include <posix/elf.h>
#include <arch/linux_abi.h>
#include <stdbool.h>
#include <kernel/errno.h>
#include <kernel/string.h>

#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define ET_EXEC 2
#define PF_X 1
#define PF_W 2
#define PF_R 4
#define ELF_PAGE 4096ull

struct elf32_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint32_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf32_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

struct elf64_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

_Static_assert(sizeof(struct elf32_ehdr) == 52, "ELF32 header");
_Static_assert(sizeof(struct elf32_phdr) == 32, "ELF32 program header");
_Static_assert(sizeof(struct elf64_ehdr) == 64, "ELF64 header");
_Static_assert(sizeof(struct elf64_phdr) == 56, "ELF64 program header");

static int check_header(const linux_elf_ehdr *eh, uint64_t size)
{
	static const uint8_t magic[4] = { 0x7f, 'E', 'L', 'F' };
	if (memcmp(eh->ident, magic, 4) != 0)
		return -ENOEXEC;
	if (eh->ident[4] != LINUX_ELF_CLASS || eh->ident[5] != LINUX_ELF_DATA)
		return -ENOEXEC;
	/* Only fixed-address executables: a static PIE or an interpreter would
	 * need relocation or a dynamic loader, which Myrmex does not provide. */
	if (eh->type != ET_EXEC || eh->machine != LINUX_ELF_MACHINE)
		return -ENOEXEC;
	if (eh->phentsize != sizeof(linux_elf_phdr) || eh->phnum == 0)
		return -ENOEXEC;
	if (eh->phoff > size || (uint64_t)eh->phnum * sizeof(linux_elf_phdr) > size - eh->phoff)
		return -ENOEXEC;
	return 0;
}

static unsigned prot_of(uint32_t flags)
{
	return ((flags & PF_R) ? ELF_PROT_R : 0) | ((flags & PF_W) ? ELF_PROT_W : 0) |
	       ((flags & PF_X) ? ELF_PROT_X : 0);
}

static size_t view_buffer(const struct elf_image *im, uint64_t off, const void **bytes)
{
	*bytes = (const uint8_t *)im->ctx + off;
	return (size_t)(im->size - off);
}

void elf_image_of_buffer(struct elf_image *im, const void *buf, size_t size)
{
	im->size = size;
	im->view = view_buffer;
	im->ctx = buf;
}

void elf_read(const struct elf_image *im, uint64_t off, void *buf, size_t n)
{
	uint8_t *to = buf;
	while (n > 0) {
		const void *piece;
		size_t chunk = im->view(im, off, &piece);
		if (chunk > n)
			chunk = n;
		memcpy(to, piece, chunk);
		to += chunk;
		off += chunk;
		n -= chunk;
	}
}

int elf_parse(const void *image, size_t size, uint64_t user_top, struct elf_info *out)
{
	struct elf_image im;
	elf_image_of_buffer(&im, image, size);
	return elf_parse_image(&im, user_top, out);
}

int elf_parse_image(const struct elf_image *im, uint64_t user_top, struct elf_info *out)
{
	uint64_t size = im->size;
	if (size < sizeof(linux_elf_ehdr))
		return -ENOEXEC;
	linux_elf_ehdr eh;
	elf_read(im, 0, &eh, sizeof(eh));
	int err = check_header(&eh, size);
	if (err)
		return err;

	memset(out, 0, sizeof(*out));
	out->entry = eh.entry;
	out->phnum = eh.phnum;
	out->phentsize = eh.phentsize;
	uint64_t last_end = 0;
	bool entry_in_code = false;
	for (unsigned i = 0; i < eh.phnum; i++) {
		linux_elf_phdr ph;
		elf_read(im, eh.phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph));
		if (ph.type == PT_INTERP)
			return -ENOEXEC;
		if (ph.type == PT_PHDR)
			out->phdr_vaddr = ph.vaddr;
		if (ph.type != PT_LOAD || ph.memsz == 0)
			continue;
		if (out->segment_count == ELF_MAX_SEGMENTS)
			return -ENOEXEC;
		if (ph.filesz > ph.memsz || ph.offset > size || ph.filesz > size - ph.offset)
			return -ENOEXEC;
		if (ph.vaddr >= user_top || ph.memsz > user_top - ph.vaddr)
			return -ENOEXEC;
		if ((ph.vaddr % ELF_PAGE) != (ph.offset % ELF_PAGE))
			return -ENOEXEC;
		/* Segments must ascend and not overlap (they may share a page). */
		if (ph.vaddr < last_end)
			return -ENOEXEC;
		last_end = ph.vaddr + ph.memsz;
		/* The program headers are in memory if a segment maps them. */
		uint64_t table = (uint64_t)eh.phnum * sizeof(linux_elf_phdr);
		if (!out->phdr_vaddr && eh.phoff >= ph.offset && eh.phoff - ph.offset <= ph.filesz &&
		    table <= ph.filesz - (eh.phoff - ph.offset))
			out->phdr_vaddr = ph.vaddr + (eh.phoff - ph.offset);
		if ((ph.flags & PF_X) && eh.entry >= ph.vaddr && eh.entry - ph.vaddr < ph.memsz)
			entry_in_code = true;
		out->segments[out->segment_count++] = (struct elf_segment){
			.vaddr = ph.vaddr, .memsz = ph.memsz, .offset = ph.offset,
			.filesz = ph.filesz, .prot = prot_of(ph.flags),
		};
	}
	if (out->segment_count == 0 || !entry_in_code)
		return -ENOEXEC;
	return 0;
}
