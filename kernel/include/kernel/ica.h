/*
 * ICAs: n physically contiguous pages, allocated and freed as a unit, that
 * the kernel maps into an address space at the handle's slot of the ICA
 * window (include/myrmex/ica.h) and moves between address spaces instead of
 * copying.
 *
 * States: ATTACHED (mapped in owner), PARKED (owner's, unmapped), IN_FLIGHT
 * (travelling with a call: a control ICA with its call state, or a data ICA
 * carried by a control ICA). An idle ICA is mapped in at most one address
 * space; a control ICA in flight may be mapped in two: its home (the sync
 * caller, which waits) and its handler (the server working on it), as AnT
 * does (paper 004, section 3.2).
 *
 * Locking (kernel/klock.h): the kernel lock guards the ICA table and every
 * field here. When it is split, the table, handles, states and owners go
 * under the ICA table's lock [ica], a call's state (struct ipc_call) under
 * the communication mechanism's [ipc], taken first.
 */
#ifndef KERNEL_ICA_H
#define KERNEL_ICA_H

#include <kernel/types.h>
#include <kernel/arch.h>
#include <kernel/list.h>
#include <myrmex/ica.h>

struct process;
struct thread;

#define ICA_MAX_PER_PROCESS   64
#define ICA_MAX_PAGES_CHARGED 4096   /* per process: 16 MiB */
/* A process with the server right may hold more: the file manager keeps its
 * block cache in ICAs (the disk driver reads into them by DMA). The system
 * memory budget (vm_reserve_pages) still bounds them all. */
#define ICA_MAX_PER_SERVER        512
#define ICA_MAX_PAGES_SERVER      65536   /* 256 MiB */
/* Slots only processes with the server right may take: the others share
 * the rest (-EAGAIN, counted in kstats.ipc_quota_refused). */
#define ICA_SERVER_RESERVE        256

enum ica_state { ICA_ATTACHED, ICA_PARKED, ICA_IN_FLIGHT };

/* One stage of a call: who called, the frame that describes it, and what
 * the kernel read when the stage was called (the caller may rewrite the
 * frame afterwards; these copies are what ret and the delivery believe). */
struct ipc_hop {
	int requester;          /* pid */
	struct thread *waiter;  /* the thread blocked in callsync, or NULL (async) */
	uint32_t frame;         /* offset of the frame in the control ICA */
	uint32_t opcode;        /* the frame's opcode as checked at the call */
	uint32_t target;        /* the coreid it was routed by (the delivery's coreid) */
	bool direct;            /* MYRMEX_CTL_DIRECT_RETURN was set at the call */
	uint8_t nlent;
	uint32_t lent[MYRMEX_FRAME_DATA];   /* handles of the data ICAs delivered with the
	                                       request: what the handler may give back
	                                       while the caller still maps the frame */
};

/* The kernel's state of a control ICA in flight (kernel/ipc.c). [ipc] */
struct ipc_call {
	struct process *home;       /* sync original caller: the ICA stays mapped there */
	struct process *handler;    /* the server working on it: mapped there too */
	struct process *queued_by;  /* counted in its calls_queued while on a request
	                               queue (first-stage user calls only) */
	struct list_node link;      /* on a request queue or a result queue */
	unsigned nhops;
	struct ipc_hop hops[MYRMEX_MAX_STAGES];
	bool kernel_origin;         /* the stage being delivered is the kernel's own call */
	unsigned ncarried;
	struct ica *carried[MYRMEX_FRAME_DATA];
	/* The delivery in progress (request or result). */
	uint32_t kind;
	int64_t status;
	int from;                   /* result: pid of the server that produced it */
	uint32_t frame;             /* the frame the delivery concerns */
	uint32_t opcode;            /* its opcode, from the kernel's record */
};

struct ica {
	/* Fixed while the ICA lives. */
	uint32_t handle;
	uint32_t npages;
	paddr_t base;
	/* [ica] */
	enum ica_state state;
	struct process *owner;      /* ATTACHED or PARKED */
	struct process *charged;    /* the allocator, until it dies */
	struct ica *carrier;        /* a data ICA in flight: its control ICA */
	/* Part of a thread's kernel channel (posix/forward.h): the kernel makes
	 * calls with it on the thread's behalf; the user may not free, park,
	 * attach or send it, and such a control ICA can carry only channel data
	 * ICAs. */
	bool kernel_channel;
	bool user_slot;             /* allocated by a process without the server right:
	                               counts against the slots they share */
	struct ipc_call call;       /* a control ICA in flight */
};

/* Allocates an ICA attached to p. Errors: -EINVAL, -EAGAIN (limits), -ENOMEM. */
int ica_alloc(struct process *p, uint32_t npages, struct ica **out);
/* Frees an ICA, unmapping it from wherever it is mapped, and what it carries. */
void ica_destroy(struct ica *ica);
/* Makes a fresh ICA part of a kernel channel: from now on it is never
 * mapped in the process it was allocated for (see posix/forward.h). */
void ica_make_channel(struct ica *ica);
/* Maps / unmaps an ICA in p's address space (map: 0 or -ENOMEM/-EAGAIN). */
int ica_map(struct ica *ica, struct process *p);
void ica_unmap(struct ica *ica, struct process *p);
/* The ICA a handle names, or NULL for a forged or stale handle. */
struct ica *ica_lookup(uint32_t handle);
/* The ICA whose slot starts exactly at user address addr, or NULL. */
struct ica *ica_at(uptr_t addr);
static inline uptr_t ica_address(const struct ica *ica)
{
	return (uptr_t)(uintptr_t)myrmex_ica_addr(ica->handle);
}
/* Reads / writes ICA memory at a byte offset (through the direct map). */
static inline void *ica_kernel_ptr(const struct ica *ica, uint32_t offset)
{
	return (uint8_t *)arch_phys_to_virt(ica->base) + offset;
}
bool ica_in_window(uptr_t start, uint64_t size);
/* Calls fn on every live ICA (safe against fn destroying it). */
void ica_for_each(void (*fn)(struct ica *ica, void *arg), void *arg);
uint64_t ica_live_count(void);

#endif
