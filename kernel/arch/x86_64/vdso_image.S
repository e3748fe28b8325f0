/*
 * The vDSO image (kernel/arch/x86_64/vdso, built by the Makefile into
 * build/kernel/arch/x86_64/vdso/vdso.so), embedded in the kernel as
 * linux_vdso_image[] .. linux_vdso_image_end[] (<arch/linux_abi.h>). The
 * personality copies it into frames of its own at boot (kernel/posix/vdso.c)
 * and maps those into every POSIX process.
 */
	.section .rodata
	.balign 4096
	.globl linux_vdso_image, linux_vdso_image_end
linux_vdso_image:
	.incbin VDSO_IMAGE_PATH
linux_vdso_image_end:
