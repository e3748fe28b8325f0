/*
 * The Linux ABI of the stub port: i386's, whose layouts are 32-bit Linux's
 * (<posix/linux_abi32.h>), under the names kernel/posix fills and reads
 * (see the x86-64 port's linux_abi.h).
 * Compiling the personality against them shows that it takes every layout
 * from here.
 */
#ifndef ARCH_LINUX_ABI_H
#define ARCH_LINUX_ABI_H

#define LINUX_UTS_MACHINE "i686"
#define LINUX_PLATFORM    "i686"
#define LINUX_ELF_MACHINE 3    /* EM_386 */

#include <posix/linux_abi32.h>

/* The vDSO image (see the x86-64 port): the stub port has none, an empty
 * image (kernel/arch/stub32/posix/vdso_image.c). */
extern const uint8_t linux_vdso_image[], linux_vdso_image_end[];

#endif
