/*
 * timed: the time server, the time service library (servers/time/timesvc)
 * in a process of its own, as paper 003 splits time from files.
 */
#ifndef TIMED_H
#define TIMED_H

#include "../timesvc/timesvc.h"

/* table.c: the server (its operations and callbacks) for server_run. */
extern const struct server timed_server;

#endif
