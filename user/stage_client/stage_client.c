/*
 * stage_client: the client of the three-stage demo (../stage_a/stage.h).
 * Calls stage_a (coreid 21) with callsync and MYRMEX_CTL_DIRECT_RETURN:
 * stage_a and stage_b push their frames and pass the call on, stage_c's
 * result comes straight back. Prints the result, the path the data ICA
 * recorded, and the frame stack the call left in the control ICA (walked
 * from resultp through prev): who called whom.
 */
#include "../stage_a/stage.h"

#define RETRY_NS    (1000ULL * 1000ULL)
#define RETRY_COUNT 2000
#define START_VALUE 4

int main(void)
{
	long ctl = myrmex_ica_alloc(1), data = myrmex_ica_alloc(1);
	if (ctl < 0 || data < 0) {
		fprintf(stderr, "stage_client: ica_alloc: %ld %ld\n", ctl, data);
		return 1;
	}
	snprintf(myrmex_ica_addr((uint32_t)data), STAGE_PATH_MAX, "stage_client");
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl));
	h->flags = MYRMEX_CTL_DIRECT_RETURN;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, STAGE_A_COREID, STAGE_OP_RUN);
	f->arg[0] = START_VALUE;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;

	long r;
	for (int tries = 0; (r = myrmex_callsync(h)) == -ESRCH && tries < RETRY_COUNT; tries++)
		myrmex_sleep_ns(RETRY_NS);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	if (r < 0 || !res) {
		fprintf(stderr, "stage_client: callsync: error %ld\n", -r);
		return 1;
	}
	printf("stage_client: direct result from coreid %u: value %llu (sent %d), status %lld, "
	       "path \"%s\"\n", res->target, (unsigned long long)res->arg[0], START_VALUE,
	       (long long)res->status, (char *)myrmex_ica_addr((uint32_t)data));
	printf("stage_client: currentp %u, resultp %u; frames:", h->currentp, h->resultp);
	for (struct myrmex_frame *s = res; s; s = s->prev ? myrmex_ctl_frame(h, s->prev) : NULL)
		printf(" [pid %d called coreid %u]", (int)s->requester, s->target);
	printf("\n");
	int ok = res->status > 0;
	myrmex_ica_free((uint32_t)data);
	myrmex_ica_free((uint32_t)ctl);   /* res pointed into it */
	return ok ? 0 : 1;
}
