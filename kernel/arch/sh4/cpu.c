/*
 * The CPU itself: bring-up, idle, the register dump and backtrace of a
 * panic, and the multiprocessor operations of a machine with one CPU.
 */
#include <kernel/arch.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <arch/sh4.h>

extern char sh4_vbr[];

void arch_cpu_init(void)
{
	__asm__ volatile("ldc %0, vbr" :: "r"(sh4_vbr));
	mmio_write16(SH4_IPRA, 0);   /* every TMU and RTC source off until started */
	sh4_irq_init();              /* every board source masked until a driver has it */
	sh4_pci_init();              /* before kmain's device_init scans the bus */
}

/* Opens the interrupt mask, sleeps until an interrupt (taken at once, on
 * this stack: the entry sees kernel mode), and masks again. */
void arch_wait_for_interrupt(void)
{
	uint32_t sr = sh4_get_sr();
	sh4_set_sr(sr & ~SR_IMASK);
	__asm__ volatile("sleep" ::: "memory");
	sh4_set_sr(sr | SR_IMASK);
}

unsigned arch_cpu_count(void)
{
	return 1;
}

void arch_ipi_send(unsigned cpu, enum arch_ipi what)
{
	(void)cpu, (void)what;   /* no second CPU */
}

void arch_tlb_shootdown(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	(void)as, (void)va, (void)npages;   /* the unmap already invalidated this CPU's */
}

uint64_t arch_tf_frame_pointer(const struct trapframe *tf)
{
	return tf->r[14];
}

void arch_tf_dump(const struct trapframe *tf)
{
	for (int i = 0; i < 16; i += 4)
		printk("r%-2d=%08x r%-2d=%08x r%-2d=%08x r%-2d=%08x\n", i, tf->r[i], i + 1,
		       tf->r[i + 1], i + 2, tf->r[i + 2], i + 3, tf->r[i + 3]);
	printk("spc=%08x ssr=%08x pr=%08x gbr=%08x event=%#x vector=%#x\n", tf->spc, tf->ssr,
	       tf->pr, tf->gbr, tf->event, tf->vector);
	printk("tea=%08x pteh=%08x mmucr=%08x\n", mmio_read32(SH4_TEA), mmio_read32(SH4_PTEH),
	       mmio_read32(SH4_MMUCR));
}

void arch_dump_cpu_state(void)
{
	printk("sr=%08x tea=%08x pteh=%08x mmucr=%08x\n", sh4_get_sr(), mmio_read32(SH4_TEA),
	       mmio_read32(SH4_PTEH), mmio_read32(SH4_MMUCR));
}

/* GCC's SH frames keep no chain a walker could follow without unwind
 * tables: no backtrace on this port. */
void arch_backtrace(uint64_t fp, void (*visit)(uint64_t ip))
{
	(void)fp, (void)visit;
}

/* GCC's SH back end compiles __builtin_trap into a call to abort. */
NORETURN void abort(void);
NORETURN void abort(void)
{
	panic("abort (an impossible state: __builtin_trap)");
}
