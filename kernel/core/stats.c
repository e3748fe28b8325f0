/*
 * Kernel counters (see kernel/stats.h).
 */
#include <kernel/stats.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <kernel/kmem.h>
#include <kernel/pmm.h>
#include <kernel/proc.h>
#include <kernel/time.h>

struct myrmex_kstats kstats;

void stats_snapshot(struct myrmex_kstats *out)
{
	*out = kstats;
	out->free_pages = pmm_free_pages();
	out->total_pages = pmm_total_pages();
	out->kernel_objects = kmem_live_objects();
	out->tsc_khz = time_tsc_khz();
	out->processes = proc_count();
	out->threads = thread_count();
	out->ica_live = ica_live_count();
	out->ipc_fast_on = ipc_fast_enabled;
}
