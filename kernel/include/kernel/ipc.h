/*
 * The server program communication mechanism of AnT (paper 004): servers
 * registered by coreid, a request queue per server and a result queue per
 * process, sync and async calls carried by control ICAs, get/ret, multi-stage
 * calls and direct return. See docs/ipc.md.
 */
#ifndef KERNEL_IPC_H
#define KERNEL_IPC_H

#include <kernel/types.h>
#include <myrmex/ica.h>

struct process;
struct thread;
struct ica;

/* Quotas. A process's own first-stage calls may wait in server queues at
 * most IPC_QUEUE_PER_CALLER at a time (-EAGAIN, kstats.ipc_quota_refused).
 * Forwarded stages are bounded by the requests their server took, and the
 * kernel's channel calls by the threads it makes them for, so neither
 * counts. A queue is not bounded otherwise: every request in it is a control
 * ICA, and processes without the server right share at most
 * MYRMEX_ICA_SLOTS - ICA_SERVER_RESERVE of those (kernel/ica.h), so no set
 * of programs can fill a queue and shut others out; IPC_QUEUE_MAX, which no
 * queue can reach, stays as the invariant's check. */
#define IPC_QUEUE_PER_CALLER 48
#define IPC_QUEUE_MAX MYRMEX_ICA_SLOTS

int ipc_register(struct process *p, uint64_t coreid);
/* The process registered for coreid, or NULL. */
struct process *ipc_server(uint64_t coreid);
/* callsync / callasync of the control ICA at user address ctl. */
int ipc_call(struct thread *t, uptr_t ctl, bool sync);
/* The same call made by the kernel on behalf of process me with a control
 * ICA of its own: t waits for a sync call (NULL for async). */
int ipc_call_ica(struct process *me, struct thread *t, struct ica *ctl, bool sync);
/* The kernel's own call over a channel (ica_make_channel): ctl is idle and
 * me's, with the kernel's one frame, for target, written just after the
 * header; data (or NULL) is an idle channel ICA of me's that the frame
 * names. Since no process maps an idle channel ICA, the frame is not read
 * and checked again: only the server and its queue room are. Errors and
 * waiting as ipc_call_ica. */
int ipc_call_channel(struct process *me, struct thread *t, struct ica *ctl, uint32_t target,
                     struct ica *data, bool sync);
/* Unmaps the control ICA of the request at ctl that t's process handles
 * from its synchronous caller (the home) until the result returns. */
int ipc_claim(struct thread *t, uptr_t ctl);
/* Returns the result of the request at ctl that t's process is handling. */
int ipc_return(struct thread *t, uptr_t ctl);
/* Waits for the next request or result; fills *out, returns the control
 * ICA's address or -errno. */
long ipc_get(struct thread *t, struct myrmex_delivery *out);
/* The fast path (kernel/ipc_fast.c, docs/ipc.md): on unless the kernel's
 * command line says ipc_fast=off. Both return false, with nothing moved,
 * for the slow path to take the call.
 * ipc_fast_call: callsync of ctl by t, handed to a server thread waiting in
 * get; true with callsync's result in *result.
 * ipc_fast_reply: the result at ctl, which t's process handles, handed to
 * its caller waiting in callsync; true once t, which waited in get, runs
 * again (the rest of its get is the slow path's). The thread's ipc_resume
 * says which call it is in. */
extern bool ipc_fast_enabled;
bool ipc_fast_call(struct thread *t, uptr_t ctl, long *result);
bool ipc_fast_reply(struct thread *t, uptr_t ctl);
/* Tidies up when a process ends, before its address space goes: requests
 * it serves or queued get -EPIPE; its ICAs are unmapped and freed. */
void ipc_process_exit(struct process *p);

#endif
