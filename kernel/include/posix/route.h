/*
 * The personality's routing table: which server answers each service the
 * Linux personality forwards to, and how that server is told of a request
 * that lost its caller or of a process that ended. It is the one place
 * that ties the personality to server coreids and to the opcodes of those
 * notices; the system calls name a service, and speak its protocol.
 */
#ifndef POSIX_ROUTE_H
#define POSIX_ROUTE_H

#include <kernel/types.h>

struct process;

enum posix_service {
	SERVICE_FILES,       /* the file manager: files, pipes, the console's descriptors */
	SERVICE_PROCESSES,   /* the process manager: fork and exec */
	SERVICE_TIME,        /* the time server: clocks and sleeps */
	SERVICE_CONSOLE,     /* the console server (reached through the file manager) */
	SERVICE_PROCFS,      /* the /proc server (reached through the file manager) */
	SERVICE_INET,        /* the TCP/IP server (reached through the file manager) */
	SERVICE_COUNT
};

struct posix_route {
	uint32_t coreid;     /* the server's coreid */
	/* An orphaned request (its caller took a signal and left) is cancelled
	 * with this opcode, arg[0] the control ICA's handle, at every service
	 * whose bit is in cancel_at (the file manager passes console reads on
	 * to the console server, so both may hold one); 0: none. */
	uint32_t cancel_op;
	uint32_t cancel_at;
	/* A POSIX process ended: this opcode, arg[0] the pid; 0: not told. */
	uint32_t exit_op;
	/* What a call in flight returns when its server dies with it (-EPIPE
	 * from the kernel): -EINTR for the console, which the service manager
	 * restarts, so that the program simply asks again; -EPIPE for the time
	 * calls, which then finish the call in the kernel; -EIO otherwise. */
	int32_t died_errno;
};

/* The route of service s (s < SERVICE_COUNT). */
const struct posix_route *posix_route(enum posix_service s);
/* The process serving s now, or NULL. */
struct process *posix_server(enum posix_service s);

#endif
