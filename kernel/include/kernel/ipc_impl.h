/*
 * The steps of the communication mechanism that kernel/ipc.c and its fast
 * path (kernel/ipc_fast.c) share. Not for anyone else: the rest of the
 * kernel uses kernel/ipc.h. Every function expects the kernel lock.
 */
#ifndef KERNEL_IPC_IMPL_H
#define KERNEL_IPC_IMPL_H

#include <kernel/ipc.h>

struct myrmex_frame;

/* Copies the top frame's head (all but arg[]) after checking the header
 * and the frame's links: 0 or -EINVAL. */
int ipc_read_top_frame(const struct ica *ctl, uint32_t *offset, struct myrmex_frame *f,
                       uint32_t *flags);
/* The data ICAs frame f names, checked (distinct idle ICAs attached to p),
 * into data[]: 0 or -EINVAL. */
int ipc_check_data(struct process *p, const struct ica *ctl, const struct myrmex_frame *f,
                   struct ica **data);
/* Records a checked call without queueing it (see ipc.c). */
void ipc_call_record(struct process *me, struct thread *t, struct ica *ctl, bool idle,
                     uint32_t off, uint32_t opcode, uint32_t target, bool direct,
                     struct ica **data, uint32_t ndata, bool sync);
/* Queues a recorded call at server and wakes a getter. */
void ipc_call_queue(struct process *me, struct ica *ctl, struct process *server, bool counted);
/* The end of callsync's wait for t (r: the wait's result): the result's
 * status, or why there is none. */
int ipc_call_wait_end(struct thread *t, struct ica *ctl, int r);
/* Takes delivery of ctl in me's own context (maps it and what it carries,
 * writes the header, fills *out if not NULL): 0 or -ENOMEM, nothing moved. */
int ipc_receive(struct ica *ctl, struct process *me, struct myrmex_delivery *out);
/* ret's checks and moves, up to the delivery of the result: the control
 * ICA with *status and *direct, or NULL with *err (nothing moved). */
struct ica *ipc_return_take(struct thread *t, uptr_t addr, int64_t *status, bool *direct,
                            int *err);

/* ipc_call_channel's fast path (ipc_fast.c): the checked channel call of
 * t handed to a thread of server waiting in get; true with the call's
 * result in *result, false (nothing moved) for the slow path. */
bool ipc_fast_call_channel(struct process *me, struct thread *t, struct ica *ctl,
                           uint32_t opcode, uint32_t target, struct process *server,
                           struct ica *data, int *result);

#endif
