/*
 * What the boot loader told us, in portable form: usable RAM ranges and the
 * boot modules (the first programs). Filled by arch_boot_info().
 */
#ifndef KERNEL_BOOT_H
#define KERNEL_BOOT_H

#include <kernel/types.h>

#define BOOT_MAX_RANGES  32
#define BOOT_MAX_MODULES 128
#define BOOT_MODULE_CMDLINE 256
#define BOOT_CMDLINE_MAX 128

struct boot_range {
	paddr_t start, end;   /* [start, end) */
};

struct boot_module {
	paddr_t start, end;                 /* the module's bytes, [start, end) */
	char cmdline[BOOT_MODULE_CMDLINE];  /* "path arg1 arg2 ..." */
	char name[64];                      /* basename of the first word */
};

struct boot_info {
	struct boot_range ram[BOOT_MAX_RANGES];
	unsigned ram_count;
	struct boot_module modules[BOOT_MAX_MODULES];
	unsigned module_count;
	paddr_t kernel_start, kernel_end;   /* physical extent of the kernel image */
	char cmdline[BOOT_CMDLINE_MAX];     /* the kernel's own options, space-separated */
	paddr_t reserved_end;               /* boot loader data and memory the
	                                     * platform keeps (the PC's first MiB)
	                                     * live below this: never allocated */
};

extern struct boot_info boot_info;

/* Whether the kernel's command line holds the word option (e.g. "ipc_fast=off"). */
bool boot_option(const char *option);

/* Finds a boot module by name; NULL when there is none. */
const struct boot_module *boot_find_module(const char *name);

#endif
