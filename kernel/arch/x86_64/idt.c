/*
 * The interrupt descriptor table: 256 interrupt gates to the stubs in
 * entry.S, all DPL 0 (user mode cannot raise any vector with int n; int3 is
 * DPL 3 so that a user breakpoint becomes SIGTRAP rather than #GP), but for
 * the trap-gate system-call entry, VEC_TRAPCALL (int $0x81), DPL 3 to
 * trapcall_entry. An interrupt gate, not a trap gate: the kernel runs with
 * interrupts off from its first instruction, as syscall's FMASK gives.
 */
#include <arch/x86.h>

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t zero;
} __attribute__((packed));

static struct idt_gate idt[256];
extern char trap_stubs[], trapcall_entry[];
#define STUB_SIZE 16

static void set_gate_to(int vector, uint64_t handler, uint8_t dpl, uint8_t ist)
{
	idt[vector] = (struct idt_gate){
		.offset_low = handler & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = (uint8_t)(0x8e | (dpl << 5)),   /* present, 64-bit interrupt gate */
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_high = (uint32_t)(handler >> 32),
	};
}

static void set_gate(int vector, uint8_t dpl, uint8_t ist)
{
	set_gate_to(vector, (uint64_t)trap_stubs + (uint64_t)vector * STUB_SIZE, dpl, ist);
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, 0, 0);
	set_gate(3, 3, 0);   /* int3 from user mode */
	set_gate(8, 0, 1);   /* double fault on its own stack (IST1) */
	set_gate_to(VEC_TRAPCALL, (uint64_t)trapcall_entry, 3, 0);
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) ptr = {
		sizeof(idt) - 1, (uint64_t)idt
	};
	__asm__ volatile("lidt %0" :: "m"(ptr));
}
