/*
 * A minimal io_uring of Linux for the wrapped-call benchmark (wsc_fwd.c):
 * the ABI's structures as Linux's io_uring(7) and <linux/io_uring.h>
 * define them (musl's include path has no kernel headers), a ring set up
 * with io_uring_setup and mapped, N requests queued and submitted with one
 * io_uring_enter that also waits for their N completions. Header only, for
 * one program; no polling thread, no registered files.
 */
#ifndef BENCH_URING_H
#define BENCH_URING_H

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define URING_NR_SETUP 425L
#define URING_NR_ENTER 426L
#define URING_OP_STATX 21u
#define URING_OP_READ  22u
#define URING_ENTER_GETEVENTS 1u
#define URING_FEAT_SINGLE_MMAP 1u
#define URING_OFF_SQ_RING 0ull
#define URING_OFF_CQ_RING 0x8000000ull
#define URING_OFF_SQES    0x10000000ull

struct uring_sqe {
	uint8_t opcode;
	uint8_t flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off;          /* READ: file offset; STATX: the struct statx */
	uint64_t addr;         /* READ: buffer; STATX: the path */
	uint32_t len;          /* READ: bytes; STATX: the mask */
	uint32_t op_flags;     /* STATX: AT_* flags */
	uint64_t user_data;
	uint64_t pad[3];
};
_Static_assert(sizeof(struct uring_sqe) == 64, "io_uring sqe");

struct uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

struct uring_sq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};

struct uring_cq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};

struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features;
	uint32_t wq_fd, resv[3];
	struct uring_sq_offsets sq_off;
	struct uring_cq_offsets cq_off;
};
_Static_assert(sizeof(struct uring_params) == 120, "io_uring params");

struct uring {
	int fd;
	uint32_t *sq_head, *sq_tail, *sq_mask, *sq_array;
	uint32_t *cq_head, *cq_tail, *cq_mask;
	struct uring_sqe *sqes;
	struct uring_cqe *cqes;
	unsigned entries;
};

/* Sets up a ring of entries (a power of two); 0 or -errno (-ENOSYS where
 * there is no io_uring: Myrmex). */
static inline long uring_init(struct uring *u, unsigned entries)
{
	struct uring_params p;
	memset(&p, 0, sizeof p);
	long fd = syscall(URING_NR_SETUP, entries, &p);
	if (fd < 0)
		return fd;   /* libc's syscall(): -1, errno set */
	memset(u, 0, sizeof *u);
	u->fd = (int)fd;
	u->entries = p.sq_entries;
	size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct uring_cqe);
	if ((p.features & URING_FEAT_SINGLE_MMAP) && cq_len > sq_len)
		sq_len = cq_len;
	uint8_t *sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
	                   u->fd, (off_t)URING_OFF_SQ_RING);
	uint8_t *cq = sq;
	if (!(p.features & URING_FEAT_SINGLE_MMAP))
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		          (off_t)URING_OFF_CQ_RING);
	void *sqes = mmap(NULL, p.sq_entries * sizeof(struct uring_sqe), PROT_READ | PROT_WRITE,
	                  MAP_SHARED | MAP_POPULATE, u->fd, (off_t)URING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		close(u->fd);
		return -1;
	}
	u->sq_head = (uint32_t *)(void *)(sq + p.sq_off.head);
	u->sq_tail = (uint32_t *)(void *)(sq + p.sq_off.tail);
	u->sq_mask = (uint32_t *)(void *)(sq + p.sq_off.ring_mask);
	u->sq_array = (uint32_t *)(void *)(sq + p.sq_off.array);
	u->cq_head = (uint32_t *)(void *)(cq + p.cq_off.head);
	u->cq_tail = (uint32_t *)(void *)(cq + p.cq_off.tail);
	u->cq_mask = (uint32_t *)(void *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct uring_cqe *)(void *)(cq + p.cq_off.cqes);
	u->sqes = sqes;
	return 0;
}

/* Queues one request (the caller fills the returned entry). */
static inline struct uring_sqe *uring_queue(struct uring *u)
{
	uint32_t tail = *u->sq_tail;
	uint32_t i = tail & *u->sq_mask;
	u->sq_array[i] = i;
	struct uring_sqe *e = &u->sqes[i];
	memset(e, 0, sizeof *e);
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return e;
}

/* Submits the n queued requests and waits for their n completions, in one
 * system call; returns the number of completions whose result was not
 * want (0 when all gave it), or -1 when io_uring_enter failed. */
static inline long uring_run(struct uring *u, unsigned n, int32_t want)
{
	long r = syscall(URING_NR_ENTER, u->fd, n, n, URING_ENTER_GETEVENTS, NULL, 0);
	if (r < 0)
		return -1;
	long bad = 0;
	uint32_t head = *u->cq_head;
	uint32_t tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
	for (; head != tail; head++)
		bad += u->cqes[head & *u->cq_mask].res != want;
	__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
	return bad;
}

#endif
