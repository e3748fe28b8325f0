/*
 * Wrappers for the server communication calls of AnT (include/myrmex/ica.h,
 * paper 004 table 1): registserver, callsync, callasync, get and ret (and
 * claim, which takes a lent control ICA away from its caller). The
 * control ICA is named by its address, as in the paper. On Linux each gives
 * -ENOSYS.
 */
#include "myrmex.h"

long myrmex_registserver(uint32_t coreid)
{
	return myrmex_syscall6(MYRMEX_SYS_REGISTSERVER, (long)coreid, 0, 0, 0, 0, 0);
}

long myrmex_callsync(void *p)
{
	return myrmex_syscall6(MYRMEX_SYS_CALLSYNC, (long)p, 0, 0, 0, 0, 0);
}

long myrmex_callasync(void *p)
{
	return myrmex_syscall6(MYRMEX_SYS_CALLASYNC, (long)p, 0, 0, 0, 0, 0);
}

long myrmex_get(void *p, struct myrmex_delivery *out)
{
	return myrmex_syscall6(MYRMEX_SYS_GET, (long)p, (long)out, 0, 0, 0, 0);
}

long myrmex_ret(void *p)
{
	return myrmex_syscall6(MYRMEX_SYS_RET, (long)p, 0, 0, 0, 0, 0);
}

long myrmex_claim(void *p)
{
	return myrmex_syscall6(MYRMEX_SYS_CLAIM, (long)p, 0, 0, 0, 0, 0);
}
