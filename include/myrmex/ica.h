/*
 * Myrmex ICAs and the server program communication mechanism: the user-visible
 * ABI, shared by the kernel, the user library and every server.
 *
 * An ICA (inter-core communication area) is n physically contiguous pages,
 * allocated and freed as a unit, that the kernel moves between address
 * spaces (detach from one, attach to the other) instead of copying. Every ICA
 * has a handle; while it is attached to a process it sits at the same address
 * in every address space, the handle's slot in the ICA window, so that
 * myrmex_ica_addr(handle) is valid wherever the ICA is attached. Touching the
 * slot of an ICA that is not attached to you is a fault that kills you.
 *
 * A request travels in a control ICA: a header, then a stack of call frames.
 * Data ICAs travel with a frame, named by handle. See docs/ipc.md.
 */
#ifndef MYRMEX_ICA_H
#define MYRMEX_ICA_H

#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/layout.h>

/* ---- The ICA window (its address: include/myrmex/layout.h) ---- */
#define MYRMEX_ICA_SLOT_SHIFT  18                     /* 256 KiB per slot */
#define MYRMEX_ICA_SLOTS       1024
#define MYRMEX_ICA_MAX_PAGES   64                     /* one slot */
#define MYRMEX_ICA_WINDOW_SIZE ((uint64_t)MYRMEX_ICA_SLOTS << MYRMEX_ICA_SLOT_SHIFT)

/* A handle is slot | generation << 10; the generation (never 0) changes every
 * time a slot is reused, so a stale handle is refused, not confused. Slots are
 * handed out lowest first, so the window's page tables stay few. */
#define MYRMEX_ICA_SLOT_MASK   0x3ffu
#define MYRMEX_ICA_GEN_SHIFT   10

static inline void *myrmex_ica_addr(uint32_t handle)
{
	return (void *)(uintptr_t)(MYRMEX_ICA_WINDOW +
		((uint64_t)(handle & MYRMEX_ICA_SLOT_MASK) << MYRMEX_ICA_SLOT_SHIFT));
}

/* ---- System calls (numbers after the foundation's) ----
 * ica_alloc(npages)       -> handle; attached to the caller, zero-filled.
 *                            -EINVAL npages 0 or > MYRMEX_ICA_MAX_PAGES,
 *                            -EAGAIN per-process ICA limit, -ENOMEM.
 * ica_free(handle)        -> 0; the ICA must be the caller's and idle
 *                            (attached or parked). -EINVAL bad/stale handle,
 *                            -EBUSY in flight.
 * ica_detach(handle)      -> 0; unmaps an idle ICA of the caller and keeps
 *                            it for the caller (parked).
 * ica_attach(handle)      -> 0; maps a parked ICA of the caller back.
 * registserver(coreid)    -> 0; makes the caller the server for coreid
 *                            (0..MYRMEX_MAX_COREID). -EPERM without the
 *                            server right, -EBUSY coreid taken, -EEXIST the
 *                            caller already serves one, -EINVAL bad coreid.
 *                            coreid | MYRMEX_REGIST_MORE: one more coreid for
 *                            a caller that serves one already (its requests
 *                            join the same queue; the delivery's coreid tells
 *                            them apart): -EINVAL when it serves none, -EEXIST
 *                            when it serves that one.
 * callsync(p)             -> 0 once the result is back (its status is in
 *                            the delivery / result frame), or -errno if the
 *                            call could not be made: -EINVAL p is not an
 *                            idle control ICA of the caller or a frame is
 *                            malformed, -ESRCH no server for the target,
 *                            -EAGAIN the server's queue is full, -EPIPE the
 *                            server died, -ECANCELED a later stage returned
 *                            directly past the caller.
 * callasync(p)            -> 0 once queued; the result arrives through get().
 * get(p or 0, out)        -> returns p's result first when p is given (as
 *                            ret), then waits for the next request (servers)
 *                            or result (callers of callasync) and returns the
 *                            address of its control ICA; out (optional)
 *                            receives the kernel's trusted description.
 * ret(p)                  -> 0; returns the result of request p to whoever
 *                            gets it next (the previous stage, or with
 *                            MYRMEX_CTL_DIRECT_RETURN the original caller).
 * claim(p)                -> 0; a server handling request p takes the control
 *                            ICA from its synchronous caller's address space
 *                            until the result goes back: no thread of the
 *                            caller can change the frames any more. A server
 *                            claims before it pushes a frame whose arguments
 *                            another server will act on. -EINVAL when p is
 *                            not a request the caller handles.
 */
#define MYRMEX_SYS_ICA_ALLOC     (MYRMEX_SYS_BASE + 8)
#define MYRMEX_SYS_ICA_FREE      (MYRMEX_SYS_BASE + 9)
#define MYRMEX_SYS_ICA_DETACH    (MYRMEX_SYS_BASE + 10)
#define MYRMEX_SYS_ICA_ATTACH    (MYRMEX_SYS_BASE + 11)
#define MYRMEX_SYS_REGISTSERVER  (MYRMEX_SYS_BASE + 12)
#define MYRMEX_SYS_CALLSYNC      (MYRMEX_SYS_BASE + 13)
#define MYRMEX_SYS_CALLASYNC     (MYRMEX_SYS_BASE + 14)
#define MYRMEX_SYS_GET           (MYRMEX_SYS_BASE + 15)
#define MYRMEX_SYS_RET           (MYRMEX_SYS_BASE + 16)
#define MYRMEX_SYS_CLAIM         (MYRMEX_SYS_BASE + 17)

#define MYRMEX_MAX_COREID        255
#define MYRMEX_REGIST_MORE       (1u << 16)   /* registserver: an additional coreid */
#define MYRMEX_MAX_STAGES        8     /* frames the kernel follows in one control ICA */
#define MYRMEX_FRAME_DATA        4     /* data ICAs per frame */

/* spawn's fifth argument: the new process may call registserver. Only a
 * process that has the right can pass it on. */
#define MYRMEX_SPAWN_SERVER      1u
/* spawn's flag: the new process is a POSIX process (its file calls go to
 * the file manager, fork/execve to the process manager). */
#define MYRMEX_SPAWN_POSIX       2u

/* server_pid(unsigned coreid) -> pid
 *     Anyone: the pid of the server registered for coreid, or -ESRCH. */
#define MYRMEX_SYS_SERVER_PID    (MYRMEX_SYS_BASE + 33)

/* ---- The control ICA ---- */
#define MYRMEX_CTL_MAGIC         0x4143594du   /* "MYCA" */
#define MYRMEX_CTL_DIRECT_RETURN 1u            /* results skip the intermediate stages */

struct myrmex_ctl_header {
	uint32_t magic;      /* MYRMEX_CTL_MAGIC (written by myrmex_ctl_init) */
	uint32_t currentp;   /* byte offset of the newest frame, 0 when none */
	uint32_t flags;      /* MYRMEX_CTL_* */
	uint32_t resultp;    /* kernel: offset of the frame whose result arrived */
	uint32_t kind;       /* kernel: MYRMEX_DELIVERY_* of the last delivery */
	uint32_t reserved[3];
};
_Static_assert(sizeof(struct myrmex_ctl_header) == 32, "control header layout");

/* One call: pushed by the caller, read by the server, popped by the kernel
 * when its result is delivered (currentp := prev, resultp := this frame). */
struct myrmex_frame {
	uint32_t prev;       /* offset of the previous frame, 0 for the first */
	int32_t requester;   /* kernel: pid of the process that made this call */
	uint32_t target;     /* coreid of the server called */
	uint32_t opcode;     /* what to do (server-defined) */
	int64_t status;      /* the server's result status (kernel: -EPIPE etc.) */
	uint32_t ndata;      /* data ICAs travelling with the call or the result */
	uint32_t data[MYRMEX_FRAME_DATA];
	uint32_t reserved;
	uint64_t arg[8];     /* arguments in, results out (server-defined) */
};
_Static_assert(sizeof(struct myrmex_frame) == 112, "frame layout");


/* What get() tells the caller, copied by the kernel: trust this, not the
 * control ICA, which others may write. */
#define MYRMEX_DELIVERY_REQUEST 1u   /* a request for the server that called get */
#define MYRMEX_DELIVERY_RESULT  2u   /* the result of one of the caller's calls */

struct myrmex_delivery {
	uint64_t control;    /* address of the control ICA (now attached to you) */
	uint32_t handle;     /* its handle */
	uint32_t kind;       /* MYRMEX_DELIVERY_* */
	int32_t requester;   /* request: the caller's pid; result: the server's pid */
	uint32_t frame;      /* offset of the frame concerned */
	uint32_t opcode;
	uint32_t ndata;
	uint32_t data[MYRMEX_FRAME_DATA];   /* data ICAs now yours (attached, or parked when
	                                       they could not be mapped) */
	uint16_t data_pages[MYRMEX_FRAME_DATA];   /* their sizes in pages */
	int64_t status;      /* result: the status */
	uint32_t origin;     /* request: MYRMEX_ORIGIN_KERNEL when the kernel itself made
	                        the call (a Linux call it forwards, a page fault, an
	                        unmap notice) on a channel the program cannot touch,
	                        else 0. Servers trust this, never a word of the frame. */
	uint32_t parked;     /* bit i: data[i] came parked (attach it before use);
	                        the others are mapped already */
	int32_t client;      /* request: the pid of the process whose call this is (the
	                        first stage's caller; for a Linux call the kernel
	                        forwards, the process that made it): servers match
	                        per-client state (a cancel, a sleep) on this */
	uint32_t coreid;     /* request: the coreid it was sent to, as the kernel
	                        routed it (a server may serve several,
	                        MYRMEX_REGIST_MORE); 0 otherwise */
};
_Static_assert(sizeof(struct myrmex_delivery) == 80, "delivery layout");

#define MYRMEX_ORIGIN_KERNEL 1u

#endif
