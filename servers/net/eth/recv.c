/*
 * Receiving (paper 004, section 4). The server keeps RECV_SLOTS receive
 * requests waiting at the driver, each on a control ICA of its own with a
 * one-page buffer ICA lent; the driver answers one with the ICA a frame
 * arrived in. The server reads the header and answers the oldest parked
 * receive request of a program for that EtherType with that same ICA (the
 * payload's offset just past the header: the header is stripped without a
 * copy), or queues the frame until one comes. Nothing is copied.
 *
 * Invariant (buffer exchange, as in the driver): every receive request
 * lends one one-page ICA and takes one frame ICA away, so the ICAs this
 * server holds stay RECV_SLOTS + ETH_QUEUE_MAX: a slot's buffer, a queued
 * frame, or a spare, with spares + queued == ETH_QUEUE_MAX. A frame queued
 * takes a spare onto its slot; when the queue is full its oldest frame is
 * dropped (counted) and its ICA goes to the slot instead.
 */
#include "eth.h"

#include <errno.h>
#include <string.h>

#define RECV_SLOTS 8
#define ETH_QUEUE_MAX 16
#define PAGE 4096u

struct eth_stats eth_counters;

struct slot {
	uint32_t ctl;     /* its control ICA */
	uint32_t buf;     /* the buffer lent with it; 0 while it has none */
	int busy;         /* the request is at the driver */
};
static struct slot slots[RECV_SLOTS];

struct frame {
	uint32_t ica;     /* the frame's ICA, ours */
	uint32_t offset, length;   /* the whole frame, header included */
	uint64_t src;
	uint16_t type;
};
static struct frame queue[ETH_QUEUE_MAX];   /* oldest first */
static unsigned queued;
static uint32_t spares[ETH_QUEUE_MAX];
static unsigned nspares;

/* Programs' receive requests waiting, oldest first, and their types. */
static struct server_request parked[NET_RECV_PARKED_MAX];
static uint16_t parked_type[NET_RECV_PARKED_MAX];
static unsigned nparked;

/* ---------------------------------------------------------- slots */

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

/* Posts the idle slots again (after the driver failed some, or died and
 * was started again): how many are at the driver now. */
static unsigned slots_refill(void)
{
	unsigned busy = 0;
	for (unsigned i = 0; i < RECV_SLOTS; i++) {
		slot_post(&slots[i]);
		busy += slots[i].busy != 0;
	}
	return busy;
}

/* The driver ended (-EPIPE on a slot): every program waiting for a frame
 * is told at once (-ENETDOWN) and gets its lent ICA back; a later receive
 * posts the slots again, at a restarted driver. */
static void fail_parked(void)
{
	while (nparked > 0) {
		struct server_request rq = parked[--nparked];
		server_reply_later(ETH_NAME, &rq, -ENETDOWN);
	}
}

int recv_init(void)
{
	for (unsigned i = 0; i < RECV_SLOTS; i++) {
		long c = myrmex_ica_alloc(1), b = c < 0 ? c : myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		slots[i].ctl = (uint32_t)c;
		slots[i].buf = (uint32_t)b;
		int err = slot_post(&slots[i]);
		if (err)
			return err;
	}
	for (nspares = 0; nspares < ETH_QUEUE_MAX; nspares++) {
		long b = myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		spares[nspares] = (uint32_t)b;
	}
	return 0;
}

/* ---------------------------------------------------------- delivery */

static uint64_t get_mac(const uint8_t *p)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)p[i] << (8 * i);
	return mac;
}

/* Makes rq's answer the frame fr (its ICA replaces the lent one, which
 * the caller takes over): the payload's length. */
static int64_t answer(struct server_request *rq, const struct frame *fr)
{
	/* Returning an ICA the caller did not lend: the control ICA must be
	 * ours alone (docs/ipc.md, ret). */
	server_claim(rq);
	rq->d.ndata = 1;
	rq->d.data[0] = fr->ica;
	rq->d.parked = 0;
	struct net_frame_args *out = SERVER_OUT(rq, struct net_frame_args);
	out->offset = fr->offset + NET_ETH_HLEN;
	out->length = fr->length - NET_ETH_HLEN;
	out->mac = fr->src;
	out->ethertype = fr->type;
	eth_counters.rx_frames++;
	eth_counters.rx_bytes += out->length;
	return (int64_t)out->length;
}

/* A good frame from slot s: to a waiting program, or queued. Either way s
 * gets a buffer again. */
static void frame_in(struct slot *s, const struct frame *fr)
{
	for (unsigned i = 0; i < nparked; i++) {
		if (parked_type[i] != fr->type)
			continue;
		struct server_request rq = parked[i];
		memmove(&parked[i], &parked[i + 1], (nparked - i - 1) * sizeof parked[0]);
		memmove(&parked_type[i], &parked_type[i + 1], (nparked - i - 1) * sizeof parked_type[0]);
		nparked--;
		s->buf = rq.d.data[0];   /* the program's lent ICA */
		server_reply_later(ETH_NAME, &rq, answer(&rq, fr));
		return;
	}
	if (queued == ETH_QUEUE_MAX) {
		s->buf = queue[0].ica;   /* the oldest frame goes */
		memmove(&queue[0], &queue[1], (ETH_QUEUE_MAX - 1) * sizeof queue[0]);
		queued--;
		eth_counters.rx_dropped++;
	} else {
		s->buf = spares[--nspares];
	}
	queue[queued++] = *fr;
}

void recv_result(const struct myrmex_delivery *d)
{
	struct slot *s = NULL;
	for (unsigned i = 0; i < RECV_SLOTS && !s; i++)
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
			fail_parked();
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
	struct frame fr = { s->buf, (uint32_t)offset, (uint32_t)length, get_mac(p + offset + 6), type };
	frame_in(s, &fr);
	slot_post(s);
}

/* ---------------------------------------------------------- requests */

int64_t do_recv(struct server_request *rq)
{
	unsigned at_driver = slots_refill();
	uint64_t type = SERVER_IN(rq, struct net_frame_args)->ethertype;
	if (rq->d.ndata < 1 || rq->d.data_pages[0] != 1 || type < NET_ETHERTYPE_MIN || type > 0xffff)
		return -EINVAL;
	if (!server_data(rq, 0, NULL))
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	for (unsigned i = 0; i < queued; i++) {
		if (queue[i].type != type)
			continue;
		struct frame fr = queue[i];
		memmove(&queue[i], &queue[i + 1], (queued - i - 1) * sizeof queue[0]);
		queued--;
		spares[nspares++] = rq->d.data[0];
		eth_counters.rx_queued++;
		return answer(rq, &fr);
	}
	if (at_driver == 0)
		return -ENETDOWN;   /* no driver: nothing would ever answer */
	if (nparked == NET_RECV_PARKED_MAX)
		return -EAGAIN;
	parked[nparked] = *rq;
	parked_type[nparked++] = (uint16_t)type;
	return SERVER_LATER;
}

int64_t do_cancel(struct server_request *rq)
{
	uint64_t handle = rq->in[0];
	for (unsigned i = 0; i < nparked; i++) {
		/* Only the caller's own: a handle of another's finds nothing. */
		if (parked[i].d.handle != handle || parked[i].d.requester != rq->d.requester)
			continue;
		struct server_request k = parked[i];
		memmove(&parked[i], &parked[i + 1], (nparked - i - 1) * sizeof parked[0]);
		memmove(&parked_type[i], &parked_type[i + 1], (nparked - i - 1) * sizeof parked_type[0]);
		nparked--;
		server_reply_later(ETH_NAME, &k, -ECANCELED);
		return 0;
	}
	return -ENOENT;
}
