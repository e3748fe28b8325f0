/*
 * One-frame synchronous calls, the shape most native clients need:
 * myrmex_call on a control ICA the caller keeps (arguments, one data ICA,
 * the result words and the data ICA the answer carries), and myrmex_ask, a
 * call without arguments to a server that may not have registered yet (a
 * server starting after the one it needs, as the Ethernet server after the
 * NIC driver): retried every millisecond while the coreid is unregistered
 * (-ESRCH), on a control ICA of its own.
 */
#include "myrmex.h"

#include <errno.h>
#include <string.h>

long myrmex_call(struct myrmex_ctl_header *h, uint32_t coreid, uint32_t opcode,
                 const uint64_t args[4], uint32_t data, uint64_t out[8], uint32_t *data_back)
{
	myrmex_ctl_init(h);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, coreid, opcode);
	for (unsigned k = 0; k < 4; k++)
		f->arg[k] = args ? args[k] : 0;
	if (data) {
		f->ndata = 1;
		f->data[0] = data;
	}
	long r = myrmex_callsync(h);
	if (r < 0)
		return r;
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	if (!res)
		return -EIO;
	if (out)
		memcpy(out, res->arg, sizeof(res->arg));
	if (data_back)
		*data_back = res->ndata ? res->data[0] : 0;
	return (long)res->status;
}

long myrmex_ask(uint32_t coreid, uint32_t opcode, unsigned wait_ms, uint64_t out[8])
{
	long c = myrmex_ica_alloc(1);
	if (c < 0)
		return c;
	struct myrmex_ctl_header *h = myrmex_ica_addr((uint32_t)c);
	long r = -ESRCH;
	for (unsigned i = 0; i <= wait_ms && r == -ESRCH; i++) {
		if (i)
			myrmex_sleep_ns(1000 * 1000);
		myrmex_ctl_init(h);
		myrmex_ctl_push(h, 1, coreid, opcode);
		r = myrmex_callsync(h);
	}
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	if (r == 0 && !res)
		r = -EIO;
	if (r == 0 && res->status < 0)
		r = (long)res->status;
	if (r == 0 && out)
		memcpy(out, res->arg, sizeof(res->arg));
	myrmex_ica_free((uint32_t)c);
	return r;
}
