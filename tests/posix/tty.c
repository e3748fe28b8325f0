/*
 * Terminal calls on the console (the runner's stdin and stdout): isatty,
 * tcgetattr (only the flags that are stable: ICANON, ECHO, ISIG, ICRNL,
 * OPOST, ONLCR, and VINTR, VEOF), tcsetattr round trip of ECHO,
 * TIOCGWINSZ succeeds; and ENOTTY for a pipe, a file and /dev/null, EBADF for
 * a closed descriptor.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>

static void not_a_tty(const char *what, int fd)
{
	errno = 0;
	int r = isatty(fd);
	say("isatty(%s): %s, errno %s\n", what, yes(r), err_name(errno));
	struct termios t;
	outcome(what, tcgetattr(fd, &t));
}

int main(void)
{
	say("isatty(0): %s\n", yes(isatty(0)));
	say("isatty(1): %s\n", yes(isatty(1)));
	struct termios t;
	memset(&t, 0, sizeof t);
	outcome("tcgetattr(0)", tcgetattr(0, &t));
	say("ICANON %s, ECHO %s, ISIG %s, ICRNL %s, OPOST %s, ONLCR %s\n",
	    yes(t.c_lflag & ICANON), yes(t.c_lflag & ECHO), yes(t.c_lflag & ISIG),
	    yes(t.c_iflag & ICRNL), yes(t.c_oflag & OPOST), yes(t.c_oflag & ONLCR));
	say("VINTR %d, VEOF %d\n", t.c_cc[VINTR], t.c_cc[VEOF]);
	struct termios saved = t;
	t.c_lflag &= ~ECHO;
	outcome("tcsetattr(0) without ECHO", tcsetattr(0, TCSANOW, &t));
	struct termios now;
	tcgetattr(0, &now);
	say("ECHO off read back: %s\n", yes(!(now.c_lflag & ECHO)));
	outcome("tcsetattr(0) restored", tcsetattr(0, TCSANOW, &saved));
	tcgetattr(0, &now);
	say("ECHO on again: %s\n", yes(now.c_lflag & ECHO));
	struct winsize ws;
	outcome("TIOCGWINSZ on 1", ioctl(1, TIOCGWINSZ, &ws));

	int p[2];
	if (pipe(p) < 0)
		return 1;
	not_a_tty("a pipe", p[0]);
	scratch_enter("tty");
	int fd = open("file", O_RDWR | O_CREAT, 0644);
	not_a_tty("a file", fd);
	close(fd);
	fd = open("/dev/null", O_RDWR);
	not_a_tty("/dev/null", fd);
	close(fd);
	not_a_tty("a closed descriptor", fd);
	scratch_leave();
	return 0;
}
