/*
 * The UTLB and ASIDs. Every address space gets an 8-bit ASID when it is
 * first activated in the current generation; when the 255 are used up the
 * generation moves on, the whole TLB is flushed, and each space gets a
 * fresh one at its next activation (so a destroyed space's ASID is never
 * reused before a flush). ASID 0 is the kernel's (it maps nothing in U0).
 */
#include <kernel/arch.h>
#include <arch/sh4.h>

uint32_t sh4_asid_gen = 1;
static unsigned next_asid = 1;

void sh4_tlb_flush_all(void)
{
	mmio_write32(SH4_MMUCR, mmio_read32(SH4_MMUCR) | MMUCR_TI);
}

void sh4_tlb_init(void)
{
	mmio_write32(SH4_PTEH, 0);
	mmio_write32(SH4_MMUCR, MMUCR_TI | MMUCR_AT);   /* URB 0: the counter covers all 64 */
}

void sh4_tlb_set_asid(uint8_t asid)
{
	mmio_write32(SH4_PTEH, asid);
}

/* An ASID valid in this generation for as (it may start a new one). */
uint8_t sh4_asid_of(struct arch_as *as);
uint8_t sh4_asid_of(struct arch_as *as)
{
	if (as->asid_gen != sh4_asid_gen) {
		if (next_asid > 255) {
			sh4_asid_gen++;
			next_asid = 1;
			sh4_tlb_flush_all();
		}
		as->asid = (uint8_t)next_asid++;
		as->asid_gen = sh4_asid_gen;
	}
	return as->asid;
}

/* Drops the translation of one page of ASID asid from the UTLB and the
 * ITLB: an associative write to the UTLB address array with V clear. */
void sh4_tlb_flush_page(uint8_t asid, uint32_t va)
{
	mmio_write32(SH4_UTLB_ADDR | UTLB_ASSOC, (va & ~0x3ffu) | asid);
}
