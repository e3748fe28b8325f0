/*
 * CPU bring-up: feature detection, control registers, the GDT and TSS, the
 * per-CPU block, the FPU, and the MSRs of the syscall instruction.
 */
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/x86.h>

struct x86_features x86_features;
bool x86_smap_enabled;          /* read by usercopy.S */
struct x86_cpu x86_cpu0;

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

static struct tss tss0;
static uint64_t gdt[7];
static uint8_t double_fault_stack[4096] __attribute__((aligned(16)));
/* A clean FPU state, copied into every new thread. */
uint8_t x86_fpu_initial[512] __attribute__((aligned(16)));
/* The MXCSR bits this CPU supports: fxrstor faults on any other. */
uint32_t x86_mxcsr_mask;

extern void syscall_entry(void);

void tss_set_rsp0(uint64_t rsp0)
{
	tss0.rsp[0] = rsp0;
}

static void detect_features(void)
{
	uint32_t r[4];
	cpuid(1, 0, r);
	x86_features.pcid = r[2] & (1u << 17);
	x86_features.rdrand = r[2] & (1u << 30);
	cpuid(7, 0, r);
	x86_features.smep = r[1] & (1u << 7);
	x86_features.smap = r[1] & (1u << 20);
	x86_features.invpcid = r[1] & (1u << 10);
	x86_features.umip = r[2] & (1u << 2);
	cpuid(0x80000001, 0, r);
	x86_features.nx = r[3] & (1u << 20);
}

static void gdt_init(void)
{
	gdt[0] = 0;
	gdt[1] = 0x00209a0000000000ull;   /* kernel code, 64-bit */
	gdt[2] = 0x0000920000000000ull;   /* kernel data */
	gdt[3] = 0x0000f20000000000ull;   /* user data (DPL 3) */
	gdt[4] = 0x0020fa0000000000ull;   /* user code, 64-bit (DPL 3) */
	uint64_t base = (uint64_t)&tss0, limit = sizeof(tss0) - 1;
	gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) |
	         (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;
	tss0.ist[0] = (uint64_t)double_fault_stack + sizeof(double_fault_stack);
	tss0.iomap_base = sizeof(tss0);   /* no I/O bitmap: user mode has no port access */

	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) ptr = {
		sizeof(gdt) - 1, (uint64_t)gdt
	};
	__asm__ volatile(
		"lgdt %0\n"
		"pushq $0x08\n"
		"leaq 1f(%%rip), %%rax\n"
		"pushq %%rax\n"
		"lretq\n"
		"1: movw $0x10, %%ax\n"
		"movw %%ax, %%ds\n movw %%ax, %%es\n movw %%ax, %%ss\n"
		"xorw %%ax, %%ax\n movw %%ax, %%fs\n movw %%ax, %%gs\n"
		"movw $0x28, %%ax\n ltr %%ax\n"
		:: "m"(ptr) : "rax", "memory");
}

static void control_registers_init(void)
{
	write_cr0((read_cr0() | CR0_WP | CR0_MP | CR0_NE) & ~CR0_EM);
	uint64_t cr4 = read_cr4() | CR4_PGE | CR4_OSFXSR | CR4_OSXMMEXCPT;
	if (x86_features.smep)
		cr4 |= CR4_SMEP;
	if (x86_features.smap)
		cr4 |= CR4_SMAP;
	if (x86_features.umip)
		cr4 |= CR4_UMIP;
	write_cr4(cr4);
	x86_smap_enabled = x86_features.smap;
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE | EFER_NXE);
}

static void fpu_init(void)
{
	uint32_t mxcsr = 0x1f80;
	__asm__ volatile("fninit\n ldmxcsr %1\n fxsave %0" : "=m"(x86_fpu_initial) : "m"(mxcsr));
	memcpy(&x86_mxcsr_mask, x86_fpu_initial + 28, sizeof(x86_mxcsr_mask));
	if (x86_mxcsr_mask == 0)
		x86_mxcsr_mask = 0xffbf;   /* the CPU does not say: the architectural default */
}

static void syscall_msrs_init(void)
{
	/* sysret loads CS from STAR[63:48] + 16 and SS from STAR[63:48] + 8. */
	wrmsr(MSR_STAR, ((uint64_t)(USER_DS - 8) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/* Clear IF, TF, DF, AC, NT and IOPL on entry. */
	wrmsr(MSR_FMASK, 0x47700);
}

void arch_cpu_init(void)
{
	detect_features();
	control_registers_init();
	gdt_init();
	idt_init();
	fpu_init();
	x86_cpu0.self = &x86_cpu0;
	wrmsr(MSR_GS_BASE, (uint64_t)&x86_cpu0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	syscall_msrs_init();
	printk("cpu: pcid=%d invpcid=%d smep=%d smap=%d umip=%d nx=%d\n",
	       x86_features.pcid, x86_features.invpcid, x86_features.smep,
	       x86_features.smap, x86_features.umip, x86_features.nx);
}

void arch_wait_for_interrupt(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

void arch_dump_cpu_state(void)
{
	uint64_t rsp, rbp;
	__asm__ volatile("mov %%rsp, %0; mov %%rbp, %1" : "=r"(rsp), "=r"(rbp));
	printk("rsp=%016lx rbp=%016lx\ncr0=%016lx cr2=%016lx cr3=%016lx cr4=%016lx\n",
	       rsp, rbp, read_cr0(), read_cr2(), read_cr3(), read_cr4());
}
