/*
 * fsio.c - pm's own calls to the file manager: a control ICA and a one-page
 * scratch data ICA, plus image ICAs lent for reads (image.c). pm is one
 * thread serving one request at a time, so no lock.
 */
#include "pm.h"

#include <errno.h>
#include <string.h>

static uint32_t ctl, scratch;

static long ensure(uint32_t *handle, uint32_t pages)
{
	if (*handle)
		return 0;
	long h = myrmex_ica_alloc(pages);
	if (h < 0)
		return h;
	*handle = (uint32_t)h;
	return 0;
}

void *pm_scratch(uint32_t *handle)
{
	if (ensure(&scratch, 1) < 0)
		return NULL;
	*handle = scratch;
	return myrmex_ica_addr(scratch);
}

long pm_fs_call(uint32_t opcode, const uint64_t args[8], uint32_t data, uint64_t res[8])
{
	return pm_fs_call_as(0, 0, opcode, args, data, res);
}

long pm_fs_call_as(uint32_t uid, uint32_t gid, uint32_t opcode, const uint64_t args[8],
                   uint32_t data, uint64_t res[8])
{
	long r = ensure(&ctl, 1);
	if (r < 0)
		return r;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(ctl));
	/* Believed by the file manager only on FS_OPEN_AS (include/myrmex/fs.h). */
	h->reserved[FS_CRED_UID] = uid;
	h->reserved[FS_CRED_GID] = gid;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_FS, opcode);
	if (!f)
		return -EINVAL;
	memcpy(f->arg, args, sizeof(f->arg));
	if (data) {
		f->ndata = 1;
		f->data[0] = data;
	}
	r = myrmex_callsync(h);
	struct myrmex_frame *out = r == 0 ? myrmex_ctl_result(h) : NULL;
	if (data && r != -EINVAL && r != -ESRCH && r != -EAGAIN &&
	    !(out && out->ndata >= 1 && out->data[0] == data)) {
		/* The data ICA did not come back: forget it. */
		if (data == scratch)
			scratch = 0;
		return r < 0 ? r : -EIO;
	}
	if (r < 0)
		return r;
	if (!out)
		return -EIO;
	if (res)
		memcpy(res, out->arg, sizeof(out->arg));
	return (long)out->status;
}
