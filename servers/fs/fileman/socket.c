/*
 * socket.c - packet sockets (Linux AF_PACKET, SOCK_RAW and SOCK_DGRAM) as
 * descriptors of the file manager, so that close, dup, fork, exec and poll
 * treat them as every other descriptor (docs/net.md, "AF_PACKET sockets").
 *
 * Sends are passed on to the Ethernet server (coreid 8) as the next stage
 * of the caller's own call, with the caller's data ICA and direct return,
 * as the console's writes are: the kernel left the header's 14 bytes of
 * headroom in front of the payload, so nothing is copied here.
 *
 * Receives cannot be passed on that way: the Ethernet server answers a
 * receive with another ICA than the one lent, and the kernel's channel
 * keeps its own. So the file manager keeps one receive of its own waiting
 * at the Ethernet server per EtherType that sockets ask for (a tap: a
 * control ICA and a one-page buffer of ours, exchanged for the frame's ICA
 * at each answer); a frame that comes is copied, for every socket of its
 * type, into the oldest FS_RECVFROM parked there, or kept (SOCK_QUEUE
 * frames per socket, the oldest dropped beyond) until one comes. One copy
 * per received frame and socket here, counted in fm_stats.
 *
 * ETH_P_ALL (NET_ETHERTYPE_ALL) is a type of its own here: its tap is a
 * receiver of every frame at the Ethernet server, which also copies to it
 * the frames sent through it (PACKET_OUTGOING, as Linux shows a socket of
 * ETH_P_ALL its host's own frames).
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <myrmex/net.h>

#define SOCKETS 16u
#define SOCK_QUEUE 16u
#define SOCK_PARKED 32u
#define TAPS 8u
#define PAGE 4096u

struct held {                 /* a frame kept for a later receive */
	uint8_t *bytes;           /* the whole frame, header included */
	uint32_t length;
	bool outgoing;            /* one this host sent (an ETH_P_ALL copy) */
};

struct sock {
	bool used;
	uint32_t type;            /* FS_SOCK_RAW or FS_SOCK_DGRAM */
	uint16_t protocol;        /* the EtherType received, NET_ETHERTYPE_ALL, 0: none */
	uint32_t ifindex;         /* bound to, 0: not bound */
	struct held queue[SOCK_QUEUE];
	unsigned head, count;
	uint64_t dropped;
	bool polled;              /* a poll looked since the last frame came: notice.c */
};

/* One receive of ours at the Ethernet server per EtherType some socket
 * asked for: each frame it brings is given to every socket of that type
 * (as Linux gives every packet socket its copy). A tap whose sockets have
 * all gone keeps its receive out (a frame it brings is let go) and is
 * reused for the next socket of its type. */
struct tap {
	uint16_t type;            /* 0: unused */
	uint32_t ctl, buf;        /* the control ICA and the buffer lent with it */
	bool busy;                /* the receive is out */
};

struct parked_recv {
	bool used;
	struct sock *s;
	struct open_file *f;      /* a reference held while parked */
	uint64_t seq;             /* arrival order */
	struct server_request rq;
};

static const struct myrmex_frame *eth_call(uint32_t op, uint64_t arg0, int64_t *err);

static struct sock socks[SOCKETS];
static struct tap taps[TAPS];
static struct parked_recv parked[SOCK_PARKED];
static uint64_t next_seq;

/* ---- helpers ---- */

static uint64_t mac_of(const uint8_t *p)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)p[i] << (8 * i);
	return mac;
}

static struct sock *sock_of(struct server_request *rq, uint64_t fd, struct open_file **fp)
{
	struct open_file *f = files_get(rq->d.requester, fd);
	if (fp)
		*fp = f;
	if (!f)
		return NULL;
	return f->kind == FM_SOCKET ? f->sock : NULL;
}

static void drop_queue(struct sock *s)
{
	while (s->count) {
		free(s->queue[s->head].bytes);
		s->head = (s->head + 1) % SOCK_QUEUE;
		s->count--;
	}
}

/* Whether s receives frames: bound to a type, or to all. */
static bool receives(const struct sock *s)
{
	return s->protocol >= NET_ETHERTYPE_MIN || s->protocol == NET_ETHERTYPE_ALL;
}

/* A socket's protocol as socket and bind take it: none (0), ETH_P_ALL, or
 * an EtherType; the 802.3 types below NET_ETHERTYPE_MIN are not offered. */
static bool protocol_ok(uint64_t protocol)
{
	return protocol == 0 || protocol == NET_ETHERTYPE_ALL ||
	       (protocol >= NET_ETHERTYPE_MIN && protocol <= 0xffff);
}

/* Whether some socket receives EtherType type. */
static bool type_wanted(uint16_t type)
{
	for (unsigned i = 0; i < SOCKETS; i++)
		if (socks[i].used && socks[i].protocol == type)
			return true;
	return false;
}

/* Puts the receive of s's EtherType out at the Ethernet server unless it
 * is out already: 0, or -ENETDOWN when no Ethernet server takes it. */
static int arm(const struct sock *s)
{
	if (!receives(s))
		return 0;
	struct tap *t = NULL;
	for (unsigned i = 0; i < TAPS && !t; i++)
		if (taps[i].type == s->protocol)
			t = &taps[i];
	for (unsigned i = 0; i < TAPS && !t; i++)
		if (!taps[i].type || (!taps[i].busy && !type_wanted(taps[i].type)))
			t = &taps[i];   /* unused, or idle with no socket of its type left */
	if (!t)
		return -ENOBUFS;   /* TAPS types asked for at once */
	if (t->busy)
		return 0;
	t->type = s->protocol;
	if (!t->ctl) {
		long c = myrmex_ica_alloc(1);
		if (c < 0)
			return (int)c;
		t->ctl = (uint32_t)c;
	}
	if (!t->buf) {
		long b = myrmex_ica_alloc(1);
		if (b < 0)
			return (int)b;
		t->buf = (uint32_t)b;
	}
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(t->ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_ETH, NET_RECV);
	if (!f)
		return -EINVAL;
	f->arg[3] = t->type;
	f->ndata = 1;
	f->data[0] = t->buf;
	long r = myrmex_callasync(h);
	if (r < 0)
		return r == -ESRCH ? -ENETDOWN : (int)r;
	t->busy = true;
	return 0;
}

/* Copies frame (length bytes, header included) to parked or fresh request
 * rq as its socket type wants it: the bytes given. */
static int64_t give(struct server_request *rq, const struct sock *s, const uint8_t *frame,
                    uint32_t length, bool outgoing)
{
	const struct fs_recvfrom_args *a = SERVER_IN(rq, struct fs_recvfrom_args);
	const uint8_t *from = s->type == FS_SOCK_RAW ? frame : frame + NET_ETH_HLEN;
	uint64_t full = s->type == FS_SOCK_RAW ? length : length - NET_ETH_HLEN;
	uint64_t n = full < a->length ? full : a->length;
	if (n > rq->data_size)
		n = rq->data_size;
	memcpy(rq->data, from, n);
	fm_stats.v[FS_STAT_COPIES]++;
	fm_stats.v[FS_STAT_COPY_BYTES] += n;
	struct fs_recvfrom_result *out = SERVER_OUT(rq, struct fs_recvfrom_result);
	out->mac = mac_of(frame + 6);
	out->protocol = (uint64_t)frame[12] << 8 | frame[13];
	out->full = full;
	/* Linux's PACKET_OUTGOING, PACKET_BROADCAST, PACKET_MULTICAST, PACKET_HOST */
	out->pkttype = outgoing ? 4 : frame[0] == 0xff && mac_of(frame) == 0xffffffffffffull ? 1
	             : (frame[0] & 1) ? 2 : 0;
	server_out(rq, FS_RESULT_FAMILY, FS_FAMILY_PACKET);
	server_out(rq, FS_RESULT_KIND, FS_KIND_SOCKET);
	return (int64_t)n;
}

static void finish(struct parked_recv *k, int64_t status)
{
	struct server_request rq = k->rq;
	struct open_file *f = k->f;
	k->used = false;
	server_reply_later(FM_NAME, &rq, status);
	ofd_unref(f);
}

/* The oldest receive parked on s, or NULL. */
static struct parked_recv *oldest(const struct sock *s)
{
	struct parked_recv *best = NULL;
	for (unsigned i = 0; i < SOCK_PARKED; i++)
		if (parked[i].used && parked[i].s == s && (!best || parked[i].seq < best->seq))
			best = &parked[i];
	return best;
}

/* ---- the socket calls ---- */

int64_t do_socket(struct server_request *rq)
{
	const struct fs_socket_args *a = SERVER_IN(rq, struct fs_socket_args);
	if (a->domain == FS_DOMAIN_INET)
		return inet_socket(rq);
	if (a->domain != 0)
		return -EAFNOSUPPORT;
	if (a->type != FS_SOCK_RAW && a->type != FS_SOCK_DGRAM)
		return -ESOCKTNOSUPPORT;
	if (a->flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	if (!protocol_ok(a->protocol))
		return -EPROTONOSUPPORT;   /* the 802.3 types: not offered */
	int err = files_room(rq->d.requester);
	if (err)
		return err;
	struct sock *s = NULL;
	for (unsigned i = 0; i < SOCKETS && !s; i++)
		if (!socks[i].used)
			s = &socks[i];
	if (!s)
		return -ENFILE;
	struct open_file *f = ofd_new(FM_SOCKET, O_RDWR | ((int)a->flags & O_NONBLOCK));
	if (!f)
		return -ENFILE;
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->type = (uint32_t)a->type;
	s->protocol = (uint16_t)a->protocol;
	f->sock = s;
	int fd = files_install(rq->d.requester, f, 0, a->flags & O_CLOEXEC);
	ofd_unref(f);   /* the descriptor's reference stays (or the socket goes) */
	if (fd >= 0)
		arm(s);   /* no Ethernet server yet: the first receive says so */
	return fd;
}

int64_t do_bind(struct server_request *rq)
{
	const struct fs_bind_args *a = SERVER_IN(rq, struct fs_bind_args);
	struct open_file *f;
	struct sock *s = sock_of(rq, a->fd, &f);
	if (!s)
		return f ? -ENOTSOCK : -EBADF;
	if (a->ifindex != 0 && a->ifindex != FS_SOCK_IFINDEX)
		return -ENODEV;
	if (!protocol_ok(a->protocol))
		return -EPROTONOSUPPORT;
	s->ifindex = a->ifindex ? (uint32_t)a->ifindex : FS_SOCK_IFINDEX;
	if (a->protocol && a->protocol != s->protocol) {
		s->protocol = (uint16_t)a->protocol;
		drop_queue(s);   /* frames of the old type */
	}
	arm(s);   /* a receive of the old type still out is answered, then replaced */
	return 0;
}

/* Sends len bytes (a frame or a payload, as s's type says) that lie
 * NET_ETH_HLEN bytes into rq's data ICA, to mac and protocol when
 * addressed (else to where s is bound): the request passed on to the
 * Ethernet server (SERVER_LATER), or -errno. */
static int64_t send_frame(struct server_request *rq, struct sock *s, uint64_t len, bool addressed,
                          uint64_t mac, uint64_t protocol)
{
	if (!addressed && !s->ifindex)
		return -ENXIO;   /* as Linux: no device to send on */
	if (!addressed && s->type == FS_SOCK_DGRAM)
		return -EINVAL;   /* as Linux: no destination for the header */
	if (!rq->data || rq->data_size < NET_ETH_HLEN || len > rq->data_size - NET_ETH_HLEN)
		return -EINVAL;
	uint64_t args[4];
	if (s->type == FS_SOCK_RAW) {
		/* The frame at offset 14: its payload at 28, the header the
		 * Ethernet server writes over the frame's own (our MAC as the
		 * source, whatever the frame said). */
		const uint8_t *frame = rq->data + NET_ETH_HLEN;
		if (len < NET_ETH_HLEN)
			return -EINVAL;
		if (len > NET_FRAME_MAX)
			return -EMSGSIZE;
		args[0] = 2 * NET_ETH_HLEN;
		args[1] = len - NET_ETH_HLEN;
		args[2] = mac_of(frame);
		args[3] = (uint64_t)frame[12] << 8 | frame[13];
	} else {
		if (len > NET_PAYLOAD_MAX)
			return -EMSGSIZE;
		args[0] = NET_ETH_HLEN;
		args[1] = len;
		args[2] = mac;
		args[3] = protocol ? protocol : s->protocol;
	}
	if (args[3] < NET_ETHERTYPE_MIN)
		return -EINVAL;   /* the Ethernet server sends only types, no 802.3 lengths */
	server_out(rq, FS_RESULT_KIND, FS_KIND_SOCKET);
	int64_t r = request_pass_on_args(rq, MYRMEX_COREID_ETH, NET_SEND, args);
	return r == -ESRCH ? -ENETDOWN : r;
}

int64_t do_sendto(struct server_request *rq)
{
	const struct fs_sendto_args *a = SERVER_IN(rq, struct fs_sendto_args);
	struct open_file *f;
	struct sock *s = sock_of(rq, a->fd, &f);
	if (!s && f && f->kind == FM_INET)
		return inet_sendto(rq, f);
	if (!s)
		return f ? -ENOTSOCK : -EBADF;
	return send_frame(rq, s, a->length, a->addressed != 0, a->mac, a->protocol);
}

int64_t socket_write(struct server_request *rq, struct open_file *f)
{
	/* write(2) on a packet socket is send(2) to where it is bound; its
	 * bytes came at offset 0, without the header's room: moved behind it
	 * (one copy, counted). */
	uint64_t len = SERVER_IN(rq, struct fs_io_args)->length;
	if (len > NET_FRAME_MAX)
		return -EMSGSIZE;
	if (!rq->data || rq->data_size < len + NET_ETH_HLEN)
		return -EINVAL;
	memmove(rq->data + NET_ETH_HLEN, rq->data, len);
	fm_stats.v[FS_STAT_COPIES]++;
	fm_stats.v[FS_STAT_COPY_BYTES] += len;
	return send_frame(rq, f->sock, len, false, 0, 0);
}

/* A frame for rq (FS_RECVFROM, or FS_READ whose fd and length words are
 * the same): given, parked (SERVER_LATER), or -errno. */
static int64_t recv_frame(struct server_request *rq, struct open_file *f, struct sock *s,
                          bool dontwait)
{
	const struct fs_recvfrom_args *a = SERVER_IN(rq, struct fs_recvfrom_args);
	if (!rq->data || a->length > rq->data_size)
		return -EINVAL;
	int err = arm(s);
	if (s->count) {
		struct held *h = &s->queue[s->head];
		int64_t n = give(rq, s, h->bytes, h->length, h->outgoing);
		free(h->bytes);
		s->head = (s->head + 1) % SOCK_QUEUE;
		s->count--;
		return n;
	}
	if (err)
		return err;
	if (dontwait || (f->flags & O_NONBLOCK) || !receives(s))
		return !receives(s) && !dontwait && !(f->flags & O_NONBLOCK) ? -EINVAL : -EAGAIN;
	for (unsigned i = 0; i < SOCK_PARKED; i++) {
		struct parked_recv *k = &parked[i];
		if (k->used)
			continue;
		k->used = true;
		k->s = s;
		k->f = f;
		k->seq = next_seq++;
		k->rq = *rq;
		request_rebase(&k->rq, rq);
		ofd_ref(f);
		return SERVER_LATER;
	}
	return -EAGAIN;
}

int64_t do_recvfrom(struct server_request *rq)
{
	const struct fs_recvfrom_args *a = SERVER_IN(rq, struct fs_recvfrom_args);
	struct open_file *f;
	struct sock *s = sock_of(rq, a->fd, &f);
	if (!s && f && f->kind == FM_INET)
		return inet_recvfrom(rq, f);
	if (!s)
		return f ? -ENOTSOCK : -EBADF;
	return recv_frame(rq, f, s, a->dontwait != 0);
}

int64_t socket_read(struct server_request *rq, struct open_file *f)
{
	/* read(2) on a packet socket is recv(2): fs_io_args' fd and length
	 * are fs_recvfrom_args' (a read carries no flags). */
	_Static_assert(offsetof(struct fs_io_args, length) == offsetof(struct fs_recvfrom_args, length),
	               "read and recvfrom share the length word");
	return recv_frame(rq, f, f->sock, false);
}

/* ---- what comes back from the Ethernet server ---- */

/* Frame (length bytes) arrived for s: to the oldest parked receive, or kept. */
static void frame_in(struct sock *s, const uint8_t *frame, uint32_t length, bool outgoing)
{
	struct parked_recv *k = oldest(s);
	if (k) {
		finish(k, give(&k->rq, s, frame, length, outgoing));
		return;
	}
	uint8_t *copy = malloc(length);
	if (!copy) {
		s->dropped++;
		return;
	}
	memcpy(copy, frame, length);
	if (s->count == SOCK_QUEUE) {
		free(s->queue[s->head].bytes);
		s->head = (s->head + 1) % SOCK_QUEUE;
		s->count--;
		s->dropped++;
	}
	s->queue[(s->head + s->count) % SOCK_QUEUE] = (struct held){ copy, length, outgoing };
	s->count++;
	notice_changed(&s->polled);   /* readable now: a waiting poll looks again */
}

/* Every receive parked on s gets status. */
static void fail_all(struct sock *s, int64_t status)
{
	struct parked_recv *k;
	while ((k = oldest(s)))
		finish(k, status);
}

bool socket_result(const struct myrmex_delivery *d)
{
	struct tap *t = NULL;
	for (unsigned i = 0; i < TAPS && !t; i++)
		if (taps[i].type && taps[i].busy && taps[i].ctl == d->handle)
			t = &taps[i];
	if (!t)
		return false;
	t->busy = false;
	t->buf = d->ndata ? d->data[0] : 0;
	if (d->ndata && (d->parked & 1u))
		myrmex_ica_attach(t->buf);
	const struct myrmex_frame *res = myrmex_ctl_result((struct myrmex_ctl_header *)(uintptr_t)d->control);
	uint64_t offset = res ? res->arg[0] : 0, length = res ? res->arg[1] : 0;
	bool outgoing = res && (res->arg[4] & NET_RX_OUTGOING);
	bool good = d->status >= 0 && t->buf && offset >= NET_ETH_HLEN && offset <= PAGE &&
	            length <= PAGE - offset;
	/* Called back by socket_close; a socket of the type may have come since. */
	bool cancelled = d->status == -ECANCELED;
	struct sock *wanted = NULL;
	for (unsigned i = 0; i < SOCKETS; i++) {
		struct sock *s = &socks[i];
		if (!s->used || s->protocol != t->type)
			continue;
		wanted = s;
		if (good)
			frame_in(s, (const uint8_t *)myrmex_ica_addr(t->buf) + offset - NET_ETH_HLEN,
			         (uint32_t)(length + NET_ETH_HLEN), outgoing);
		else if (!cancelled)   /* no Ethernet server (it died: -EPIPE), or it refused */
			fail_all(s, d->status == -EPIPE || d->status >= 0 ? -ENETDOWN : d->status);
	}
	if ((good || cancelled) && wanted)
		arm(wanted);   /* after an error the next receive posts again */
	return true;
}

int64_t socket_name(struct server_request *rq, struct sock *s, uint64_t peer)
{
	if (peer)
		return -EOPNOTSUPP;
	int64_t mac = s->ifindex ? socket_eth_mac() : 0;
	server_out(rq, 0, s->protocol);
	server_out(rq, 1, s->ifindex);
	server_out(rq, 2, mac < 0 ? 0 : (uint64_t)mac);
	server_out(rq, 3, s->ifindex != 0);
	server_out(rq, FS_RESULT_FAMILY, FS_FAMILY_PACKET);
	return 0;
}

void socket_close(struct sock *s)
{
	drop_queue(s);
	s->used = false;   /* no receive is parked on it: each holds a reference */
	if (type_wanted(s->protocol))
		return;
	/* The last socket of its type: its tap's receive is called back, so
	 * that the tap serves another type (its answer, -ECANCELED, brings
	 * the buffer back; when a frame's answer is on the way already, the
	 * Ethernet server finds nothing and the frame is let go). */
	for (unsigned i = 0; i < TAPS; i++)
		if (taps[i].type == s->protocol && taps[i].busy) {
			int64_t err;
			eth_call(NET_CANCEL, taps[i].ctl, &err);
		}
}

unsigned socket_poll(struct sock *s)
{
	arm(s);
	s->polled = true;
	return (s->count ? POLLIN | POLLRDNORM : 0) | POLLOUT | POLLWRNORM;
}

/* A synchronous call of ours to the Ethernet server (op, arg0) on a
 * control ICA of our own: the result frame, or NULL with *err set. */
static const struct myrmex_frame *eth_call(uint32_t op, uint64_t arg0, int64_t *err)
{
	static uint32_t ctl;
	if (!ctl) {
		long h = myrmex_ica_alloc(1);
		if (h < 0) {
			*err = h;
			return NULL;
		}
		ctl = (uint32_t)h;
	}
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_ETH, op);
	if (!f) {
		*err = -EINVAL;
		return NULL;
	}
	f->arg[0] = arg0;
	long r = myrmex_callsync(h);
	const struct myrmex_frame *res = r < 0 ? NULL : myrmex_ctl_result(h);
	if (!res || res->status < 0) {
		*err = r == -ESRCH || !res ? -ENODEV : res->status;
		return NULL;
	}
	return res;
}

int64_t socket_eth_mac(void)
{
	int64_t err;
	const struct myrmex_frame *res = eth_call(NET_INFO, 0, &err);
	return res ? (int64_t)(res->arg[0] & 0xffffffffffffull) : (err == -ENODEV ? err : -ENODEV);
}

void socket_drop_pid(int pid)
{
	for (unsigned i = 0; i < SOCK_PARKED; i++)
		if (parked[i].used && parked[i].rq.d.requester == pid)
			finish(&parked[i], -EPIPE);   /* its process is gone */
}

void socket_cancel(int pid, uint32_t handle)
{
	for (unsigned i = 0; i < SOCK_PARKED; i++)
		if (parked[i].used && parked[i].rq.d.requester == pid && parked[i].rq.d.handle == handle) {
			finish(&parked[i], -EINTR);
			return;
		}
}
