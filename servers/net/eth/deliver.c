/*
 * Delivery: received frames to the programs' receivers (paper 004, section
 * 4, and Linux's rule that every packet socket of a frame's type gets its
 * own copy).
 *
 * A receiver is a program's interest in one EtherType (or in every frame,
 * NET_ETHERTYPE_ALL): made by its first NET_RECV of that type, kept until
 * a NET_CANCEL leaves it with no receive waiting or its program is gone.
 * Within a receiver, a frame answers its oldest parked receive or is
 * queued for its next one. A frame goes to every receiver it matches: the
 * last receiver of its type gets the frame's own ICA (the header stripped
 * by offset, no copy, as before), each other one a copy (counted in
 * eth_more.rx_copies). A frame no receiver of its type wants is queued for
 * whoever asks for its type first (ALL receivers get a copy of it).
 * Frames sent through this server are given, as copies marked
 * NET_RX_OUTGOING, to the ALL receivers, as Linux shows a packet socket of
 * ETH_P_ALL the frames its host sends.
 *
 * Invariant (buffer exchange, as in the driver): every receive request
 * lends one one-page ICA and takes one frame ICA away, so the ICAs this
 * server holds stay the slots' count + queue_max: a slot's buffer, a queued
 * frame, or a spare, with spares + queued == queue_max (deliver_init's:
 * ETH_QUEUE_MAX, or fewer with ICAs in reserved TLB entries). A frame queued
 * takes a spare (or the ICA of a frame dropped for it: its receiver's
 * oldest when it holds RCV_QUEUE_MAX, else the oldest of all); a copy into
 * a parked receive uses the ICA that receive lent.
 */
#include "eth.h"

#include <errno.h>
#include <string.h>

#define RCV_QUEUE_MAX 8    /* frames one receiver may hold queued */
#define RECEIVERS 16
#define PAGE 4096u
#define NOBODY (-1)        /* a queued frame for whoever asks its type first */

struct receiver {
	bool used;
	int pid;
	uint16_t type;         /* an EtherType, or NET_ETHERTYPE_ALL */
};
static struct receiver rcv[RECEIVERS];

struct queued {
	struct eth_frame fr;   /* its ICA ours */
	int to;                /* a receiver, or NOBODY */
};
static struct queued queue[ETH_QUEUE_MAX];   /* oldest first */
static unsigned queued;
static uint32_t spares[ETH_QUEUE_MAX];
static unsigned nspares;
static unsigned queue_max;

/* Programs' receive requests waiting, oldest first, and their receivers. */
static struct server_request parked[NET_RECV_PARKED_MAX];
static int parked_to[NET_RECV_PARKED_MAX];
static unsigned nparked;

int deliver_init(unsigned count)
{
	queue_max = count < ETH_QUEUE_MAX ? count : ETH_QUEUE_MAX;
	for (nspares = 0; nspares < queue_max; nspares++) {
		long b = myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		spares[nspares] = (uint32_t)b;
	}
	return 0;
}

/* ---------------------------------------------------------- the queue */

/* Takes queue entry i out: its frame. */
static struct eth_frame unqueue(unsigned i)
{
	struct eth_frame fr = queue[i].fr;
	memmove(&queue[i], &queue[i + 1], (queued - i - 1) * sizeof queue[0]);
	queued--;
	return fr;
}

/* An ICA to queue a frame for receiver `to` in: a spare, or the ICA of a
 * frame dropped for it (counted). Then the caller queues one frame. */
static uint32_t queue_room(int to)
{
	unsigned mine = 0, first = 0;
	for (unsigned i = 0; i < queued; i++)
		if (queue[i].to == to && mine++ == 0)
			first = i;
	eth_counters.rx_dropped += mine >= RCV_QUEUE_MAX || !nspares;
	if (mine >= RCV_QUEUE_MAX)
		return unqueue(first).ica;
	if (nspares)
		return spares[--nspares];
	return unqueue(0).ica;
}

static void enqueue(const struct eth_frame *fr, int to)
{
	queue[queued].fr = *fr;
	queue[queued++].to = to;
}

/* ---------------------------------------------------------- receivers */

static bool type_ok(uint64_t type)
{
	return type == NET_ETHERTYPE_ALL || (type >= NET_ETHERTYPE_MIN && type <= 0xffff);
}

/* Receiver r and its queued frames go (its ICAs become spares). */
static void receiver_drop(int r)
{
	for (unsigned i = 0; i < queued;) {
		if (queue[i].to == r)
			spares[nspares++] = unqueue(i).ica;
		else
			i++;
	}
	rcv[r].used = false;
	eth_more.receivers_gone++;
}

static bool receiver_alive(int r)
{
	return myrmex_syscall6(62 /* kill */, rcv[r].pid, 0, 0, 0, 0, 0) != -ESRCH;
}

static bool receiver_waiting(int r)
{
	for (unsigned i = 0; i < nparked; i++)
		if (parked_to[i] == r)
			return true;
	return false;
}

/* pid's receiver of type, made if need be (the receivers of programs that
 * are gone make room): its index, or -1 when all are taken. */
static int receiver_get(int pid, uint16_t type)
{
	int free = -1;
	for (int i = 0; i < RECEIVERS; i++) {
		if (rcv[i].used && rcv[i].pid == pid && rcv[i].type == type)
			return i;
		if (!rcv[i].used && free < 0)
			free = i;
	}
	for (int i = 0; i < RECEIVERS && free < 0; i++)
		if (!receiver_waiting(i) && !receiver_alive(i)) {
			receiver_drop(i);
			free = i;
		}
	if (free >= 0)
		rcv[free] = (struct receiver){ true, pid, type };
	return free;
}

/* ---------------------------------------------------------- answers */

/* Makes rq's answer the frame fr (its ICA replaces the lent one unless it
 * is that one): the payload's length. */
static int64_t answer(struct server_request *rq, const struct eth_frame *fr)
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
	out->flags = fr->outgoing ? NET_RX_OUTGOING : 0;
	eth_counters.rx_frames++;
	eth_counters.rx_bytes += out->length;
	return (int64_t)out->length;
}

/* Receiver r's oldest parked receive taken out into *rq: false if none. */
static bool take_parked(int r, struct server_request *rq)
{
	for (unsigned i = 0; i < nparked; i++) {
		if (parked_to[i] != r)
			continue;
		*rq = parked[i];
		memmove(&parked[i], &parked[i + 1], (nparked - i - 1) * sizeof parked[0]);
		memmove(&parked_to[i], &parked_to[i + 1], (nparked - i - 1) * sizeof parked_to[0]);
		nparked--;
		return true;
	}
	return false;
}

/* A copy of frame (its bytes, whole, at `bytes`; fr its description, whose
 * offset the copy keeps) for receiver r: into its oldest parked receive's
 * lent ICA, or into an ICA queued for it. A receiver with nothing parked
 * whose program is gone is dropped instead. */
static void give_copy(int r, const uint8_t *bytes, const struct eth_frame *fr)
{
	struct server_request rq;
	struct eth_frame c = *fr;
	if (take_parked(r, &rq)) {
		c.ica = rq.d.data[0];
		memcpy(rq.data + c.offset, bytes, c.length);   /* a page: do_recv checked */
		server_reply_later(ETH_NAME, &rq, answer(&rq, &c));
	} else if (!receiver_alive(r)) {
		receiver_drop(r);
		return;
	} else {
		c.ica = queue_room(r);
		memcpy((uint8_t *)myrmex_ica_addr(c.ica) + c.offset, bytes, c.length);
		enqueue(&c, r);
	}
	eth_more.rx_copies++;
	eth_more.rx_copy_bytes += c.length;
}

uint32_t deliver_frame(const struct eth_frame *fr)
{
	int owner;   /* gets the frame's own ICA: the last of its type */
	do {
		owner = NOBODY;
		for (int i = 0; i < RECEIVERS; i++)
			if (rcv[i].used && rcv[i].type == fr->type)
				owner = i;
		if (owner == NOBODY || receiver_waiting(owner) || receiver_alive(owner))
			break;
		receiver_drop(owner);   /* its program is gone: the next one, or nobody */
	} while (1);
	const uint8_t *bytes = (const uint8_t *)myrmex_ica_addr(fr->ica) + fr->offset;
	for (int i = 0; i < RECEIVERS; i++)
		if (rcv[i].used && i != owner && (rcv[i].type == fr->type || rcv[i].type == NET_ETHERTYPE_ALL))
			give_copy(i, bytes, fr);
	struct server_request rq;
	if (owner != NOBODY && take_parked(owner, &rq)) {
		uint32_t lent = rq.d.data[0];   /* the slot's next buffer */
		server_reply_later(ETH_NAME, &rq, answer(&rq, fr));
		return lent;
	}
	uint32_t room = queue_room(owner);
	enqueue(fr, owner);
	return room;
}

void deliver_outgoing(const uint8_t *frame, uint32_t length)
{
	struct eth_frame fr = { 0, 0, length, eth_mac, (uint16_t)(frame[12] << 8 | frame[13]), 1 };
	for (int i = 0; i < RECEIVERS; i++)
		if (rcv[i].used && rcv[i].type == NET_ETHERTYPE_ALL) {
			give_copy(i, frame, &fr);
			eth_more.tx_copies++;
		}
}

void deliver_driver_gone(void)
{
	/* Every program waiting for a frame is told at once (-ENETDOWN) and
	 * gets its lent ICA back; a later receive posts the slots again, at
	 * a restarted driver. */
	while (nparked > 0) {
		struct server_request rq = parked[--nparked];
		server_reply_later(ETH_NAME, &rq, -ENETDOWN);
	}
}

/* ---------------------------------------------------------- requests */

int64_t do_recv(struct server_request *rq)
{
	unsigned at_driver = slots_refill();
	uint64_t type = SERVER_IN(rq, struct net_frame_args)->ethertype;
	if (rq->d.ndata < 1 || rq->d.data_pages[0] != 1 || !type_ok(type))
		return -EINVAL;
	if (!server_data(rq, 0, NULL) || rq->data_size < PAGE)
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	int r = receiver_get(rq->d.requester, (uint16_t)type);
	if (r < 0)
		return -EAGAIN;   /* RECEIVERS programs' types at once */
	for (unsigned i = 0; i < queued; i++) {
		if (queue[i].to != r && (queue[i].to != NOBODY || type == NET_ETHERTYPE_ALL ||
		                         queue[i].fr.type != type))
			continue;
		struct eth_frame fr = unqueue(i);
		spares[nspares++] = rq->d.data[0];
		eth_counters.rx_queued++;
		return answer(rq, &fr);
	}
	if (at_driver == 0)
		return -ENETDOWN;   /* no driver: nothing would ever answer */
	if (nparked == NET_RECV_PARKED_MAX)
		return -EAGAIN;
	parked[nparked] = *rq;
	parked_to[nparked++] = r;
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
		int r = parked_to[i];
		memmove(&parked[i], &parked[i + 1], (nparked - i - 1) * sizeof parked[0]);
		memmove(&parked_to[i], &parked_to[i + 1], (nparked - i - 1) * sizeof parked_to[0]);
		nparked--;
		server_reply_later(ETH_NAME, &k, -ECANCELED);
		if (!receiver_waiting(r))
			receiver_drop(r);   /* its program wants the type no more */
		return 0;
	}
	return -ENOENT;
}

void deliver_count(struct eth_stats_more *m)
{
	*m = eth_more;
	m->receivers = 0;
	for (int i = 0; i < RECEIVERS; i++)
		m->receivers += rcv[i].used;
}
