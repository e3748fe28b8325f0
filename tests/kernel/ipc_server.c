/*
 * ipc_server: the server module of the IPC tests (not a test itself). Its
 * modes and opcodes are in ipc_test.h: an ordinary server on one or more
 * threads, a stage of a multi-stage chain, a server that calls itself until
 * the kernel refuses another stage, one that never calls get, and small
 * clients and probes that the tests run as separate processes. The test
 * that spawns it kills and reaps it.
 */
#define _GNU_SOURCE
#define TEST_NAME "ipc_server"
#include "test_check.h"
#include "ipc_test.h"

#include <stdlib.h>
#include <sys/mman.h>

#define MAX_THREADS 8
#define PAGE 4096u
#define FRAME_SIZE ((uint32_t)sizeof(struct myrmex_frame))
#define FIRST_FRAME ((uint32_t)sizeof(struct myrmex_ctl_header))

#define HOG_CHUNK (1024 * 1024L)
#define HOG_MAX_CHUNKS 64

static uint32_t my_coreid;
static long hog_chunks[HOG_MAX_CHUNKS];   /* hog mode: the mappings made */
static int hog_count;
static uint32_t next_coreid;            /* forward mode: 0 = last stage */
static volatile int64_t last_return;    /* result of the last return (0 = taken) */
/* Counters of the native word, whose atomic add every port has inline
 * (a 32-bit port's 64-bit atomics would need libatomic). */
static volatile unsigned long handled, return_failures, cancelled, results_seen;

static void count(volatile unsigned long *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static void copy_data(struct myrmex_frame *f, uint32_t n, const uint32_t *data)
{
	f->ndata = n <= MYRMEX_FRAME_DATA ? n : 0;
	for (uint32_t i = 0; i < f->ndata; i++)
		f->data[i] = data[i];
}

/* Upper-cases len bytes (at most a page) of each data ICA received. */
static void upper_all(const struct myrmex_delivery *d, uint64_t len)
{
	if (len > PAGE)
		len = PAGE;
	for (uint32_t i = 0; i < d->ndata; i++) {
		/* Only what the delivery says is parked needs mapping; touching
		 * an ICA it says is mapped and is not would kill this server, and
		 * the test that called it would fail. */
		if (d->parked & (1u << i))
			myrmex_ica_attach(d->data[i]);
		unsigned char *s = myrmex_ica_addr(d->data[i]);
		for (uint64_t j = 0; j < len; j++)
			if (s[j] >= 'a' && s[j] <= 'z')
				s[j] = (unsigned char)(s[j] - 'a' + 'A');
	}
}

/* ---------------------------------------------------------- forwarding */

static int64_t plus_one(int64_t status)
{
	return status > 0 ? status + 1 : status;
}

/* The last stage of a chain: sleep arg3 ms, upper-case the data, status 1. */
static void last_stage(struct myrmex_ctl_header *h, struct myrmex_frame *mine,
                       const struct myrmex_delivery *d)
{
	if (mine->arg[3])
		myrmex_sleep_ns(mine->arg[3] * IPC_MS);
	upper_all(d, mine->arg[0]);
	if ((d->opcode & IPC_OP_MASK) == IPC_FWD_SYNC_SETDIRECT) {
		/* Routing set at ret counts only in a frame the caller no longer maps. */
		myrmex_claim((void *)(uintptr_t)d->control);
		h->flags |= MYRMEX_CTL_DIRECT_RETURN;
	}
	mine->status = 1;
	mine->arg[1] = 1;
	copy_data(mine, d->ndata, d->data);
}

/* A forward request. Returns 1 when the request is to be returned now. */
static int forward(struct myrmex_ctl_header *h, struct myrmex_frame *mine,
                   const struct myrmex_delivery *d)
{
	uint32_t op = d->opcode & IPC_OP_MASK;
	if (next_coreid == 0) {
		last_stage(h, mine, d);
		return 1;
	}
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, next_coreid, d->opcode);
	if (!f) {
		mine->status = -ENOSPC;
		copy_data(mine, d->ndata, d->data);
		return 1;
	}
	uint32_t pushed = h->currentp;
	f->arg[0] = mine->arg[0];
	f->arg[3] = mine->arg[3];
	copy_data(f, d->ndata, d->data);
	long r = op == IPC_FWD_ASYNC ? myrmex_callasync(h) : myrmex_callsync(h);
	if (r == -ECANCELED) {
		count(&cancelled);   /* a later stage returned past us */
		return 0;
	}
	if (r < 0) {
		h->currentp = d->frame;
		mine->status = r;
		copy_data(mine, d->ndata, d->data);
		return 1;
	}
	if (op == IPC_FWD_ASYNC)
		return 0;   /* the result comes through get */
	struct myrmex_frame *res = myrmex_ctl_result(h);
	uint64_t saw = (h->currentp == d->frame ? IPC_SAW_CURRENT : 0) |
	               (h->resultp == pushed ? IPC_SAW_RESULT : 0) |
	               (h->kind == MYRMEX_DELIVERY_RESULT ? IPC_SAW_KIND : 0);
	mine->status = res ? plus_one(res->status) : -EIO;
	mine->arg[1] = res ? res->arg[1] + 1 : 0;
	mine->arg[2] = saw;
	if (res)
		copy_data(mine, res->ndata, res->data);
	return 1;
}

/* ----------------------------------------------------------- recursion */

/* IPC_OP_RECURSE: push a frame for ourselves right above ours and call it;
 * when the kernel refuses, return the refusal and the depth reached. */
static int recurse(struct myrmex_ctl_header *h, struct myrmex_frame *mine,
                   const struct myrmex_delivery *d)
{
	uint32_t depth = (d->frame - FIRST_FRAME) / FRAME_SIZE + 1;
	uint32_t off = d->frame + FRAME_SIZE;
	if (off + FRAME_SIZE > PAGE) {
		mine->status = -ENOSPC;
		mine->arg[1] = depth;
		return 1;
	}
	struct myrmex_frame *f = (struct myrmex_frame *)((char *)h + off);
	memset(f, 0, sizeof(*f));
	f->prev = d->frame;
	f->target = my_coreid;
	f->opcode = IPC_OP_RECURSE;
	h->currentp = off;
	long r = myrmex_callasync(h);
	if (r == 0)
		return 0;
	h->currentp = d->frame;
	mine->status = r;
	mine->arg[1] = depth;
	return 1;
}

/* ------------------------------------------------------------- results */

/* A result of one of our own async calls (forward or recursion): the frame
 * below it (now currentp) is the request we serve; fill it in. */
static int take_result(struct myrmex_ctl_header *h, const struct myrmex_delivery *d)
{
	count(&results_seen);
	struct myrmex_frame *res = myrmex_ctl_frame(h, d->frame);
	struct myrmex_frame *mine = myrmex_ctl_top(h);
	if (!res || !mine) {
		test_fail("a result without a frame below it (currentp %u, frame %u)", h->currentp,
		          d->frame);
		return 0;
	}
	if (res->opcode == IPC_OP_RECURSE) {
		mine->status = d->status;
		mine->arg[1] = res->arg[1];
	} else {
		mine->status = plus_one(d->status);
		mine->arg[1] = res->arg[1] + 1;
		mine->arg[2] = (h->currentp == res->prev ? IPC_SAW_CURRENT : 0) |
		               (h->resultp == d->frame ? IPC_SAW_RESULT : 0) |
		               (h->kind == MYRMEX_DELIVERY_RESULT ? IPC_SAW_KIND : 0);
	}
	copy_data(mine, d->ndata, d->data);
	return 1;
}

/* ------------------------------------------------------------ requests */

/* Handles one request. Returns 1 when it is to be returned now. */
static int serve_one(struct myrmex_ctl_header *h, struct myrmex_frame *f,
                     const struct myrmex_delivery *d)
{
	count(&handled);
	switch (d->opcode & IPC_OP_MASK) {
	case IPC_OP_NOP:
		f->status = (int64_t)f->arg[0] + 1;
		f->arg[1] = (uint64_t)raw0(SYS_getpid);
		f->arg[2] = (uint64_t)raw0(SYS_gettid);
		f->arg[3] = (uint64_t)d->requester;
		f->arg[4] = d->ndata;
		f->arg[5] = h->kind;
		f->arg[6] = (uint64_t)f->requester;
		copy_data(f, d->ndata, d->data);
		return 1;
	case IPC_OP_UPPER:
		upper_all(d, f->arg[0]);
		f->status = (int64_t)f->arg[0];
		copy_data(f, d->ndata, d->data);
		return 1;
	case IPC_OP_KEEP:
		for (uint32_t i = 0; i < d->ndata && i < 4; i++)
			f->arg[1 + i] = d->data[i];
		f->status = d->ndata;
		f->ndata = 0;
		return 1;
	case IPC_OP_SWAP: {
		/* It returns an ICA of its own: only from a frame its caller can
		 * no longer rewrite (docs/ipc.md, "What the kernel reads"). */
		myrmex_claim((void *)(uintptr_t)d->control);
		for (uint32_t i = 0; i < d->ndata; i++)
			myrmex_ica_free(d->data[i]);
		long n = myrmex_ica_alloc(1);
		f->ndata = 0;
		f->status = n < 0 ? n : 0;
		if (n >= 0) {
			strcpy(myrmex_ica_addr((uint32_t)n), IPC_SWAP_TEXT);
			f->ndata = 1;
			f->data[0] = (uint32_t)n;
			f->arg[1] = (uint64_t)n;
		}
		return 1;
	}
	case IPC_OP_SLEEP:
		myrmex_sleep_ns(f->arg[0] * IPC_MS);
		f->status = 0;
		f->arg[2] = (uint64_t)raw0(SYS_gettid);
		copy_data(f, d->ndata, d->data);
		return 1;
	case IPC_OP_FILL_SLEEP:
		f->status = 0;
		copy_data(f, d->ndata, d->data);
		myrmex_sleep_ns(f->arg[0] * IPC_MS);
		return 1;
	case IPC_OP_CLAIM:
		f->status = myrmex_claim(h);
		f->arg[1] = (uint64_t)myrmex_claim(h);   /* claiming twice is harmless */
		myrmex_sleep_ns(f->arg[0] * IPC_MS);
		copy_data(f, d->ndata, d->data);
		return 1;
	case IPC_OP_HOLD:
		for (;;)
			myrmex_sleep_ns(1000 * IPC_MS);
	case IPC_OP_FAULT:
		*(volatile int *)(uintptr_t)0 = 1;
		return 0;
	case IPC_OP_STATS:
		f->status = 0;
		f->arg[0] = (uint64_t)last_return;
		f->arg[1] = handled;
		f->arg[2] = return_failures;
		f->arg[3] = cancelled;
		f->arg[4] = results_seen;
		f->ndata = 0;
		return 1;
	case IPC_OP_RECURSE:
		return recurse(h, f, d);
	case IPC_OP_HOG:
		if (f->arg[0] == 1)
			for (int i = 0; i < hog_count; i++)
				for (long off = 0; off < HOG_CHUNK; off += PAGE)
					((volatile char *)hog_chunks[i])[off] = 1;
		f->status = hog_count;
		f->ndata = 0;
		return 1;
	case IPC_FWD_SYNC:
	case IPC_FWD_ASYNC:
	case IPC_FWD_SYNC_SETDIRECT:
		return forward(h, f, d);
	default:
		f->status = -ENOSYS;
		f->ndata = 0;
		return 1;
	}
}

/* The loop of every serving thread: get, handle, return with the next get
 * (or with ret when the request asks for it). */
static void serve_loop(void *unused)
{
	(void)unused;
	void *p = NULL;
	for (;;) {
		struct myrmex_delivery d;
		long got = myrmex_get(p, &d);
		if (p) {
			last_return = got < 0 ? got : 0;
			if (got < 0) {
				/* Our result was refused: say so without data, from a
				 * frame the caller can no longer rewrite (claimed). */
				count(&return_failures);
				myrmex_claim(p);
				struct myrmex_frame *f = myrmex_ctl_top(p);
				if (f) {
					f->ndata = 0;
					f->status = -EIO;
				}
				myrmex_ret(p);
				p = NULL;
				continue;
			}
		}
		p = NULL;
		if (got < 0) {
			test_fail("get: %ld", got);
			myrmex_sleep_ns(10 * IPC_MS);
			continue;
		}
		struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)got;
		int reply = 0;
		if (d.kind == MYRMEX_DELIVERY_RESULT) {
			reply = take_result(h, &d);
		} else if (d.kind == MYRMEX_DELIVERY_REQUEST) {
			struct myrmex_frame *f = myrmex_ctl_frame(h, d.frame);
			reply = f ? serve_one(h, f, &d) : 0;
		}
		if (!reply)
			continue;
		if (d.kind == MYRMEX_DELIVERY_REQUEST && (d.opcode & IPC_OP_USE_RET)) {
			long r = myrmex_ret(h);
			last_return = r;
			if (r < 0)
				count(&return_failures);
		} else {
			p = h;
		}
	}
}

/* --------------------------------------------------------------- modes */

static int register_or_fail(void)
{
	long r = myrmex_registserver(my_coreid);
	if (r != 0) {
		test_fail("registserver(%u): %ld", my_coreid, r);
		return 1;
	}
	return 0;
}

static int mode_serve(int threads)
{
	if (register_or_fail())
		return 1;
	if (threads < 1 || threads > MAX_THREADS)
		threads = 1;
	struct myrmex_thread t[MAX_THREADS];
	for (int i = 1; i < threads; i++) {
		long r = myrmex_thread_create(&t[i], serve_loop, NULL, 0);
		if (r < 0)
			test_fail("thread_create: %ld", r);
	}
	serve_loop(NULL);
	return 0;
}

static int mode_noget(void)
{
	if (register_or_fail())
		return 1;
	for (;;)
		myrmex_sleep_ns(1000 * IPC_MS);
}

static int mode_hog(void)
{
	while (hog_count < HOG_MAX_CHUNKS) {
		long m = myrmex_syscall6(SYS_mmap, 0, HOG_CHUNK, PROT_READ | PROT_WRITE,
		                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m < 0)
			break;
		hog_chunks[hog_count++] = m;
	}
	return mode_serve(1);
}

static int mode_regcheck(long expected)
{
	long r = myrmex_registserver(my_coreid);
	if (r != expected) {
		test_fail("registserver(%u): %ld, expected %ld", my_coreid, r, expected);
		return 1;
	}
	return 0;
}

static int mode_spawncheck(long expected)
{
	char id[16];
	snprintf(id, sizeof id, "%u", my_coreid);
	const char *args[] = { "regcheck", id, "0", NULL };
	long pid = ipc_spawn_server_argv(args, MYRMEX_SPAWN_SERVER);
	if (expected != 0) {
		if (pid != expected) {
			test_fail("spawn with MYRMEX_SPAWN_SERVER: %ld, expected %ld", pid, expected);
			if (pid > 0)
				ipc_reap(pid);
			return 1;
		}
		return 0;
	}
	if (pid <= 0) {
		test_fail("spawn with MYRMEX_SPAWN_SERVER: %ld", pid);
		return 1;
	}
	int status = ipc_reap(pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		test_fail("the grandchild with the right could not register: status %#x", status);
		return 1;
	}
	return 0;
}

static int mode_caller(uint32_t op, int sync, uint64_t arg0)
{
	uint32_t handle;
	struct myrmex_ctl_header *h = ipc_new_ctl(&handle);
	if (!h)
		return 1;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, my_coreid, op);
	f->arg[0] = arg0;
	long r = ipc_call_when_ready(h, sync);
	if (r != 0) {
		test_fail("caller: call: %ld", r);
		return 1;
	}
	return 0;
}

static int mode_flood(int n)
{
	int refused = 0;
	for (int i = 0; i < n; i++) {
		uint32_t handle;
		struct myrmex_ctl_header *h = ipc_new_ctl(&handle);
		if (!h)
			return n - i + refused;
		myrmex_ctl_push(h, 1, my_coreid, IPC_OP_NOP);
		long r = myrmex_callasync(h);
		if (r != 0) {
			test_fail("flood: callasync #%d: %ld", i, r);
			refused++;
		}
	}
	return refused;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		test_fail("usage: ipc_server <mode> <coreid> [more]");
		return 2;
	}
	const char *mode = argv[1];
	my_coreid = (uint32_t)strtoul(argv[2], NULL, 0);
	long more = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	if (strcmp(mode, "serve") == 0)
		return mode_serve((int)more);
	if (strcmp(mode, "forward") == 0) {
		next_coreid = (uint32_t)more;
		return mode_serve(1);
	}
	if (strcmp(mode, "recurse") == 0)
		return mode_serve(1);
	if (strcmp(mode, "noget") == 0)
		return mode_noget();
	if (strcmp(mode, "hog") == 0)
		return mode_hog();
	if (strcmp(mode, "regcheck") == 0)
		return mode_regcheck(-more);
	if (strcmp(mode, "spawncheck") == 0)
		return mode_spawncheck(-more);
	if (strcmp(mode, "caller") == 0 && argc > 5)
		return mode_caller((uint32_t)more, strcmp(argv[4], "sync") == 0,
		                   strtoull(argv[5], NULL, 0));
	if (strcmp(mode, "flood") == 0)
		return mode_flood((int)more);
	test_fail("unknown mode \"%s\"", mode);
	return 2;
}
