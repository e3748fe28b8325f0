/*
 * Internet sockets (AF_INET, SOCK_STREAM, SOCK_DGRAM and SOCK_RAW) for POSIX
 * processes: Linux's checks of addresses, lengths, flags and pointers, in
 * Linux's order, before any IPC; then the call goes to the file manager,
 * which holds the descriptor and passes it on to the TCP/IP server
 * (FS_INET, include/myrmex/fs.h and inet.h; docs/net.md, "TCP/IP"). Here
 * too: the sockaddr_in in and out, accept's second step (the new socket
 * made a descriptor, FS_INET_ADOPT), socket options mapped to the
 * server's (timevals and struct linger converted), sends longer than one data ICA split, SIGPIPE, and sendmsg/
 * recvmsg (their vectors gathered into and scattered from the data ICA;
 * no ancillary data).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <myrmex/inet.h>
#include <posix/inet.h>
#include <posix/iovec.h>
#include <arch/linux_abi.h>

#define SOCK_TYPE_MASK 0xf
#define SOCK_NONBLOCK  04000
#define SOCK_CLOEXEC   02000000
#define SOCK_STREAM    1
#define SOCK_DGRAM     2
#define SOCK_RAW       3
#define IPPROTO_IP     0
#define IPPROTO_ICMP   1
#define IPPROTO_TCP    6
#define IPPROTO_UDP    17
#define IPPROTO_RAW    255
#define MSG_OOB        0x1
#define MSG_PEEK       0x2
#define MSG_TRUNC      0x20
#define MSG_DONTWAIT   0x40
#define MSG_WAITALL    0x100
#define MSG_NOSIGNAL   0x4000
#define SOL_SOCKET     1
#define SO_TYPE        3
#define SO_ERROR       4
#define SO_REUSEADDR   2
#define SO_BROADCAST   6
#define SO_SNDBUF      7
#define SO_RCVBUF      8
#define SO_KEEPALIVE   9
#define SO_REUSEPORT   15
#define SO_LINGER      13
#define SO_RCVTIMEO    20      /* x86-64's SO_RCVTIMEO_OLD: a struct timeval of 64-bit words */
#define SO_SNDTIMEO    21
#define SO_ACCEPTCONN  30
#define SO_PROTOCOL    38
#define SO_DOMAIN      39
#define IP_TOS         1
#define IP_TTL         2
#define TCP_NODELAY    1
#define TCP_MAXSEG     2
#define TCP_KEEPIDLE   4
#define TCP_KEEPINTVL  5
#define TCP_KEEPCNT    6
#define NS_PER_US      1000ull
#define US_PER_S       1000000ull
#define SEND_HEADROOM  14u     /* the file manager's FS_SENDTO layout */
#define SEND_CHUNK     (FORWARD_LARGE_BYTES - SEND_HEADROOM)

static uint16_t swap16(uint16_t v)
{
	return (uint16_t)(v << 8 | v >> 8);
}

/* Whether the caller may open raw sockets (Linux's CAP_NET_RAW, which
 * root holds: an effective uid of 0). */
static bool may_use_raw(void)
{
	struct process *p = current_thread()->proc;
	return !p->px || p->px->cred.euid == 0;
}

/* A raw socket's checks, in Linux's order (inet_create): the protocol,
 * then the privilege. 0 or -errno. */
static long raw_check(uint64_t protocol)
{
	if (protocol == IPPROTO_IP || protocol >= IPPROTO_RAW)
		return -EPROTONOSUPPORT;   /* 255 (the program writes the IP header) is not built */
	return may_use_raw() ? 0 : -EPERM;
}

long inet_socket(uint64_t type, uint64_t protocol)
{
	uint64_t kind = type & SOCK_TYPE_MASK;
	if (kind != SOCK_STREAM && kind != SOCK_DGRAM && kind != SOCK_RAW)
		return -ESOCKTNOSUPPORT;
	if (kind == SOCK_DGRAM && protocol == IPPROTO_ICMP)
		return -EACCES;   /* ping sockets: Linux's default net.ipv4.ping_group_range allows nobody */
	if (kind == SOCK_RAW) {
		long r = raw_check(protocol);
		if (r < 0)
			return r;
	} else if (protocol != 0 && protocol != (kind == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP)) {
		return -EPROTONOSUPPORT;
	}
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_SOCKET, 0);
	if (err)
		return err;
	struct fs_socket_args *a = (struct fs_socket_args *)f.arg;
	a->type = kind == SOCK_STREAM ? INET_STREAM : kind == SOCK_DGRAM ? INET_DGRAM : INET_RAW;
	a->protocol = kind == SOCK_RAW ? protocol : 0;
	a->flags = type & (SOCK_NONBLOCK | SOCK_CLOEXEC);
	a->domain = FS_DOMAIN_INET;
	return forward_call(&f);
}

long inet_read_address(uptr_t addr, uint64_t len, struct sockaddr_in *sin)
{
	if ((int32_t)len < 0 || len > SOCKADDR_MAX)
		return -EINVAL;
	if (len < sizeof(*sin))
		return -EINVAL;
	if (copy_from_user(sin, addr, sizeof(*sin)) < 0)
		return -EFAULT;
	return 0;
}

/* Writes an address (network-order IPv4, host-order port) to addr with
 * the room *alenp says, and the whole length to *alenp: 0 or -EFAULT. */
static long write_address(uptr_t addr, uptr_t alenp, int32_t room, uint64_t ip, uint64_t port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = swap16((uint16_t)port),
		.sin_addr = (uint32_t)ip,
	};
	int32_t full = (int32_t)sizeof(sin);
	if (room > 0 && copy_to_user(addr, &sin, MIN((uint64_t)room, (uint64_t)sizeof(sin))) < 0)
		return -EFAULT;
	return copy_to_user(alenp, &full, sizeof(full)) < 0 ? -EFAULT : 0;
}

long inet_put_address(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8])
{
	if (res[INET_RESULT_FAMILY] != INET_FAMILY) {   /* a stream's receive: no address */
		int32_t none = 0;
		return copy_to_user(alenp, &none, sizeof(none)) < 0 ? -EFAULT : 0;
	}
	return write_address(addr, alenp, room, res[INET_RESULT_ADDR], res[INET_RESULT_PORT]);
}

/* The room *alenp gives (0 when addr is NULL): >= 0, or -errno. */
static long address_room(uptr_t addr, uptr_t alenp, int32_t *room)
{
	*room = 0;
	if (!addr)
		return 0;
	if (copy_from_user(room, alenp, sizeof(*room)) < 0)
		return -EFAULT;
	return *room < 0 ? -EINVAL : 0;
}

/* FS_INET: op on descriptor fd with the call's words a1..a6; the result
 * words in res (may be NULL). */
static long inet_call(uint64_t fd, uint32_t op, const uint64_t args[6], uint64_t res[8])
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_INET, 0);
	if (err)
		return err;
	struct fs_inet_args *a = (struct fs_inet_args *)f.arg;
	a->fd = fd;
	a->op = op;
	for (unsigned i = 0; i < 6; i++)
		a->arg[i] = args ? args[i] : 0;
	long r = forward_call(&f);
	if (res)
		memcpy(res, f.res, sizeof(f.res));
	return r;
}

long inet_bind(uint64_t fd, const struct sockaddr_in *sin)
{
	uint64_t args[6] = { sin->sin_addr, swap16(sin->sin_port), 0, 0, 0, 0 };
	return inet_call(fd, INET_BIND, args, NULL);
}

long sys_connect(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], len = a->arg[2];
	struct sockaddr_in sin;
	if ((int32_t)len < 0 || len > SOCKADDR_MAX)
		return -EINVAL;
	uint16_t family = 0;
	if (len >= sizeof(family) && copy_from_user(&family, a->arg[1], sizeof(family)) < 0)
		return -EFAULT;
	if (family == AF_UNSPEC && len >= sizeof(family)) {   /* a datagram socket's peer forgotten */
		uint64_t none[6] = { 0 };
		return inet_call(fd, INET_CONNECT, none, NULL);
	}
	long r = inet_read_address(a->arg[1], len, &sin);
	if (r < 0)
		return r;
	if (sin.sin_family != AF_INET)
		return -EAFNOSUPPORT;
	uint64_t args[6] = { sin.sin_addr, swap16(sin.sin_port), 0, 0, 0, 0 };
	return inet_call(fd, INET_CONNECT, args, NULL);
}

long sys_listen(const struct syscall_args *a)
{
	uint64_t args[6] = { (uint64_t)(int64_t)(int32_t)a->arg[1], 0, 0, 0, 0, 0 };
	return inet_call(a->arg[0], INET_LISTEN, args, NULL);
}

static long accept_common(uint64_t fd, uptr_t addr, uptr_t alenp, uint64_t flags)
{
	if (flags & ~(uint64_t)(SOCK_NONBLOCK | SOCK_CLOEXEC))
		return -EINVAL;
	int32_t room;
	long r = address_room(addr, alenp, &room);
	if (r < 0)
		return r;
	uint64_t res[8];
	long handle = inet_call(fd, INET_ACCEPT, NULL, res);
	if (handle < 0)
		return handle;
	/* The connection is the process's now: a descriptor for it. (Should
	 * this fail, the file manager closes the handle.) */
	long nfd = posix_fs_call(FS_INET_ADOPT, (uint64_t)handle, flags, 0, NULL);
	if (nfd < 0)
		return nfd;
	if (addr && write_address(addr, alenp, room, res[INET_RESULT_ADDR], res[INET_RESULT_PORT]) < 0)
		return -EFAULT;   /* as Linux: the descriptor stays, the error is returned */
	return nfd;
}

long sys_accept(const struct syscall_args *a)
{
	return accept_common(a->arg[0], a->arg[1], a->arg[2], 0);
}

long sys_accept4(const struct syscall_args *a)
{
	return accept_common(a->arg[0], a->arg[1], a->arg[2], a->arg[3]);
}

long sys_shutdown(const struct syscall_args *a)
{
	if (a->arg[1] > 2)
		return -EINVAL;
	uint64_t args[6] = { a->arg[1], 0, 0, 0, 0, 0 };
	return inet_call(a->arg[0], INET_SHUTDOWN, args, NULL);
}

static long name_of(const struct syscall_args *a, uint64_t peer)
{
	int32_t room;
	if (!a->arg[1] || !a->arg[2])
		return -EFAULT;
	long r = address_room(a->arg[1], a->arg[2], &room);
	if (r < 0)
		return r;
	uint64_t res[8];
	uint64_t args[6] = { peer, 0, 0, 0, 0, 0 };
	r = inet_call(a->arg[0], INET_NAME, args, res);
	if (r < 0)
		return r;
	if (res[FS_RESULT_FAMILY] == FS_FAMILY_PACKET)   /* a packet socket's own name */
		return packet_write_name(a->arg[1], a->arg[2], room, res);
	return write_address(a->arg[1], a->arg[2], room, res[INET_RESULT_ADDR], res[INET_RESULT_PORT]);
}

long sys_getsockname(const struct syscall_args *a)
{
	return name_of(a, 0);
}

long sys_getpeername(const struct syscall_args *a)
{
	return name_of(a, 1);
}

/* Linux's (level, name) as the server's option, or 0. */
static uint32_t option_of(uint64_t level, uint64_t name)
{
	if (level == SOL_SOCKET) {
		switch (name) {
		case SO_REUSEADDR: return INET_OPT_REUSEADDR;
		case SO_REUSEPORT: return INET_OPT_REUSEPORT;
		case SO_KEEPALIVE: return INET_OPT_KEEPALIVE;
		case SO_BROADCAST: return INET_OPT_BROADCAST;
		case SO_SNDBUF: return INET_OPT_SNDBUF;
		case SO_RCVBUF: return INET_OPT_RCVBUF;
		case SO_ERROR: return INET_OPT_ERROR;
		case SO_TYPE: return INET_OPT_TYPE;
		case SO_ACCEPTCONN: return INET_OPT_ACCEPTCONN;
		case SO_PROTOCOL: return INET_OPT_PROTOCOL;
		case SO_DOMAIN: return INET_OPT_TYPE;   /* asked to check the socket; answered here */
		case SO_RCVTIMEO: return INET_OPT_RCVTIMEO;
		case SO_SNDTIMEO: return INET_OPT_SNDTIMEO;
		case SO_LINGER: return INET_OPT_LINGER;
		}
	} else if (level == IPPROTO_TCP) {
		switch (name) {
		case TCP_NODELAY: return INET_OPT_NODELAY;
		case TCP_MAXSEG: return INET_OPT_MAXSEG;
		case TCP_KEEPIDLE: return INET_OPT_KEEPIDLE;
		case TCP_KEEPINTVL: return INET_OPT_KEEPINTVL;
		case TCP_KEEPCNT: return INET_OPT_KEEPCNT;
		}
	} else if (level == IPPROTO_IP) {
		if (name == IP_TTL)
			return INET_OPT_TTL;
		if (name == IP_TOS)
			return INET_OPT_TOS;
	}
	return 0;
}

/* Linux's struct linger (struct timeval: arch/linux_abi.h). */
struct linux_linger {
	int32_t onoff, linger;
};

/* A timeout option's value (sock_set_timeout): nanoseconds, 0 for none;
 * a negative time is "at once" (1 ns: the next tick's check ends the
 * call). 0 or -errno. */
static long read_timeout(uptr_t at, uint64_t len, uint64_t *ns)
{
	struct linux_timeval tv;
	if ((int32_t)len < (int32_t)sizeof(tv))
		return -EINVAL;
	if (copy_from_user(&tv, at, sizeof(tv)) < 0)
		return -EFAULT;
	if (tv.usec < 0 || (uint64_t)tv.usec >= US_PER_S)
		return -EDOM;
	if (tv.sec < 0) {
		*ns = 1;
		return 0;
	}
	if ((uint64_t)tv.sec > UINT32_MAX)   /* Linux: for ever */
		tv.sec = 0, tv.usec = 0;
	*ns = ((uint64_t)tv.sec * US_PER_S + (uint64_t)tv.usec) * NS_PER_US;
	return 0;
}

long sys_setsockopt(const struct syscall_args *a)
{
	uint32_t opt = option_of(a->arg[1], a->arg[2]);
	if (!opt)
		return -ENOPROTOOPT;
	if (opt == INET_OPT_ERROR || opt == INET_OPT_TYPE || opt == INET_OPT_ACCEPTCONN ||
	    opt == INET_OPT_PROTOCOL)
		return -ENOPROTOOPT;   /* read-only, as on Linux */
	uint64_t value;
	if (opt == INET_OPT_RCVTIMEO || opt == INET_OPT_SNDTIMEO) {
		long r = read_timeout(a->arg[3], a->arg[4], &value);
		if (r < 0)
			return r;
	} else if (opt == INET_OPT_LINGER) {
		struct linux_linger l;
		if ((int32_t)a->arg[4] < (int32_t)sizeof(l))
			return -EINVAL;
		if (copy_from_user(&l, a->arg[3], sizeof(l)) < 0)
			return -EFAULT;
		value = (l.onoff ? INET_LINGER_ON : 0) | (uint32_t)l.linger;
	} else {
		if ((int32_t)a->arg[4] < (int32_t)sizeof(int32_t))
			return -EINVAL;
		int32_t v;
		if (copy_from_user(&v, a->arg[3], sizeof(v)) < 0)
			return -EFAULT;
		value = (uint64_t)(int64_t)v;
	}
	uint64_t args[6] = { opt, value, 0, 0, 0, 0 };
	return inet_call(a->arg[0], INET_SETOPT, args, NULL);
}

long sys_getsockopt(const struct syscall_args *a)
{
	int32_t len;
	if (copy_from_user(&len, a->arg[4], sizeof(len)) < 0)
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	uint32_t opt = option_of(a->arg[1], a->arg[2]);
	if (!opt)
		return -ENOPROTOOPT;
	uint64_t res[8];
	uint64_t args[6] = { opt, 0, 0, 0, 0, 0 };
	long r = inet_call(a->arg[0], INET_GETOPT, args, res);
	if (r < 0)
		return r;
	/* The value as Linux writes it, cut to the room given (as Linux). */
	union {
		int32_t i;
		struct linux_timeval tv;
		struct linux_linger l;
	} v;
	uint64_t size = sizeof(v.i);
	if (opt == INET_OPT_RCVTIMEO || opt == INET_OPT_SNDTIMEO) {
		uint64_t us = res[0] / NS_PER_US;
		v.tv.sec = (int64_t)(us / US_PER_S);
		v.tv.usec = (int64_t)(us % US_PER_S);
		size = sizeof(v.tv);
	} else if (opt == INET_OPT_LINGER) {
		v.l.onoff = (res[0] & INET_LINGER_ON) != 0;
		v.l.linger = (int32_t)(uint32_t)res[0];
		size = sizeof(v.l);
	} else if (a->arg[1] == SOL_SOCKET && a->arg[2] == SO_DOMAIN) {
		v.i = AF_INET;
	} else {
		v.i = (int32_t)res[0];
	}
	uint64_t n = MIN((uint64_t)len, size);
	int32_t out = (int32_t)n;
	if (copy_to_user(a->arg[3], &v, n) < 0 || copy_to_user(a->arg[4], &out, sizeof(out)) < 0)
		return -EFAULT;
	return 0;
}

/* Where a send's bytes are in user memory: one buffer, or (iov != 0) a
 * checked vector of iovcnt entries. */
struct send_source {
	uptr_t buf;
	uptr_t iov;
	uint64_t iovcnt;
};

/* Copies n bytes from byte offset of src to dst: 0 or -EFAULT. */
static int copy_source(void *dst, const struct send_source *src, uint64_t offset, uint64_t n)
{
	if (!src->iov)
		return copy_from_user(dst, src->buf + offset, n) < 0 ? -EFAULT : 0;
	uint8_t *to = dst;
	for (uint64_t i = 0; i < src->iovcnt && n; i++) {
		struct linux_iovec v;
		if (copy_from_user(&v, src->iov + i * sizeof(v), sizeof(v)) < 0)
			return -EFAULT;
		if (offset >= v.len) {
			offset -= v.len;
			continue;
		}
		uint64_t k = MIN((uint64_t)v.len - offset, n);
		if (copy_from_user(to, v.base + offset, k) < 0)
			return -EFAULT;
		to += k;
		n -= k;
		offset = 0;
	}
	return 0;
}

static long send_from(uint64_t fd, const struct send_source *src, uint64_t len, uint64_t flags,
                      const struct sockaddr_in *to, const struct packet_dest *pd);

long inet_sendto(uint64_t fd, uptr_t buf, uint64_t len, uint64_t flags, const struct sockaddr_in *to)
{
	const struct send_source src = { .buf = buf };
	return send_from(fd, &src, len, flags, to, NULL);
}

/* to: an inet destination; pd: a packet socket's (one frame, at most
 * ETH_FRAME_MAX bytes); neither: where the socket is connected or bound. */
static long send_from(uint64_t fd, const struct send_source *src, uint64_t len, uint64_t flags,
                      const struct sockaddr_in *to, const struct packet_dest *pd)
{
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	uint64_t sent = 0;
	do {
		uint64_t n = MIN(len - sent, (uint64_t)SEND_CHUNK);
		struct fwd f;
		long r = to ? forward_begin(&f, SERVICE_FILES, FS_INET, SEND_HEADROOM + (uint32_t)n)
		            : forward_begin(&f, SERVICE_FILES, FS_SENDTO, SEND_HEADROOM + (uint32_t)n);
		if (r)
			return sent ? (long)sent : r;
		if (n && copy_source((uint8_t *)forward_data(&f) + SEND_HEADROOM, src, sent, n) < 0)
			return sent ? (long)sent : -EFAULT;
		if (to) {
			struct fs_inet_args *a = (struct fs_inet_args *)f.arg;
			a->fd = fd;
			a->op = INET_SEND;
			a->arg[1] = n;
			a->arg[2] = INET_ADDRESSED | (flags & MSG_DONTWAIT ? INET_NONBLOCK : 0);
			a->arg[3] = to->sin_addr;
			a->arg[4] = swap16(to->sin_port);
		} else {
			struct fs_sendto_args *a = (struct fs_sendto_args *)f.arg;
			a->fd = fd;
			a->length = n;
			a->dontwait = (flags & MSG_DONTWAIT) != 0;
			if (pd) {
				a->mac = pd->mac;
				a->protocol = pd->protocol;
				a->addressed = 1;
			}
		}
		r = forward_call(&f);
		if (r == -EPIPE && f.res[FS_RESULT_KIND] == FS_KIND_SOCKET && !(flags & MSG_NOSIGNAL))
			posix_raise_sigpipe();
		if (r < 0)
			return sent ? (long)sent : r;
		if ((uint64_t)r > n)
			r = (long)n;   /* a packet socket's answer counts the Ethernet header */
		sent += (uint64_t)r;
		if ((uint64_t)r < n)
			break;   /* a non-blocking send took what there was room for */
	} while (sent < len);
	return (long)sent;
}

/* ---- sendmsg and recvmsg ---- */

/* The message header at msg, its vector checked; *total the bytes it
 * names. 0 or -errno. */
static long read_msghdr(uptr_t msg, struct linux_msghdr *m, uint64_t *total)
{
	if (copy_from_user(m, msg, sizeof(*m)) < 0)
		return -EFAULT;
	long r = user_iovecs_check(m->iov, m->iovlen);
	if (r < 0)
		return r;
	*total = 0;
	for (uint64_t i = 0; i < m->iovlen; i++) {
		struct linux_iovec v;
		if (copy_from_user(&v, m->iov + i * sizeof(v), sizeof(v)) < 0)
			return -EFAULT;
		*total += v.len;
	}
	return 0;
}

long sys_sendmsg(const struct syscall_args *a)
{
	struct linux_msghdr m;
	uint64_t total;
	long r = read_msghdr(a->arg[1], &m, &total);
	if (r < 0)
		return r;
	struct sockaddr_in sin, *to = NULL;
	struct packet_dest pdest, *pd = NULL;
	if (m.name && m.namelen) {
		uint16_t family = 0;
		if ((int32_t)m.namelen >= (int32_t)sizeof(family) &&
		    copy_from_user(&family, m.name, sizeof(family)) < 0)
			return -EFAULT;
		if (family == AF_INET) {
			r = inet_read_address(m.name, m.namelen, &sin);
			to = &sin;
		} else {
			/* a packet socket's sockaddr_ll, checked as sendto does */
			r = packet_read_dest(m.name, m.namelen, &pdest);
			pd = &pdest;
			if (r == 0 && total > PACKET_FRAME_MAX)
				r = -EMSGSIZE;
		}
		if (r < 0)
			return r;
	}
	const struct send_source src = { .iov = m.iov, .iovcnt = m.iovlen };
	return send_from(a->arg[0], &src, total, a->arg[2], to, pd);
}

long sys_recvmsg(const struct syscall_args *a)
{
	uptr_t msg = a->arg[1];
	uint64_t flags = a->arg[2];
	struct linux_msghdr m;
	uint64_t total;
	long r = read_msghdr(msg, &m, &total);
	if (r < 0)
		return r;
	int32_t room = 0;
	if (m.name && m.namelen) {
		if ((int32_t)m.namelen < 0)
			return -EINVAL;
		room = (int32_t)m.namelen;
	}
	uint32_t want = (uint32_t)MIN(total, (uint64_t)FORWARD_LARGE_BYTES);
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_RECVFROM, want ? want : 1);
	if (err)
		return err;
	struct fs_recvfrom_args *args = (struct fs_recvfrom_args *)f.arg;
	args->fd = a->arg[0];
	args->length = want;
	args->dontwait = (flags & MSG_DONTWAIT) != 0;
	args->peek = (flags & MSG_PEEK) != 0;
	args->waitall = (flags & MSG_WAITALL) != 0;
	r = forward_call(&f);
	if (r < 0)
		return r;
	if ((uint64_t)r > want || !f.data)
		return -EIO;
	/* The bytes across the vector, in order. */
	const uint8_t *from = forward_data(&f);
	uint64_t left = (uint64_t)r;
	for (uint64_t i = 0; i < m.iovlen && left; i++) {
		struct linux_iovec v;
		if (copy_from_user(&v, m.iov + i * sizeof(v), sizeof(v)) < 0)
			return -EFAULT;
		uint64_t k = MIN((uint64_t)v.len, left);
		if (k && copy_to_user(v.base, from, k) < 0)
			return -EFAULT;
		from += k;
		left -= k;
	}
	uptr_t namelen_at = msg + offsetof(struct linux_msghdr, namelen);
	if (m.name && room > 0 && f.res[FS_RESULT_FAMILY] == INET_FAMILY) {
		if (inet_put_address(m.name, namelen_at, room, f.res) < 0)
			return -EFAULT;
	} else if (m.name && room > 0 && f.res[FS_RESULT_FAMILY] == FS_FAMILY_PACKET) {
		if (packet_put_address(m.name, namelen_at, room, f.res) < 0)
			return -EFAULT;
	} else {
		uint32_t none = 0;   /* a stream's, or a packet socket's (recvfrom gives it) */
		if (copy_to_user(namelen_at, &none, sizeof(none)) < 0)
			return -EFAULT;
	}
	/* INET_RESULT_FULL is fs_recvfrom_result's full too. */
	int32_t out_flags = f.res[INET_RESULT_FULL] > (uint64_t)r &&
	                    (f.res[INET_RESULT_FAMILY] == INET_FAMILY ||
	                     f.res[INET_RESULT_FAMILY] == FS_FAMILY_PACKET) ? MSG_TRUNC : 0;
	uint64_t no_control = 0;
	if (copy_to_user(msg + offsetof(struct linux_msghdr, flags), &out_flags, sizeof(out_flags)) < 0 ||
	    copy_to_user(msg + offsetof(struct linux_msghdr, controllen), &no_control,
	                 sizeof(m.controllen)) < 0)
		return -EFAULT;
	return flags & MSG_TRUNC && out_flags ? (long)f.res[INET_RESULT_FULL] : r;
}
