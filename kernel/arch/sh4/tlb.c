/*
 * The UTLB and ASIDs.
 *
 * ASIDs: every address space gets an 8-bit ASID when it is first activated
 * (or first given a reserved entry) in the current generation; when the 255
 * are used up the generation moves on, the whole TLB is flushed, and each
 * space gets a fresh ASID when next used (so a destroyed space's ASID is
 * never reused before a flush). ASID 0 is the kernel's (it maps nothing in
 * U0). A flush also empties the reserved ICA entries, which ica.c then
 * loads again under the new ASIDs.
 *
 * Entries: the 64 UTLB entries split in two (paper 002). The top
 * sh4_tlb_reserved ones (0 unless the boot option ica_tlb=N) belong to
 * ICAs (ica.c); MMUCR.URB keeps the hardware's random counter below them.
 * The others hold private pages: a refill takes the next never-used entry
 * after the last flush, then the random counter's choice.
 */
#include <kernel/arch.h>
#include <kernel/stats.h>
#include <arch/sh4.h>

uint32_t sh4_asid_gen = 1;
static unsigned next_asid = 1;
unsigned sh4_tlb_reserved;        /* entries [64 - reserved, 64) are ICA entries */
/* Read and written by vectors.S's fast refill too: */
uint32_t sh4_tlb_private = SH4_UTLB_ENTRIES;   /* 64 - reserved */
uint32_t sh4_tlb_fill;            /* private entries [0, fill) used since the last flush */

void sh4_ica_reload_all(void);
struct arch_as *sh4_active_as(void);

static uint32_t mmucr_base(void)
{
	unsigned urb = sh4_tlb_reserved ? SH4_UTLB_ENTRIES - sh4_tlb_reserved : 0;
	/* SQMD: user mode may not reach the store queues (QEMU lets it anyway). */
	return MMUCR_AT | MMUCR_SQMD | (urb << MMUCR_URB_SHIFT);
}

void sh4_tlb_flush_all(void)
{
	mmio_write32(SH4_MMUCR, mmucr_base() | MMUCR_TI);
	sh4_tlb_fill = 0;
	STAT_INC(tlb_flushes_full);
}

void sh4_tlb_init(unsigned reserved)
{
	sh4_tlb_reserved = reserved;
	sh4_tlb_private = SH4_UTLB_ENTRIES - reserved;
	mmio_write32(SH4_PTEH, 0);
	sh4_tlb_flush_all();
}

void sh4_tlb_set_asid(uint8_t asid)
{
	mmio_write32(SH4_PTEH, asid);
}

/* An ASID valid in this generation for as (it may start a new one). */
uint8_t sh4_asid_of(struct arch_as *as)
{
	if (as->asid_gen != sh4_asid_gen) {
		if (next_asid > 255) {
			sh4_asid_gen++;
			next_asid = 1;
			sh4_tlb_flush_all();
			as->asid = (uint8_t)next_asid++;
			as->asid_gen = sh4_asid_gen;
			/* The running space (if not as) gets its new ASID now: the
			 * reloaded ICA entries below carry it, and it may return to
			 * user mode without being activated again. */
			struct arch_as *running = sh4_active_as();
			mmio_write32(SH4_PTEH, running ? sh4_asid_of(running) : 0);
			sh4_ica_reload_all();
			return as->asid;
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
	STAT_INC(tlb_invalidations);
}

/* Loads PTEH (va | asid) and PTEL into UTLB entry `entry`, or into the
 * next private one when entry < 0; PTEH keeps the current ASID after. */
void sh4_tlb_load(int entry, uint32_t va, uint8_t asid, uint32_t ptel)
{
	uint32_t current = mmio_read32(SH4_PTEH) & 0xff;
	uint32_t mmucr = mmio_read32(SH4_MMUCR);
	unsigned urc = (mmucr & MMUCR_URC_MASK) >> MMUCR_URC_SHIFT;
	mmucr &= ~(MMUCR_URC_MASK | MMUCR_TI);
	unsigned private = sh4_tlb_private;
	if (entry < 0 && sh4_tlb_fill < private)
		entry = (int)sh4_tlb_fill++;
	/* Else the random counter's choice. It wraps at URB, but QEMU lets it
	 * reach URB itself (the first reserved entry) before wrapping: its
	 * value is taken modulo the private entries, and written back. */
	if (entry < 0)
		entry = (int)(urc % private);
	mmio_write32(SH4_MMUCR, mmucr | ((uint32_t)entry << MMUCR_URC_SHIFT));
	mmio_write32(SH4_PTEH, (va & ~0x3ffu) | asid);
	mmio_write32(SH4_PTEL, ptel);
	sh4_ldtlb();
	if (asid != current)
		mmio_write32(SH4_PTEH, current);
}
