/*
 * client.c - the disk drivers' client check (client.h). The client's pid
 * is looked up again when a request comes from another pid than the one
 * found last (pids are never reused).
 */
#include "client.h"

#include <errno.h>
#include <stdlib.h>
#include <myrmex.h>
#include <myrmex/disk.h>
#include <myrmex/ica.h>

static unsigned client_coreid;
static long client_pid;

int disk_client_set(const char *text)
{
	char *end;
	unsigned long coreid = strtoul(text, &end, 10);
	if (*text == '\0' || *end != '\0' || coreid == 0 || coreid > MYRMEX_MAX_COREID)
		return -1;
	client_coreid = (unsigned)coreid;
	return 0;
}

unsigned disk_client_coreid(void)
{
	return client_coreid;
}

int64_t disk_client_check(struct server_request *rq, const struct server_op *op)
{
	(void)op;
	if (!client_coreid || rq->d.opcode == DISK_INFO)
		return 0;
	if (client_pid <= 0 || rq->d.requester != client_pid)
		client_pid = myrmex_server_pid(client_coreid);
	return client_pid > 0 && rq->d.requester == client_pid ? 0 : -EPERM;
}
