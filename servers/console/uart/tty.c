/*
 * The terminal side of the console protocol (include/myrmex/console.h):
 * CONSOLE_IOCTL, decoded through a table of requests (the size of the
 * structure each moves comes from console_ioctl_size, the one the kernel
 * uses too), CONSOLE_POLL, the foreground process group, the window size,
 * and the signals typed characters ask for.
 *
 * A request is checked whole (its data ICA, its argument) before anything
 * changes. An input structure is copied out of the data ICA once: the
 * caller's other threads may write the ICA meanwhile.
 */
#include "uart.h"

#include <myrmex/fs.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

static int32_t foreground;   /* the foreground process group; 0 while none is set */
static struct console_winsize winsize = { .ws_row = 24, .ws_col = 80 };

/* ---------------------------------------------------------- signals */

static long kill_group(int32_t group, int sig)
{
	return myrmex_syscall6(SYS_kill, -(long)group, sig, 0, 0, 0, 0);
}

/* sig to every process of group; nothing while none is set, nor to group 1,
 * since kill(-1) means every process. A refusal other than "no such group"
 * is logged once: it means the kernel cannot do it. */
static void signal_group(int32_t group, int sig)
{
	static bool logged;
	if (group <= 1)
		return;
	long r = kill_group(group, sig);
	if (r < 0 && r != -ESRCH && !logged) {
		console_log("kill(-%d, %d): %ld; no signals to the foreground group", (int)group, sig, r);
		logged = true;
	}
}

/* client's group when it is a background job of the terminal (not the
 * foreground group, not init's), else 0. */
static int32_t background_group(int32_t client)
{
	if (foreground <= 1 || client <= 0)
		return 0;
	long group = myrmex_syscall6(SYS_getpgid, client, 0, 0, 0, 0, 0);
	if (group <= 1 || group == foreground)
		return 0;   /* init's group (native programs) is never sent signals */
	return (int32_t)group;
}

/* Linux's job-control check for client's read (SIGTTIN) or write
 * (SIGTTOU) from its background group, made by the kernel (tty_signal),
 * which knows its signal state: 0 (go on), -EINTR (the group was sent sig:
 * the call runs again once it continues) or -EIO. */
static int64_t job_check(int32_t client, int32_t group, int sig)
{
	long r = myrmex_syscall6(MYRMEX_SYS_TTY_SIGNAL, client, sig, 0, 0, 0, 0);
	if (r == MYRMEX_TTY_SENT)
		return -EINTR;
	if (r == MYRMEX_TTY_ORPHANED)
		return -EIO;
	if (r == MYRMEX_TTY_IGNORED)
		return sig == SIGTTOU ? 0 : -EIO;
	/* The kernel would not say (not a POSIX process): the group's signal. */
	signal_group(group, sig);
	return -EINTR;
}

int64_t tty_background_read(int32_t client)
{
	int32_t group = background_group(client);
	return group ? job_check(client, group, SIGTTIN) : 0;
}

int64_t tty_background_write(int32_t client)
{
	if (!(console_line.tio.c_lflag & CONSOLE_TOSTOP))
		return 0;
	int32_t group = background_group(client);
	return group ? job_check(client, group, SIGTTOU) : 0;
}

void tty_signal(enum line_event event)
{
	int sig = event == LINE_EVENT_SIGQUIT ? SIGQUIT : event == LINE_EVENT_SIGTSTP ? SIGTSTP : SIGINT;
	signal_group(foreground, sig);
	readers_interrupt();   /* after the signal: a reader woken sees it pending */
}

/* ---------------------------------------------------------- requests */

/* One ioctl: the structure in the data ICA (mapped, when it moves one) and
 * the integer argument. */
struct tty_call {
	char *data;
	uint64_t value;
};

static int64_t termios_get(const struct tty_call *c)
{
	memcpy(c->data, &console_line.tio, sizeof(console_line.tio));
	return 0;
}

static int64_t termios_set(const struct tty_call *c)
{
	struct console_termios t;
	memcpy(&t, c->data, sizeof(t));
	t.c_line = 0;   /* N_TTY, the one line discipline */
	line_set_termios(&console_line, &t);
	readers_serve();   /* e.g. raw now, or VMIN 0: waiting reads may be answered */
	return 0;
}

static int64_t termios_set_flush(const struct tty_call *c)
{
	line_flush(&console_line);
	return termios_set(c);
}

static int64_t winsize_get(const struct tty_call *c)
{
	memcpy(c->data, &winsize, sizeof(winsize));
	return 0;
}

static int64_t winsize_set(const struct tty_call *c)
{
	struct console_winsize w;
	memcpy(&w, c->data, sizeof(w));
	bool changed = memcmp(&w, &winsize, sizeof(w)) != 0;
	winsize = w;
	if (changed)
		signal_group(foreground, SIGWINCH);
	return 0;
}

static int64_t pgrp_get(const struct tty_call *c)
{
	memcpy(c->data, &foreground, sizeof(foreground));
	return 0;
}

/* A group that the kernel says is empty is refused; a kernel that cannot
 * tell (no process groups yet) is taken at its word of nothing. */
static int64_t pgrp_set(const struct tty_call *c)
{
	int32_t group;
	memcpy(&group, c->data, sizeof(group));
	if (group < 0)
		return -EINVAL;
	if (group == 0 || (group > 1 && kill_group(group, 0) == -ESRCH))
		return -ESRCH;
	foreground = group;
	return 0;
}

static int64_t unread_get(const struct tty_call *c)
{
	int32_t n = (int32_t)line_unread(&console_line);
	memcpy(c->data, &n, sizeof(n));
	return 0;
}

static int64_t flush(const struct tty_call *c)
{
	if (c->value != CONSOLE_TCIFLUSH && c->value != CONSOLE_TCOFLUSH &&
	    c->value != CONSOLE_TCIOFLUSH)
		return -EINVAL;
	if (c->value != CONSOLE_TCOFLUSH)   /* output is never pending */
		line_flush(&console_line);
	return 0;
}

static int64_t flow(const struct tty_call *c)
{
	return c->value <= CONSOLE_TCION ? 0 : -EINVAL;   /* accepted; output never stops */
}

static int64_t accepted(const struct tty_call *c)
{
	(void)c;
	return 0;
}

static const struct {
	uint32_t request;
	int64_t (*run)(const struct tty_call *c);
} ioctls[] = {
	{ CONSOLE_TCGETS, termios_get },
	{ CONSOLE_TCSETS, termios_set },
	{ CONSOLE_TCSETSW, termios_set },   /* output is never pending: nothing to drain */
	{ CONSOLE_TCSETSF, termios_set_flush },
	{ CONSOLE_TIOCGWINSZ, winsize_get },
	{ CONSOLE_TIOCSWINSZ, winsize_set },
	{ CONSOLE_TIOCGPGRP, pgrp_get },
	{ CONSOLE_TIOCSPGRP, pgrp_set },
	{ CONSOLE_FIONREAD, unread_get },
	{ CONSOLE_TCFLSH, flush },
	{ CONSOLE_TCXONC, flow },
	{ CONSOLE_TIOCSCTTY, accepted },
	{ CONSOLE_TIOCNOTTY, accepted },
};

int64_t do_ioctl(struct server_request *rq)
{
	const struct console_ioctl_args *a = SERVER_IN(rq, struct console_ioctl_args);
	uint64_t request = a->request;
	uint32_t in, out;
	if (console_ioctl_size(request, &in, &out) < 0)
		return -ENOTTY;
	for (unsigned i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++) {
		if (ioctls[i].request != request)
			continue;
		struct tty_call c = { NULL, a->value };
		uint64_t length = in > out ? in : out;
		if (length > 0) {
			int64_t err;
			c.data = request_data(rq, length, &err);
			if (!c.data)
				return err;
		}
		return ioctls[i].run(&c);
	}
	return -ENOTTY;
}

/* A poll found nothing to read since the last readiness notice. */
static bool polled_empty;

int64_t do_poll(struct server_request *rq)
{
	(void)rq;
	bool in = line_poll_in(&console_line);
	if (!in)
		polled_empty = true;
	return (in ? CONSOLE_POLLIN : 0) | CONSOLE_POLLOUT;
}

void tty_notice_input(void)
{
	if (!polled_empty || !line_poll_in(&console_line))
		return;
	polled_empty = false;
	/* The kernel wakes the waiters of poll, select and epoll, which ask
	 * the file manager, and it us, again (include/myrmex/fs.h). */
	myrmex_syscall6(MYRMEX_SYS_POLL_NOTICE, 0, 0, 0, 0, 0, 0);
}
