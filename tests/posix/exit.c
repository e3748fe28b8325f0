/*
 * exit and exit_group: exit() runs atexit handlers and flushes stdio, _exit()
 * does neither; the status is truncated to 8 bits; exit() from a second
 * thread ends the whole process (exit_group) with that status; pthread_exit
 * (the exit system call) ends only that thread: pthread_join sees it through
 * the futex word the kernel clears (CLONE_CHILD_CLEARTID), and the process
 * goes on.
 */
#include "posix_test.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void at_exit_handler(void)
{
	say("atexit handler ran\n");
}

static int run_child(void (*body)(void))
{
	pid_t pid = fork();
	if (pid == 0) {
		body();
		_exit(100);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -WTERMSIG(status);
}

static void body_exit(void)
{
	atexit(at_exit_handler);
	setvbuf(stdout, NULL, _IOFBF, 4096);
	printf("buffered line written before exit\n");
	exit(3);
}

static void body_underscore_exit(void)
{
	atexit(at_exit_handler);
	setvbuf(stdout, NULL, _IOFBF, 4096);
	printf("buffered line written before _exit (must not appear)\n");
	_exit(4);
}

static void body_exit_259(void)
{
	exit(259);
}

static void *thread_exits_process(void *arg)
{
	(void)arg;
	exit(5);
}

static void body_thread_exit(void)
{
	pthread_t t;
	pthread_create(&t, NULL, thread_exits_process, NULL);
	for (;;)
		pause();
}

static void *thread_exits_itself(void *arg)
{
	*(int *)arg = 1;
	pthread_exit(NULL);
}

static void body_thread_sys_exit(void)
{
	pthread_t t;
	int ran = 0;
	pthread_create(&t, NULL, thread_exits_itself, &ran);
	pthread_join(t, NULL);
	_exit(ran ? 6 : 7);
}

static void body_exit_group(void)
{
	syscall(SYS_exit_group, 8);
}

int main(void)
{
	say("exit(3): status %d\n", run_child(body_exit));
	say("_exit(4): status %d\n", run_child(body_underscore_exit));
	say("exit(259): status %d\n", run_child(body_exit_259));
	say("exit(5) in a second thread: status %d\n", run_child(body_thread_exit));
	say("pthread_exit in a second thread, main joins and exits 6: status %d\n",
	    run_child(body_thread_sys_exit));
	say("SYS_exit_group(8): status %d\n", run_child(body_exit_group));
	return 0;
}
