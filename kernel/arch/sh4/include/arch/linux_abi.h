/*
 * The Linux ABI of the SH-4 port: SH Linux's, whose layouts for these
 * structures are i386's, 32-bit Linux's (<posix/linux_abi32.h>). The
 * personality is built for SH-4 but not yet run there (docs/sh4.md).
 */
#ifndef ARCH_LINUX_ABI_H
#define ARCH_LINUX_ABI_H

#define LINUX_UTS_MACHINE "sh4"
#define LINUX_PLATFORM    "sh4"
#define LINUX_ELF_MACHINE 42   /* EM_SH */

#include <posix/linux_abi32.h>

/* The vDSO image (see the x86-64 port): the SH-4 port has none yet, an
 * empty image (kernel/arch/sh4/posix/vdso_image.c). */
extern const uint8_t linux_vdso_image[], linux_vdso_image_end[];

#endif
