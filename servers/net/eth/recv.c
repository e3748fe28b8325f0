/*
 * Receiving (paper 004, section 4): the receive slots at the driver. The
 * server keeps nslots (recv_init's; RECV_SLOTS_MAX by default) receive
 * requests waiting at the driver, each on
 * a control ICA of its own with a one-page buffer ICA lent; the driver
 * answers one with the ICA a frame arrived in. The server reads the header
 * and hands the frame to deliver.c (the programs' receivers), which gives
 * the slot a buffer back; the slot then goes out again.
 */
#include "eth.h"

#include <errno.h>
#include <string.h>

#define PAGE 4096u

struct eth_stats eth_counters;
struct eth_stats_more eth_more;

struct slot {
	uint32_t ctl;     /* its control ICA */
	uint32_t buf;     /* the buffer lent with it; 0 while it has none */
	int busy;         /* the request is at the driver */
};
static struct slot slots[RECV_SLOTS_MAX];
static unsigned nslots;

/* Sends slot s's receive to the driver: 0 or -errno (it stays idle). */
static int slot_post(struct slot *s)
{
	if (s->busy || !s->buf)
		return 0;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(s->ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_NIC, NET_RECV);
	f->ndata = 1;
	f->data[0] = s->buf;
	long r = myrmex_callasync(h);
	if (r < 0)
		return (int)r;
	s->busy = 1;
	return 0;
}

unsigned slots_refill(void)
{
	unsigned busy = 0;
	for (unsigned i = 0; i < nslots; i++) {
		slot_post(&slots[i]);
		busy += slots[i].busy != 0;
	}
	return busy;
}

int recv_init(unsigned count, unsigned queue)
{
	nslots = count < RECV_SLOTS_MAX ? count : RECV_SLOTS_MAX;
	for (unsigned i = 0; i < nslots; i++) {
		long c = myrmex_ica_alloc(1), b = c < 0 ? c : myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		slots[i].ctl = (uint32_t)c;
		slots[i].buf = (uint32_t)b;
		int err = slot_post(&slots[i]);
		if (err)
			return err;
	}
	return deliver_init(queue);
}

static uint64_t get_mac(const uint8_t *p)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)p[i] << (8 * i);
	return mac;
}

void recv_result(const struct myrmex_delivery *d)
{
	struct slot *s = NULL;
	for (unsigned i = 0; i < nslots && !s; i++)
		if (slots[i].ctl == d->handle)
			s = &slots[i];
	if (!s) {
		myrmex_log(ETH_NAME, "a result of opcode %u for no slot dropped", d->opcode);
		return;
	}
	s->busy = 0;
	s->buf = d->ndata ? d->data[0] : 0;
	if (d->ndata && (d->parked & 1u))
		myrmex_ica_attach(s->buf);
	if (d->status < 0 || !s->buf) {
		/* The driver refused or died: the slot stays idle until the
		 * next program's receive posts it again. */
		eth_counters.driver_errors++;
		if (d->status == -EPIPE)
			deliver_driver_gone();
		if (!s->buf) {   /* it did not come back: a fresh one */
			long b = myrmex_ica_alloc(1);
			s->buf = b > 0 ? (uint32_t)b : 0;   /* handles are never 0 */
		}
		return;
	}
	struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)(uintptr_t)d->control;
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	uint64_t offset = res ? res->arg[0] : PAGE, length = res ? res->arg[1] : 0;
	const uint8_t *p = myrmex_ica_addr(s->buf);
	uint16_t type = 0;
	if (offset <= PAGE && length >= NET_ETH_HLEN && length <= PAGE - offset)
		type = (uint16_t)(p[offset + 12] << 8 | p[offset + 13]);
	if (type < NET_ETHERTYPE_MIN) {
		/* Too short for a header, or an 802.3 length where the type
		 * belongs: no program can ask for it. */
		eth_counters.rx_errors++;
		slot_post(s);
		return;
	}
	struct eth_frame fr = { s->buf, (uint32_t)offset, (uint32_t)length, get_mac(p + offset + 6),
	                        type, 0 };
	s->buf = deliver_frame(&fr);
	slot_post(s);
}
