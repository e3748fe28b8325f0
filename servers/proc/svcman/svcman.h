/*
 * svcman: the service manager (docs/services.md), in the spirit of MINIX 3's
 * reincarnation server. It reads the service table (a text boot module),
 * starts each service with exactly the rights the table gives it (the
 * coreids it may call, its device, the server right), waits until it has
 * registered, and restarts one that dies, with a back-off and a limit.
 */
#ifndef SVCMAN_H
#define SVCMAN_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>

#define SVC_MAX 16
#define SVC_NAME_MAX 16
#define SVC_ARGS_MAX 4
#define SVC_ARG_LEN 32

enum svc_restart {
	RESTART_ALWAYS,   /* start it again (back-off, at most SVC_RESTART_LIMIT in a row) */
	RESTART_REBOOT,   /* its state cannot be rebuilt: stop the system in order */
	RESTART_NEVER,    /* leave it dead */
};

struct service {
	char name[SVC_NAME_MAX];
	char program[SVC_ARG_LEN];
	int coreid;                    /* -1: registers none */
	char device[SVC_ARG_LEN];      /* "", "virtio-blk[:n]", "virtio-net", "com1" */
	struct myrmex_rights calls;    /* the coreids it may call */
	char args[SVC_ARGS_MAX][SVC_ARG_LEN];
	unsigned nargs;
	enum svc_restart restart;
	bool optional;                 /* skipped (logged) when it cannot start at boot */
	char fsconf[SVC_ARG_LEN];      /* "": always; else the configurations it runs in */
	/* State. */
	bool skipped;                  /* optional, and not started at boot */
	long pid;                      /* 0 when not running */
	unsigned restarts;             /* in a row (reset once it has lived a while) */
	unsigned total_restarts;
	uint64_t started_ns;
};

struct svc_table {
	struct service s[SVC_MAX];
	unsigned n;
};

/* Parses the table text (docs/services.md); 0, or -1 with a message
 * naming the line. */
int table_parse(const char *text, struct svc_table *t);

/* The service whose name or coreid is given, or NULL. */
struct service *table_find_coreid(struct svc_table *t, int coreid);

#endif
