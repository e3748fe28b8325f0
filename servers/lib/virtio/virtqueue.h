/*
 * A split virtqueue (virtio 1.x, "Split Virtqueues"): the descriptor table,
 * the available (driver) ring and the used (device) ring, in one ICA whose
 * physical address the device is given. The driver side only: chains of
 * descriptors are taken from a free list, filled with physical buffers,
 * published on the available ring, and given back when the device puts
 * their head on the used ring. A chain is named by its head descriptor.
 * One thread uses a queue; nothing here blocks.
 */
#ifndef VIRTQUEUE_H
#define VIRTQUEUE_H

#include <stdint.h>

#define VQ_SIZE_MAX 256         /* descriptors we use, whatever the device allows */

#define VQ_DESC_F_NEXT  1u
#define VQ_DESC_F_WRITE 2u      /* the device writes this buffer */
#define VQ_USED_F_NO_NOTIFY 1u

struct vq_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};
_Static_assert(sizeof(struct vq_desc) == 16, "virtq_desc layout");

struct vq_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];        /* size entries, then used_event (unused here) */
};

struct vq_used_elem {
	uint32_t id;            /* head of the chain the device used */
	uint32_t len;           /* bytes it wrote into the chain */
};
_Static_assert(sizeof(struct vq_used_elem) == 8, "virtq_used_elem layout");

struct vq_used {
	uint16_t flags;
	uint16_t idx;
	struct vq_used_elem ring[];   /* size entries, then avail_event */
};

/* One buffer of a chain, by physical address. */
struct vq_buf {
	uint64_t phys;
	uint32_t len;
	int device_writes;
};

struct virtq {
	uint16_t index;                 /* the queue's number in the device */
	uint16_t size;                  /* a power of 2, <= VQ_SIZE_MAX */
	volatile struct vq_desc *desc;
	volatile struct vq_avail *avail;
	volatile struct vq_used *used;
	uint64_t desc_phys, avail_phys, used_phys;
	volatile uint16_t *notify;      /* set by the transport once enabled */
	uint32_t ica;                   /* the ICA holding all three */
	uint16_t avail_idx;             /* our copy of avail->idx */
	uint16_t used_seen;             /* used entries consumed so far */
	uint16_t free_head, num_free;
	uint16_t next[VQ_SIZE_MAX];     /* free list and chain links, our own copy */
	uint8_t chain_len[VQ_SIZE_MAX]; /* at a head in flight: its length; else 0 */
};

/*
 * Allocates and lays out the rings for `size` entries (a power of 2, at
 * most VQ_SIZE_MAX) in a fresh ICA and learns their physical addresses.
 * 0, -EINVAL for a bad size, or the error of ica_alloc / ica_phys.
 */
int vq_init(struct virtq *vq, uint16_t index, uint16_t size);

/* Frees the rings' ICA; the device must have been reset first. */
void vq_destroy(struct virtq *vq);

/* Takes a chain of n descriptors (1 <= n): its head, or -EAGAIN when fewer
 * than n are free. The chain is not visible to the device yet. */
int vq_chain_alloc(struct virtq *vq, unsigned n);

/* Fills the chain at head with bufs[0..n-1] (n as allocated), publishes it
 * on the available ring and notifies the device unless it asked not to. */
void vq_chain_submit(struct virtq *vq, int head, const struct vq_buf *bufs, unsigned n);

/* The next chain the device has finished with: its head (its descriptors
 * are free again) and in *len the bytes the device wrote; -1 when none is
 * waiting. An entry that names no chain in flight (a device bug) is skipped
 * and counted in *bad. */
int vq_next_used(struct virtq *vq, uint32_t *len, unsigned *bad);

#endif
