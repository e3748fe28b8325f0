/*
 * The socket table: a handle per socket (slot index and generation, so a
 * closed socket's handle names nothing), lwIP's callbacks, and the calls
 * that wait (parked) until lwIP says they can go on.
 *
 * lwIP's callbacks only record what happened and mark the socket; the
 * parked calls are tried again at safe points (sock_settle: after each
 * request, each frame, each tick), never from inside lwIP, so a reply never
 * runs while lwIP is in the middle of its own work.
 */
#include "tcpip.h"

#include <myrmex/fs.h>

#include <errno.h>
#include <poll.h>
#include <string.h>

#include "lwip/ip_addr.h"

#define PARK_MAX 128u

struct parked {
	bool used;
	int sock;                     /* index in socks */
	enum park_kind kind;
	uint64_t seq;                 /* arrival order */
	uint64_t deadline_ns;         /* the socket's timeout ends it; 0: none */
	struct server_request rq;     /* our copy */
};

struct isock socks[SOCK_MAX];
static struct parked parked[PARK_MAX];
static uint64_t next_seq;
static bool dirty[SOCK_MAX];

static int index_of(const struct isock *s)
{
	return (int)(s - socks);
}

/* A number of this run of the server, in every handle: a descriptor the
 * file manager kept across a restart of the server names nothing here.
 * A handle is the epoch (8 bits, never 0), the generation (16 bits) and
 * the slot + 1 (7 bits): 31 bits, so that it stays a positive status where
 * a long has 32 (myrmex_call's result on the SH-4). */
#define HANDLE_SLOT_BITS 7
#define HANDLE_GEN_SHIFT HANDLE_SLOT_BITS
#define HANDLE_EPOCH_SHIFT (HANDLE_GEN_SHIFT + 16)
_Static_assert(SOCK_MAX < (1u << HANDLE_SLOT_BITS), "a slot + 1 fits the handle's slot bits");
static uint32_t epoch;

uint64_t sock_handle(const struct isock *s)
{
	while (!epoch)
		epoch = tcpip_random() & 0xffu;
	return (uint64_t)epoch << HANDLE_EPOCH_SHIFT | (uint64_t)s->gen << HANDLE_GEN_SHIFT |
	       (uint64_t)(index_of(s) + 1);
}

struct isock *sock_get(uint64_t handle)
{
	uint64_t i = (handle & ((1u << HANDLE_SLOT_BITS) - 1)) - 1;
	if (i >= SOCK_MAX || !epoch || handle >> HANDLE_EPOCH_SHIFT != epoch)
		return NULL;
	struct isock *s = &socks[i];
	return s->used && s->gen == (uint16_t)(handle >> HANDLE_GEN_SHIFT) ? s : NULL;
}

struct isock *sock_new(uint8_t type)
{
	for (unsigned i = 0; i < SOCK_MAX; i++) {
		struct isock *s = &socks[i];
		if (s->used)
			continue;
		uint16_t gen = (uint16_t)(s->gen + 1);
		memset(s, 0, sizeof(*s));
		s->used = true;
		s->gen = gen ? gen : 1;
		s->type = type;
		s->parent = -1;
		s->rcvbuf = 131072;
		s->sndbuf = 16384;
		s->ttl = -1;
		tcpip_counters.sockets++;
		return s;
	}
	return NULL;
}

int sock_errno(err_t e)
{
	switch (e) {
	case ERR_OK: return 0;
	case ERR_MEM: return ENOBUFS;
	case ERR_BUF: return ENOBUFS;
	case ERR_TIMEOUT: return ETIMEDOUT;
	case ERR_RTE: return ENETUNREACH;
	case ERR_INPROGRESS: return EINPROGRESS;
	case ERR_VAL: return EINVAL;
	case ERR_WOULDBLOCK: return EAGAIN;
	case ERR_USE: return EADDRINUSE;
	case ERR_ALREADY: return EALREADY;
	case ERR_ISCONN: return EISCONN;
	case ERR_CONN: return ENOTCONN;
	case ERR_IF: return ENETDOWN;
	case ERR_ABRT: return ECONNABORTED;
	case ERR_RST: return ECONNRESET;
	case ERR_CLSD: return ENOTCONN;
	case ERR_ARG: return EINVAL;
	default: return EIO;
	}
}

bool rxq_push(struct isock *s, struct pbuf *p)
{
	if (s->rx_count == RXQ_MAX)
		return false;
	s->rxq[(s->rx_head + s->rx_count++) % RXQ_MAX] = p;
	s->rx_bytes += p->tot_len;
	return true;
}

uint64_t rxq_take(struct isock *s, uint8_t *to, uint64_t want, bool peek)
{
	uint64_t done = 0;
	unsigned at = s->rx_head, left = s->rx_count;
	while (done < want && left) {
		struct pbuf *p = s->rxq[at];
		uint16_t n = (uint16_t)(p->tot_len < want - done ? p->tot_len : want - done);
		pbuf_copy_partial(p, to + done, n, 0);
		done += n;
		if (peek) {
			at = (at + 1) % RXQ_MAX;
			left--;
			continue;
		}
		s->rx_bytes -= n;
		if (n == p->tot_len) {   /* the whole chain went */
			pbuf_free(p);
			s->rx_head = at = (at + 1) % RXQ_MAX;
			s->rx_count = --left;
		} else {
			s->rxq[at] = pbuf_free_header(p, n);
		}
	}
	return done;
}

void rxq_drop(struct isock *s)
{
	while (s->rx_count) {
		pbuf_free(s->rxq[s->rx_head]);
		s->rx_head = (s->rx_head + 1) % RXQ_MAX;
		s->rx_count--;
	}
	s->rx_bytes = 0;
}

/* s changed: its parked calls are tried again at the next settle, and a
 * poll that looked at it since the last change (INET_POLL) is told through
 * the kernel's readiness notice (docs/posix.md, "Waiting for readiness"). */
static void mark(struct isock *s)
{
	if (!s)
		return;
	dirty[index_of(s)] = true;
	if (s->polled) {
		s->polled = false;
		myrmex_syscall6(MYRMEX_SYS_POLL_NOTICE, 0, 0, 0, 0, 0, 0);
	}
}

/* ---- lwIP's callbacks (arg: the socket) ---- */

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct isock *s = arg;
	(void)pcb;
	if (!s) {
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	if (err != ERR_OK) {
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	if (!p)
		s->rx_eof = true;
	else if (!rxq_push(s, p))
		return ERR_MEM;   /* lwIP keeps p and offers it again */
	mark(s);
	return ERR_OK;
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	(void)pcb;
	(void)len;
	zc_pending = true;
	mark(arg);
	return ERR_OK;
}

/* The pcb is gone already (lwIP freed it). */
static void on_err(void *arg, err_t err)
{
	struct isock *s = arg;
	zc_pending = true;   /* lwIP freed the pcb with its segments */
	if (!s)
		return;
	s->tcp = NULL;
	/* As Linux's tcp_reset: refused while connecting, EPIPE once the other
	 * end had closed its side (CLOSE_WAIT), else reset. */
	s->err = s->connecting && err == ERR_RST ? ECONNREFUSED
	       : err == ERR_RST && s->rx_eof ? EPIPE : sock_errno(err);
	if (s->connecting && err == ERR_ABRT)
		s->err = ECONNREFUSED;
	s->connecting = false;
	mark(s);
}

err_t sock_on_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct isock *s = arg;
	(void)pcb;
	if (s) {
		s->connecting = false;
		if (err == ERR_OK)
			s->connected = true;
		else
			s->err = sock_errno(err);
		mark(s);
	}
	return ERR_OK;
}

static err_t on_accept(void *arg, struct tcp_pcb *newpcb, err_t err)
{
	struct isock *l = arg;
	if (err != ERR_OK || !newpcb)
		return ERR_VAL;
	struct isock *n = l && l->acc_count < ACCEPT_QUEUE ? sock_new(INET_STREAM) : NULL;
	if (!n) {
		tcp_abort(newpcb);
		return ERR_ABRT;
	}
	n->connected = true;
	n->parent = index_of(l);
	n->nodelay = l->nodelay;
	sock_tcp_attach(n, newpcb);
	if (l->nodelay)
		tcp_nagle_disable(newpcb);
	l->accq[l->acc_count++] = index_of(n);
	/* Counted against the listener's backlog until accept takes it
	 * (try_accept's tcp_backlog_accepted): lwIP drops the SYNs that find
	 * the queue full, as Linux does, and their senders try again. */
	tcp_backlog_delayed(newpcb);
	mark(l);
	return ERR_OK;
}

void sock_tcp_attach(struct isock *s, struct tcp_pcb *pcb)
{
	s->tcp = pcb;
	tcp_arg(pcb, s);
	if (pcb->state == LISTEN) {
		tcp_accept(pcb, on_accept);
		return;
	}
	tcp_recv(pcb, on_recv);
	tcp_sent(pcb, on_sent);
	tcp_err(pcb, on_err);
}

/* Data for a connection its program has closed: as Linux, the connection
 * is reset (the sender's next write gets EPIPE and SIGPIPE); the other
 * end's FIN only finishes the close. */
static err_t on_recv_after_close(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	(void)arg;
	(void)err;
	if (!p)
		return tcp_close(pcb);
	pbuf_free(p);
	tcp_abort(pcb);
	return ERR_ABRT;
}

/* Lets go of s's pcb: a graceful close (a reset when lwIP cannot, or when
 * reset is asked: a connection never accepted, as Linux resets those of a
 * listener that closes). */
static void tcp_let_go(struct tcp_pcb *pcb, bool reset)
{
	tcp_arg(pcb, NULL);
	if (pcb->state == LISTEN) {
		tcp_accept(pcb, NULL);
		tcp_close(pcb);
		return;
	}
	tcp_recv(pcb, on_recv_after_close);
	tcp_sent(pcb, NULL);
	tcp_err(pcb, NULL);
	if (reset || tcp_close(pcb) != ERR_OK)
		tcp_abort(pcb);
}

static void answer_parked(struct isock *s, int64_t status)
{
	for (unsigned i = 0; i < PARK_MAX; i++) {
		if (!parked[i].used || parked[i].sock != index_of(s))
			continue;
		parked[i].used = false;
		tcpip_counters.parked--;
		server_reply_later(TCPIP_NAME, &parked[i].rq, status);
	}
}

void sock_free(struct isock *s)
{
	answer_parked(s, -EBADF);
	if (s->tcp)   /* SO_LINGER on with 0 seconds: a reset, as Linux */
		tcp_let_go(s->tcp, s->parent >= 0 || (s->linger_on && s->linger_s == 0));
	s->tcp = NULL;
	if (s->udp)
		udp_remove(s->udp);
	s->udp = NULL;
	if (s->raw)
		raw_remove(s->raw);
	s->raw = NULL;
	rxq_drop(s);
	while (s->dq_count) {
		pbuf_free(s->dq[s->dq_head].p);
		s->dq_head = (s->dq_head + 1) % DGRAM_QUEUE;
		s->dq_count--;
	}
	/* Each queued connection takes itself out of this queue as it goes. */
	while (s->acc_count)
		sock_free(&socks[s->accq[0]]);
	if (s->parent >= 0) {   /* accepted, never taken: out of its listener's queue */
		struct isock *l = &socks[s->parent];
		for (unsigned i = 0; i < l->acc_count; i++)
			if (l->accq[i] == index_of(s)) {
				memmove(&l->accq[i], &l->accq[i + 1], (l->acc_count - i - 1) * sizeof(int));
				l->acc_count--;
				break;
			}
	}
	s->used = false;
	dirty[index_of(s)] = false;
	tcpip_counters.sockets--;
}

/* When a call of kind parked now times out: receives and accepts by
 * SO_RCVTIMEO, sends and connects by SO_SNDTIMEO, as Linux; 0: never. */
static uint64_t park_deadline(const struct isock *s, enum park_kind kind)
{
	uint64_t t = kind == PARK_RECV || kind == PARK_ACCEPT ? s->rcvtimeo_ns : s->sndtimeo_ns;
	return t ? myrmex_now_ns() + t : 0;
}

int64_t sock_park(struct isock *s, struct server_request *rq, enum park_kind kind)
{
	for (unsigned i = 0; i < PARK_MAX; i++) {
		if (parked[i].used)
			continue;
		parked[i].used = true;
		parked[i].sock = index_of(s);
		parked[i].kind = kind;
		parked[i].seq = next_seq++;
		parked[i].deadline_ns = park_deadline(s, kind);
		parked[i].rq = *rq;
		tcpip_counters.parked++;
		return SERVER_LATER;
	}
	return -EAGAIN;
}

static int64_t retry(struct isock *s, struct parked *p)
{
	switch (p->kind) {
	case PARK_RECV: return try_recv(s, &p->rq);
	case PARK_SEND: return try_send(s, &p->rq);
	case PARK_ACCEPT: return try_accept(s, &p->rq);
	case PARK_CONNECT: return try_connect(s, &p->rq);
	}
	return -EINVAL;
}

/* Tries s's parked calls again, oldest first, stopping at the first of a
 * kind that must still wait (the calls of one kind keep their order). */
static void settle_one(struct isock *s)
{
	bool blocked[4] = { false, false, false, false };
	for (;;) {
		struct parked *best = NULL;
		for (unsigned i = 0; i < PARK_MAX; i++) {
			struct parked *p = &parked[i];
			if (p->used && p->sock == index_of(s) && !blocked[p->kind] &&
			    (!best || p->seq < best->seq))
				best = p;
		}
		if (!best)
			return;
		int64_t r = retry(s, best);
		if (r == SERVER_LATER) {
			blocked[best->kind] = true;
			best->seq = next_seq++;   /* looked at: after the others this round */
			continue;
		}
		best->used = false;
		tcpip_counters.parked--;
		server_reply_later(TCPIP_NAME, &best->rq, r);
	}
}

void sock_settle(void)
{
	if (zc_pending)
		zc_reclaim();
	for (int round = 0; round < 8; round++) {
		netif_poll_all();
		bool any = false;
		for (unsigned i = 0; i < SOCK_MAX; i++) {
			if (!dirty[i])
				continue;
			dirty[i] = false;
			any = true;
			if (socks[i].used)
				settle_one(&socks[i]);
		}
		if (!any)
			return;
	}
}

void sock_kick(struct isock *s)
{
	mark(s);
}

unsigned sock_poll(const struct isock *s)
{
	unsigned r = 0;
	if (s->type != INET_STREAM) {   /* datagram and raw */
		r |= POLLOUT | POLLWRNORM;
		if (s->dq_count)
			r |= POLLIN | POLLRDNORM;
		return r;
	}
	if (s->listening)
		return s->acc_count ? POLLIN | POLLRDNORM : 0;
	if (s->rx_count || s->rx_eof)
		r |= POLLIN | POLLRDNORM;
	if (s->rx_eof)
		r |= POLLRDHUP;
	if (s->err)
		r |= POLLERR;
	if (s->connected && s->tcp && !s->tx_shut && tcp_sndbuf(s->tcp) > 0)
		r |= POLLOUT | POLLWRNORM;
	if (!s->connecting && (!s->connected || !s->tcp || (s->rx_eof && s->tx_shut)))
		r |= POLLHUP | (s->connected ? 0 : POLLOUT);
	return r;
}

bool sock_cancel(int pid, uint64_t handle)
{
	for (unsigned i = 0; i < PARK_MAX; i++) {
		struct parked *p = &parked[i];
		if (!p->used || p->rq.d.client != pid || p->rq.d.handle != handle)
			continue;
		p->used = false;
		tcpip_counters.parked--;
		server_reply_later(TCPIP_NAME, &p->rq, -EINTR);
		return true;
	}
	return false;
}

void sock_exit(int pid)
{
	for (unsigned i = 0; i < SOCK_MAX; i++)
		if (socks[i].used && socks[i].owner == pid)
			sock_free(&socks[i]);
	for (unsigned i = 0; i < PARK_MAX; i++) {
		struct parked *p = &parked[i];
		if (!p->used || p->rq.d.client != pid)
			continue;
		p->used = false;
		tcpip_counters.parked--;
		server_reply_later(TCPIP_NAME, &p->rq, -EPIPE);
	}
}

void sock_expire(uint64_t now_ns)
{
	for (unsigned i = 0; i < PARK_MAX; i++) {
		struct parked *p = &parked[i];
		if (!p->used || !p->deadline_ns || now_ns < p->deadline_ns)
			continue;
		struct isock *s = &socks[p->sock];
		int64_t r;
		if (p->kind == PARK_CONNECT) {
			r = -EINPROGRESS;   /* the connection goes on without the caller */
		} else {
			/* Once more as a non-blocking call: the flags' word of each. */
			unsigned word = p->kind == PARK_ACCEPT ? 1 : p->kind == PARK_RECV ? 2 : 3;
			p->rq.in[word] = (p->rq.in[word] | INET_NONBLOCK) & ~(uint64_t)INET_WAITALL;
			r = retry(s, p);
			if (r == SERVER_LATER)
				r = -EAGAIN;
		}
		p->used = false;
		tcpip_counters.parked--;
		server_reply_later(TCPIP_NAME, &p->rq, r);
	}
}
