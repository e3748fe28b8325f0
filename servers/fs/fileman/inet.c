/*
 * inet.c - Internet sockets (Linux AF_INET: stream, datagram and raw) as
 * descriptors of the file manager (docs/net.md, "TCP/IP"). The socket
 * itself lives in the TCP/IP server (coreid 10, include/myrmex/inet.h);
 * here it is a description holding the server's handle, so that close,
 * dup, fork, exec and poll treat it as every other descriptor.
 *
 * Every call on it is passed on to the TCP/IP server as the next stage of
 * the caller's own call, with the handle in place of the descriptor and
 * direct return: the server's answer (and a receive's bytes, in the
 * caller's data ICA) goes straight back, and a call that must wait (a
 * receive, accept, connect, a send with no room) waits there, not here.
 * Only making a socket (INET_SOCKET), its last close (INET_CLOSE) and
 * poll's question (INET_POLL) are our own synchronous calls to the server,
 * which never calls us: no cycle.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <myrmex/inet.h>

#define SEND_HEADROOM 14u   /* the kernel puts a send's bytes behind 14 bytes (FS_SENDTO) */

/* A synchronous call of ours to the TCP/IP server on a control ICA of our
 * own: its status (-ENETDOWN when no server runs). */
static int64_t inet_call_res(uint32_t op, uint64_t a0, uint64_t a1, uint64_t res_out[8]);

static int64_t inet_call(uint32_t op, uint64_t a0)
{
	return inet_call_res(op, a0, 0, NULL);
}

int64_t inet_ask(uint32_t op, uint64_t a0, uint64_t a1, uint64_t res[8])
{
	return inet_call_res(op, a0, a1, res);
}

int inet_info(uint64_t res[8])
{
	int64_t r = inet_call_res(INET_IFINFO, 0, 0, res);
	return r < 0 ? (int)r : 0;
}

static int64_t inet_call_res(uint32_t op, uint64_t a0, uint64_t a1, uint64_t res_out[8])
{
	static uint32_t ctl;
	if (!ctl) {
		long h = myrmex_ica_alloc(1);
		if (h < 0)
			return h;
		ctl = (uint32_t)h;
	}
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_INET, op);
	if (!f)
		return -EINVAL;
	f->arg[0] = a0;
	f->arg[1] = a1;
	long r = myrmex_callsync(h);
	if (r < 0)
		return r == -ESRCH || r == -EPIPE ? -ENETDOWN : r;
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	if (res && res_out)
		memcpy(res_out, res->arg, sizeof(res->arg));
	return res ? res->status : -EIO;
}

/* The inet description of fd for call op, or NULL with *err: a packet
 * socket answers as Linux's (an inet address to bind: -EINVAL; streams'
 * calls: -EOPNOTSUPP). */
static struct open_file *inet_file(struct server_request *rq, uint64_t fd, uint64_t op,
                                   int64_t *err)
{
	struct open_file *f = files_get(rq->d.requester, fd);
	if (f && f->kind == FM_SOCKET)
		*err = op == INET_BIND ? -EINVAL : -EOPNOTSUPP;
	else
		*err = !f ? -EBADF : f->kind == FM_INET ? 0 : -ENOTSOCK;
	return *err ? NULL : f;
}

static int64_t pass_on(struct server_request *rq, uint32_t op, const uint64_t *a, unsigned n)
{
	int64_t r = request_pass_on_n(rq, MYRMEX_COREID_INET, op, a, n);
	return r == -ESRCH ? -ENETDOWN : r;
}

/* A new description and descriptor for handle; the handle is closed when
 * no descriptor can be had. */
static int install(struct server_request *rq, uint64_t handle, uint64_t flags)
{
	int err = files_room(rq->d.requester);
	struct open_file *f = err ? NULL : ofd_new(FM_INET, O_RDWR | ((int)flags & O_NONBLOCK));
	if (!f) {
		inet_call(INET_CLOSE, handle);
		return err ? err : -ENFILE;
	}
	f->inet = handle;
	int fd = files_install(rq->d.requester, f, 0, flags & O_CLOEXEC);
	ofd_unref(f);   /* the descriptor's reference stays (or the socket closes) */
	return fd;
}

int64_t inet_socket(struct server_request *rq)
{
	const struct fs_socket_args *a = SERVER_IN(rq, struct fs_socket_args);
	if (a->type != INET_STREAM && a->type != INET_DGRAM && a->type != INET_RAW)
		return -ESOCKTNOSUPPORT;
	if (a->flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	int err = files_room(rq->d.requester);
	if (err)
		return err;
	int64_t handle = inet_call_res(INET_SOCKET, a->type, a->protocol, NULL);
	if (handle < 0)
		return handle == -ENETDOWN ? -EAFNOSUPPORT : handle;   /* no network: as a kernel without IPv4 */
	return install(rq, (uint64_t)handle, a->flags);
}

int64_t do_inet_adopt(struct server_request *rq)
{
	const struct fs_inet_adopt_args *a = SERVER_IN(rq, struct fs_inet_adopt_args);
	if (a->flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	return install(rq, a->handle, a->flags);
}

int64_t do_inet(struct server_request *rq)
{
	const struct fs_inet_args *a = SERVER_IN(rq, struct fs_inet_args);
	struct open_file *pf = files_get(rq->d.requester, a->fd);
	if (pf && pf->kind == FM_SOCKET && a->op == INET_NAME)
		return socket_name(rq, pf->sock, a->arg[0]);   /* getsockname of a packet socket */
	int64_t err;
	struct open_file *f = inet_file(rq, a->fd, a->op, &err);
	if (!f)
		return err;
	uint64_t args[7] = { f->inet, a->arg[0], a->arg[1], a->arg[2], a->arg[3], a->arg[4], a->arg[5] };
	bool nonblock = f->flags & O_NONBLOCK;
	switch (a->op) {
	case INET_ACCEPT:
		args[1] |= nonblock ? INET_NONBLOCK : 0;
		break;
	case INET_CONNECT:
		args[3] |= nonblock ? INET_NONBLOCK : 0;
		break;
	case INET_SEND:
		/* The bytes are behind the headroom, as for FS_SENDTO. */
		args[1] = SEND_HEADROOM;
		args[3] |= nonblock ? INET_NONBLOCK : 0;
		break;
	case INET_BIND:
	case INET_LISTEN:
	case INET_SHUTDOWN:
	case INET_NAME:
	case INET_SETOPT:
	case INET_GETOPT:
		break;
	default:
		return -EINVAL;   /* made, closed and polled by us only */
	}
	server_out(rq, FS_RESULT_KIND, FS_KIND_SOCKET);
	return pass_on(rq, (uint32_t)a->op, args, 7);
}

int64_t inet_sendto(struct server_request *rq, struct open_file *f)
{
	const struct fs_sendto_args *a = SERVER_IN(rq, struct fs_sendto_args);
	if (!rq->data || rq->data_size < SEND_HEADROOM || a->length > rq->data_size - SEND_HEADROOM)
		return -EINVAL;
	uint64_t flags = (f->flags & O_NONBLOCK) || a->dontwait ? INET_NONBLOCK : 0;
	uint64_t args[6] = { f->inet, SEND_HEADROOM, a->length, flags, 0, 0 };
	server_out(rq, FS_RESULT_KIND, FS_KIND_SOCKET);
	return pass_on(rq, INET_SEND, args, 6);
}

int64_t inet_recvfrom(struct server_request *rq, struct open_file *f)
{
	const struct fs_recvfrom_args *a = SERVER_IN(rq, struct fs_recvfrom_args);
	if (!rq->data || a->length > rq->data_size)
		return -EINVAL;
	uint64_t flags = ((f->flags & O_NONBLOCK) || a->dontwait ? INET_NONBLOCK : 0) |
	                 (a->peek ? INET_PEEK : 0) | (a->waitall ? INET_WAITALL : 0);
	uint64_t args[3] = { f->inet, a->length, flags };
	server_out(rq, FS_RESULT_KIND, FS_KIND_SOCKET);
	return pass_on(rq, INET_RECV, args, 3);
}

int64_t inet_io(struct server_request *rq, struct open_file *f, bool write)
{
	const struct fs_io_args *a = SERVER_IN(rq, struct fs_io_args);
	uint64_t nonblock = f->flags & O_NONBLOCK ? INET_NONBLOCK : 0;
	if (write) {
		uint64_t args[6] = { f->inet, 0, a->length, nonblock, 0, 0 };
		return pass_on(rq, INET_SEND, args, 6);
	}
	uint64_t args[3] = { f->inet, a->length, nonblock };
	return pass_on(rq, INET_RECV, args, 3);
}

unsigned inet_poll(const struct open_file *f)
{
	int64_t r = inet_call(INET_POLL, f->inet);
	return r < 0 ? POLLERR | POLLHUP : (unsigned)r;
}

void inet_close(uint64_t handle)
{
	inet_call(INET_CLOSE, handle);
}
