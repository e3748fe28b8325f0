/*
 * posix_start: the first POSIX process. sysinit spawns it from a boot
 * module with MYRMEX_SPAWN_POSIX; it opens the console (through the file
 * manager) as descriptors 0, 1 and 2, starts a session whose foreground
 * group it is, and execs its arguments from the file system:
 *
 *     posix_start /bin/sh [args...]
 *
 * Exits with 127 when the program cannot be run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static char *const default_env[] = {
	"PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/root", "TERM=vt100", "SHELL=/bin/sh",
	"USER=root", "LOGNAME=root", NULL,
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: posix_start program [args...]\n");
		return 2;
	}
	int fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return 127;   /* no console: nowhere to say so */
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
	setsid();
	ioctl(0, TIOCSCTTY, 0);
	pid_t me = getpid();
	ioctl(0, TIOCSPGRP, &me);
	execve(argv[1], argv + 1, default_env);
	fprintf(stderr, "posix_start: cannot run %s: %s\n", argv[1], strerror(errno));
	return 127;
}
