/*
 * The program loader: a static ELF64 executable into an address space with
 * no regions, with the initial stack Linux would build. Two steps, so that
 * exec can check everything before it changes the process it replaces:
 * loader_prepare checks the file and builds the stack image in kernel
 * memory (every -ENOEXEC and -E2BIG comes from here), loader_install puts
 * both into the address space (only -ENOMEM can happen there).
 */
#ifndef KERNEL_LOADER_H
#define KERNEL_LOADER_H

#include <kernel/types.h>
#include <posix/elf.h>

struct vm_space;
struct boot_module;

struct program_args {
	const char *const *argv;
	int argc;
	const char *const *envp;
	int envc;
	bool vdso;   /* a POSIX program: the vDSO mapped, AT_SYSINFO_EHDR given */
	/* The ids the program starts with, for the auxiliary vector (AT_UID,
	 * AT_EUID, AT_GID, AT_EGID; AT_SECURE when set-user/group-id changed them). */
	uint32_t uid, euid, gid, egid;
	bool secure;
};

/* A checked program and its stack image, ready to install. */
struct program {
	const struct elf_image *file;   /* read again by loader_install */
	struct elf_info info;
	paddr_t stack_image;            /* stack_pages pages, the image in their */
	uint64_t stack_pages;
	size_t stack_used;              /* last stack_used bytes */
	uptr_t sp;                      /* the initial stack pointer */
	uptr_t env_start, env_end;      /* the environment strings on the stack */
	bool vdso;                      /* map the vDSO (posix/vdso.h) */
};

/* Checks file completely (its headers, every segment against its size and
 * the user layout, the commitment it needs) and builds the initial stack
 * from args, whose strings are read now and not kept. 0, or -ENOEXEC,
 * -E2BIG (the stack image is over LOADER_STACK_IMAGE_MAX), -ENOMEM; on
 * success loader_release must follow. */
/* execve's strings and pointers (posix/exec_strings.h, EXEC_ARGS_MAX), a
 * script's interpreter, argument and path, AT_EXECFN's copy of argv[0]. */
#define LOADER_STACK_IMAGE_MAX ((6u << 20) + 256u * 1024u)
int loader_prepare(struct program *prog, const struct elf_image *file,
                   const struct program_args *args);
/* Maps prog's segments and stack (and the vDSO when asked) into vm (which
 * has no regions), copies the file's bytes, sets the program break. Returns the entry point and the
 * stack pointer. 0 or -ENOMEM; on error vm holds part of the program. The
 * file's bytes must be those loader_prepare checked. */
int loader_install(struct vm_space *vm, const struct program *prog, uptr_t *entry, uptr_t *sp);
void loader_release(struct program *prog);

/* Both steps for a boot module. Errors: -ENOEXEC (bad image), -ENOMEM,
 * -E2BIG. On error vm may hold part of the program: the caller destroys it. */
int loader_load(struct vm_space *vm, const struct boot_module *m,
                const struct program_args *args, uptr_t *entry, uptr_t *sp);

#endif
