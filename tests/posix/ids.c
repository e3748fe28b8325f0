/*
 * getpid/getppid/gettid and the user and group ids (a single root user on
 * Myrmex; the suite runs as root on Linux): relations between the ids of a
 * parent, a child and a thread, and the id values.
 */
#include "posix_test.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static pid_t thread_pid, thread_tid;

static void *thread_main(void *arg)
{
	(void)arg;
	thread_pid = getpid();
	thread_tid = (pid_t)syscall(SYS_gettid);
	return NULL;
}

int main(void)
{
	pid_t me = getpid(), parent = getppid();
	say("getpid positive: %s\n", yes(me > 0));
	say("getppid positive: %s\n", yes(parent > 0));
	say("getpid differs from getppid: %s\n", yes(me != parent));
	say("getpid stable: %s\n", yes(getpid() == me));
	say("gettid equals getpid in the main thread: %s\n", yes(syscall(SYS_gettid) == me));
	int p[2];
	if (pipe(p) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		pid_t ids[2] = { getpid(), getppid() };
		_exit(write(p[1], ids, sizeof ids) == sizeof ids ? 0 : 1);
	}
	pid_t ids[2] = { 0, 0 };
	if (read(p[0], ids, sizeof ids) != sizeof ids)
		say("child report missing\n");
	waitpid(pid, NULL, 0);
	say("child's getpid is fork's return: %s\n", yes(ids[0] == pid));
	say("child's getppid is the parent: %s\n", yes(ids[1] == me));
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	say("a thread's getpid is the process's: %s\n", yes(thread_pid == me));
	say("a thread's gettid differs from the pid: %s\n", yes(thread_tid > 0 && thread_tid != me));
	say("getuid %ld geteuid %ld getgid %ld getegid %ld\n", (long)getuid(),
	    (long)geteuid(), (long)getgid(), (long)getegid());
	return 0;
}
