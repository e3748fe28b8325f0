/*
 * The vDSO of POSIX processes (docs/posix.md, "The vDSO"): what a POSIX
 * process finds at AT_SYSINFO_EHDR, the clock page beside it, and the call
 * with which the time server publishes its clock there. Shared by the
 * kernel, the vDSO image (kernel/arch/<arch>/vdso), the time server and the
 * tests. Fixed-width fields, so a 32-bit port lays the page out the same.
 *
 * Layout in every POSIX process (a fixed place, no randomization):
 *     AT_SYSINFO_EHDR - MYRMEX_VDSO_DATA_SIZE   the clock page, read-only
 *     AT_SYSINFO_EHDR                           the vDSO's ELF image,
 *                                               read + execute
 * Both are frames the kernel keeps and maps into every POSIX process (at
 * exec, kept across fork); no process can write them (a store faults:
 * SIGSEGV for the writer alone; a region made writable with mprotect gets
 * a private copy, as any copy-on-write page).
 *
 * The clock page holds the time server's clock: the parameters of the one
 * formula of include/myrmex/clock.h, so that the vDSO, the time server and
 * the kernel read one clock:
 *     MONOTONIC = myrmex_clock_monotonic(&clock, rdtsc)
 *     REALTIME  = clock.epoch_ns + MONOTONIC
 * It is a sequence lock: the kernel makes seq odd, writes, makes it even
 * again; a reader takes a copy between two equal even readings of seq.
 * `published` is 0 until a time server has published its clock and again
 * once that server has ended: the vDSO then makes the real system call
 * (whoever answers it, the time server or the kernel).
 *
 * clock_publish(const struct myrmex_clock_info *clock) -> 0
 *     The registered time server only (-EPERM for anyone else): its clock
 *     becomes the page's, for every POSIX process at once. -EFAULT bad
 *     pointer, -EINVAL mult or tsc_khz 0. The kernel writes the page (the
 *     time server never maps it), so a server that dies cannot leave it
 *     half written; when the publisher ends, the kernel sets published to
 *     0 until the next server publishes.
 */
#ifndef MYRMEX_VDSO_H
#define MYRMEX_VDSO_H

#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/clock.h>

#define MYRMEX_SYS_CLOCK_PUBLISH (MYRMEX_SYS_BASE + 51)

#define MYRMEX_VDSO_DATA_SIZE 4096u

/* The symbols the vDSO exports, each with this version (as Linux's x86-64
 * vDSO: musl and glibc look __vdso_clock_gettime up with "LINUX_2.6"). */
#define MYRMEX_VDSO_VERSION "LINUX_2.6"

struct myrmex_vdso_data {
	uint32_t seq;                    /* odd while the kernel writes */
	uint32_t published;              /* 1: clock below is the time server's */
	struct myrmex_clock_info clock;  /* tsc_khz, tsc_boot, mult, epoch_ns */
	uint64_t res_ns;                 /* clock_getres of every clock */
};
_Static_assert(sizeof(struct myrmex_vdso_data) == 48, "vdso data layout");

#endif
