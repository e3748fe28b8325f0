/*
 * CPUs on x86-64 (kernel/arch.h). The port brings up the boot CPU only:
 * arch_cpu_id is 0 (arch_types.h), there is no other CPU to interrupt, and
 * every translation lives in this CPU's TLB, which the unmap and protect
 * calls already invalidate. The SMP step starts the application processors
 * through the local APIC, reads the CPU id from a per-CPU word (GS base),
 * and sends the IPIs below as fixed interrupts with a shoot-down queue.
 */
#include <kernel/arch.h>
#include <kernel/panic.h>

unsigned arch_cpu_count(void)
{
	return 1;
}

void arch_ipi_send(unsigned cpu, enum arch_ipi what)
{
	panic("arch_ipi_send(%u, %d): only the boot CPU runs", cpu, (int)what);
}

void arch_tlb_shootdown(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	/* One CPU: the unmap or protect that made translations stale has
	 * already invalidated them here. */
	(void)as;
	(void)va;
	(void)npages;
}
