/*
 * Paper 002's send path (section 4.2.4): the program has put the payload
 * into a data ICA beforehand, after INET_ZC_HEADROOM bytes, and calls
 * INET_SEND with INET_ZEROCOPY. The payload is never copied:
 *
 *   - the server keeps the program's ICA (it claims the request) and gives
 *     lwIP a reference to the payload in it (tcp_write without
 *     TCP_WRITE_FLAG_COPY); the answer carries a spare one-page ICA of the
 *     server's in its place (buffer exchange, as the NIC drivers' receives);
 *   - when lwIP outputs a segment whose data is one such reference, the
 *     link writes the Ethernet, IP and TCP headers into the headroom just
 *     before the payload and sends that stretch of the kept ICA to the NIC
 *     driver in a synchronous call: the call returns once the device has
 *     read the frame (the paper's "until the driver has given it to the
 *     NIC"), and the ICA is the server's again;
 *   - the ICA is kept while any segment of any connection still refers to
 *     it (a retransmission sends it again from the same place), and goes
 *     back to the spare pool once none does (zc_reclaim: a walk over lwIP's
 *     segments, so a connection closed, reset or freed lets go of its ICAs
 *     without a callback of its own).
 *
 * Invariant: a kept ICA is mapped in this server at myrmex_ica_addr(ica)
 * whenever lwIP may look at it (it is away only inside zc_output's call,
 * when lwIP is not running).
 */
#include "tcpip.h"

#include <errno.h>
#include <string.h>

#include "lwip/priv/tcp_priv.h"

#define PAGE 4096u
#define KEPT_MAX 64u
#define SPARE_START 32u
#define SPARE_START_FEW 2u       /* ICAs in reserved TLB entries (ica=tlb) */
#define SPARE_MAX 64u
#define WIRE_MIN 60u              /* shorter frames need padding: they go by copy */

/* An ICA and the pid whose bytes are in it (0: none, zeroed): a spare goes
 * to another program only wiped, so no program reads what another sent. */
struct spare {
	uint32_t ica;
	int owner;
};

struct kept {
	uint32_t ica;                 /* 0: the entry is free */
	uint8_t *base;
	int owner;
	bool referenced;              /* zc_reclaim's mark */
};

static struct kept kept[KEPT_MAX];
static struct spare spare[SPARE_MAX];
static unsigned spare_count;
static uint32_t send_ctl;         /* the control ICA of zc_output's calls */
static struct inet_stats_more tcpip_zc_counters;   /* spare is read at zc_stats */
bool zc_pending;                  /* segments may have been freed: reclaim at the next settle */

int zc_start(bool few)
{
	unsigned start = few ? SPARE_START_FEW : SPARE_START;
	long c = myrmex_ica_alloc(1);
	if (c < 0)
		return (int)c;
	send_ctl = (uint32_t)c;
	while (spare_count < start) {
		long b = myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		spare[spare_count++] = (struct spare){ (uint32_t)b, 0 };
	}
	return 0;
}

void zc_stats(struct inet_stats_more *out)
{
	*out = tcpip_zc_counters;
	out->spare = spare_count;
}

static struct kept *kept_of(const uint8_t *at)
{
	for (unsigned i = 0; i < KEPT_MAX; i++)
		if (kept[i].ica && at >= kept[i].base && at < kept[i].base + PAGE)
			return &kept[i];
	return NULL;
}

static void mark_chain(const struct pbuf *p)
{
	for (; p; p = p->next) {
		struct kept *k = kept_of((const uint8_t *)p->payload);
		if (k)
			k->referenced = true;
	}
}

static void mark_pcbs(struct tcp_pcb *list)
{
	for (struct tcp_pcb *pcb = list; pcb; pcb = pcb->next) {
		for (struct tcp_seg *s = pcb->unsent; s; s = s->next)
			mark_chain(s->p);
		for (struct tcp_seg *s = pcb->unacked; s; s = s->next)
			mark_chain(s->p);
	}
}

void zc_reclaim(void)
{
	zc_pending = false;
	if (tcpip_zc_counters.kept == 0)
		return;
	for (unsigned i = 0; i < KEPT_MAX; i++)
		kept[i].referenced = false;
	mark_pcbs(tcp_active_pcbs);
	mark_pcbs(tcp_tw_pcbs);
	for (unsigned i = 0; i < KEPT_MAX; i++) {
		struct kept *k = &kept[i];
		if (!k->ica || k->referenced)
			continue;
		if (spare_count < SPARE_MAX)
			spare[spare_count++] = (struct spare){ k->ica, k->owner };
		else
			myrmex_ica_free(k->ica);
		k->ica = 0;
		tcpip_zc_counters.kept--;
		tcpip_zc_counters.released++;
	}
}

static struct kept *kept_slot(void)
{
	for (unsigned i = 0; i < KEPT_MAX; i++)
		if (!kept[i].ica)
			return &kept[i];
	return NULL;
}

int64_t zc_try_send(struct isock *s, struct server_request *rq)
{
	uint64_t off = rq->in[1], len = rq->in[2];
	bool nonblock = rq->in[3] & INET_NONBLOCK;
	if (s->type != INET_STREAM)
		return -EOPNOTSUPP;
	if (rq->d.ndata != 1 || rq->d.data_pages[0] != 1 || off < INET_ZC_HEADROOM ||
	    off > PAGE || len == 0 || len > PAGE - off)
		return -EINVAL;
	if (s->err) {
		int e = s->err;
		s->err = 0;
		return -e;
	}
	if (s->tx_shut || (!s->tcp && s->connected))
		return -EPIPE;
	if (!s->connected)
		return s->connecting ? (nonblock ? -EAGAIN : SERVER_LATER) : -EPIPE;
	if (len > tcp_mss(s->tcp))
		return -EMSGSIZE;
	struct kept *k = kept_slot();
	if (!k || spare_count == 0 || tcp_sndbuf(s->tcp) < len ||
	    tcp_sndqueuelen(s->tcp) >= TCP_SND_QUEUELEN - 4) {
		zc_reclaim();
		k = kept_slot();
		if (!k || spare_count == 0 || tcp_sndbuf(s->tcp) < len ||
		    tcp_sndqueuelen(s->tcp) >= TCP_SND_QUEUELEN - 4)
			return nonblock ? -EAGAIN : SERVER_LATER;
	}
	uint8_t *base = server_data(rq, 0, NULL);
	if (!base)
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	long r = server_claim(rq);
	if (r < 0)
		return r;
	/* Kept before lwIP sees it, so that the output finds it. */
	k->ica = rq->d.data[0];
	k->base = base;
	k->owner = rq->d.client;
	tcpip_zc_counters.kept++;
	if (tcp_write(s->tcp, base + off, (u16_t)len, 0) != ERR_OK) {
		k->ica = 0;
		tcpip_zc_counters.kept--;
		return nonblock ? -EAGAIN : -ENOBUFS;
	}
	tcpip_zc_counters.sends++;
	tcp_output(s->tcp);
	/* The answer carries a spare ICA in place of the one kept. */
	struct spare *give = &spare[--spare_count];
	if (give->owner && give->owner != rq->d.client)
		memset(myrmex_ica_addr(give->ica), 0, PAGE);
	rq->d.data[0] = give->ica;
	rq->d.parked = 0;
	rq->d.data_pages[0] = 1;
	return (int64_t)len;
}

bool zc_output(struct pbuf *p)
{
	struct pbuf *data = p->next;
	if (!data || data->next || p->tot_len < WIRE_MIN || tcpip_zc_counters.kept == 0)
		return false;
	uint8_t *payload = data->payload;
	struct kept *k = kept_of(payload);
	if (!k || (uint64_t)(payload - k->base) < p->len ||
	    (uint64_t)(payload - k->base) + data->len > PAGE)
		return false;
	uint32_t at = (uint32_t)(payload - k->base) - p->len;
	memcpy(k->base + at, p->payload, p->len);   /* the headers, into the headroom */
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(send_ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_NIC, NET_SEND);
	f->ndata = 1;
	f->data[0] = k->ica;
	f->arg[0] = at;
	f->arg[1] = p->tot_len;
	long r = myrmex_callsync(h);
	/* The kernel gives a lent ICA back with the result, even when the
	 * driver dies (-EPIPE); on -ESRCH, -EAGAIN or -EINVAL nothing moved. It
	 * comes back mapped, or parked when there was no room: map it again
	 * (-EINVAL: mapped already). */
	myrmex_ica_attach(k->ica);
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	if (r < 0 || !res || res->status < 0) {
		tcpip_counters.frames_dropped++;   /* TCP sends it again */
		return true;
	}
	tcpip_counters.frames_out++;
	tcpip_zc_counters.frames++;
	return true;
}
