/*
 * posix_test.h - what the tests of the file manager's POSIX side (t_fs_posix,
 * t_fs_pipe) share: a channel of their own for raw requests with all eight
 * arguments (the library's myrmex_fs_call carries three), synchronous or
 * asynchronous (a read left parked in the file manager while the same
 * thread goes on), and acting as the process manager, whose pid the file
 * manager checks for FS_FORK, FS_EXEC and FS_OPEN_AS. Header only; include
 * test_check.h and fs_test.h first.
 *
 * The file manager serves its queue in order, so a request sent with
 * callasync is handled before any request the same process sends after it:
 * a read sent that way is parked (or answered) before the next call is
 * looked at, with no waiting and no timing.
 */
#ifndef POSIX_TEST_H
#define POSIX_TEST_H

#include <myrmex/proc.h>

#define CHAN_PAGES 16u                    /* the kernel's large data ICA */
#define CHAN_BYTES (CHAN_PAGES * 4096u)
#define FAKE_PID 900001                   /* a pid no process has: tables made by FS_FORK */

struct chan {
	uint32_t ctl, data;                   /* handles; data 0 once lost */
};

/* One request's arguments (arg[0..7]) and, after the call, the result's. */
struct fsreq {
	uint64_t a[8];
	uint64_t out[8];
	int with_data;
};

/* A channel whose data ICA has pages pages. */
static inline int chan_open_pages(struct chan *c, uint32_t pages)
{
	long ctl = myrmex_ica_alloc(1), data = myrmex_ica_alloc(pages);
	if (ctl < 0 || data < 0) {
		test_fail("chan_open: ica_alloc: %ld %ld", ctl, data);
		return 0;
	}
	c->ctl = (uint32_t)ctl;
	c->data = (uint32_t)data;
	return 1;
}

static inline int chan_open(struct chan *c)
{
	return chan_open_pages(c, CHAN_PAGES);
}

static inline uint8_t *chan_buf(struct chan *c)
{
	return myrmex_ica_addr(c->data);
}

/* Writes the request's frame into the channel's control ICA. */
static inline struct myrmex_ctl_header *chan_frame(struct chan *c, uint32_t opcode,
                                                   const struct fsreq *r)
{
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(c->ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_FS, opcode);
	memcpy(f->arg, r->a, sizeof(f->arg));
	if (r->with_data && c->data) {
		f->ndata = 1;
		f->data[0] = c->data;
	}
	return h;
}

/* The result frame back in the control ICA: its status and arg[]. */
static inline long chan_result(struct chan *c, struct fsreq *r)
{
	struct myrmex_frame *res = myrmex_ctl_result(myrmex_ica_addr(c->ctl));
	if (!res)
		return -EIO;
	memcpy(r->out, res->arg, sizeof(r->out));
	if (r->with_data && !(res->ndata >= 1 && res->data[0] == c->data)) {
		test_fail("chan: the data ICA did not come back");
		c->data = 0;
	}
	return (long)res->status;
}

static inline long chan_call(struct chan *c, uint32_t opcode, struct fsreq *r)
{
	long rc = myrmex_callsync(chan_frame(c, opcode, r));
	return rc < 0 ? rc : chan_result(c, r);
}

static inline long chan_send(struct chan *c, uint32_t opcode, struct fsreq *r)
{
	return myrmex_callasync(chan_frame(c, opcode, r));
}

/* Waits for the result of the one asynchronous call in flight (on any
 * channel): the channel it came back on in *which (index into cs). */
static inline long chan_wait_any(struct chan *cs, int n, int *which, struct fsreq *r)
{
	struct myrmex_delivery d;
	long rc = myrmex_get(NULL, &d);
	if (rc < 0)
		return rc;
	if (d.kind != MYRMEX_DELIVERY_RESULT) {
		test_fail("chan_wait: delivery kind %u, expected a result", d.kind);
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		if (cs[i].ctl == d.handle) {
			*which = i;
			return chan_result(&cs[i], r);
		}
	}
	test_fail("chan_wait: a result on an unknown control ICA");
	return -EIO;
}

static inline long chan_wait(struct chan *c, struct fsreq *r)
{
	int which;
	return chan_wait_any(c, 1, &which, r);
}

/* A request with up to six arguments, sync, with the data ICA. */
static inline long fsx(struct chan *c, uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2,
                       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t out[8])
{
	struct fsreq r = { { a0, a1, a2, a3, a4, a5, 0, 0 }, { 0 }, 1 };
	long rc = chan_call(c, opcode, &r);
	if (out)
		memcpy(out, r.out, sizeof(r.out));
	return rc;
}

/* A path call on the channel: path copied in first. */
static inline long fsp(struct chan *c, uint32_t opcode, const char *path, uint64_t a0,
                       uint64_t a3, uint64_t a4)
{
	strcpy((char *)chan_buf(c), path);
	return fsx(c, opcode, a0, 0, 0, a3, a4, 0, NULL);
}

/* A new pipe: 1 with its ends in r and w. */
static inline int new_pipe(uint64_t flags, int *r, int *w)
{
	uint64_t out[8];
	long rc = myrmex_fs_call(FS_PIPE, flags, 0, 0, NULL, 0, out);
	if (rc != 0) {
		test_fail("FS_PIPE(%#llx): %ld", (unsigned long long)flags, rc);
		return 0;
	}
	*r = (int)out[0];
	*w = (int)out[1];
	return 1;
}

/* Sends an asynchronous FS_READ or FS_WRITE of len bytes on channel c. */
static inline void send_rw(struct chan *c, uint32_t opcode, int fd, uint64_t len, struct fsreq *r)
{
	memset(r, 0, sizeof *r);
	r->a[0] = (uint64_t)fd;
	r->a[1] = len;
	r->with_data = 1;
	long rc = chan_send(c, opcode, r);
	if (rc != 0)
		test_fail("callasync(opcode %u): %ld", opcode, rc);
}

/* This test becomes the process manager (it has the server right). */
static inline int become_pm(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r != 0)
		test_fail("registserver(MYRMEX_COREID_PM): %ld", r);
	return r == 0;
}

static inline int my_pid(void)
{
	return (int)raw0(SYS_getpid);
}

/* Deterministic bytes: byte i of stream seed. */
static inline uint8_t stream_byte(uint32_t seed, uint64_t i)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return (uint8_t)(x >> 32);
}

/* Waits for child pid to end: its wait status, or -1 (reported). */
static inline int wait_child(long pid)
{
	int status = 0;
	long r = raw4(SYS_wait4, pid, (long)&status, 0, 0);
	if (r != pid) {
		test_fail("wait4(%ld): %ld", pid, r);
		return -1;
	}
	return status;
}

#endif
