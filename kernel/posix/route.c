/*
 * The routing table of the Linux personality (see posix/route.h): the only
 * file of kernel/posix that names server coreids and the cancel and exit
 * notices; the system calls name a service.
 */
#include <posix/route.h>
#include <kernel/errno.h>
#include <kernel/ipc.h>
#include <myrmex/console.h>
#include <myrmex/fs.h>
#include <myrmex/inet.h>
#include <myrmex/proc.h>
#include <myrmex/procfs.h>
#include <myrmex/time.h>

#define BIT(s) (1u << (s))

static const struct posix_route routes[SERVICE_COUNT] = {
	[SERVICE_FILES] = {
		.coreid = MYRMEX_COREID_FS,
		.cancel_op = FS_CANCEL,
		.cancel_at = BIT(SERVICE_FILES) | BIT(SERVICE_CONSOLE) | BIT(SERVICE_INET),
		.exit_op = FS_EXIT,
		.died_errno = -EIO,
	},
	[SERVICE_PROCESSES] = { .coreid = MYRMEX_COREID_PM, .died_errno = -EIO },
	/* A sleep is cancelled by the time calls themselves (posix/timesrv.c),
	 * which know its handle and the time left; when the server dies with
	 * a call, the kernel finishes it itself (posix/sys_time.c). */
	[SERVICE_TIME] = { .coreid = MYRMEX_COREID_TIME, .died_errno = -EPIPE },
	[SERVICE_CONSOLE] = { .coreid = MYRMEX_COREID_CONSOLE, .cancel_op = CONSOLE_CANCEL,
	                      .died_errno = -EINTR },
	[SERVICE_PROCFS] = { .coreid = MYRMEX_COREID_PROCFS, .died_errno = -EIO },
	/* Socket calls pass through the file manager to the TCP/IP server,
	 * which parks those that wait: a cancel and the exit notice reach it
	 * directly. */
	[SERVICE_INET] = { .coreid = MYRMEX_COREID_INET, .cancel_op = INET_CANCEL,
	                   .exit_op = INET_EXIT, .died_errno = -EPIPE },
};

const struct posix_route *posix_route(enum posix_service s)
{
	return &routes[s];
}

struct process *posix_server(enum posix_service s)
{
	return ipc_server(routes[s].coreid);
}
