/*
 * Where the kernel's windows lie in a native process's address space: the
 * ICA window (include/myrmex/ica.h) and the device window
 * (include/myrmex/device.h). They are facts of the architecture (of the size
 * of its user address space), not of the protocol, so each architecture has
 * its block here, chosen by the compiler's own target macro: a user program
 * and the kernel built for one architecture see the same values. The kernel
 * checks at compile time that the windows lie in its port's user space
 * (kernel/vm.h). A new port adds its block.
 */
#ifndef MYRMEX_LAYOUT_H
#define MYRMEX_LAYOUT_H

#if defined(__x86_64__)
/* x86-64: 47-bit user space. */
#define MYRMEX_ICA_WINDOW         0x0000600000000000ull
#define MYRMEX_DEVICE_WINDOW      0x0000500000000000ull
#define MYRMEX_DEVICE_BAR_SPAN    (256ull << 20)
#elif defined(__i386__)
/* 32-bit x86 (the stub port's compile check): 3 GiB of user space. The ICA
 * window's 1024 slots of 256 KiB fill [1.5 GiB, 1.75 GiB). */
#define MYRMEX_ICA_WINDOW         0x60000000ull
#define MYRMEX_DEVICE_WINDOW      0x50000000ull
#define MYRMEX_DEVICE_BAR_SPAN    (16ull << 20)
#elif defined(__sh__)
/* SH-4: the 2 GiB U0 area. The device window's six BARs fill
 * [512 MiB, 608 MiB); the ICA window's 1024 slots of 256 KiB fill
 * [640 MiB, 896 MiB); mmap space follows up to the stack's GiB. */
#define MYRMEX_ICA_WINDOW         0x28000000ull
#define MYRMEX_DEVICE_WINDOW      0x20000000ull
#define MYRMEX_DEVICE_BAR_SPAN    (16ull << 20)
#else
#error "include/myrmex/layout.h: no address-space layout for this architecture"
#endif

#endif
