/*
 * The virtio-blk driver server: what its files share. main.c starts the
 * driver and runs the get() loop; table.c maps an opcode of the disk
 * protocol (include/myrmex/disk.h) to its handler; blk.c holds the
 * handlers, the requests in flight, completion and the one place that
 * replies. The driver is one thread: nothing needs a lock.
 */
#ifndef VIRTIO_BLK_DRIVER_H
#define VIRTIO_BLK_DRIVER_H

#include <stdint.h>
#include <myrmex.h>

/* A handler's status meaning "the request is parked: the reply comes
 * later" (when the device completes it). Never a real status. */
#define BLK_LATER INT64_MIN

/* One request taken by get(). The delivery is the kernel's trusted account
 * (caller, opcode, data ICAs and their sizes); the arguments are copied out
 * of the caller's frame once, when the request arrives, because a caller's
 * other threads may still write its control ICA. */
struct request {
	struct myrmex_delivery d;
	struct myrmex_frame *frame;   /* the frame being served, in the control ICA */
	uint64_t arg[3];              /* arg[0..2] as they were on arrival */
	/* Filled by the read and write handlers once the request is checked: */
	uint32_t type;                /* VIRTIO_BLK_T_* */
	uint32_t bytes;               /* data length */
	uint64_t data_phys;           /* physical address of the data ICA */
};

typedef long (*blk_handler)(struct request *rq);

/* table.c: the handler of opcode, or NULL (the caller replies -ENOSYS). */
blk_handler table_lookup(uint32_t opcode);

/* blk.c: handlers (status, or BLK_LATER). */
long do_read(struct request *rq);
long do_write(struct request *rq);
long do_info(struct request *rq);
long do_flush(struct request *rq);

/* blk.c: brings up the device given to this process (described by info):
 * transport, features, the request queue, capacity. 0 or -errno, after
 * saying why on stderr. */
int blk_init(const struct myrmex_pci_info *info);

/* blk.c: handles an interrupt delivery: reads the ISR status, replies to
 * every completed request, submits waiting ones, acknowledges the line. */
void blk_interrupt(void);

/* blk.c: writes status (and the data ICAs received) into the request's
 * frame and returns it with ret(). The one reply site. */
void blk_reply(struct request *rq, long status);

/* blk.c: one line about the disk, for the start-up message. */
void blk_describe(char *buf, unsigned long size);

/* main.c: "virtio_blk: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
