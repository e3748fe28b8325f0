/*
 * server.h - the server library: the receive loop, the dispatch table and
 * the one reply site that every Myrmex server shares (the file manager, the
 * drivers, the time and process servers). A server is a table of handlers
 * plus a few callbacks, and a main that starts its device or state,
 * registers its coreid and calls server_run:
 *
 *     static const struct server_op ops[] = {
 *             [TIME_GET] = { do_get },
 *             [TIME_CANCEL] = { do_cancel, SERVER_KERNEL_ONLY },
 *     };
 *     static const struct server srv = { .name = "timed", .ops = ops,
 *                                        .nops = SERVER_NOPS(ops) };
 *     ...  server_run(&srv);
 *
 * For each request the library copies the frame's eight argument words
 * once into the request (a caller's other threads may still write the
 * frame), looks the opcode up (unknown or empty: -ENOSYS), refuses a
 * SERVER_KERNEL_ONLY operation that the kernel did not make (-EPERM, from
 * the delivery's origin, never from the frame), runs the server's check
 * and then the handler. The handler reads its arguments through a typed
 * view of rq->in (SERVER_IN, with the structures of the protocol header)
 * and puts results with SERVER_OUT or server_out. Its status goes back
 * from one place: written into the frame, and returned by the next get()
 * in the same kernel entry that takes the next request. A handler that
 * returns SERVER_LATER has parked the request (a copy of *rq) and answers
 * it later with server_reply_later.
 *
 * Deliveries that are not requests go to callbacks: interrupts (drivers)
 * and results of the server's own asynchronous calls.
 *
 * One thread runs server_run, or several on the one queue (each request's
 * state lives on its thread's stack; the server then keeps its own state
 * behind a lock, as the file manager does, docs/fs.md); server_reply_later
 * may be called from any thread of the server (each parked request once).
 * A server with a loop of its own (user-level threads) serves each request
 * with server_serve_one instead.
 */
#ifndef MYRMEX_SERVER_H
#define MYRMEX_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include "myrmex.h"

/* A handler's status: the request is parked, the reply comes later
 * (server_reply_later). Never a real status. */
#define SERVER_LATER INT64_MIN

/* One request, as the handler sees it. */
struct server_request {
	struct myrmex_delivery d;     /* the kernel's trusted description */
	struct myrmex_frame *frame;   /* the frame served, in the control ICA */
	uint64_t in[8];               /* the frame's arg[], copied once on arrival */
	uint64_t out[8];              /* results: out[i] goes to arg[i] ... */
	uint8_t out_mask;             /* ... when bit i is set */
	bool claimed;                 /* server_claim done */
	uint8_t mapped;               /* bit i: data ICA i mapped by server_data */
	uint8_t *data;                /* data ICA 0 once server_data mapped it, else NULL */
	uint64_t data_size;           /* its bytes (0 while data is NULL) */
};

/* The arguments as the protocol's structure for this opcode, and the
 * results as one (which marks the words it covers to be written back). */
#define SERVER_IN(rq, type) \
	((const type *)(const void *)((rq)->in + 0 * sizeof(char[sizeof(type) <= 64 ? 1 : -1])))
#define SERVER_OUT(rq, type) \
	((type *)server_out_words((rq), (unsigned)((sizeof(type) + 7) / 8)))

typedef int64_t (*server_handler)(struct server_request *rq);

/* struct server_op flags; bits from SERVER_OP_USER up are the server's own
 * (its check sees them). */
#define SERVER_KERNEL_ONLY 1u    /* the kernel must have made the call, else -EPERM */
#define SERVER_OP_USER     0x100u

struct server_op {
	server_handler run;
	uint32_t flags;
};

#define SERVER_NOPS(table) ((uint32_t)(sizeof(table) / sizeof((table)[0])))

struct server {
	const char *name;                     /* in every line logged */
	const struct server_op *ops;          /* indexed by opcode */
	uint32_t nops;
	/* Optional. Before the handler, after the origin check: 0 lets it run,
	 * anything else is the status. */
	int64_t (*check)(struct server_request *rq, const struct server_op *op);
	/* Optional. After every request (status SERVER_LATER included),
	 * before its reply is written. */
	void (*handled)(struct server_request *rq, int64_t status);
	/* Optional. After the reply has gone back; with it set, replies are
	 * returned at once instead of with the next get(). */
	void (*replied)(const struct server_request *rq, int64_t status);
	/* An interrupt delivery: lines is the delivery's mask. Without it,
	 * interrupts are dropped with a line logged. */
	void (*interrupt)(uint32_t lines);
	/* The result of one of the server's own callasync calls. Without it,
	 * results are logged and dropped. */
	void (*result)(const struct myrmex_delivery *d);
	/* Optional: a second protocol on the same queue (a server that also
	 * registered also_coreid with MYRMEX_REGIST_MORE): requests the
	 * kernel routed by that coreid are looked up in also_ops. */
	uint32_t also_coreid;
	const struct server_op *also_ops;
	uint32_t also_nops;
};

/* Serves forever: get, dispatch, reply. Errors of get are logged and
 * retried after a millisecond. Never returns. */
__attribute__((noreturn)) void server_run(const struct server *s);

/* For a server that runs its own loop around get() (the file manager's
 * user-level threads): serve_one takes request rq apart (rq->d as get
 * delivered it), runs its handler and returns it at once with its reply
 * (myrmex_reply) unless it was parked; deliver_other passes a delivery
 * that is not a request to the callbacks. */
void server_serve_one(const struct server *s, struct server_request *rq);
void server_deliver_other(const struct server *s, const struct myrmex_delivery *d);

/* Sets result word i (0..7) of rq. */
void server_out(struct server_request *rq, unsigned i, uint64_t v);
/* Marks words 0..n-1 as results and returns them (SERVER_OUT). */
uint64_t *server_out_words(struct server_request *rq, unsigned n);

/* Answers a parked request (a copy of the request its handler had) with
 * status and its results; returns 0 or ret's error (the data ICAs are then
 * freed, see myrmex_reply). name is the server's, for the log. */
long server_reply_later(const char *name, struct server_request *rq, int64_t status);

/* The request's data ICA i mapped here: its address, *size its bytes (for
 * i = 0 also kept in rq->data and rq->data_size);
 * NULL when the request has none, or when it came parked and cannot be
 * mapped now (*size 0). A data ICA comes parked when the kernel could not
 * map it at get() (delivery.parked bit i): the first use per request then
 * attaches it; one that came attached costs no system call. */
void *server_data(struct server_request *rq, unsigned i, uint64_t *size);

/* Claims rq's control ICA from its synchronous caller (myrmex_claim) the
 * first time it is asked for this request: before the server pushes a
 * frame another server acts on. 0 or -errno. */
long server_claim(struct server_request *rq);

#endif
