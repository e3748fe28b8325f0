/*
 * The library's private port operations, one file each under arch/<port>/
 * (the build compiles the current port's): what cannot be written in C
 * alone. The public ones (myrmex_syscall6, myrmex_trapcall6, myrmex_rdtsc)
 * are declared in myrmex.h.
 */
#ifndef MYRMEX_ARCH_OPS_H
#define MYRMEX_ARCH_OPS_H

/*
 * clone(flags, stack_top, tid_word, tid_word, 0): the new thread starts on
 * stack_top, where the caller stored two words, fn (lowest) then arg; it
 * takes them, calls fn(arg) and ends with the exit system call, never
 * returning into this function. The creator gets clone's result (the tid
 * or -errno).
 */
long myrmex_clone_thread(unsigned long flags, void *stack_top, volatile int *tid_word);

#endif
