/*
 * Wrappers for the ICA system calls (include/myrmex/ica.h): allocate, free,
 * detach (park) and attach an ICA by handle. On Linux each gives -ENOSYS.
 */
#include "myrmex.h"

long myrmex_ica_alloc(uint32_t npages)
{
	return myrmex_syscall6(MYRMEX_SYS_ICA_ALLOC, (long)npages, 0, 0, 0, 0, 0);
}

long myrmex_ica_free(uint32_t handle)
{
	return myrmex_syscall6(MYRMEX_SYS_ICA_FREE, (long)handle, 0, 0, 0, 0, 0);
}

long myrmex_ica_detach(uint32_t handle)
{
	return myrmex_syscall6(MYRMEX_SYS_ICA_DETACH, (long)handle, 0, 0, 0, 0, 0);
}

long myrmex_ica_attach(uint32_t handle)
{
	return myrmex_syscall6(MYRMEX_SYS_ICA_ATTACH, (long)handle, 0, 0, 0, 0, 0);
}
