/*
 * mmap of files: MAP_SHARED stores seen by read(), another mapping and a
 * forked child; MAP_PRIVATE stores kept to the process (and its copy after
 * fork); MAP_POPULATE; write() seen through a mapping; msync; munmap of
 * a part; the zeros after the end of the file in its last page and SIGBUS
 * on a page wholly past it; a truncation under the mapping (SIGBUS from the
 * new end, the rest of the partial page cleared); a mapping kept after
 * close; the refusals (EACCES, ENODEV, EINVAL, EBADF), and mprotect adding
 * PROT_WRITE to a shared mapping of a read-only descriptor. Only relations
 * and error names are printed.
 */
#include "posix_test.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define PAGE  4096
#define SIZE  (3 * PAGE + 100)   /* three pages and a partial fourth */
#define PAGES 4

static sigjmp_buf jump;
static volatile void *fault_addr;
static volatile int fault_sig, fault_code;

static void on_fault(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	fault_sig = sig;
	fault_addr = info->si_addr;
	fault_code = info->si_code;
	siglongjmp(jump, 1);
}

static const char *code_name(int sig, int code)
{
	if (sig == SIGSEGV)
		return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
	return code == BUS_ADRERR ? "BUS_ADRERR" : "other";
}

/* Reads (or writes) *p and says what happened. */
static void probe(const char *what, volatile char *p, int do_write)
{
	fault_sig = 0;
	fault_addr = NULL;
	if (sigsetjmp(jump, 1) == 0) {
		if (do_write)
			*p = 'w';
		else
			(void)*p;
	}
	if (fault_sig)
		say("%s: %s, si_addr is the address: %s, %s\n", what,
		    fault_sig == SIGBUS ? "SIGBUS" : fault_sig == SIGSEGV ? "SIGSEGV" : "signal",
		    yes(fault_addr == (void *)p), code_name(fault_sig, fault_code));
	else
		say("%s: no fault\n", what);
}

static char pattern(size_t i)
{
	return (char)('a' + (i * 7 + i / PAGE) % 26);
}

static int matches_pattern(const volatile char *p, size_t from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != pattern(from + i))
			return 0;
	return 1;
}

static int all_zero(const volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int make_data(const char *path)
{
	static char buf[SIZE];
	for (size_t i = 0; i < SIZE; i++)
		buf[i] = pattern(i);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, SIZE) != SIZE) {
		say("make %s: error %s\n", path, err_name(errno));
		return -1;
	}
	return fd;
}

static char read_byte(int fd, off_t at)
{
	char c = 0;
	if (pread(fd, &c, 1, at) != 1)
		return 0;
	return c;
}

static void mapping_error(const char *what, int prot, int flags, int fd, off_t off, size_t len)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED) {
		say("mmap %s: error %s\n", what, err_name(errno));
	} else {
		say("mmap %s: ok\n", what);
		munmap(p, len);
	}
}

static void shared_and_private(int fd)
{
	volatile char *s = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	volatile char *t = mmap(NULL, PAGES * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	volatile char *v = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	say("mmap shared, shared read-only, private: %s\n",
	    yes(s != MAP_FAILED && t != MAP_FAILED && v != MAP_FAILED));
	if (s == MAP_FAILED || t == MAP_FAILED || v == MAP_FAILED)
		return;
	say("shared mapping equals the file: %s\n", yes(matches_pattern(s, 0, SIZE)));
	say("private mapping equals the file: %s\n", yes(matches_pattern(v, 0, SIZE)));
	say("after the end, the last page reads zeros: %s\n",
	    yes(all_zero(s + SIZE, PAGES * PAGE - SIZE)));

	s[PAGE + 1] = 'S';
	say("shared store seen by read(): %s\n", yes(read_byte(fd, PAGE + 1) == 'S'));
	say("shared store seen by another shared mapping: %s\n", yes(t[PAGE + 1] == 'S'));
	v[2 * PAGE + 2] = 'P';
	say("private store seen by read(): %s\n", yes(read_byte(fd, 2 * PAGE + 2) == 'P'));
	say("private store seen by a shared mapping: %s\n", yes(s[2 * PAGE + 2] == 'P'));
	say("private store seen by its own mapping: %s\n", yes(v[2 * PAGE + 2] == 'P'));
	say("pwrite: %s\n", yes(pwrite(fd, "W", 1, 7) == 1));
	say("pwrite seen by the shared mapping: %s\n", yes(s[7] == 'W'));

	/* fork shares the shared mapping and copies the private one (whose
	 * page the parent has written: an unwritten private page may show the
	 * file's later changes, which POSIX leaves unspecified). */
	v[3] = 'V';
	pid_t pid = fork();
	if (pid == 0) {
		s[3] = 'C';
		v[3] = 'C';
		_exit(0);
	}
	int status = 0;
	say("fork and wait: %s\n", yes(pid > 0 && waitpid(pid, &status, 0) == pid &&
	                               WIFEXITED(status) && WEXITSTATUS(status) == 0));
	say("child's shared store seen by the parent: %s\n", yes(s[3] == 'C'));
	say("child's private store seen by the parent: %s\n", yes(v[3] != 'V'));
	say("child's shared store seen by read(): %s\n", yes(read_byte(fd, 3) == 'C'));

	outcome("msync MS_SYNC", msync((void *)s, PAGES * PAGE, MS_SYNC));
	outcome("msync MS_ASYNC", msync((void *)s, PAGES * PAGE, MS_ASYNC));
	outcome("msync of an unaligned address", msync((void *)(s + 1), PAGE, MS_SYNC));
	outcome("msync MS_SYNC|MS_ASYNC", msync((void *)s, PAGE, MS_SYNC | MS_ASYNC));
	outcome("mprotect of the private mapping to read-only", mprotect((void *)v, PAGE, PROT_READ));
	probe("store to the now read-only private page", v + 9, 1);

	/* munmap of the middle page: its neighbours stay. */
	outcome("munmap of the second page", munmap((void *)(s + PAGE), PAGE));
	probe("read of the unmapped page", s + PAGE + 5, 0);
	probe("read of the first page", s + 5, 0);
	probe("read of the third page", s + 2 * PAGE + 5, 0);
	outcome("msync over the hole", msync((void *)s, PAGES * PAGE, MS_SYNC));
	munmap((void *)s, PAGES * PAGE);
	munmap((void *)t, PAGES * PAGE);
	munmap((void *)v, PAGES * PAGE);
	probe("read after munmap", s, 0);
}

static void populate_and_close(const char *path)
{
	int fd = open(path, O_RDONLY);
	volatile char *p = mmap(NULL, PAGES * PAGE, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	say("mmap MAP_POPULATE: %s\n", yes(p != MAP_FAILED));
	if (p == MAP_FAILED)
		return;
	outcome("close the descriptor", close(fd));
	say("mapping after close reads the file: %s\n",
	    yes(p[0] == pattern(0) && p[SIZE - 1] == pattern(SIZE - 1)));
	say("the shared store is in it: %s\n", yes(p[PAGE + 1] == 'S'));
	probe("store to a read-only shared mapping", p + 10, 1);
	munmap((void *)p, PAGES * PAGE);
}

static void past_the_end(int fd)
{
	volatile char *p = mmap(NULL, (PAGES + 2) * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	say("mmap beyond the end of the file: %s\n", yes(p != MAP_FAILED));
	if (p == MAP_FAILED)
		return;
	probe("read in the last, partial page", p + SIZE + 10, 0);
	probe("read of the page after the end", p + PAGES * PAGE, 0);
	probe("read two pages after the end", p + (PAGES + 1) * PAGE + 8, 0);
	munmap((void *)p, (PAGES + 2) * PAGE);
	volatile char *q = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 100 * PAGE);
	say("mmap wholly past the end: %s\n", yes(q != MAP_FAILED));
	if (q != MAP_FAILED) {
		probe("read there", q, 0);
		munmap((void *)q, PAGE);
	}
}

static void truncation(int fd)
{
	volatile char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		say("mmap for the truncation: error %s\n", err_name(errno));
		return;
	}
	(void)p[3 * PAGE];
	outcome("ftruncate to one page and 10 bytes", ftruncate(fd, PAGE + 10));
	probe("read in the page holding the new end", p + PAGE + 5, 0);
	say("the rest of that page reads zeros: %s\n", yes(all_zero(p + PAGE + 10, PAGE - 10)));
	probe("read of the page after the new end", p + 2 * PAGE, 0);
	probe("store to the last page", p + 3 * PAGE + 1, 1);
	probe("read of the first page", p + 1, 0);
	munmap((void *)p, PAGES * PAGE);
}

static void refusals(const char *path)
{
	int ro = open(path, O_RDONLY), wo = open(path, O_WRONLY), dir = open(".", O_RDONLY);
	int fds[2];
	if (pipe(fds) < 0)
		fds[0] = fds[1] = -1;
	mapping_error("read-only fd, PROT_WRITE, MAP_SHARED", PROT_READ | PROT_WRITE, MAP_SHARED,
	              ro, 0, PAGE);
	mapping_error("read-only fd, PROT_WRITE, MAP_PRIVATE", PROT_READ | PROT_WRITE,
	              MAP_PRIVATE, ro, 0, PAGE);
	mapping_error("write-only fd, MAP_SHARED", PROT_READ, MAP_SHARED, wo, 0, PAGE);
	mapping_error("write-only fd, MAP_PRIVATE", PROT_READ, MAP_PRIVATE, wo, 0, PAGE);
	mapping_error("a pipe's read end", PROT_READ, MAP_SHARED, fds[0], 0, PAGE);
	mapping_error("a directory", PROT_READ, MAP_SHARED, dir, 0, PAGE);
	mapping_error("an offset not page-aligned", PROT_READ, MAP_SHARED, ro, 100, PAGE);
	mapping_error("a descriptor not open", PROT_READ, MAP_SHARED, 99, 0, PAGE);
	mapping_error("length 0", PROT_READ, MAP_SHARED, ro, 0, 0);

	void *sh = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
	void *pv = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ro, 0);
	if (sh != MAP_FAILED && pv != MAP_FAILED) {
		outcome("mprotect PROT_WRITE on a shared mapping of a read-only fd",
		        mprotect(sh, PAGE, PROT_READ | PROT_WRITE));
		outcome("mprotect PROT_WRITE on a private mapping of a read-only fd",
		        mprotect(pv, PAGE, PROT_READ | PROT_WRITE));
		probe("store to the private mapping", pv, 1);
		say("the file keeps its byte: %s\n", yes(read_byte(ro, 0) == pattern(0)));
	}
	if (sh != MAP_FAILED)
		munmap(sh, PAGE);
	if (pv != MAP_FAILED)
		munmap(pv, PAGE);
	close(fds[0]);
	close(fds[1]);
	close(dir);
	close(wo);
	close(ro);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	scratch_enter("mmap_file");
	int fd = make_data("data");
	if (fd < 0)
		return 1;
	shared_and_private(fd);
	populate_and_close("data");
	past_the_end(fd);
	refusals("data");
	truncation(fd);
	close(fd);
	scratch_leave();
	return 0;
}
