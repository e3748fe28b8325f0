/*
 * The demo init (pid 1) that `make run` boots: it greets, starts a few
 * programs from the boot modules, shows what the kernel counted, and powers
 * the machine off. The shell replaces it once the POSIX personality exists.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <myrmex.h>

static void run(const char *module, char *const argv[])
{
	char *const envp[] = { "HOME=/", NULL };
	long pid = myrmex_spawn(module, argv, envp, -1);
	if (pid < 0) {
		printf("init: cannot start %s: error %ld\n", module, -pid);
		return;
	}
	int status = 0;
	waitpid((pid_t)pid, &status, 0);
	if (WIFEXITED(status))
		printf("init: %s (pid %ld) exited with status %d\n", module, pid, WEXITSTATUS(status));
	else
		printf("init: %s (pid %ld) was killed by signal %d\n", module, pid, WTERMSIG(status));
}

int main(void)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	printf("Hello from Myrmex user space! init is pid %d; the time is %lld s after the epoch.\n",
	       (int)getpid(), (long long)now.tv_sec);
	fflush(stdout);
	char *const hello_argv[] = { "hello", "one", "two", NULL };
	run("hello", hello_argv);

	struct myrmex_kstats s;
	if (myrmex_kstats(&s) > 0)
		printf("init: %llu system calls, %llu context switches, %llu page faults, "
		       "%llu of %llu pages free, TSC %llu kHz\n",
		       (unsigned long long)s.syscalls, (unsigned long long)s.context_switches,
		       (unsigned long long)s.page_faults, (unsigned long long)s.free_pages,
		       (unsigned long long)s.total_pages, (unsigned long long)s.tsc_khz);
	printf("init: demo done, powering off\n");
	fflush(stdout);
	myrmex_poweroff(0);
	return 0;
}
