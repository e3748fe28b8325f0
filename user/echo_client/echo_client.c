/*
 * echo_client [message]: the demo client of the echo server. Puts the
 * message in a data ICA, names it in a call frame on a control ICA, calls
 * coreid 10 with callsync, and prints what came back: the data ICA, moved
 * to the server and back without a copy, now holds the message in capitals.
 * Retries for a while if the server has not registered yet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <myrmex.h>

#include "../echo_server/echo_proto.h"

#define RETRY_NS    (1000ULL * 1000ULL)   /* 1 ms between tries */
#define RETRY_COUNT 2000

int main(int argc, char **argv)
{
	const char *message = argc > 1 ? argv[1] : "hello through the ICAs";
	size_t len = strlen(message);
	if (len >= ECHO_MAX_LEN)
		len = ECHO_MAX_LEN - 1;

	long ctl = myrmex_ica_alloc(1), data = myrmex_ica_alloc(1);
	if (ctl < 0 || data < 0) {
		fprintf(stderr, "echo_client: ica_alloc: %ld %ld\n", ctl, data);
		return 1;
	}
	char *text = myrmex_ica_addr((uint32_t)data);
	memcpy(text, message, len);
	text[len] = '\0';

	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, ECHO_COREID, ECHO_OP_ECHO);
	f->arg[0] = len;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;

	long r;
	for (int tries = 0; (r = myrmex_callsync(h)) == -ESRCH && tries < RETRY_COUNT; tries++)
		myrmex_sleep_ns(RETRY_NS);
	if (r < 0) {
		fprintf(stderr, "echo_client: callsync: error %ld\n", -r);
		return 1;
	}
	struct myrmex_frame *res = myrmex_ctl_result(h);
	if (!res || res->status < 0 || res->ndata != 1 || res->data[0] != (uint32_t)data) {
		fprintf(stderr, "echo_client: bad result (status %lld)\n",
		        res ? (long long)res->status : 0LL);
		return 1;
	}
	printf("echo_client: sent \"%s\"; the server echoed %lld bytes in place: \"%s\"\n",
	       message, (long long)res->status, text);
	myrmex_ica_free((uint32_t)data);
	myrmex_ica_free((uint32_t)ctl);
	return 0;
}
