/*
 * The virtio-blk driver server: what its files share. main.c starts the
 * driver and hands it to the server library (lib/libmyrmex/server.h);
 * table.c is the driver for the library: opcode of the disk protocol
 * (include/myrmex/disk.h) to handler, and the interrupt callback; blk.c
 * holds the handlers, the requests in flight and completion. The driver is one thread: nothing needs a lock.
 */
#ifndef VIRTIO_BLK_DRIVER_H
#define VIRTIO_BLK_DRIVER_H

#include <stdint.h>
#include <myrmex.h>
#include <server.h>

/* A request handed to the device, or waiting for descriptors: the
 * library's request (delivery, frame, arguments copied once on arrival)
 * and what the checks made of it. */
struct blk_request {
	struct server_request rq;
	uint32_t type;                /* VIRTIO_BLK_T_* */
	uint32_t bytes;               /* data length */
	uint64_t sector;              /* the first sector */
	uint64_t data_phys;           /* physical address of the transfer */
};

/* table.c: the driver for server_run (operations, the client check,
 * interrupt callback). */
extern const struct server blk_server;

/* blk.c: handlers (a status, or SERVER_LATER once given to the device). */
int64_t do_read(struct server_request *rq);
int64_t do_write(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_flush(struct server_request *rq);

/* blk.c: brings up the device given to this process (described by info):
 * transport, features, the request queue, capacity. 0 or -errno, after
 * saying why on stderr. */
int blk_init(const struct myrmex_pci_info *info);

/* blk.c: handles an interrupt delivery: reads the ISR status, replies to
 * every completed request (server_reply_later), submits waiting ones,
 * acknowledges the line. */
void blk_interrupt(uint32_t lines);

/* blk.c: one line about the disk, for the start-up message. */
void blk_describe(char *buf, unsigned long size);

/* main.c: "virtio_blk: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
