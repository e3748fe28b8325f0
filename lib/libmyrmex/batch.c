/*
 * Wrapped system calls from user space: storing an entry of a batch area,
 * running a batch (include/myrmex/syscall.h, MYRMEX_SYS_BATCH) through the
 * ordinary entry or the port's second one (myrmex_trapcall6, arch/<port>/).
 */
#include "myrmex.h"

void myrmex_batch_store(struct myrmex_batch_area *area, unsigned i, long nr, const long *a)
{
	struct myrmex_batch_entry *e = &area->entry[i];
	e->nr = (uint64_t)nr;
	for (int k = 0; k < 6; k++)
		e->arg[k] = a ? (uint64_t)a[k] : 0;
	e->result = 0;
	e->reserved = 0;
	e->state = MYRMEX_BATCH_STORED;
}

long myrmex_batch(struct myrmex_batch_area *area, uint64_t n)
{
	return myrmex_syscall6(MYRMEX_SYS_BATCH, (long)area, (long)n, 0, 0, 0, 0);
}

long myrmex_batch_trap(struct myrmex_batch_area *area, uint64_t n)
{
	return myrmex_trapcall6(MYRMEX_SYS_BATCH, (long)area, (long)n, 0, 0, 0, 0);
}
