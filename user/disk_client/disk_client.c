/*
 * disk_client: the demo's client of the disk driver server (make run). It
 * asks the driver for the disk's size (DISK_INFO), reads the first eight
 * sectors straight into a one-page data ICA (DISK_READ: the device writes
 * the ICA by DMA, nothing is copied) and shows what it found there: on the
 * root image that `make run` attaches, the ext2 superblock at byte 1024.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <myrmex.h>
#include <myrmex/disk.h>

#define SECTORS 8
#define REGISTER_TRIES 2000      /* 1 ms apart: the driver may still be starting */

/* One call on the control ICA h (opcode, arg[0], arg[1], the data ICA or
 * none when data < 0). The result frame, or NULL with a message. */
static struct myrmex_frame *call(struct myrmex_ctl_header *h, uint32_t opcode, uint64_t a0,
                                 uint64_t a1, long data)
{
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, opcode);
	if (!f)
		return NULL;
	f->arg[0] = a0;
	f->arg[1] = a1;
	if (data >= 0) {
		f->ndata = 1;
		f->data[0] = (uint32_t)data;
	}
	long r = -ESRCH;
	for (int i = 0; i < REGISTER_TRIES && r == -ESRCH; i++) {
		r = myrmex_callsync(h);
		if (r == -ESRCH)
			myrmex_sleep_ns(1000000);
	}
	if (r < 0) {
		printf("disk_client: callsync: error %ld%s\n", -r, r == -ESRCH ? " (no disk driver)" : "");
		return NULL;
	}
	return myrmex_ctl_result(h);
}

int main(void)
{
	long ctl = myrmex_ica_alloc(1), data = myrmex_ica_alloc(1);
	if (ctl < 0 || data < 0) {
		printf("disk_client: ica_alloc: error %ld\n", ctl < 0 ? -ctl : -data);
		return 1;
	}
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl));
	struct myrmex_frame *r = call(h, DISK_INFO, 0, 0, -1);
	if (!r || r->status < 0) {
		printf("disk_client: DISK_INFO failed\n");
		return 1;
	}
	uint64_t capacity = r->arg[0];
	printf("disk_client: the disk has %llu sectors of %llu bytes (%llu MiB)\n",
	       (unsigned long long)capacity, (unsigned long long)r->arg[1],
	       (unsigned long long)(capacity * r->arg[1] >> 20));
	uint64_t count = capacity < SECTORS ? capacity : SECTORS;
	r = call(h, DISK_READ, 0, count, data);
	if (!r || r->status != (int64_t)(count * DISK_SECTOR_SIZE)) {
		printf("disk_client: DISK_READ failed: status %lld\n", r ? (long long)r->status : 0LL);
		return 1;
	}
	const uint8_t *buf = myrmex_ica_addr((uint32_t)data);
	uint32_t blocks = 0, log_block = 0;
	uint16_t magic = 0;
	memcpy(&blocks, buf + 1024 + 4, sizeof blocks);        /* s_blocks_count */
	memcpy(&log_block, buf + 1024 + 24, sizeof log_block); /* s_log_block_size */
	memcpy(&magic, buf + 1024 + 56, sizeof magic);         /* s_magic */
	printf("disk_client: read %lld bytes by DMA into ICA %#lx; ", (long long)r->status, data);
	if (magic == 0xef53 && log_block < 8)
		printf("byte 1024 holds an ext2 superblock: %u blocks of %u bytes\n", blocks,
		       1024u << log_block);
	else
		printf("no ext2 superblock at byte 1024 (magic %#x)\n", magic);
	myrmex_ica_free((uint32_t)data);
	myrmex_ica_free((uint32_t)ctl);
	return 0;
}
