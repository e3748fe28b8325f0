/*
 * The initial user stack, laid out as Linux does for a new program: argc,
 * argv pointers, NULL, envp pointers, NULL, auxiliary vector pairs ending
 * with AT_NULL, then the strings and AT_RANDOM bytes above them. Each of
 * these words is the port's linux_auxv_word (<arch/linux_abi.h>). The stack
 * pointer is 16-byte aligned at argc. Pure code: builds the image in a kernel
 * buffer that the loader copies to the top of the user stack; the host unit
 * tests check it.
 */
#ifndef KERNEL_USTACK_H
#define KERNEL_USTACK_H

#include <stdint.h>
#include <stddef.h>
#include <arch/linux_abi.h>

#define AT_NULL     0
#define AT_PHDR     3
#define AT_PHENT    4
#define AT_PHNUM    5
#define AT_PAGESZ   6
#define AT_BASE     7
#define AT_FLAGS    8
#define AT_ENTRY    9
#define AT_UID      11
#define AT_EUID     12
#define AT_GID      13
#define AT_EGID     14
#define AT_PLATFORM 15
#define AT_HWCAP    16
#define AT_CLKTCK   17
#define AT_SECURE   23
#define AT_RANDOM   25
#define AT_EXECFN   31
#define AT_SYSINFO_EHDR 33

/* Where ustack_build put the environment strings (user addresses). */
struct ustack_layout {
	uint64_t env_start, env_end;
};

struct ustack_params {
	const char *const *argv;  /* argc strings */
	int argc;
	const char *const *envp;
	int envc;
	const char *execfn;       /* AT_EXECFN */
	const char *platform;     /* AT_PLATFORM */
	uint8_t random[16];       /* AT_RANDOM bytes */
	uint64_t phdr, phent, phnum, entry, hwcap, clktck, pagesz;
	uint64_t sysinfo_ehdr;    /* AT_SYSINFO_EHDR, the vDSO; 0: left out */
	struct ustack_layout *layout;   /* if not NULL: receives where the strings went */
	uint64_t uid, euid, gid, egid;  /* AT_UID, AT_EUID, AT_GID, AT_EGID */
	uint64_t secure;                /* AT_SECURE: a set-user/group-id exec changed them */
};

/* Builds the stack image for a stack whose top is at user address top into
 * buf (size bytes); the image occupies the last *used bytes of buf and maps
 * to [top - *used, top). Returns the user stack pointer (pointing at argc),
 * or 0 when the image does not fit (-E2BIG for the caller). */
uint64_t ustack_build(const struct ustack_params *p, uint64_t top, void *buf, size_t size,
                      size_t *used);

#endif
