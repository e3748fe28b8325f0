/*
 * lwIP's configuration for the TCP/IP server (servers/net/tcpip): NO_SYS
 * (one thread, the raw API, no lwIP threads or semaphores), IPv4 with ARP,
 * ICMP, UDP, TCP (window scaling, SACK out, a window large enough for bulk
 * transfer), DHCP, a loopback interface, memory in static pools. lwIP is
 * Debian's source package, built at build time (tools/build_lwip.py);
 * nothing of it is kept in the repository.
 */
#ifndef MYRMEX_LWIPOPTS_H
#define MYRMEX_LWIPOPTS_H

#define NO_SYS                     1
#define LWIP_TIMERS                1
#define SYS_LIGHTWEIGHT_PROT       0
#define LWIP_NETCONN               0
#define LWIP_SOCKET                0

/* lwIP's own heap and pools, static (in the server's BSS): memory that
 * stays mapped once touched, where musl's malloc gave freed buffers back to
 * the kernel and faulted them in again (0.59 page faults per KB of bulk
 * TCP, docs/benchmarks.md). */
#define MEM_LIBC_MALLOC            0
#define MEMP_MEM_MALLOC            0
#define MEM_SIZE                   (4 * 1024 * 1024)
#define MEM_ALIGNMENT              8
#define MEMP_NUM_PBUF              256
#define MEMP_NUM_REASSDATA         8
#define IP_REASS_MAX_PBUFS         32
#define MEMP_NUM_FRAG_PBUF         32
#define MEMP_NUM_ARP_QUEUE         64

#define IP_DEFAULT_TTL             64   /* Linux's default (IP_TTL reads it) */
#define LWIP_IPV4                  1
#define LWIP_IPV6                  0
#define LWIP_ARP                   1
#define LWIP_ETHERNET              1
#define LWIP_ICMP                  1
#define LWIP_RAW                   1
#define LWIP_UDP                   1
#define LWIP_TCP                   1
#define LWIP_DHCP                  1
#define LWIP_DNS                   0
#define LWIP_IGMP                  0
#define LWIP_HAVE_LOOPIF           1
#define LWIP_NETIF_LOOPBACK        1
#define LWIP_LOOPBACK_MAX_PBUFS    64
#define IP_REASSEMBLY              1
#define IP_FRAG                    1
#define LWIP_NETIF_STATUS_CALLBACK 1
#define LWIP_NETIF_LINK_CALLBACK   1
#define SO_REUSE                   1

/* TCP: a 1460-byte MSS (Ethernet), a 256 KiB receive window through
 * window scaling, SACK sent, a send buffer to match. */
#define TCP_MSS                    1460
#define LWIP_WND_SCALE             1
#define TCP_RCV_SCALE              3
#define TCP_WND                    (180 * TCP_MSS)
#define TCP_SND_BUF                (128 * 1024)
#define TCP_SND_QUEUELEN           512
#define TCP_SNDLOWAT               (4 * TCP_MSS)
#define TCP_OVERSIZE               TCP_MSS
#define LWIP_TCP_SACK_OUT          1
#define LWIP_TCP_MAX_SACK_NUM      4
#define TCP_LISTEN_BACKLOG         1
#define TCP_DEFAULT_LISTEN_BACKLOG 16
#define LWIP_TCP_KEEPALIVE         1
#define TCP_QUEUE_OOSEQ            1
#define MEMP_NUM_TCP_PCB           64
#define MEMP_NUM_TCP_PCB_LISTEN    16
#define MEMP_NUM_UDP_PCB           32
#define MEMP_NUM_RAW_PCB           8
#define PBUF_POOL_SIZE             256
#define MEMP_NUM_TCP_SEG           1024
#define ARP_TABLE_SIZE             16
#define ARP_QUEUEING               1

#define LWIP_CHECKSUM_ON_COPY      0
/* The Internet checksum: the server's own, eight bytes per addition
 * (servers/net/tcpip/chksum.c), in place of lwIP's portable one. */
#include <stdint.h>
uint16_t tcpip_chksum(const void *dataptr, int len);
#define LWIP_CHKSUM                tcpip_chksum
#define LWIP_STATS                 0
#define LWIP_PROVIDE_ERRNO         0
#define LWIP_ERRNO_STDINCLUDE      1
#define LWIP_RAND()                ((u32_t)tcpip_random())

unsigned int tcpip_random(void);

#endif
