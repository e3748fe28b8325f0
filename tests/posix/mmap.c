/*
 * Anonymous mmap/munmap/mprotect: fresh mappings read as zeros, munmap of one
 * page leaves its neighbours, MAP_FIXED replaces part of a mapping, a large
 * mapping touched at both ends, mprotect to read-only and to PROT_NONE, and
 * the SIGSEGV of a forbidden access caught by a handler that leaves with
 * siglongjmp (si_addr and si_code: SEGV_ACCERR for a protected page,
 * SEGV_MAPERR for an unmapped one). No addresses are printed.
 */
#include "posix_test.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#define PAGE 4096

static sigjmp_buf jump;
static volatile void *fault_addr;
static volatile int fault_code, faults;

static void on_segv(int sig, siginfo_t *info, void *ctx)
{
	(void)sig;
	(void)ctx;
	fault_addr = info->si_addr;
	fault_code = info->si_code;
	faults++;
	siglongjmp(jump, 1);
}

static const char *code_name(int code)
{
	return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
}

/* Tries to write (or read) *p; reports whether it faulted and how. */
static void probe(const char *what, volatile char *p, int do_write)
{
	fault_addr = NULL;
	fault_code = 0;
	int before = faults;
	if (sigsetjmp(jump, 1) == 0) {
		if (do_write)
			*p = 'w';
		else
			(void)*p;
	}
	if (faults > before)
		say("%s: SIGSEGV, si_addr is the address: %s, %s\n", what,
		    yes(fault_addr == (void *)p), code_name(fault_code));
	else
		say("%s: no fault\n", what);
}

static int all_zero(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);

	char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mmap 4 pages: %s\n", yes(m != MAP_FAILED));
	if (m == MAP_FAILED)
		return 1;
	say("page aligned: %s\n", yes(((uintptr_t)m & (PAGE - 1)) == 0));
	say("reads as zeros: %s\n", yes(all_zero(m, 4 * PAGE)));
	memset(m, 'a', 4 * PAGE);
	probe("write to a mapped page", m + PAGE, 1);

	outcome("munmap of the second page", munmap(m + PAGE, PAGE));
	probe("write to the unmapped page", m + PAGE + 10, 1);
	say("first and third pages kept: %s\n", yes(m[0] == 'a' && m[2 * PAGE] == 'a'));

	char *f = mmap(m + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	say("MAP_FIXED over the third page: at the address asked: %s, zeros: %s\n",
	    yes(f == m + 2 * PAGE), yes(f != MAP_FAILED && all_zero(f, PAGE)));
	say("fourth page kept: %s\n", yes(m[3 * PAGE] == 'a'));

	outcome("mprotect of the first page read-only", mprotect(m, PAGE, PROT_READ));
	probe("read of the read-only page", m + 5, 0);
	probe("write to the read-only page", m + 5, 1);
	say("the refused write changed nothing: %s\n", yes(m[5] == 'a'));
	outcome("mprotect of the fourth page PROT_NONE", mprotect(m + 3 * PAGE, PAGE, PROT_NONE));
	probe("read of the PROT_NONE page", m + 3 * PAGE, 0);
	outcome("mprotect back to read-write", mprotect(m, PAGE, PROT_READ | PROT_WRITE));
	probe("write after mprotect read-write", m + 5, 1);
	outcome("mprotect of the fourth page back", mprotect(m + 3 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	say("its contents kept through PROT_NONE: %s\n", yes(m[3 * PAGE + 7] == 'a'));
	say("faults caught in all: %d\n", faults);

	outcome("munmap of the rest", munmap(m, 4 * PAGE));
	probe("write after munmap", m, 1);

	size_t big = 64 << 20;
	char *b = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mmap 64 MiB: %s\n", yes(b != MAP_FAILED));
	if (b != MAP_FAILED) {
		b[0] = 1;
		b[big / 2] = 2;
		b[big - 1] = 3;
		say("touched at both ends and the middle: %s\n",
		    yes(b[0] == 1 && b[big / 2] == 2 && b[big - 1] == 3 && b[PAGE] == 0));
		outcome("munmap 64 MiB", munmap(b, big));
	}
	char *r = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("read-only mmap: %s\n", yes(r != MAP_FAILED));
	probe("write to a read-only mapping", r, 1);
	munmap(r, PAGE);
	return 0;
}
