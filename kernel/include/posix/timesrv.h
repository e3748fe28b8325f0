/*
 * The kernel's side of the time server (servers/time/timed, protocol
 * include/myrmex/time.h): the Linux time calls of a POSIX process become
 * one request each over the thread's kernel channel (posix/forward.h).
 * Every failure of the mechanism (no server, a server that died, no ICA
 * for the channel) is reported as an error, and the caller (sys_time.c)
 * then answers from the kernel's own clock: the same clock, so nothing a
 * process reads goes back when the server comes or goes.
 */
#ifndef KERNEL_TIMESRV_H
#define KERNEL_TIMESRV_H

#include <kernel/types.h>

/* Whether the calling thread's time calls go to the time server: it is a
 * POSIX process and a time server is registered. */
bool timesrv_serves(void);
/* TIME_GET or TIME_GETRES (opcode) of a valid clock: 0 and *ns, or -errno
 * (then the caller answers itself). */
int timesrv_read(uint32_t opcode, uint32_t clock, uint64_t *ns);
/* TIME_SLEEP of a valid clock and flags, for ns nanoseconds (relative) or
 * until ns on the clock (TIME_ABSTIME). 0 slept; -EINTR a signal took the
 * thread (the server has been told to drop the sleep: TIME_CANCEL);
 * -EINVAL refused; any other -errno: the server could not sleep for us
 * (gone, full), and the caller sleeps in the kernel instead. */
long timesrv_sleep(uint32_t clock, uint32_t flags, uint64_t ns);
/* TIME_SET: REALTIME becomes ns (checked: not below MONOTONIC). 0 (the
 * server has published the new epoch, which the kernel took), -EINVAL, or
 * another -errno: the caller sets the kernel's clock itself. */
long timesrv_set(uint64_t ns);

#endif
