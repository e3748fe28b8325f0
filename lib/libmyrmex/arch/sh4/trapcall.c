/*
 * myrmex_trapcall6 on SH-4: the port has one system-call entry (trapa), so
 * the "second entry" x86-64 keeps for comparison is the same call here.
 */
#include "myrmex.h"

long myrmex_trapcall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	return myrmex_syscall6(nr, a1, a2, a3, a4, a5, a6);
}
