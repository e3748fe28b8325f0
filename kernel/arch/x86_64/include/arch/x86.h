/*
 * x86-64 instructions, registers and constants used inside the port.
 */
#ifndef ARCH_X86_H
#define ARCH_X86_H

#include <stdint.h>
#include <stdbool.h>
#include <arch/arch_types.h>

#define KERNEL_VMA   0xffffffff80000000ull   /* the kernel image: phys + KERNEL_VMA */
#define DIRECT_MAP   0xffff800000000000ull   /* all RAM: phys + DIRECT_MAP */

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_DS   0x1b   /* GDT entry 3, RPL 3 */
#define USER_CS   0x23   /* GDT entry 4, RPL 3 */
#define TSS_SEL   0x28

#define MSR_EFER          0xc0000080
#define MSR_STAR          0xc0000081
#define MSR_LSTAR         0xc0000082
#define MSR_FMASK         0xc0000084
#define MSR_FS_BASE       0xc0000100
#define MSR_GS_BASE       0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_APIC_BASE     0x1b

#define EFER_SCE (1u << 0)
#define EFER_NXE (1u << 11)

#define CR0_MP (1ull << 1)
#define CR0_EM (1ull << 2)
#define CR0_NE (1ull << 5)
#define CR0_WP (1ull << 16)
#define CR4_PGE        (1ull << 7)
#define CR4_OSFXSR     (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define CR4_UMIP       (1ull << 11)
#define CR4_PCIDE      (1ull << 17)
#define CR4_SMEP       (1ull << 20)
#define CR4_SMAP       (1ull << 21)

#define RFLAGS_IF (1ull << 9)

/* Interrupt vectors. */
#define VEC_PIC_BASE     0x20
#define VEC_TIMER        0x40
#define VEC_IRQ_BASE     0x50    /* I/O APIC line n arrives at VEC_IRQ_BASE + n */
#define VEC_SPURIOUS     0xff
#define VEC_SYSCALL      0x100   /* marks a trapframe made by syscall_entry */
#define VEC_TRAPCALL     0x81    /* int $0x81: the trap-gate system call (entry.S) */

/* Which optional features this CPU has and we enabled. */
struct x86_features {
	bool pcid, invpcid, smep, smap, umip, nx, rdrand;
};
extern struct x86_features x86_features;

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* COM1, the 16550 UART of the kernel's console (serial.c) and of the
 * console server (legacy.c lists it as a device). */
#define COM1_BASE 0x3f8
#define COM1_PORTS 8

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdtsc(void)
{
	return arch_read_tsc();   /* <arch/arch_types.h> */
}

#define DEFINE_CR(n) \
	static inline uint64_t read_cr##n(void) { uint64_t v; __asm__ volatile("mov %%cr" #n ", %0" : "=r"(v)); return v; } \
	static inline void write_cr##n(uint64_t v) { __asm__ volatile("mov %0, %%cr" #n :: "r"(v) : "memory"); }
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }

/* Per-CPU data reached through GS in the kernel. The first two fields are
 * used by syscall_entry at fixed offsets. */
struct x86_cpu {
	uint64_t kstack_top;    /* %gs:0  the current thread's kernel stack top */
	uint64_t user_rsp;      /* %gs:8  scratch for syscall_entry */
	struct x86_cpu *self;
	struct arch_as *active_as;
};
extern struct x86_cpu x86_cpu0;

void tss_set_rsp0(uint64_t rsp0);
void lapic_eoi(void);
void idt_init(void);
extern char usercopy_begin[], usercopy_end[], usercopy_fault[];
extern uint8_t x86_fpu_initial[512];   /* a clean FXSAVE image */
extern uint32_t x86_mxcsr_mask;        /* MXCSR bits fxrstor accepts */

#endif
