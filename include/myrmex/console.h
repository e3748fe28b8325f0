/*
 * The console protocol: what a program (or the file manager, for
 * /dev/console) sends to the console server and what it gets back. The
 * server today is servers/console/uart, the driver of the serial port COM1.
 * The console is a terminal: Linux's termios, foreground process group and
 * window size, so that the POSIX personality (docs/posix.md) passes a
 * program's terminal calls on unchanged.
 *
 * A call is one frame (include/myrmex/ica.h) with target
 * MYRMEX_COREID_CONSOLE, an opcode below, its arguments in arg[1] and arg[2]
 * and (where the opcode says so) one data ICA (data[0]) that carries bytes or
 * a structure at offset 0 and always comes back with the result. arg[0] is
 * ignored: the file manager puts the descriptor there when it passes a call
 * on (a second stage, usually with direct return).
 *
 *   CONSOLE_WRITE  the first arg[1] bytes of the data ICA go out on the
 *                  console; with OPOST, ONLCR sends '\n' as "\r\n" and OCRNL
 *                  '\r' as '\n' (the default: ONLCR). status: bytes written
 *                  (arg[1]).
 *   CONSOLE_READ   the data ICA receives at most arg[1] bytes of input.
 *                  status: bytes; arg[1] 0 gives 0 at once.
 *       With ICANON (canonical, the default) input comes in lines: a read
 *       waits until a line is complete and returns at most one line. Typed
 *       characters are echoed (ECHO); VERASE (DEL) or BS erases one character
 *       (a whole UTF-8 sequence; shown as "\b \b" with ECHOE), VKILL (Ctrl-U)
 *       the line, VWERASE (Ctrl-W, with IEXTEN) the last word; '\n' (CR too,
 *       with ICRNL, the default), VEOL and VEOL2 end the line, which the read
 *       returns with that character; VEOF (Ctrl-D) ends it without adding
 *       anything: at the start of a line the read returns 0 (end of file),
 *       elsewhere the line so far. Other control characters and escape
 *       sequences (arrow keys) are dropped. A line holds at most 1023
 *       characters (more are refused with a bell); a line longer than arg[1]
 *       comes in several reads.
 *       Without ICANON (raw) nothing is edited or dropped: every byte, escape
 *       sequences included, is passed on, after ISTRIP, IGNCR, ICRNL and
 *       INLCR; a read returns as soon as min(VMIN, arg[1]) bytes wait, with
 *       as many as wait up to arg[1]; with VMIN 0 it returns at once, maybe
 *       with 0 bytes. VTIME is not implemented: reads behave as with VTIME 0.
 *       In both modes, with IXON, VSTART and VSTOP (Ctrl-Q, Ctrl-S) are
 *       swallowed (output is never stopped); with ISIG, VINTR (Ctrl-C) and
 *       VQUIT (Ctrl-\) discard the line being typed and the unread input
 *       (unless NOFLSH), echo "^C\n" or "^\\\n" (with ECHO; ECHOCTL gives
 *       the "^C"), send SIGINT or SIGQUIT to the foreground process group
 *       (below) and then answer every waiting read with -EINTR; VSUSP
 *       (Ctrl-Z) is swallowed (no job control). A character set to 0 in
 *       c_cc is disabled (_POSIX_VDISABLE).
 *       Switching ICANON off makes the line being typed readable; switching
 *       it on makes whatever waits unread one line. Several reads may wait at
 *       once (CONSOLE_MAX_READERS): they are answered in the order they came.
 *   CONSOLE_IOCTL  a terminal request: arg[1] the request (Linux's number,
 *                  below), arg[2] the integer argument where Linux passes an
 *                  int by value, the data ICA the structure Linux passes by
 *                  address (in for a set, out for a get, at offset 0: the
 *                  sizes are in console_ioctl_size()). status 0.
 *       CONSOLE_TCGETS          out: struct console_termios (36 bytes).
 *       CONSOLE_TCSETS          in: struct console_termios; takes effect at
 *       CONSOLE_TCSETSW         once (output is never pending, so W is S);
 *       CONSOLE_TCSETSF         F first discards the unread input and the
 *                               line being typed.
 *       CONSOLE_TIOCGWINSZ      out: struct console_winsize (24 x 80 at
 *       CONSOLE_TIOCSWINSZ      first); in: a new size, and SIGWINCH to the
 *                               foreground group if it changed.
 *       CONSOLE_TIOCGPGRP       out: int32, the foreground group (0: none
 *                               set yet).
 *       CONSOLE_TIOCSPGRP       in: int32, the new foreground group: < 0
 *                               -EINVAL, 0 -ESRCH; -ESRCH also when the
 *                               kernel says no process is in it (kill with
 *                               signal 0). Group 1 is kept but never sent a
 *                               signal (kill(-1) would mean every process).
 *       CONSOLE_FIONREAD        out: int32, the bytes a read could take now
 *                               (completed lines only, with ICANON).
 *       CONSOLE_TCFLSH          arg[2] TCIFLUSH (0) or TCIOFLUSH (2): the
 *                               unread input and the line being typed are
 *                               discarded; TCOFLUSH (1) does nothing (output
 *                               is never pending); others -EINVAL.
 *       CONSOLE_TCXONC          arg[2] TCOOFF, TCOON, TCIOFF, TCION (0..3):
 *                               accepted, nothing done; others -EINVAL.
 *       CONSOLE_TIOCSCTTY       accepted, nothing done (one terminal, one
 *       CONSOLE_TIOCNOTTY       session); no data ICA needed.
 *       Any other request (TIOCGSID among them): -ENOTTY. The caller copies
 *       a structure in before the call and out after a success; the server
 *       reads an input structure once, so a caller changing it meanwhile
 *       gains nothing.
 *   CONSOLE_POLL   no arguments, no data ICA needed: answers at once with
 *                  the events that hold: CONSOLE_POLLIN when a read would
 *                  not wait for input (a complete line or a pending end of
 *                  file with ICANON; without it max(VMIN, 1) bytes) |
 *                  CONSOLE_POLLOUT (always: writes never wait). The caller
 *                  masks them with what it asked for.
 *   CONSOLE_CANCEL arg[0] the handle of the control ICA of a read that waits
 *                  here: it is answered at once with -EINTR (the kernel
 *                  sends this when a signal interrupted the reading thread,
 *                  whose call went on without it: the next line must not
 *                  go to nobody). status 0, or -ESRCH when no such read
 *                  of the same client (the delivery's client pid) waits.
 *
 * The foreground group is the console's only knowledge of processes: a
 * signal goes with kill(-group, sig), and nothing is sent while no group is
 * set. Who may call the console at all is the kernel's business: only the
 * processes given the right to call coreid 4 (include/myrmex/rights.h: the
 * file manager; programs reach it through the file manager's /dev/console
 * and the kernel's channels).
 *
 * Errors (status < 0): -EINVAL no data ICA where the call needs one (WRITE,
 * READ, an ioctl moving a structure), arg[1] larger than the data ICA
 * (WRITE, READ), a bad ioctl argument; -ENOTTY an unknown ioctl request;
 * -ESRCH TIOCSPGRP of a group that does not exist; -EINTR a read interrupted
 * by VINTR or VQUIT; -EAGAIN too many reads waiting already
 * (CONSOLE_MAX_READERS); -ENOSYS an unknown opcode; -ENOMEM the data ICA
 * could not be mapped. The kernel adds -EPIPE if the server dies.
 */
#ifndef MYRMEX_CONSOLE_H
#define MYRMEX_CONSOLE_H

#include <stdint.h>

/* The same value as in include/myrmex/fs.h, which may be included too. */
#ifndef MYRMEX_COREID_CONSOLE
#define MYRMEX_COREID_CONSOLE 4u
#endif

#define CONSOLE_WRITE 1u
#define CONSOLE_READ  2u
#define CONSOLE_IOCTL 3u   /* arg[1] request, arg[2] integer argument; data ICA in/out */
#define CONSOLE_POLL  4u   /* status: POLLIN (1) if a read would not wait | POLLOUT (4) */
#define CONSOLE_CANCEL 5u  /* arg[0]: the control ICA handle of a waiting read */

#define CONSOLE_MAX_READERS 32u   /* reads that may wait at once */

#define CONSOLE_POLLIN  0x1u
#define CONSOLE_POLLOUT 0x4u

/* ioctl requests: Linux's numbers (asm-generic/ioctls.h). */
#define CONSOLE_TCGETS     0x5401u
#define CONSOLE_TCSETS     0x5402u
#define CONSOLE_TCSETSW    0x5403u
#define CONSOLE_TCSETSF    0x5404u
#define CONSOLE_TCXONC     0x540Au
#define CONSOLE_TCFLSH     0x540Bu
#define CONSOLE_TIOCSCTTY  0x540Eu
#define CONSOLE_TIOCGPGRP  0x540Fu
#define CONSOLE_TIOCSPGRP  0x5410u
#define CONSOLE_TIOCGWINSZ 0x5413u
#define CONSOLE_TIOCSWINSZ 0x5414u
#define CONSOLE_FIONREAD   0x541Bu
#define CONSOLE_TIOCNOTTY  0x5422u

/* TCFLSH and TCXONC arguments. */
#define CONSOLE_TCIFLUSH  0u
#define CONSOLE_TCOFLUSH  1u
#define CONSOLE_TCIOFLUSH 2u
#define CONSOLE_TCOOFF    0u
#define CONSOLE_TCOON     1u
#define CONSOLE_TCIOFF    2u
#define CONSOLE_TCION     3u

/* Typed views of the frame's uint64_t arg[8]: one uint64_t field per
 * argument word, as above, so that they hold on 32-bit targets too. */
struct console_io_args {       /* CONSOLE_WRITE, CONSOLE_READ */
	uint64_t fd;               /* ignored (the file manager's descriptor) */
	uint64_t length;           /* bytes to write, most bytes to read */
};
struct console_ioctl_args {    /* CONSOLE_IOCTL */
	uint64_t fd;               /* ignored */
	uint64_t request;          /* CONSOLE_TC*, CONSOLE_TIOC*, CONSOLE_FIONREAD */
	uint64_t value;            /* the integer argument */
};
struct console_cancel_args {   /* CONSOLE_CANCEL */
	uint64_t handle;           /* the waiting read's control ICA */
};
_Static_assert(sizeof(struct console_io_args) <= 64, "console_io_args fits arg[]");
_Static_assert(sizeof(struct console_ioctl_args) <= 64, "console_ioctl_args fits arg[]");
_Static_assert(sizeof(struct console_cancel_args) <= 64, "console_cancel_args fits arg[]");

/* Linux's kernel struct termios on x86-64 (not libc's, which is longer). */
#define CONSOLE_NCCS 19u
struct console_termios {
	uint32_t c_iflag;
	uint32_t c_oflag;
	uint32_t c_cflag;
	uint32_t c_lflag;
	uint8_t c_line;
	uint8_t c_cc[CONSOLE_NCCS];
};
_Static_assert(sizeof(struct console_termios) == 36, "struct termios layout");

struct console_winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};
_Static_assert(sizeof(struct console_winsize) == 8, "struct winsize layout");

/* c_cc indexes. */
#define CONSOLE_VINTR    0
#define CONSOLE_VQUIT    1
#define CONSOLE_VERASE   2
#define CONSOLE_VKILL    3
#define CONSOLE_VEOF     4
#define CONSOLE_VTIME    5
#define CONSOLE_VMIN     6
#define CONSOLE_VSWTC    7
#define CONSOLE_VSTART   8
#define CONSOLE_VSTOP    9
#define CONSOLE_VSUSP    10
#define CONSOLE_VEOL     11
#define CONSOLE_VREPRINT 12
#define CONSOLE_VDISCARD 13
#define CONSOLE_VWERASE  14
#define CONSOLE_VLNEXT   15
#define CONSOLE_VEOL2    16

/* c_iflag: those the console honours (others are kept, with no effect). */
#define CONSOLE_ISTRIP 0x0020u
#define CONSOLE_INLCR  0x0040u
#define CONSOLE_IGNCR  0x0080u
#define CONSOLE_ICRNL  0x0100u
#define CONSOLE_IXON   0x0400u
/* c_oflag */
#define CONSOLE_OPOST  0x0001u
#define CONSOLE_ONLCR  0x0004u
#define CONSOLE_OCRNL  0x0008u
/* c_cflag: kept as set, the UART's framing is the kernel's. */
#define CONSOLE_B38400 0x000fu
#define CONSOLE_CS8    0x0030u
#define CONSOLE_CREAD  0x0080u
#define CONSOLE_HUPCL  0x0400u
/*
 * tty_signal(int pid, int sig) -> MYRMEX_TTY_* (the console server only,
 * -EPERM for anyone else): for a read (SIGTTIN) or a write with TOSTOP
 * (SIGTTOU) by process pid of a background group, Linux's job-control
 * check: IGNORED when pid ignores sig or blocks it (a write then goes
 * through, a read fails with -EIO), ORPHANED when its group is orphaned
 * (-EIO), else SENT: sig went to its whole group (the call is answered
 * -EINTR and runs again once the job continues). -EINVAL another sig,
 * -ESRCH no such POSIX process.
 */
#define MYRMEX_SYS_TTY_SIGNAL (MYRMEX_SYS_BASE + 63)
#define MYRMEX_TTY_IGNORED  0
#define MYRMEX_TTY_ORPHANED 1
#define MYRMEX_TTY_SENT     2

/* c_lflag */
#define CONSOLE_ISIG    0x0001u
#define CONSOLE_ICANON  0x0002u
#define CONSOLE_ECHO    0x0008u
#define CONSOLE_ECHOE   0x0010u
#define CONSOLE_ECHOK   0x0020u
#define CONSOLE_ECHONL  0x0040u
#define CONSOLE_NOFLSH  0x0080u
#define CONSOLE_TOSTOP  0x0100u   /* a background job's write stops it (SIGTTOU) */
#define CONSOLE_ECHOCTL 0x0200u
#define CONSOLE_ECHOKE  0x0800u
#define CONSOLE_IEXTEN  0x8000u

/* The bytes an ioctl request moves through the data ICA: *in from the
 * caller before the call, *out back to it after a success. Returns 0, or
 * -1 for a request the console does not know (it answers -ENOTTY). */
static inline int console_ioctl_size(uint64_t request, uint32_t *in, uint32_t *out)
{
	*in = *out = 0;
	switch (request) {
	case CONSOLE_TCGETS:
		*out = sizeof(struct console_termios);
		return 0;
	case CONSOLE_TCSETS:
	case CONSOLE_TCSETSW:
	case CONSOLE_TCSETSF:
		*in = sizeof(struct console_termios);
		return 0;
	case CONSOLE_TIOCGWINSZ:
		*out = sizeof(struct console_winsize);
		return 0;
	case CONSOLE_TIOCSWINSZ:
		*in = sizeof(struct console_winsize);
		return 0;
	case CONSOLE_TIOCGPGRP:
	case CONSOLE_FIONREAD:
		*out = sizeof(int32_t);
		return 0;
	case CONSOLE_TIOCSPGRP:
		*in = sizeof(int32_t);
		return 0;
	case CONSOLE_TCXONC:
	case CONSOLE_TCFLSH:
	case CONSOLE_TIOCSCTTY:
	case CONSOLE_TIOCNOTTY:
		return 0;
	default:
		return -1;
	}
}

#endif
