/*
 * socket, bind, sendto and recvfrom for POSIX processes: the family
 * decides. Internet sockets (AF_INET) go to posix/sys_inet.c. Linux packet
 * sockets (AF_PACKET, SOCK_RAW and SOCK_DGRAM) are here, forwarded to the
 * file manager (FS_SOCKET, FS_BIND, FS_SENDTO, FS_RECVFROM), which keeps
 * the socket as a descriptor and talks to the Ethernet server (docs/net.md,
 * "AF_PACKET sockets"). Here: Linux's checks of the family, type,
 * addresses, lengths and pointers, in Linux's order, before any IPC; and
 * the copies between user memory and the channel's data ICA, where a sent
 * payload goes behind 14 bytes of headroom for the Ethernet header. A
 * receive's answer says whose it is (FS_RESULT_FAMILY), so recvfrom writes
 * the right address without knowing the descriptor. A packet socket needs
 * CAP_NET_RAW, which here is an effective uid of 0 (as root has it on
 * Linux): anyone else gets EPERM.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <posix/inet.h>

#define AF_PACKET     17
#define SOCK_TYPE_MASK 0xf
#define SOCK_NONBLOCK 04000
#define SOCK_CLOEXEC  02000000
#define MSG_TRUNC     0x20
#define MSG_DONTWAIT  0x40
#define MSG_PEEK      0x2
#define MSG_WAITALL   0x100
#define ETH_HLEN      14u
#define ETH_FRAME_MAX 1514u
#define ARPHRD_ETHER  1

/* Linux's struct sockaddr_ll (20 bytes). */
struct sockaddr_ll {
	uint16_t sll_family;
	uint16_t sll_protocol;   /* network byte order */
	int32_t sll_ifindex;
	uint16_t sll_hatype;
	uint8_t sll_pkttype;
	uint8_t sll_halen;
	uint8_t sll_addr[8];
};
_Static_assert(sizeof(struct sockaddr_ll) == 20, "Linux's sockaddr_ll");
#define SLL_ADDR_AT 12u      /* offsetof(struct sockaddr_ll, sll_addr) */

static uint16_t swap16(uint16_t v)
{
	return (uint16_t)(v << 8 | v >> 8);
}

long sys_socket(const struct syscall_args *a)
{
	uint64_t domain = a->arg[0], type = a->arg[1], protocol = a->arg[2];
	if (type & ~(uint64_t)(SOCK_TYPE_MASK | SOCK_NONBLOCK | SOCK_CLOEXEC))
		return -EINVAL;
	if (domain == AF_INET)
		return inet_socket(type, protocol);
	if (domain != AF_PACKET)
		return -EAFNOSUPPORT;   /* no IPv6, no local sockets */
	const struct posix_process *px = current_thread()->proc->px;
	if (px && px->cred.euid != 0)
		return -EPERM;   /* Linux's packet_create: no CAP_NET_RAW */
	if ((int32_t)protocol < 0 || protocol > 0xffff)
		return -EINVAL;
	/* SOCK_NONBLOCK and SOCK_CLOEXEC are O_NONBLOCK and O_CLOEXEC. */
	return posix_fs_call(FS_SOCKET, type & SOCK_TYPE_MASK, swap16((uint16_t)protocol),
	                     type & (SOCK_NONBLOCK | SOCK_CLOEXEC), NULL);
}

/* Reads a sockaddr_ll of len bytes at addr, as Linux's move_addr_to_kernel
 * and packet_bind/packet_snd check it. */
static long read_address(uptr_t addr, uint64_t len, struct sockaddr_ll *sll)
{
	if ((int32_t)len < 0 || len > SOCKADDR_MAX)
		return -EINVAL;
	memset(sll, 0, sizeof(*sll));
	if (len && copy_from_user(sll, addr, MIN(len, (uint64_t)sizeof(*sll))) < 0)
		return -EFAULT;
	if (len < sizeof(*sll))
		return -EINVAL;
	return 0;
}

long sys_bind(const struct syscall_args *a)
{
	uint16_t family = 0;
	if ((int32_t)a->arg[2] >= (int32_t)sizeof(family) &&
	    copy_from_user(&family, a->arg[1], sizeof(family)) < 0)
		return -EFAULT;
	if (family == AF_INET) {
		struct sockaddr_in sin;
		long r = inet_read_address(a->arg[1], a->arg[2], &sin);
		return r < 0 ? r : inet_bind(a->arg[0], &sin);
	}
	struct sockaddr_ll sll;
	long r = read_address(a->arg[1], a->arg[2], &sll);
	if (r < 0)
		return r;
	if (sll.sll_family != AF_PACKET)
		return -EINVAL;
	if (sll.sll_ifindex < 0)
		return -ENODEV;
	return posix_fs_call(FS_BIND, a->arg[0], (uint64_t)sll.sll_ifindex,
	                     swap16(sll.sll_protocol), NULL);
}

static uint64_t mac_word(const uint8_t *p)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)p[i] << (8 * i);
	return mac;
}

long packet_read_dest(uptr_t addr, uint64_t len, struct packet_dest *d)
{
	struct sockaddr_ll sll;
	long r = read_address(addr, len, &sll);
	if (r < 0)
		return r;
	if (len < SLL_ADDR_AT + sll.sll_halen)
		return -EINVAL;
	if (sll.sll_ifindex != 0 && sll.sll_ifindex != (int32_t)FS_SOCK_IFINDEX)
		return -ENXIO;
	d->mac = mac_word(sll.sll_addr);
	d->protocol = swap16(sll.sll_protocol);
	return 0;
}

long packet_put_address(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8])
{
	const struct fs_recvfrom_result *rr = (const struct fs_recvfrom_result *)res;
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = swap16((uint16_t)rr->protocol),
		.sll_ifindex = (int32_t)FS_SOCK_IFINDEX,
		.sll_hatype = ARPHRD_ETHER,
		.sll_pkttype = (uint8_t)rr->pkttype,
		.sll_halen = 6,
	};
	for (unsigned i = 0; i < 6; i++)
		sll.sll_addr[i] = (uint8_t)(rr->mac >> (8 * i));
	int32_t full = (int32_t)sizeof(sll);
	if (copy_to_user(addr, &sll, MIN((uint64_t)room, (uint64_t)sizeof(sll))) < 0 ||
	    copy_to_user(alenp, &full, sizeof(full)) < 0)
		return -EFAULT;
	return 0;
}

long packet_write_name(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8])
{
	bool bound = res[3] != 0;
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = swap16((uint16_t)res[0]),
		.sll_ifindex = (int32_t)res[1],
		.sll_hatype = bound ? ARPHRD_ETHER : 0,   /* Linux: no device, no type */
		.sll_halen = bound ? 6 : 0,
	};
	for (unsigned i = 0; bound && i < 6; i++)
		sll.sll_addr[i] = (uint8_t)(res[2] >> (8 * i));
	int32_t full = (int32_t)(SLL_ADDR_AT + sll.sll_halen);
	if (copy_to_user(addr, &sll, MIN((uint64_t)room, (uint64_t)full)) < 0 ||
	    copy_to_user(alenp, &full, sizeof(full)) < 0)
		return -EFAULT;
	return 0;
}

long sys_sendto(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], len = a->arg[2];
	uptr_t buf = a->arg[1], addr = a->arg[4];
	bool addressed = addr != 0;
	uint16_t family = 0;
	if (addressed && (int32_t)a->arg[5] >= (int32_t)sizeof(family) &&
	    copy_from_user(&family, addr, sizeof(family)) < 0)
		return -EFAULT;
	if (family == AF_INET) {
		struct sockaddr_in sin;
		long r = inet_read_address(addr, a->arg[5], &sin);
		if (r < 0)
			return r;
		if (!user_range_ok(buf, len))
			return -EFAULT;
		return inet_sendto(fd, buf, len, a->arg[3], &sin);
	}
	if (!addressed) {
		/* The descriptor's kind decides in the file manager; an inet
		 * socket's send may be longer than a frame. */
		if (!user_range_ok(buf, len))
			return -EFAULT;
		return inet_sendto(fd, buf, len, a->arg[3], NULL);
	}
	struct packet_dest dest;
	long r = packet_read_dest(addr, a->arg[5], &dest);
	if (r < 0)
		return r;
	if (len > ETH_FRAME_MAX)
		return -EMSGSIZE;   /* over the MTU with or without a header */
	if (!user_range_ok(buf, len))
		return -EFAULT;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_SENDTO, ETH_HLEN + (uint32_t)len);
	if (err)
		return err;
	/* Behind the header's room (a raw frame too: the Ethernet server
	 * writes its header over the room behind it, and the payload follows). */
	if (len && copy_from_user((uint8_t *)forward_data(&f) + ETH_HLEN, buf, len) < 0)
		return -EFAULT;
	f.arg[0] = fd;
	f.arg[1] = len;
	f.arg[2] = dest.mac;
	f.arg[3] = dest.protocol;
	f.arg[4] = 1;
	r = forward_call(&f);
	return r < 0 ? r : (long)len;
}

long sys_recvfrom(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], len = a->arg[2], flags = a->arg[3];
	uptr_t buf = a->arg[1], addr = a->arg[4], alenp = a->arg[5];
	if ((int64_t)len < 0)
		len = FORWARD_LARGE_BYTES;   /* Linux takes a size_t: huge asks get what there is */
	uint32_t want = (uint32_t)MIN(len, (uint64_t)FORWARD_LARGE_BYTES);
	if (!user_range_ok(buf, want))
		return -EFAULT;
	int32_t alen = 0;
	if (addr && alenp) {
		if (copy_from_user(&alen, alenp, sizeof(alen)) < 0)
			return -EFAULT;
		if (alen < 0)
			return -EINVAL;
	}
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_RECVFROM, want ? want : 1);
	if (err)
		return err;
	f.arg[0] = fd;
	f.arg[1] = want;
	f.arg[2] = (flags & MSG_DONTWAIT) != 0;
	f.arg[3] = (flags & MSG_PEEK) != 0;
	f.arg[4] = (flags & MSG_WAITALL) != 0;   /* inet streams (fs_recvfrom_args) */
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if ((uint64_t)r > want || !f.data)
		return -EIO;
	if (r > 0 && copy_to_user(buf, forward_data(&f), (uint64_t)r) < 0)
		return -EFAULT;
	const struct fs_recvfrom_result *res = (const struct fs_recvfrom_result *)f.res;
	if (f.res[FS_RESULT_FAMILY] != FS_FAMILY_PACKET) {
		if (addr && alenp && inet_put_address(addr, alenp, alen, f.res) < 0)
			return -EFAULT;
		return flags & MSG_TRUNC ? (long)res->full : r;
	}
	if (addr && alenp && packet_put_address(addr, alenp, alen, f.res) < 0)
		return -EFAULT;
	return flags & MSG_TRUNC ? (long)res->full : r;
}
