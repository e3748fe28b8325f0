/*
 * netdrv: the protocol half both NIC driver servers share (virtio_net and
 * rtl8139; include/myrmex/net.h, coreid 7, docs/net.md). Not a server: a
 * driver links it by naming servers/lib/netdrv in its main.c's
 * server-libraries line.
 *
 * The library holds the network protocol's handlers (NET_SEND's checks,
 * NET_RECV, NET_INFO, NET_STATS and NET_STATS_MORE), the server table, the
 * counters, the log helper and the receive side's bookkeeping: receive
 * requests waiting for a frame (parked, oldest first, at most
 * NET_RECV_PARKED_MAX) and frames waiting for a receive (queued, oldest
 * first, at most NET_RX_QUEUE_MAX), each frame in a one-page ICA that goes
 * to its receiver. The driver keeps its device: it defines `netdrv` and the
 * nic_* functions below, and hands every good frame, already in an ICA, to
 * netdrv_frame. One thread: nothing needs a lock.
 */
#ifndef NETDRV_H
#define NETDRV_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/net.h>
#include <server.h>

/* What the driver tells the library; each driver defines one. */
struct netdrv {
	const char *name;       /* the server's name, every log line's prefix */
	uint32_t rx_offset;     /* where a received frame starts in its ICA */
	/* Claim the control ICA before every receive's answer (true), or only
	 * when the ICA going back is not the one the receive lent (false).
	 * Returning an ICA the caller did not lend needs the control ICA to
	 * be ours alone (docs/ipc.md, ret). */
	bool claim_always;
};
extern const struct netdrv netdrv;

/* The counters NET_STATS answers with; the driver counts into them.
 * net_more stays all 0 for a driver that counts nothing there. */
extern struct net_stats net_counters;
extern struct net_stats_more net_more;

/* A send on its way to the device: its request (answered once the device
 * has read the frame) and the frame's place in memory. */
struct netdrv_send {
	struct server_request rq;
	uint64_t phys;
	uint32_t length;
};

/* Sends waiting for room in the device, oldest first (-EAGAIN beyond). */
#define NETDRV_TX_PENDING_MAX 64

/* ---- what the driver implements ---- */

/* MAC (byte i in bits 8i..) and link state (NET_LINK_UP or 0), as NET_INFO
 * gives them; the device in one line for the start-up log. */
uint64_t nic_mac(void);
uint64_t nic_link(void);
void nic_describe(char *buf, unsigned long size);
/* A checked send: the frame of rq is length bytes at offset in the data
 * ICA whose (contiguous) memory starts at phys. SERVER_LATER (rq answered
 * at completion) or -errno; a refusal of the device's own (such as an
 * address it cannot reach) counts tx_errors itself. */
int64_t nic_send(const struct server_request *rq, uint64_t phys, uint64_t offset,
                 uint32_t length);
/* Hands s to the device: 0, or -EAGAIN when it has no room now (the
 * library keeps s waiting and offers it again in netdrv_send_pending). */
int nic_submit(const struct netdrv_send *s);
/* A receive lent its one-page ICA handle (mapped here); taking_queued: it
 * takes a queued frame at once (otherwise it parks, with handle). 0, or
 * -errno with which the receive is refused. */
int nic_rx_lent(uint32_t handle, bool taking_queued);
/* A receive has just taken a queued frame: the queue has room again. */
void nic_rx_resume(void);
/* The interrupt callback (the server library's). */
void nic_interrupt(uint32_t lines);

/* ---- what the library gives ---- */

/* For nic_send: gives s to the device, or keeps it behind the sends
 * already waiting. SERVER_LATER, or -EAGAIN when NETDRV_TX_PENDING_MAX wait. */
int64_t netdrv_send(const struct netdrv_send *s);
/* Offers the waiting sends to the device, oldest first, while it takes
 * them (after a completion or a reset freed room). */
void netdrv_send_pending(void);

/* A good frame of length bytes in ICA handle (at netdrv.rx_offset): given
 * to the oldest parked receive (which gets handle in its answer), else
 * queued. false, nothing done, when neither can take it. */
bool netdrv_frame(uint32_t handle, uint32_t length);
/* The ICA the oldest parked receive lent (mapped), or -1 when none waits:
 * the frame netdrv_frame gives next goes to that receive. */
long netdrv_parked_ica(void);
/* True when no more frames can be queued. */
bool netdrv_queue_full(void);
/* Once the device is up: registers MYRMEX_COREID_NIC, logs "device
 * <index>: <nic_describe>" and serves the protocol forever (server_run
 * with the library's table). Returns only when the registration fails:
 * 1, the driver's exit status, after saying why. */
int netdrv_serve(int index);

/* "<netdrv.name>: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
