/*
 * Split virtqueue, driver side (see virtqueue.h). Layout in the ICA, with
 * the alignments virtio 1.x asks for: the descriptor table at 0 (16-byte
 * aligned), the available ring right after it (2-byte), the used ring after
 * that, rounded up to 4 bytes. The ICA is physically contiguous, so one
 * physical base gives all three addresses.
 *
 * Ordering: the device reads the rings from memory on its own, so a chain's
 * descriptors are written before its head enters the ring, the ring entry
 * before avail->idx moves, and avail->idx before the notification; on the
 * way back, used->idx is read before the entries it covers.
 */
#include "virtqueue.h"

#include <errno.h>
#include <myrmex.h>

#define PAGE_SIZE 4096u
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

int vq_init(struct virtq *vq, uint16_t index, uint16_t size)
{
	if (size == 0 || size > VQ_SIZE_MAX || (size & (size - 1)))
		return -EINVAL;
	uint32_t desc_bytes = 16u * size;
	uint32_t avail_bytes = 6u + 2u * size;     /* flags, idx, ring, used_event */
	uint32_t used_off = ALIGN_UP(desc_bytes + avail_bytes, 4u);
	uint32_t used_bytes = 6u + 8u * size;      /* flags, idx, ring, avail_event */
	uint32_t pages = ALIGN_UP(used_off + used_bytes, PAGE_SIZE) / PAGE_SIZE;
	long h = myrmex_ica_alloc(pages);
	if (h < 0)
		return (int)h;
	long phys = myrmex_ica_phys((uint32_t)h);
	if (phys < 0) {
		myrmex_ica_free((uint32_t)h);
		return (int)phys;
	}
	uint8_t *base = myrmex_ica_addr((uint32_t)h);   /* zero-filled */
	vq->index = index;
	vq->size = size;
	vq->ica = (uint32_t)h;
	vq->desc = (volatile struct vq_desc *)base;
	vq->avail = (volatile struct vq_avail *)(base + desc_bytes);
	vq->used = (volatile struct vq_used *)(base + used_off);
	vq->desc_phys = (uint64_t)phys;
	vq->avail_phys = (uint64_t)phys + desc_bytes;
	vq->used_phys = (uint64_t)phys + used_off;
	vq->notify = 0;
	vq->avail_idx = 0;
	vq->used_seen = 0;
	vq->free_head = 0;
	vq->num_free = size;
	for (uint16_t i = 0; i < size; i++) {
		vq->next[i] = (uint16_t)(i + 1);
		vq->chain_len[i] = 0;
	}
	return 0;
}

void vq_destroy(struct virtq *vq)
{
	myrmex_ica_free(vq->ica);
	vq->size = 0;
}

int vq_chain_alloc(struct virtq *vq, unsigned n)
{
	if (n == 0 || n > vq->num_free || n > 255)
		return -EAGAIN;
	uint16_t head = vq->free_head, last = head;
	for (unsigned i = 1; i < n; i++)
		last = vq->next[last];
	vq->free_head = vq->next[last];
	vq->num_free = (uint16_t)(vq->num_free - n);
	vq->chain_len[head] = (uint8_t)n;
	return head;
}

void vq_chain_submit(struct virtq *vq, int head, const struct vq_buf *bufs, unsigned n)
{
	uint16_t d = (uint16_t)head;
	for (unsigned i = 0; i < n; i++) {
		volatile struct vq_desc *desc = &vq->desc[d];
		desc->addr = bufs[i].phys;
		desc->len = bufs[i].len;
		desc->flags = (uint16_t)((bufs[i].device_writes ? VQ_DESC_F_WRITE : 0) |
		                         (i + 1 < n ? VQ_DESC_F_NEXT : 0));
		desc->next = i + 1 < n ? vq->next[d] : 0;
		d = vq->next[d];
	}
	vq->avail->ring[vq->avail_idx & (vq->size - 1)] = (uint16_t)head;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	vq->avail->idx = ++vq->avail_idx;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!(vq->used->flags & VQ_USED_F_NO_NOTIFY))
		*vq->notify = vq->index;
}

/* Gives the descriptors of the chain at head back to the free list. */
static void chain_free(struct virtq *vq, uint16_t head)
{
	uint16_t last = head;
	for (unsigned i = 1; i < vq->chain_len[head]; i++)
		last = vq->next[last];
	vq->next[last] = vq->free_head;
	vq->free_head = head;
	vq->num_free = (uint16_t)(vq->num_free + vq->chain_len[head]);
	vq->chain_len[head] = 0;
}

int vq_next_used(struct virtq *vq, uint32_t *len, unsigned *bad)
{
	for (;;) {
		uint16_t idx = vq->used->idx;
		if (idx == vq->used_seen)
			return -1;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		volatile struct vq_used_elem *e = &vq->used->ring[vq->used_seen & (vq->size - 1)];
		uint32_t id = e->id;
		*len = e->len;
		vq->used_seen++;
		if (id < vq->size && vq->chain_len[id]) {
			chain_free(vq, (uint16_t)id);
			return (int)id;
		}
		(*bad)++;
	}
}
