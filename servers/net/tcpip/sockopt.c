/*
 * setsockopt and getsockopt (INET_SETOPT, INET_GETOPT; include/myrmex/
 * inet.h): the options real programs set, kept on the socket and given to
 * lwIP's pcb where lwIP has the feature. The kernel has already checked
 * the lengths and converted timevals and struct linger (posix/sys_inet.c);
 * here each option is checked against the socket's kind, as Linux does.
 */
#include "tcpip.h"

#include <errno.h>

#define LINUX_DEFAULT_TTL 64      /* lwipopts.h's IP_DEFAULT_TTL too */
#define TCP_MSS_DEFAULT 536       /* Linux's TCP_MAXSEG before a connection */
#define TCP_MIN_MSS 88
#define TCP_MAX_USER_MSS 32767
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
/* Linux's keep-alive defaults and limits (MAX_TCP_KEEPIDLE, ...). */
#define KEEPIDLE_DEFAULT 7200u
#define KEEPINTVL_DEFAULT 75u
#define KEEPCNT_DEFAULT 9u
#define KEEP_TIME_MAX 32767
#define KEEPCNT_MAX 127
#define ECN_MASK 3u               /* IP_TOS's low bits, TCP's own on a stream */

/* The IP part every lwIP pcb starts with, or NULL before there is one. */
static struct ip_pcb *ip_part(struct isock *s)
{
	if (s->tcp)
		return (struct ip_pcb *)(void *)s->tcp;
	if (s->udp)
		return (struct ip_pcb *)(void *)s->udp;
	return sock_raw_pcb(s);
}

static void pcb_option(struct isock *s, u8_t opt, bool on)
{
	struct ip_pcb *pcb = ip_part(s);
	if (!pcb)
		return;
	if (on)
		ip_set_option(pcb, opt);
	else
		ip_reset_option(pcb, opt);
}

/* TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT: Linux's bounds, kept and given
 * to lwIP's keep-alive timer (milliseconds). 0 or -errno. */
static int64_t set_keepalive(struct isock *s, uint64_t opt, int64_t v)
{
	if (s->type != INET_STREAM)
		return -ENOPROTOOPT;
	if (v < 1 || v > (opt == INET_OPT_KEEPCNT ? KEEPCNT_MAX : KEEP_TIME_MAX))
		return -EINVAL;
	if (opt == INET_OPT_KEEPIDLE)
		s->keepidle = (uint16_t)v;
	else if (opt == INET_OPT_KEEPINTVL)
		s->keepintvl = (uint16_t)v;
	else
		s->keepcnt = (uint16_t)v;
	if (s->tcp && !s->listening) {
		s->tcp->keep_idle = (s->keepidle ? s->keepidle : KEEPIDLE_DEFAULT) * 1000u;
		s->tcp->keep_intvl = (s->keepintvl ? s->keepintvl : KEEPINTVL_DEFAULT) * 1000u;
		s->tcp->keep_cnt = s->keepcnt ? s->keepcnt : KEEPCNT_DEFAULT;
	}
	return 0;
}

int64_t do_setopt(struct server_request *rq)
{
	struct isock *s = sock_get(rq->in[0]);
	if (!s)
		return -EBADF;
	uint64_t value = rq->in[2];
	bool on = value != 0;
	switch (rq->in[1]) {
	case INET_OPT_REUSEADDR:
		s->reuseaddr = on;
		pcb_option(s, SOF_REUSEADDR, on);
		return 0;
	case INET_OPT_REUSEPORT:
		s->reuseport = on;
		return 0;
	case INET_OPT_KEEPALIVE:
		s->keepalive = on;
		pcb_option(s, SOF_KEEPALIVE, on);
		return 0;
	case INET_OPT_BROADCAST:
		s->broadcast = on;
		pcb_option(s, SOF_BROADCAST, on);
		return 0;
	case INET_OPT_NODELAY:
		if (s->type != INET_STREAM)
			return -ENOPROTOOPT;   /* as Linux: no TCP level on a datagram socket */
		s->nodelay = on;
		if (s->tcp && !s->listening) {
			if (on)
				tcp_nagle_disable(s->tcp);
			else
				tcp_nagle_enable(s->tcp);
		}
		return 0;
	case INET_OPT_MAXSEG: {
		if (s->type != INET_STREAM)
			return -ENOPROTOOPT;
		int64_t v = (int32_t)value;
		if (v && (v < TCP_MIN_MSS || v > TCP_MAX_USER_MSS))
			return -EINVAL;
		s->user_mss = (uint16_t)v;   /* reported; lwIP keeps its own MSS */
		return 0;
	}
	case INET_OPT_TTL: {
		int64_t v = (int32_t)value;
		if (v != -1 && (v < 1 || v > 255))
			return -EINVAL;
		s->ttl = (int16_t)v;
		struct ip_pcb *pcb = ip_part(s);
		if (pcb)
			pcb->ttl = (u8_t)(v == -1 ? LINUX_DEFAULT_TTL : v);
		return 0;
	}
	case INET_OPT_TOS: {
		uint8_t tos = (uint8_t)value;
		if (s->type == INET_STREAM)   /* as Linux: ECN's bits stay TCP's */
			tos = (uint8_t)((tos & ~ECN_MASK) | (s->tos & ECN_MASK));
		s->tos = tos;
		struct ip_pcb *pcb = ip_part(s);
		if (pcb)
			pcb->tos = tos;
		return 0;
	}
	case INET_OPT_KEEPIDLE:
	case INET_OPT_KEEPINTVL:
	case INET_OPT_KEEPCNT:
		return set_keepalive(s, rq->in[1], (int32_t)value);
	case INET_OPT_RCVTIMEO:
		s->rcvtimeo_ns = value;
		return 0;
	case INET_OPT_SNDTIMEO:
		s->sndtimeo_ns = value;
		return 0;
	case INET_OPT_LINGER:
		/* As Linux: l_onoff 0 leaves the time as it was. */
		s->linger_on = value & INET_LINGER_ON;
		if (s->linger_on)
			s->linger_s = (uint32_t)value;
		return 0;
	case INET_OPT_RCVBUF:
	case INET_OPT_SNDBUF: {
		/* Linux doubles the value asked for and keeps it within bounds. */
		uint64_t v = value > 0x7fffffff / 2 ? 0x7fffffff : value * 2;
		if (v < 2304)
			v = 2304;
		if (rq->in[1] == INET_OPT_RCVBUF)
			s->rcvbuf = (uint32_t)v;
		else
			s->sndbuf = (uint32_t)v;
		return 0;
	}
	default:
		return -ENOPROTOOPT;
	}
}

/* TCP_MAXSEG as Linux reads it: the connection's MSS, else what was set,
 * else the default. */
static uint64_t maxseg(const struct isock *s)
{
	if (s->tcp && s->connected)
		return s->tcp->mss;
	return s->user_mss ? s->user_mss : TCP_MSS_DEFAULT;
}

static uint64_t protocol_of(struct isock *s)
{
	if (s->type == INET_STREAM)
		return IPPROTO_TCP;
	if (s->type == INET_DGRAM)
		return IPPROTO_UDP;
	return s->raw_proto;
}

int64_t do_getopt(struct server_request *rq)
{
	struct isock *s = sock_get(rq->in[0]);
	if (!s)
		return -EBADF;
	uint64_t v;
	switch (rq->in[1]) {
	case INET_OPT_REUSEADDR: v = s->reuseaddr; break;
	case INET_OPT_REUSEPORT: v = s->reuseport; break;
	case INET_OPT_KEEPALIVE: v = s->keepalive; break;
	case INET_OPT_BROADCAST: v = s->broadcast; break;
	case INET_OPT_NODELAY:
		if (s->type != INET_STREAM)
			return -EOPNOTSUPP;   /* as Linux's ip_getsockopt for a level not IP's */
		v = s->nodelay;
		break;
	case INET_OPT_MAXSEG:
		if (s->type != INET_STREAM)
			return -EOPNOTSUPP;
		v = maxseg(s);
		break;
	case INET_OPT_TTL: v = (uint64_t)(s->ttl == -1 ? LINUX_DEFAULT_TTL : s->ttl); break;
	case INET_OPT_TOS: v = s->tos; break;
	case INET_OPT_KEEPIDLE:
	case INET_OPT_KEEPINTVL:
	case INET_OPT_KEEPCNT:
		if (s->type != INET_STREAM)
			return -EOPNOTSUPP;
		v = rq->in[1] == INET_OPT_KEEPIDLE ? (s->keepidle ? s->keepidle : KEEPIDLE_DEFAULT)
		  : rq->in[1] == INET_OPT_KEEPINTVL ? (s->keepintvl ? s->keepintvl : KEEPINTVL_DEFAULT)
		  : (s->keepcnt ? s->keepcnt : KEEPCNT_DEFAULT);
		break;
	case INET_OPT_RCVTIMEO: v = s->rcvtimeo_ns; break;
	case INET_OPT_SNDTIMEO: v = s->sndtimeo_ns; break;
	case INET_OPT_LINGER: v = (s->linger_on ? INET_LINGER_ON : 0) | s->linger_s; break;
	case INET_OPT_RCVBUF: v = s->rcvbuf; break;
	case INET_OPT_SNDBUF: v = s->sndbuf; break;
	case INET_OPT_ERROR: v = (uint64_t)s->err; s->err = 0; break;
	case INET_OPT_TYPE: v = s->type == INET_RAW ? 3u : s->type; break;   /* Linux's SOCK_RAW */
	case INET_OPT_PROTOCOL: v = protocol_of(s); break;
	case INET_OPT_ACCEPTCONN: v = s->listening; break;
	default: return -ENOPROTOOPT;
	}
	server_out(rq, 0, v);
	return 0;
}
