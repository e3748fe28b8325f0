/*
 * t_linux: a plain static musl program (no Myrmex call, no libmyrmex) run
 * by the Linux personality on SH-4 (sh4init's "+t_linux": a POSIX
 * process). Without a file manager on SH-4 it cannot write to a file
 * descriptor, so it reports through its exit status: 0, or the number of
 * the first check that failed. It checks musl's start-up (the auxiliary
 * vector, TLS through GBR, errno), memory (brk and mmap2 through malloc),
 * the clocks (musl falls back from the time64 calls to the 32-bit ones),
 * a short sleep, the ids, uname, a signal mask round trip, and a handler:
 * SIGUSR1 raised, delivered through SH Linux's rt_sigframe (siginfo,
 * ucontext) and returned from through musl's restorer (rt_sigreturn), the
 * interrupted code going on with its registers and signal mask intact.
 * Then a restart: a futex wait (no timeout, so SA_RESTART runs it again)
 * made with a raw trapa whose r0, the fifth argument, holds a known value,
 * interrupted by SIGALRM: each handler must see the call set to run again
 * as SH Linux shows it (pc at the trapa, r0 the entry's value, not the
 * -EINTR that overwrote it), and the call must end only when the second
 * such handler changes the word (-EAGAIN). Then the port's call forms'
 * own refusals (sh_forms.c): the old fcntl's and fcntl64's lock commands
 * on 32-bit struct flock (-EINVAL, not served), statfs64 and fstatfs64
 * with a size other than SH Linux's 84 (-EINVAL), preadv with an offset
 * whose high register makes it negative (-EINVAL), waitid with no child and a bad infop (-ECHILD,
 * nothing written).
 *
 * t_linux forged-pc | unmapped | forged-sr (sh4init's "+t_linux:<kind>!"):
 * rt_sigreturn with a frame whose pc is kernel space (P1), or with r15 at
 * an unmapped page: the kernel must refuse the frame and kill the program;
 * with a frame whose sr asks for privileged mode (MD) and whose pc reads
 * the kernel: the kernel keeps only the user's SR bits, so the read is an
 * address error that kills the program.
 */
#define _GNU_SOURCE   /* mcontext_t's registers */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <ucontext.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static __thread int tls_value = 42;

static volatile int handled_sig, handled_code, handled_uc;

static void on_usr1(int sig, siginfo_t *info, void *uc)
{
	handled_sig = info->si_signo == sig ? sig : -1;
	handled_code = info->si_code;
	handled_uc = uc != NULL;
}

/* A handler runs and returns into the interrupted code (18..22). */
static int check_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 18;
	volatile uint32_t before = 0x12345678;
	if (raise(SIGUSR1) != 0)
		return 19;
	if (handled_sig != SIGUSR1 || handled_code != SI_TKILL || !handled_uc)
		return 20;
	if (before != 0x12345678)
		return 21;
	sigset_t now;
	if (sigprocmask(SIG_SETMASK, NULL, &now) != 0 || sigismember(&now, SIGUSR1))
		return 22;
	return 0;
}

#define SH_FUTEX 240
#define RESTART_R0 0x5a5a1234u

static volatile uint32_t futex_word;
static volatile int restarts, wrong_r0;

/* A handler that finds the interrupted code at our trapa (0xc314, r3 the
 * call's number) sees a call set to run again: its r0 must be the entry's.
 * The second such handler lets the wait end, so it ends only after two
 * restarts, however the alarms fall. */
static void on_alrm(int sig, siginfo_t *info, void *ucv)
{
	(void)sig;
	(void)info;
	const ucontext_t *uc = ucv;
	const uint16_t *pc = (const uint16_t *)uc->uc_mcontext.pc;
	if (*pc != 0xc314 || uc->uc_mcontext.gregs[3] != SH_FUTEX)
		return;
	if (uc->uc_mcontext.gregs[0] != RESTART_R0)
		wrong_r0++;
	if (++restarts == 2)
		futex_word = 1;
}

/* futex(&futex_word, FUTEX_WAIT, 0, NULL, r0 = RESTART_R0, r1 = 0). */
static long futex_wait_raw(void)
{
	register long r3 __asm__("r3") = SH_FUTEX;
	register long r4 __asm__("r4") = (long)&futex_word;
	register long r5 __asm__("r5") = 0;
	register long r6 __asm__("r6") = 0;
	register long r7 __asm__("r7") = 0;
	register long r0 __asm__("r0") = (long)RESTART_R0;
	register long r1 __asm__("r1") = 0;
	__asm__ volatile("trapa #0x14"
	                 : "+r"(r0)
	                 : "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7), "r"(r1)
	                 : "memory");
	return r0;
}

static int check_restart(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_alrm;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return 23;
	struct itimerval every = { { 0, 5000 }, { 0, 5000 } }, off = { { 0, 0 }, { 0, 0 } };
	if (setitimer(ITIMER_REAL, &every, NULL) != 0)
		return 24;
	long r = futex_wait_raw();
	setitimer(ITIMER_REAL, &off, NULL);
	if (wrong_r0)
		return 25;
	if (r != -EAGAIN || restarts < 2)
		return 26;
	return 0;
}

/* A raw call that must fail with err. */
static int fails_with(long r, int err)
{
	return r == -1 && errno == err;
}

#define SH_F_GETLK_OLD 5    /* 32-bit struct flock's F_GETLK (musl's is 12) */

/* The refusals of sh_forms.c's call forms: 0, or the failed check's number. */
static int check_forms(void)
{
	char buf[128];
	struct iovec v = { buf, 8 };
	if (!fails_with(syscall(SYS_fcntl, 0, SH_F_GETLK_OLD, buf), EINVAL))
		return 27;
	if (!fails_with(syscall(SYS_fcntl64, 0, SH_F_GETLK_OLD, buf), EINVAL))
		return 28;
	if (!fails_with(syscall(SYS_statfs64, "/", 64, buf), EINVAL))
		return 29;
	if (!fails_with(syscall(SYS_fstatfs64, 0, 88, buf), EINVAL))
		return 30;
	/* The offset's high word, the fifth argument (r0), makes it negative. */
	if (!fails_with(syscall(SYS_preadv, 0, &v, 1, 0L, (long)0x80000000u), EINVAL))
		return 31;
	if (!fails_with(syscall(SYS_waitid, P_ALL, 0, (void *)8, WEXITED | WNOHANG, NULL), ECHILD))
		return 32;
	return 0;
}

static int check(void)
{
	if (getauxval(AT_PAGESZ) != 4096)
		return 1;
	if (tls_value != 42)
		return 2;
	tls_value = 7;
	if (tls_value != 7)
		return 3;
	uintptr_t gbr;
	__asm__ volatile("stc gbr, %0" : "=r"(gbr));
	if (gbr == 0)
		return 4;
	char *small = malloc(100);
	char *big = malloc(1 << 20);   /* mmap2 */
	if (!small || !big)
		return 5;
	memset(big, 0x5a, 1 << 20);
	if (big[(1 << 20) - 1] != 0x5a)
		return 6;
	free(big);
	free(small);
	struct timespec a, b;
	if (clock_gettime(CLOCK_MONOTONIC, &a) != 0)
		return 7;
	struct timespec nap = { 0, 2000000 };
	if (nanosleep(&nap, NULL) != 0)
		return 8;
	if (clock_gettime(CLOCK_MONOTONIC, &b) != 0)
		return 9;
	int64_t ns = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
	if (ns < 2000000)
		return 10;
	if (getpid() <= 1 || getppid() != 1)
		return 11;
	if (getuid() != 0 || geteuid() != 0)
		return 12;
	struct utsname u;
	if (uname(&u) != 0 || strcmp(u.machine, "sh4") != 0)
		return 13;
	errno = 0;
	if (kill(99999, 0) != -1 || errno != ESRCH)
		return 14;
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, &old) != 0)
		return 15;
	sigset_t now;
	if (sigprocmask(SIG_SETMASK, &old, &now) != 0 || !sigismember(&now, SIGUSR1))
		return 16;
	char line[64];
	snprintf(line, sizeof line, "%llu", 1000000000000ULL / 7);
	if (strcmp(line, "142857142857") != 0)
		return 17;
	int failed = check_handler();
	if (!failed)
		failed = check_restart();
	return failed ? failed : check_forms();
}

#define SH_RT_SIGRETURN 173
#define FRAME_SIZE 404            /* SH Linux's rt_sigframe */
#define FRAME_R15_OFFSET 212      /* siginfo 128, ucontext's header 20, oldmask, r0-r14 */
#define FRAME_PC_OFFSET 216
#define FRAME_SR_OFFSET 224       /* after pc and pr */
#define SR_MD 0x40000000u

/* rt_sigreturn with r15 at frame; should it come back, exit(1) (call 1:
 * mov's immediate is 8 bits), since r15 is not a stack any more. */
static void sigreturn_at(uintptr_t frame)
{
	register long r3 __asm__("r3") = SH_RT_SIGRETURN;
	register long r4 __asm__("r4") = (long)frame;
	__asm__ volatile("mov r4, r15\n\t"
	                 "trapa #0x10\n\t"
	                 "mov #1, r4\n\t"
	                 "mov #1, r3\n\t"
	                 "trapa #0x11"
	                 : : "r"(r3), "r"(r4) : "memory");
}

/* Where forged-sr's frame returns: reads the kernel, which must fault. */
static void read_kernel(void)
{
	(void)*(volatile uint32_t *)0x8c800000u;
	_exit(1);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "forged-sr") == 0) {
		static uint32_t stack[1024];
		static uint32_t frame[FRAME_SIZE / 4];
		frame[FRAME_R15_OFFSET / 4] = (uint32_t)(uintptr_t)&stack[1020];
		frame[FRAME_PC_OFFSET / 4] = (uint32_t)(uintptr_t)read_kernel;
		frame[FRAME_SR_OFFSET / 4] = SR_MD;
		sigreturn_at((uintptr_t)frame);
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "forged-pc") == 0) {
		static uint32_t frame[FRAME_SIZE / 4];
		frame[FRAME_PC_OFFSET / 4] = 0x8c800000u;   /* the kernel, in P1 */
		sigreturn_at((uintptr_t)frame);
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "unmapped") == 0) {
		sigreturn_at(0x7f000000u);
		return 1;
	}
	return check();
}
