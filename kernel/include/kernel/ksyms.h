/*
 * The kernel's own symbol table, for symbolized backtraces. The build links
 * the kernel twice: the table made from the first link (tools/gen_ksyms.py)
 * is linked into the second, in a section after all code and data so that no
 * code address moves.
 */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include <kernel/types.h>

/* Finds the function containing addr; returns its name and the offset, or NULL. */
const char *ksyms_lookup(uint64_t addr, uint64_t *offset);

#endif
