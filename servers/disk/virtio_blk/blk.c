/*
 * virtio-blk request handling: checks each request of the disk protocol
 * (include/myrmex/disk.h) before anything reaches the device, turns reads
 * and writes into three-descriptor chains (request header, the caller's
 * data ICA by physical address, status byte), keeps them in a table keyed
 * by the chain's head descriptor while the device works, and replies when
 * the completion interrupt shows them on the used ring. Many requests are
 * in flight at once; none is waited for.
 *
 * Memory: the rings in one ICA (virtqueue.c); the request headers and
 * status bytes in another, slot i belonging to the chain whose head is
 * descriptor i. The data is never copied: the device reads or writes the
 * caller's data ICA, which this process holds (attached or parked) from
 * get() until ret().
 */
#include "driver.h"
#include "../../lib/virtio/virtio_pci.h"
#include "../../lib/virtio/virtqueue.h"

#include <errno.h>
#include <stdio.h>
#include <myrmex/disk.h>

/* Block device feature bits and request format (virtio 1.x, "Block Device"). */
#define VIRTIO_BLK_F_RO       (1ull << 5)
#define VIRTIO_BLK_F_BLK_SIZE (1ull << 6)
#define VIRTIO_BLK_F_FLUSH    (1ull << 9)
#define VIRTIO_BLK_CFG_CAPACITY 0      /* le64, in 512-byte sectors */
#define VIRTIO_BLK_CFG_BLK_SIZE 20     /* le32 */
#define VIRTIO_BLK_T_IN    0u
#define VIRTIO_BLK_T_OUT   1u
#define VIRTIO_BLK_T_FLUSH 4u
#define VIRTIO_BLK_S_OK    0u
#define STATUS_UNWRITTEN   0xffu       /* not a device status: the device never wrote it */

#define REQUEST_QUEUE 0
#define PAGE_SIZE 4096u
#define PENDING_MAX 64                 /* requests waiting for descriptors */

struct blk_req_header {
	uint32_t type;
	uint32_t reserved;
	uint64_t sector;
};
_Static_assert(sizeof(struct blk_req_header) == 16, "virtio_blk_req header layout");

static struct myrmex_pci_info device;
static struct virtio_pci vp;
static struct virtq vq;
static uint64_t capacity;              /* sectors */
static uint32_t block_size;
static int read_only, can_flush;

static uint32_t slots_ica;
static volatile struct blk_req_header *headers;   /* [vq.size] */
static volatile uint8_t *statuses;                /* [vq.size] */
static uint64_t headers_phys, statuses_phys;

static struct blk_request inflight[VQ_SIZE_MAX];      /* at a head descriptor in use */
static struct blk_request pending[PENDING_MAX];       /* FIFO, oldest at pending_first */
static unsigned pending_first, pending_count;
static unsigned bad_used;                         /* used entries naming no request */

/* ---------------------------------------------------------- start-up */

static int slots_init(uint16_t size)
{
	uint32_t bytes = size * (uint32_t)(sizeof(struct blk_req_header) + 1);
	long h = myrmex_ica_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
	if (h < 0)
		return (int)h;
	long phys = myrmex_ica_phys((uint32_t)h);
	if (phys < 0) {
		myrmex_ica_free((uint32_t)h);
		return (int)phys;
	}
	uint8_t *base = myrmex_ica_addr((uint32_t)h);
	slots_ica = (uint32_t)h;
	headers = (volatile struct blk_req_header *)base;
	statuses = base + size * sizeof(struct blk_req_header);
	headers_phys = (uint64_t)phys;
	statuses_phys = (uint64_t)phys + size * sizeof(struct blk_req_header);
	return 0;
}

/* The largest power of 2 that the device and we both allow. */
static uint16_t queue_size(uint16_t device_max)
{
	uint16_t size = 1;
	while (size * 2u <= device_max && size * 2u <= VQ_SIZE_MAX)
		size = (uint16_t)(size * 2);
	return size;
}

static void read_geometry(void)
{
	capacity = vp_config64(&vp, VIRTIO_BLK_CFG_CAPACITY);
	block_size = (vp.features & VIRTIO_BLK_F_BLK_SIZE) ? vp_config32(&vp, VIRTIO_BLK_CFG_BLK_SIZE) : 0;
	if (block_size < DISK_SECTOR_SIZE)
		block_size = DISK_SECTOR_SIZE;
}

int blk_init(const struct myrmex_pci_info *info)
{
	device = *info;
	int err = vp_probe(&vp, info);
	if (err) {
		drv_log("no usable virtio structures in the PCI capabilities (%d)", err);
		return err;
	}
	err = vp_negotiate(&vp, VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_RO | VIRTIO_BLK_F_BLK_SIZE |
	                   VIRTIO_BLK_F_FLUSH, VIRTIO_F_VERSION_1);
	if (err) {
		drv_log("feature negotiation failed (%d)", err);
		return err;
	}
	uint16_t max = vp_queue_max(&vp, REQUEST_QUEUE);
	err = max ? vq_init(&vq, REQUEST_QUEUE, queue_size(max)) : -ENODEV;
	if (!err)
		err = slots_init(vq.size);
	if (err) {
		drv_log("cannot set up the request queue (device max %u): %d", max, err);
		vp_fail(&vp);
		return err;
	}
	vq.notify = vp_queue_enable(&vp, REQUEST_QUEUE, vq.size, vq.desc_phys, vq.avail_phys,
	                            vq.used_phys);
	if (!vq.notify) {
		drv_log("the queue's notification address lies outside the notify structure");
		vp_fail(&vp);
		return -ENODEV;
	}
	read_geometry();
	read_only = (vp.features & VIRTIO_BLK_F_RO) != 0;
	can_flush = (vp.features & VIRTIO_BLK_F_FLUSH) != 0;
	vp_driver_ok(&vp);
	return 0;
}

void blk_describe(char *buf, unsigned long size)
{
	snprintf(buf, size, "%llu sectors (%llu MiB), block %u, queue %u, irq %u%s%s",
	         (unsigned long long)capacity, (unsigned long long)(capacity >> 11), block_size,
	         vq.size, device.irq_line, read_only ? ", read-only" : "",
	         can_flush ? ", write cache" : "");
}

/* ---------------------------------------------------------- submission */

/* Gives rq to the device: 0, or -EAGAIN when the queue has no room now. */
static int submit(const struct blk_request *rq)
{
	int transfer = rq->type != VIRTIO_BLK_T_FLUSH;
	unsigned n = transfer ? 3 : 2;
	int head = vq_chain_alloc(&vq, n);
	if (head < 0)
		return head;
	headers[head].type = rq->type;
	headers[head].reserved = 0;
	headers[head].sector = transfer ? rq->sector : 0;
	statuses[head] = STATUS_UNWRITTEN;
	struct vq_buf bufs[3];
	unsigned i = 0;
	bufs[i++] = (struct vq_buf){ headers_phys + (uint64_t)head * sizeof(struct blk_req_header),
	                             sizeof(struct blk_req_header), 0 };
	if (transfer)
		bufs[i++] = (struct vq_buf){ rq->data_phys, rq->bytes, rq->type == VIRTIO_BLK_T_IN };
	bufs[i++] = (struct vq_buf){ statuses_phys + (uint64_t)head, 1, 1 };
	inflight[head] = *rq;
	vq_chain_submit(&vq, head, bufs, n);
	return 0;
}

/* Submits rq, or parks it behind earlier waiting requests (so that requests
 * reach the device in the order they came). */
static int64_t start(const struct blk_request *rq)
{
	if (pending_count == 0 && submit(rq) == 0)
		return SERVER_LATER;
	if (pending_count == PENDING_MAX)
		return -EAGAIN;
	pending[(pending_first + pending_count) % PENDING_MAX] = *rq;
	pending_count++;
	return SERVER_LATER;
}

static void submit_pending(void)
{
	while (pending_count > 0 && submit(&pending[pending_first]) == 0) {
		pending_first = (pending_first + 1) % PENDING_MAX;
		pending_count--;
	}
}

/* ---------------------------------------------------------- handlers */

/* Checks a read or write and fills *br (type, sector, bytes, data_phys).
 * The transfer starts offset bytes into the data ICA (sector-aligned) and
 * must end inside it. */
static int64_t check_transfer(struct server_request *rq, uint32_t type, struct blk_request *br)
{
	const struct disk_transfer_args *a = SERVER_IN(rq, struct disk_transfer_args);
	uint64_t sector = a->sector, count = a->count, offset = a->offset;
	if (count == 0 || sector >= capacity || count > capacity - sector)
		return -EINVAL;
	uint64_t ica_sectors = rq->d.ndata ? (uint64_t)rq->d.data_pages[0] * (PAGE_SIZE / DISK_SECTOR_SIZE) : 0;
	if (offset % DISK_SECTOR_SIZE != 0 || offset / DISK_SECTOR_SIZE >= ica_sectors ||
	    count > ica_sectors - offset / DISK_SECTOR_SIZE)
		return -EINVAL;
	if (type == VIRTIO_BLK_T_OUT && read_only)
		return -EROFS;
	long phys = myrmex_ica_phys(rq->d.data[0]);
	if (phys < 0)
		return -EINVAL;
	br->rq = *rq;
	br->type = type;
	br->sector = sector;
	br->bytes = (uint32_t)(count * DISK_SECTOR_SIZE);   /* at most 64 pages */
	br->data_phys = (uint64_t)phys + offset;   /* ICAs are physically contiguous */
	return 0;
}

int64_t do_read(struct server_request *rq)
{
	struct blk_request br;
	int64_t err = check_transfer(rq, VIRTIO_BLK_T_IN, &br);
	return err ? err : start(&br);
}

int64_t do_write(struct server_request *rq)
{
	struct blk_request br;
	int64_t err = check_transfer(rq, VIRTIO_BLK_T_OUT, &br);
	return err ? err : start(&br);
}

int64_t do_info(struct server_request *rq)
{
	struct disk_info_result *res = SERVER_OUT(rq, struct disk_info_result);
	res->sectors = capacity;
	res->sector_size = DISK_SECTOR_SIZE;
	res->block_size = block_size;
	res->flags = (read_only ? DISK_INFO_READONLY : 0) | (can_flush ? DISK_INFO_FLUSH : 0);
	return 0;
}

int64_t do_flush(struct server_request *rq)
{
	if (!can_flush)
		return 0;   /* no write cache: every completed write is stable */
	struct blk_request br = { .rq = *rq, .type = VIRTIO_BLK_T_FLUSH };
	return start(&br);
}

/* ---------------------------------------------------------- completion */

static void complete(int head)
{
	struct blk_request *br = &inflight[head];
	uint8_t status = statuses[head];
	int64_t result = status != VIRTIO_BLK_S_OK ? -EIO
	               : br->type == VIRTIO_BLK_T_FLUSH ? 0 : (int64_t)br->bytes;
	server_reply_later(blk_server.name, &br->rq, result);
}

void blk_interrupt(uint32_t lines)
{
	(void)lines;   /* the device has one line */
	/* Reading the ISR first deasserts the line; a completion after this
	 * read raises it again, and the kernel delivers that after the ack. */
	uint8_t isr = vp_isr(&vp);
	if (isr & VIRTIO_ISR_CONFIG) {
		read_geometry();
		drv_log("configuration changed: %llu sectors", (unsigned long long)capacity);
	}
	unsigned bad_before = bad_used;
	uint32_t len;
	int head;
	while ((head = vq_next_used(&vq, &len, &bad_used)) >= 0)
		complete(head);
	if (bad_used != bad_before)
		drv_log("the device used %u descriptors that were not in flight", bad_used - bad_before);
	submit_pending();
	myrmex_dev_irq_ack();
}
