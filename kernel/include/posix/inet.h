/*
 * Internet sockets in the Linux personality (posix/sys_inet.c): what the
 * socket calls of posix/sys_socket.c hand over when the family is AF_INET,
 * and Linux's struct sockaddr_in.
 */
#ifndef POSIX_INET_H
#define POSIX_INET_H

#include <kernel/types.h>

#define AF_UNSPEC 0
#define AF_INET   2
#define SOCKADDR_MAX 128u    /* sizeof(struct sockaddr_storage): Linux's bound on a length */

/* Linux's struct sockaddr_in (16 bytes); port and address in network order. */
struct sockaddr_in {
	uint16_t sin_family;
	uint16_t sin_port;
	uint32_t sin_addr;
	uint8_t sin_zero[8];
};
_Static_assert(sizeof(struct sockaddr_in) == 16, "Linux's sockaddr_in");

/* socket(AF_INET, type, protocol). */
long inet_socket(uint64_t type, uint64_t protocol);
/* Reads a sockaddr_in of len bytes at addr: 0, -EINVAL or -EFAULT. */
long inet_read_address(uptr_t addr, uint64_t len, struct sockaddr_in *sin);
long inet_bind(uint64_t fd, const struct sockaddr_in *sin);
/* send/sendto on an inet socket (to: NULL for none): bytes sent or -errno;
 * SIGPIPE on a dead connection unless MSG_NOSIGNAL. */
long inet_sendto(uint64_t fd, uptr_t buf, uint64_t len, uint64_t flags, const struct sockaddr_in *to);
/* recvfrom's source address from an inet answer's result words (none for
 * a stream: the length written is 0). 0 or -EFAULT. */
long inet_put_address(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8]);

#define PACKET_FRAME_MAX 1514u   /* a packet socket's longest send */

/* posix/sys_socket.c: a packet socket's destination (sockaddr_ll) as a
 * send takes it, for sendmsg. */
struct packet_dest {
	uint64_t mac;            /* byte i in bits 8i.. */
	uint64_t protocol;       /* host order; 0: the socket's */
};
/* Reads and checks a sockaddr_ll of len bytes at addr as sendto does: 0
 * or -errno. */
long packet_read_dest(uptr_t addr, uint64_t len, struct packet_dest *d);
/* recvfrom's sockaddr_ll from a packet answer's result words (room bytes
 * at addr, the whole length at alenp). 0 or -EFAULT. */
long packet_put_address(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8]);
/* getsockname's sockaddr_ll from the file manager's answer (words 0..3:
 * protocol, ifindex, MAC, bound), Linux's length (12 + the address's). 0
 * or -EFAULT. */
long packet_write_name(uptr_t addr, uptr_t alenp, int32_t room, const uint64_t res[8]);

#endif
