/*
 * client.h - who may use a disk driver (virtio_blk, cf_ide): the disk
 * protocol's common check. A driver given a client coreid (its second
 * argument: the file manager's) serves reads, writes and flushes to that
 * server alone; another process could otherwise read or overwrite the file
 * system under it. DISK_INFO tells nothing secret and is public. Without a
 * client anyone may call (the disk tests drive the drivers directly).
 */
#ifndef DISKDRV_CLIENT_H
#define DISKDRV_CLIENT_H

#include <stdint.h>
#include <server.h>

/* Takes the client coreid from text (a driver's second argument). 0, or
 * -1 when it is not a coreid (1..MYRMEX_MAX_COREID): the caller stops. */
int disk_client_set(const char *text);
/* The client coreid set, or 0. */
unsigned disk_client_coreid(void);
/* struct server's check: 0, or -EPERM for a request that is not the
 * client's. The requester is the kernel's (the delivery), never the
 * frame's. */
int64_t disk_client_check(struct server_request *rq, const struct server_op *op);

#endif
