/*
 * stage_c: the last stage of the three-stage demo (../stage_a/stage.h).
 * Serves coreid 23: appends its name to the path, returns arg[0] * 10, the
 * path length as status and the data ICA. With direct return set by the
 * client, its result skips stage_b and stage_a.
 */
#include "../stage_a/stage.h"

int main(void)
{
	long r = myrmex_registserver(STAGE_C_COREID);
	if (r < 0) {
		fprintf(stderr, "stage_c: registserver(%u): error %ld\n", STAGE_C_COREID, -r);
		return 1;
	}
	printf("stage_c: serving coreid %u\n", STAGE_C_COREID);
	fflush(stdout);
	void *p = NULL;
	for (;;) {
		struct myrmex_delivery d;
		long got = myrmex_get(p, &d);
		p = NULL;
		if (got < 0) {
			fprintf(stderr, "stage_c: get: error %ld\n", -got);
			return 1;
		}
		if (d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;
		struct myrmex_frame *f = myrmex_ctl_frame((void *)got, d.frame);
		if (d.ndata >= 1) {
			stage_append(d.data[0], "stage_c");
			f->status = (int64_t)strlen(myrmex_ica_addr(d.data[0]));
		} else {
			f->status = -EINVAL;
		}
		f->arg[0] *= 10;
		stage_copy_data(f, d.ndata, d.data);
		p = (void *)got;
	}
}
