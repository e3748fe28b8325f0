/*
 * t_ipc_touch <kind>: touches the slot of an ICA that is not attached to it;
 * the kernel must kill it with SIGSEGV (the test init checks the signal).
 * If the access does not kill it, it exits 1.
 *
 *   freed        write to an ICA after ica_free
 *   parked       read an ICA after ica_detach
 *   passed-data  write to a data ICA sent with a callasync
 *   passed-ctl   write to a control ICA sent with callasync
 *   returned     write to a control ICA after returning it with ret()
 *
 * The passed and returned kinds call the process's own coreid (124): it is
 * spawned with the server right and registers itself, so no other process
 * is involved and nothing is left behind when it dies.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_touch"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 124u

static void write_at(void *p)
{
	*(volatile unsigned char *)p = 0x5a;
}

static unsigned char read_at(void *p)
{
	return *(volatile unsigned char *)p;
}

static uint32_t alloc_or_die(void)
{
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		test_fail("ica_alloc: %ld", h);
		raw1(SYS_exit_group, 2);
	}
	write_at(myrmex_ica_addr((uint32_t)h));   /* attached: fine */
	return (uint32_t)h;
}

/* Sends a control ICA with one data ICA to ourselves with callasync. */
static struct myrmex_ctl_header *send_to_self(uint32_t *data)
{
	long r = myrmex_registserver(COREID);
	if (r != 0) {
		test_fail("registserver: %ld", r);
		raw1(SYS_exit_group, 2);
	}
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(alloc_or_die()));
	*data = alloc_or_die();
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_NOP);
	f->ndata = 1;
	f->data[0] = *data;
	r = myrmex_callasync(h);
	if (r != 0) {
		test_fail("callasync: %ld", r);
		raw1(SYS_exit_group, 2);
	}
	return h;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		test_fail("usage: t_ipc_touch <kind>");
		return 2;
	}
	const char *kind = argv[1];
	if (!myrmex_is_native()) {
		/* Nothing to touch on Linux: end as the test expects. */
		raw2(SYS_kill, raw0(SYS_getpid), SIGSEGV);
		return 1;
	}
	if (strcmp(kind, "freed") == 0) {
		uint32_t h = alloc_or_die();
		CHECK_EQ(myrmex_ica_free(h), 0);
		write_at(myrmex_ica_addr(h));
	} else if (strcmp(kind, "parked") == 0) {
		uint32_t h = alloc_or_die();
		CHECK_EQ(myrmex_ica_detach(h), 0);
		(void)read_at(myrmex_ica_addr(h));
	} else if (strcmp(kind, "passed-data") == 0) {
		uint32_t data;
		send_to_self(&data);
		write_at(myrmex_ica_addr(data));
	} else if (strcmp(kind, "passed-ctl") == 0) {
		uint32_t data;
		struct myrmex_ctl_header *h = send_to_self(&data);
		write_at((char *)h + 64);
	} else if (strcmp(kind, "returned") == 0) {
		uint32_t data;
		struct myrmex_ctl_header *h = send_to_self(&data);
		struct myrmex_delivery d;
		long got = myrmex_get(NULL, &d);   /* we take our own request */
		CHECK(got == (long)(uintptr_t)h && d.kind == MYRMEX_DELIVERY_REQUEST,
		      "get: %#lx kind %u", got, d.kind);
		write_at((char *)h + 64);            /* handling it: mapped */
		CHECK_EQ(myrmex_ret(h), 0);          /* the result waits in our queue */
		write_at((char *)h + 64);
	} else {
		test_fail("unknown kind \"%s\"", kind);
		return 2;
	}
	test_fail("%s: the process survived", kind);
	return 1;
}
