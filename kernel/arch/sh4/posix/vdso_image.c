/*
 * The SH-4 port's vDSO image (<arch/linux_abi.h>): empty, so the
 * personality maps no vDSO and gives no AT_SYSINFO_EHDR.
 */
#include <stdint.h>
#include <arch/linux_abi.h>

__asm__(".section .rodata\n"
        ".globl linux_vdso_image, linux_vdso_image_end\n"
        "linux_vdso_image:\n"
        "linux_vdso_image_end:\n"
        ".previous\n");
