/*
 * ifconf.c - the interface ioctls of sockets (packet and inet alike), as
 * Linux answers them and busybox's ifconfig asks them: SIOCGIFCONF (the
 * list), and for one interface named in a struct ifreq SIOCGIFINDEX,
 * SIOCGIFFLAGS, SIOCGIFADDR, SIOCGIFNETMASK, SIOCGIFBRDADDR, SIOCGIFMTU,
 * SIOCGIFHWADDR, SIOCGIFMETRIC, SIOCGIFTXQLEN, SIOCGIFMAP. Two interfaces:
 * "lo" (index 1, 127.0.0.1/8) and "eth0" (index FS_SOCK_IFINDEX), whose
 * address comes from the TCP/IP server (INET_IFINFO) when it runs and whose
 * MAC from the Ethernet server. The kernel copies the struct ifreq (40
 * bytes) in and out through the data ICA (kernel/posix/sys_ioctl.c); for
 * SIOCGIFCONF the data ICA is the caller's buffer, and the status the bytes
 * filled (or, with no buffer, the bytes the list needs).
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <myrmex/inet.h>
#include <myrmex/net.h>

#define IFREQ 40u
#define SIOCADDRT      0x890b
#define SIOCDELRT      0x890c
#define SIOCGIFNAME    0x8910
#define SIOCGIFCONF    0x8912
#define SIOCGIFFLAGS   0x8913
#define SIOCGIFADDR    0x8915
#define SIOCGIFBRDADDR 0x8919
#define SIOCGIFNETMASK 0x891b
#define SIOCGIFMETRIC  0x891d
#define SIOCGIFMTU     0x8921
#define SIOCGIFHWADDR  0x8927
#define SIOCGIFINDEX   0x8933
#define SIOCGIFTXQLEN  0x8942
#define SIOCGIFMAP     0x8970
#define IFF_UP         0x1
#define IFF_BROADCAST  0x2
#define IFF_LOOPBACK   0x8
#define IFF_RUNNING    0x40
#define IFF_MULTICAST  0x1000
#define ARPHRD_ETHER    1
#define ARPHRD_LOOPBACK 772
#define AF_INET_ 2
#define LOOPBACK_ADDR 0x0100007fu   /* 127.0.0.1, network order */
#define LOOPBACK_MASK 0x000000ffu   /* 255.0.0.0 */

struct iface {
	const char *name;
	int32_t index;
	uint32_t addr, mask, flags, mtu;   /* addresses in network order */
	uint64_t mac;
	uint16_t hwtype;
};

/* What the TCP/IP server says of eth0, or only its MAC (no TCP/IP). */
static void eth0(struct iface *i)
{
	memset(i, 0, sizeof(*i));
	i->name = "eth0";
	i->index = FS_SOCK_IFINDEX;
	i->hwtype = ARPHRD_ETHER;
	i->mtu = NET_PAYLOAD_MAX;
	uint64_t res[8];
	if (inet_info(res) == 0) {
		i->addr = (uint32_t)res[0];
		i->mask = (uint32_t)res[1];
		i->mac = res[3];
		i->flags = (res[4] & INET_IF_UP ? IFF_UP : 0) | (res[4] & INET_IF_RUNNING ? IFF_RUNNING : 0) |
		           IFF_BROADCAST | IFF_MULTICAST;
		i->mtu = (uint32_t)res[5];
		return;
	}
	int64_t mac = socket_eth_mac();
	i->mac = mac > 0 ? (uint64_t)mac : 0;
	i->flags = mac > 0 ? IFF_UP | IFF_RUNNING | IFF_BROADCAST | IFF_MULTICAST : 0;
}

static void lo(struct iface *i)
{
	memset(i, 0, sizeof(*i));
	i->name = "lo";
	i->index = 1;
	i->addr = LOOPBACK_ADDR;
	i->mask = LOOPBACK_MASK;
	i->flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	i->mtu = 65536;
	i->hwtype = ARPHRD_LOOPBACK;
}

/* A struct sockaddr_in at p (16 bytes). */
static void put_sin(uint8_t *p, uint32_t addr)
{
	memset(p, 0, 16);
	uint16_t family = AF_INET_;
	memcpy(p, &family, 2);
	memcpy(p + 4, &addr, 4);
}

static void put_int(uint8_t *p, int32_t v)
{
	memset(p, 0, 24);
	memcpy(p, &v, 4);
}

static int64_t list(struct server_request *rq)
{
	struct iface all[2];
	lo(&all[0]);
	eth0(&all[1]);
	if (!rq->data)   /* the caller asks how much room the list needs */
		return 2 * IFREQ;
	uint64_t room = rq->data_size < SERVER_IN(rq, struct fs_ioctl_args)->value
	              ? rq->data_size : SERVER_IN(rq, struct fs_ioctl_args)->value;
	uint64_t used = 0;
	for (unsigned k = 0; k < 2 && used + IFREQ <= room; k++, used += IFREQ) {
		uint8_t *r = rq->data + used;
		memset(r, 0, IFREQ);
		strcpy((char *)r, all[k].name);
		put_sin(r + 16, all[k].addr);
	}
	return (int64_t)used;
}

int64_t ifconf_ioctl(struct server_request *rq, uint64_t request)
{
	if (request == SIOCGIFCONF)
		return list(rq);
	if (request == SIOCADDRT || request == SIOCDELRT)
		return route_ioctl(rq, request);   /* netroute.c */
	switch (request) {
	case SIOCGIFNAME: case SIOCGIFFLAGS: case SIOCGIFADDR: case SIOCGIFBRDADDR:
	case SIOCGIFNETMASK: case SIOCGIFMETRIC: case SIOCGIFMTU: case SIOCGIFHWADDR:
	case SIOCGIFINDEX: case SIOCGIFTXQLEN: case SIOCGIFMAP:
		break;
	default:
		return -ENOTTY;
	}
	if (!rq->data || rq->data_size < IFREQ)
		return -EINVAL;
	uint8_t *r = rq->data;
	struct iface i;
	if (request == SIOCGIFNAME) {   /* by index */
		int32_t index;
		memcpy(&index, r + 16, 4);
		if (index == 1)
			lo(&i);
		else if (index == FS_SOCK_IFINDEX)
			eth0(&i);
		else
			return -ENODEV;
		memset(r, 0, 16);
		strcpy((char *)r, i.name);
		return 0;
	}
	char name[17];
	memcpy(name, r, 16);
	name[16] = '\0';
	if (strcmp(name, "lo") == 0)
		lo(&i);
	else if (strcmp(name, "eth0") == 0)
		eth0(&i);
	else
		return -ENODEV;
	uint8_t *u = r + 16;
	switch (request) {
	case SIOCGIFFLAGS: {
		memset(u, 0, 24);
		uint16_t flags = (uint16_t)i.flags;
		memcpy(u, &flags, 2);
		return 0;
	}
	case SIOCGIFADDR:
		put_sin(u, i.addr);
		return 0;
	case SIOCGIFNETMASK:
		put_sin(u, i.mask);
		return 0;
	case SIOCGIFBRDADDR:
		put_sin(u, i.flags & IFF_LOOPBACK ? 0 : (i.addr | ~i.mask));
		return 0;
	case SIOCGIFMETRIC:
		put_int(u, 0);
		return 0;
	case SIOCGIFMTU:
		put_int(u, (int32_t)i.mtu);
		return 0;
	case SIOCGIFTXQLEN:
		put_int(u, 1000);   /* Linux's default queue length */
		return 0;
	case SIOCGIFINDEX:
		put_int(u, i.index);
		return 0;
	case SIOCGIFMAP:
		memset(u, 0, 24);   /* no memory window, IRQ or DMA channel to show */
		return 0;
	case SIOCGIFHWADDR:
		if (i.hwtype == ARPHRD_ETHER && !i.mac)
			return -ENODEV;   /* no Ethernet server: no address to show */
		memset(u, 0, 16);
		memcpy(u, &i.hwtype, 2);
		for (unsigned k = 0; k < 6; k++)
			u[2 + k] = (uint8_t)(i.mac >> (8 * k));
		return 0;
	}
	return -ENOTTY;
}
