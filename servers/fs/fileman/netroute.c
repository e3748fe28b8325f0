/*
 * netroute.c - the routing ioctls busybox's route makes, SIOCADDRT and
 * SIOCDELRT (a struct rtentry, 120 bytes on x86-64, copied in by the
 * kernel), on packet and inet sockets alike, as Linux's ip_rt_ioctl.
 *
 * lwIP has no routing table: the Ethernet interface has one gateway, and
 * every other destination is on an interface's own network. So the
 * default route is the gateway (INET_ROUTE, include/myrmex/inet.h): added
 * when there is none (else EEXIST), with a gateway on eth0's network (else
 * ENETUNREACH), deleted when there is one (else ESRCH). eth0's network
 * route always exists (adding it: EEXIST; deleting it: EINVAL, lwIP cannot
 * be without it); any other route is EINVAL (not built; docs/net.md).
 * rt_dev, a pointer into the caller's memory, is not followed.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <myrmex/inet.h>

#define SIOCADDRT 0x890b
#define SIOCDELRT 0x890c
#define RTENTRY 120u
#define AT_DST 8u                 /* struct sockaddr rt_dst */
#define AT_GATEWAY 24u
#define AT_GENMASK 40u
#define AT_FLAGS 56u
#define SIN_ADDR 4u               /* sin_addr within a struct sockaddr */
#define AF_INET_ 2u
#define RTF_GATEWAY 0x2
#define RTF_HOST 0x4

static uint16_t family_at(const uint8_t *r, unsigned at)
{
	uint16_t f;
	memcpy(&f, r + at, 2);
	return f;
}

static uint32_t addr_at(const uint8_t *r, unsigned at)
{
	uint32_t a;
	memcpy(&a, r + at + SIN_ADDR, 4);
	return a;
}

int64_t route_ioctl(struct server_request *rq, uint64_t request)
{
	if (request_cred(rq).uid != 0)
		return -EPERM;   /* Linux: CAP_NET_ADMIN */
	if (!rq->data || rq->data_size < RTENTRY)
		return -EINVAL;
	const uint8_t *r = rq->data;
	uint16_t flags;
	memcpy(&flags, r + AT_FLAGS, 2);
	if (family_at(r, AT_DST) != AF_INET_)
		return -EAFNOSUPPORT;
	uint32_t dst = addr_at(r, AT_DST);
	uint32_t mask = flags & RTF_HOST ? 0xffffffffu
	              : family_at(r, AT_GENMASK) == AF_INET_ ? addr_at(r, AT_GENMASK) : 0;
	if (dst & ~mask)
		return -EINVAL;   /* Linux's bad_mask */
	bool gateway = (flags & RTF_GATEWAY) && family_at(r, AT_GATEWAY) == AF_INET_;
	uint64_t res[8];
	if (dst == 0 && mask == 0) {   /* the default route */
		if (request == SIOCADDRT && !gateway)
			return -EINVAL;   /* a default route without a gateway is not built */
		uint64_t op = request == SIOCADDRT ? INET_ROUTE_ADD : INET_ROUTE_DEL;
		int64_t rc = inet_ask(INET_ROUTE, op, gateway ? addr_at(r, AT_GATEWAY) : 0, NULL);
		return rc == -ENETDOWN ? -ENETUNREACH : rc;
	}
	/* eth0's own network, which always exists. */
	bool own = inet_info(res) == 0 && (uint32_t)res[0] &&
	           mask == (uint32_t)res[1] && dst == ((uint32_t)res[0] & (uint32_t)res[1]);
	if (request == SIOCADDRT)
		return own ? -EEXIST : -EINVAL;
	return own ? -EINVAL : -ESRCH;
}
