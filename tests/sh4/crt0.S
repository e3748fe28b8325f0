/*
 * The SH-4 test programs' entry: the kernel starts a program with r15 at
 * argc, then argv[], NULL, envp[], NULL (kernel/posix/ustack.c's layout).
 * Calls main(argc, argv, envp) and exits with its result.
 */
	.text
	.globl _start
_start:
	mov.l @r15, r4              /* argc */
	mov r15, r5
	add #4, r5                  /* argv */
	mov r4, r6
	shll2 r6
	add r5, r6
	add #4, r6                  /* envp: past argv's NULL */
	mov.l .Lmain, r0
	jsr @r0
	nop
	mov r0, r4
	mov #1, r3                  /* exit */
	trapa #0x11
1:	bra 1b
	nop
	.balign 4
.Lmain: .long main
