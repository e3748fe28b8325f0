/*
 * procnet.c - /proc/net: the files busybox's route, netstat and ifconfig
 * read, in Linux's formats (route: fib_route_seq_show; dev:
 * dev_seq_printf_stats; tcp, udp, raw: their seq_show functions, the
 * fields lwIP has, zeros for the timers, uid and inode it has not). The
 * facts come from the TCP/IP server (INET_NETINFO and INET_IFINFO,
 * include/myrmex/inet.h) at each open, in one synchronous call on ICAs of
 * our own (the server never calls us). Without a TCP/IP server the
 * directory is there with no routes, no sockets and lo's counters at 0.
 *
 * tcp6, udp6 and raw6 exist with their headers only (no IPv6): busybox's
 * netstat reads them and complains when they are missing.
 */
#include "fileman.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <myrmex/inet.h>
#include <myrmex/procfs.h>

#define TEXT_MAX 20000u           /* 160 pcbs of 150 bytes and the header */
#define RTF_UP 0x1
#define RTF_GATEWAY 0x2
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17

static char text[TEXT_MAX];
static int used;
static struct myrmex_ctl_header *ctl;
static uint32_t data_handle;

/* Appends like printf; text stays terminated and never overflows. */
__attribute__((format(printf, 1, 2)))
static void put(const char *fmt, ...)
{
	if (used >= (int)TEXT_MAX - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text + used, TEXT_MAX - (size_t)used, fmt, ap);
	va_end(ap);
	used += n < 0 ? 0 : n;
	if (used > (int)TEXT_MAX - 1)
		used = (int)TEXT_MAX - 1;
}

/* The last line padded with spaces to width characters, then '\n' (as
 * Linux's seq_setwidth and seq_pad). */
static void pad_line(int start, int width)
{
	while (used - start < width)
		put(" ");
	put("\n");
}

/* INET_NETINFO into *ni: 0 or -errno (-ENETDOWN: no TCP/IP server). */
static int ask_netinfo(struct inet_netinfo **ni)
{
	if (!ctl) {
		long c = myrmex_ica_alloc(1), d = myrmex_ica_alloc(1);
		if (c < 0 || d < 0)
			return -ENOMEM;
		ctl = myrmex_ica_addr((uint32_t)c);
		data_handle = (uint32_t)d;
	}
	myrmex_ctl_init(ctl);
	struct myrmex_frame *f = myrmex_ctl_push(ctl, 1, MYRMEX_COREID_INET, INET_NETINFO);
	if (!f)
		return -EIO;
	f->ndata = 1;
	f->data[0] = data_handle;
	long r = myrmex_callsync(ctl);
	if (r < 0)
		return -ENETDOWN;
	const struct myrmex_frame *res = myrmex_ctl_result(ctl);
	if (!res || res->status < (int64_t)sizeof(**ni))
		return -ENETDOWN;
	*ni = myrmex_ica_addr(data_handle);
	if ((*ni)->npcbs > INET_NETINFO_PCBS)
		return -EIO;
	return 0;
}

static void route_file(const struct inet_netinfo *ni)
{
	int start = used;
	put("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT");
	pad_line(start, 127);
	uint64_t info[8];
	if (!ni || inet_info(info) < 0)
		return;
	uint32_t addr = (uint32_t)info[0], mask = (uint32_t)info[1];
	if (ni->gateway) {
		start = used;
		put("eth0\t%08X\t%08X\t%04X\t0\t0\t0\t%08X\t0\t0\t0", 0u, ni->gateway, RTF_UP | RTF_GATEWAY, 0u);
		pad_line(start, 127);
	}
	if (addr) {
		start = used;
		put("eth0\t%08X\t%08X\t%04X\t0\t0\t0\t%08X\t0\t0\t0", addr & mask, 0u, RTF_UP, mask);
		pad_line(start, 127);
	}
}

static void dev_line(const char *name, const struct inet_ifcount *c)
{
	put("%6s: %7llu %7llu %4llu %4llu %4llu %5llu %10llu %9llu %8llu %7llu %4llu %4llu %4llu %5llu %7llu %10llu\n",
	    name, (unsigned long long)c->rx_bytes, (unsigned long long)c->rx_packets, 0ull,
	    (unsigned long long)c->rx_drops, 0ull, 0ull, 0ull, 0ull, (unsigned long long)c->tx_bytes,
	    (unsigned long long)c->tx_packets, 0ull, (unsigned long long)c->tx_drops, 0ull, 0ull, 0ull, 0ull);
}

static void dev_file(const struct inet_netinfo *ni)
{
	put("Inter-|   Receive                                                |  Transmit\n");
	put(" face |bytes    packets errs drop fifo frame compressed multicast|"
	    "bytes    packets errs drop fifo colls carrier compressed\n");
	static const struct inet_ifcount none;
	dev_line("lo", ni ? &ni->lo : &none);
	dev_line("eth0", ni ? &ni->eth : &none);
}

/* tcp (proto 6), udp (17) or raw (any other): Linux's lines. */
static void socket_file(const struct inet_netinfo *ni, unsigned proto)
{
	int start = used;
	bool tcp = proto == IPPROTO_TCP;
	put(tcp ? "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"
	        : "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops");
	pad_line(start, tcp ? 149 : 127);
	int row = 0;
	for (uint32_t i = 0; ni && i < ni->npcbs; i++) {
		const struct inet_pcbinfo *p = &ni->pcbs[i];
		bool mine = proto == IPPROTO_TCP || proto == IPPROTO_UDP ? p->proto == proto
		          : p->proto != IPPROTO_TCP && p->proto != IPPROTO_UDP;
		if (!mine)
			continue;
		start = used;
		if (tcp)
			put("%4d: %08X:%04X %08X:%04X %02X %08X:%08X 00:00000000 00000000     0        0 0 1 "
			    "0000000000000000 20 4 0 10 -1", row++, p->local_addr, p->local_port, p->remote_addr,
			    p->remote_port, p->state, p->tx_queue, p->rx_queue);
		else
			put("%5d: %08X:%04X %08X:%04X %02X %08X:%08X 00:00000000 00000000     0        0 0 2 "
			    "0000000000000000 0", row++, p->local_addr, p->local_port, p->remote_addr,
			    p->remote_port, p->state, p->tx_queue, p->rx_queue);
		pad_line(start, tcp ? 149 : 127);
	}
}

static const char *const names[] = { "dev", "raw", "raw6", "route", "tcp", "tcp6", "udp", "udp6" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

int procnet_answer(const char *rest, const char **bytes, uint32_t *len, uint32_t *type, uint64_t *ino)
{
	if (strncmp(rest, "net", 3) != 0 || (rest[3] != '\0' && rest[3] != '/'))
		return 1;
	used = 0;
	text[0] = '\0';
	*bytes = text;
	*ino = 0x7000;
	if (rest[3] == '\0' || rest[4] == '\0') {   /* the directory */
		for (unsigned i = 0; i < NNAMES; i++)
			put("%s f\n", names[i]);
		*type = PROCFS_DIR;
		*len = (uint32_t)used;
		return 0;
	}
	const char *name = rest + 4;
	unsigned which = NNAMES;
	for (unsigned i = 0; i < NNAMES; i++)
		if (strcmp(name, names[i]) == 0)
			which = i;
	if (which == NNAMES)
		return -ENOENT;
	struct inet_netinfo *ni = NULL;
	if (ask_netinfo(&ni) < 0)
		ni = NULL;
	const char *n = names[which];
	if (strcmp(n, "route") == 0)
		route_file(ni);
	else if (strcmp(n, "dev") == 0)
		dev_file(ni);
	else if (strcmp(n, "tcp") == 0)
		socket_file(ni, IPPROTO_TCP);
	else if (strcmp(n, "udp") == 0)
		socket_file(ni, IPPROTO_UDP);
	else if (strcmp(n, "raw") == 0)
		socket_file(ni, 0);
	else if (strcmp(n, "tcp6") == 0)
		socket_file(NULL, IPPROTO_TCP);
	else
		socket_file(NULL, IPPROTO_UDP);   /* udp6, raw6: the header alone */
	*type = PROCFS_FILE;
	*ino = 0x7001 + which;
	*len = (uint32_t)used;
	return 0;
}
