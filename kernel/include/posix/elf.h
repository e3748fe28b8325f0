/*
 * ELF executable parsing, of the class and machine of the port's Linux ABI
 * (<arch/linux_abi.h>). elf_parse validates an image completely before
 * anything is loaded: header, program-header table and every loadable
 * segment (offsets within the file, sizes, alignment, addresses within user
 * space). Pure code: also compiled into the host unit tests.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <stdint.h>
#include <stddef.h>

#define ELF_MAX_SEGMENTS 16

struct elf_segment {
	uint64_t vaddr, memsz;     /* where it goes */
	uint64_t offset, filesz;   /* what of the file fills it; the rest is zero */
	unsigned prot;             /* ELF_PROT_* */
};

#define ELF_PROT_R 1u
#define ELF_PROT_W 2u
#define ELF_PROT_X 4u

struct elf_info {
	uint64_t entry;
	uint64_t phdr_vaddr;       /* the program headers in memory (for AT_PHDR) */
	uint16_t phnum, phentsize;
	unsigned segment_count;
	struct elf_segment segments[ELF_MAX_SEGMENTS];
};

/*
 * An executable's bytes, in one piece (a boot module) or in several (the
 * ICAs of exec). view(im, off) gives the longest run of contiguous bytes
 * starting at offset off (< size): it points *bytes at them and returns
 * their count, at least 1 and at most size - off.
 */
struct elf_image {
	uint64_t size;
	size_t (*view)(const struct elf_image *im, uint64_t off, const void **bytes);
	const void *ctx;      /* the view's own data */
};

/* An image over one contiguous buffer. */
void elf_image_of_buffer(struct elf_image *im, const void *buf, size_t size);
/* Copies n bytes at offset off into buf, across pieces; the caller has
 * checked that [off, off + n) lies within the image. */
void elf_read(const struct elf_image *im, uint64_t off, void *buf, size_t n);

/* Returns 0, or a negative errno (-ENOEXEC for anything malformed or not an
 * executable of the port's class and machine). user_top bounds every
 * segment's addresses. */
int elf_parse_image(const struct elf_image *im, uint64_t user_top, struct elf_info *out);
/* elf_parse_image over one contiguous buffer. */
int elf_parse(const void *image, size_t size, uint64_t user_top, struct elf_info *out);

#endif
