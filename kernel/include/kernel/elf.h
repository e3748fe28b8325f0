/*
 * ELF64 executable parsing. elf_parse validates an image completely before
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

/* Returns 0, or a negative errno (-ENOEXEC for anything malformed or not an
 * x86-64 executable). user_top bounds every segment's addresses. */
int elf_parse(const void *image, size_t size, uint64_t user_top, struct elf_info *out);

#endif
