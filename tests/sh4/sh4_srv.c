/*
 * sh4_srv: the SH-4 tests' server. "sh4_srv COREID NEXT" serves coreid;
 * NEXT (a coreid, 0 for none) is the next stage of a chain. Opcodes
 * (sh4_user.h): SRV_ECHO returns arg[0] + 1; SRV_FWD passes the call on to
 * NEXT with callsync and returns the result plus one in status and arg[1]
 * (the last stage returns 1, 1); SRV_FWD_DIRECT does the same but the last
 * stage claims the control ICA and sets MYRMEX_CTL_DIRECT_RETURN, so the
 * result skips the middle stages (their callsync gives -ECANCELED);
 * SRV_DIE exits with the request unanswered; SRV_ECHO_TS echoes and puts
 * in arg[2] the clock read as get returned (the benchmark's mid point).
 * "sh4_srv 0 yield" serves nothing and yields for ever (the benchmark's
 * partner in process switches); "sh4_srv 0 x" exits at once (t_asid).
 */
#include "sh4_user.h"

static uint32_t next_stage;

/* Handles one request; returns 1 when it is to be returned now. */
static int handle(const struct myrmex_delivery *d, uint64_t got_at)
{
	void *ctl = (void *)(uintptr_t)d->control;
	struct myrmex_ctl_header *h = ctl;
	struct myrmex_frame *mine = (struct myrmex_frame *)((char *)ctl + d->frame);
	switch (d->opcode) {
	case SRV_ECHO:
		mine->status = (int64_t)mine->arg[0] + 1;
		return 1;
	case SRV_ECHO_TS:
		mine->status = (int64_t)mine->arg[0] + 1;
		mine->arg[2] = got_at;
		return 1;
	case SRV_FWD:
	case SRV_FWD_DIRECT:
		if (next_stage == 0) {
			if (d->opcode == SRV_FWD_DIRECT) {
				u_claim(ctl);
				h->flags |= MYRMEX_CTL_DIRECT_RETURN;
			}
			mine->status = 1;
			mine->arg[1] = 1;
			return 1;
		} else {
			u_claim(ctl);
			struct myrmex_frame *f = u_ctl_push(ctl, next_stage, d->opcode);
			long r = u_callsync(ctl);
			if (r == -ECANCELED)
				return 0;   /* the last stage returned past us */
			struct myrmex_frame *res = u_ctl_result(ctl);
			(void)f;
			if (r < 0 || !res) {
				h->currentp = d->frame;
				mine->status = r < 0 ? r : -EFAULT;
				return 1;
			}
			mine->status = res->status + 1;
			mine->arg[1] = res->arg[1] + 1;
			return 1;
		}
	case SRV_DIE:
		u_exit(0);
	default:
		mine->status = -EINVAL;
		return 1;
	}
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc < 3)
		return 2;
	uint32_t coreid = (uint32_t)u_atol(argv[1]);
	if (argv[2][0] == 'y')   /* "sh4_srv 0 yield": the benchmark's switch partner */
		for (;;)
			sys0(SH_NR_SCHED_YIELD);
	if (argv[2][0] == 'x')   /* "sh4_srv 0 x": t_asid's short-lived address space */
		return 0;
	next_stage = (uint32_t)u_atol(argv[2]);
	long r = sys1(MYRMEX_SYS_REGISTSERVER, coreid);
	if (r < 0) {
		u_puts("sh4_srv: registserver failed\n");
		return 1;
	}
	for (;;) {
		struct myrmex_delivery d;
		r = u_get(0, &d);
		if (r < 0 || d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;
		uint64_t got_at = d.opcode == SRV_ECHO_TS ? u_now_ns() : 0;
		if (handle(&d, got_at))
			u_ret((void *)(uintptr_t)d.control);
	}
}
