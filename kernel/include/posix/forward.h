/*
 * Forwarding Linux system calls to servers (docs/posix.md). Each thread of a
 * POSIX process gets a channel at its first forwarded call: a one-page
 * control ICA and data ICAs (one page for small calls, FORWARD_LARGE_PAGES
 * for the rest), made by the kernel and marked kernel_channel so that the
 * user cannot take them. A forwarded call is one synchronous call through
 * the normal mechanism (ipc_call_ica): the frame's requester is the pid.
 *
 * Use: forward_begin picks the channel and a data ICA big enough for
 * data_bytes (0: none), the caller fills fwd.arg[] and the data ICA
 * (forward_data), forward_call makes the call and leaves the result frame's
 * arg[] in fwd.res[]. The data ICA's contents after the call are the
 * server's: check every length before copying out.
 */
#ifndef KERNEL_FORWARD_H
#define KERNEL_FORWARD_H

#include <kernel/types.h>
#include <posix/route.h>

struct ica;
struct thread;
struct process;

#define FORWARD_SMALL_BYTES  4096u
#define FORWARD_LARGE_PAGES  16u
#define FORWARD_LARGE_BYTES  (FORWARD_LARGE_PAGES * 4096u)

/* ICA handles (0: none yet, or lost to an interrupted call or a dead
 * server); a handle is looked up before every use, so a stale one is
 * harmless. */
struct forward_channel {
	uint32_t ctl, small, large;
	uint32_t pager;   /* page faults' own control and data ICAs: a fault can */
	uint32_t pager_data;   /* happen while the others hold a forwarded call's data */
};

struct fwd {
	struct thread *t;
	struct ica *ctl;       /* the channel's control ICA, found by forward_begin */
	enum posix_service service;
	uint32_t target, opcode;   /* target: the service's coreid (posix/route.h) */
	uint64_t arg[8];
	uint64_t res[8];       /* the result frame's arg[] */
	struct ica *data;      /* the data ICA of this call, or NULL */
	uint32_t data_size;    /* its size in bytes */
	bool real_ids;         /* stamp the real uid and gid, not the file-system
	                          ones (access, faccessat: include/myrmex/fs.h FS_CRED_*) */
	bool uninterruptible;  /* wait for the answer whatever signal comes (only the
	                          thread's death cuts it short): forward_begin sets it
	                          for the calls that never wait in the server, a read
	                          or write sets it for a quick descriptor */
};

/* Gets the current thread's channel ready for a call to the server of
 * service carrying up to data_bytes. 0, or -ENOMEM/-EAGAIN (no ICA could be
 * made), -E2BIG (data_bytes over FORWARD_LARGE_BYTES). */
int forward_begin(struct fwd *f, enum posix_service service, uint32_t opcode,
                  uint32_t data_bytes);
/* The kernel address of the data ICA's first byte (forward_begin with data). */
void *forward_data(struct fwd *f);
/* Makes the call: the server's status (>= 0 or -errno), or -errno of the
 * mechanism (-ESRCH no server, -EPIPE it died, -EINTR a signal; the thread's
 * channel is then replaced). Afterwards forward_data is valid only if
 * f->data is still non-NULL (the server gave the data ICA back). */
long forward_call(struct fwd *f);
/* The page-fault path's call to the file manager (posix/fmap.h), over the
 * channel's pager control ICA and, when data is given, its one-page pager
 * data ICA (*data then receives the kernel address of its contents after
 * the call, or NULL when the server did not give it back), woken only by
 * the thread's death (-EINTR). The status, with the result's arguments in
 * res. */
long forward_pager_call(uint32_t opcode, const uint64_t arg[8], uint64_t res[8], void **data);
/* An asynchronous request from the kernel in p's name, whose result nobody
 * takes (the mechanism frees it): 0 or -errno (-ESRCH no server, -EAGAIN
 * p's ICA limit or the server's queue, or p is that server itself: its
 * channel would be hidden from it). p must be alive. */
int forward_notify(struct process *p, enum posix_service service, uint32_t opcode, uint64_t arg0);
/* Frees a thread's channel (thread exit); ICAs in flight are left to the
 * mechanism, which frees an orphan's result. */
void forward_thread_exit(struct thread *t);
/* Tells the servers whose route has an exit notice (the file manager's
 * FS_EXIT) that POSIX process p ends: asynchronous, nobody waits for the
 * result. */
void forward_process_exit(struct process *p);

#endif
