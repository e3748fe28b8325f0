/*
 * The program loader: a static ELF64 executable from a boot module into a
 * fresh address space, with the initial stack Linux would build.
 */
#ifndef KERNEL_LOADER_H
#define KERNEL_LOADER_H

#include <kernel/types.h>

struct vm_space;
struct boot_module;

struct program_args {
	const char *const *argv;
	int argc;
	const char *const *envp;
	int envc;
};

/* Fills vm with the program and its stack; returns the entry point and the
 * initial stack pointer. Errors: -ENOEXEC (bad image), -ENOMEM, -E2BIG. On
 * error vm may hold part of the program: the caller destroys it. */
int loader_load(struct vm_space *vm, const struct boot_module *m,
                const struct program_args *args, uptr_t *entry, uptr_t *sp);

#endif
