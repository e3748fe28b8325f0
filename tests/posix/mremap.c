/*
 * mremap: growing in place (the data kept, the new pages zero), shrinking
 * (the tail unmapped), MREMAP_MAYMOVE when a neighbour is in the way (the
 * data moved, the old range gone), MREMAP_FIXED to a chosen address
 * (replacing what was there, shrinking on the way); a copy-on-write page
 * moved in a forked child stays the child's, a shared anonymous mapping
 * moved still shares its pages with the child, a file mapping moved still
 * maps the file; then bad input: flags, alignment, lengths, addresses no
 * mapping covers, a range across mappings, overlapping targets, targets
 * past user space, no room without MREMAP_MAYMOVE.
 * Mappings are placed inside PROT_NONE reservations so that the room
 * around them is the same on every system; whether a page is mapped is
 * probed by write()ing it to a pipe (EFAULT when it is not).
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define PG 4096ul

static int probe_pipe[2];

/* Whether the byte at p can be read (the kernel copies it into a pipe). */
static int mapped(const void *p)
{
	ssize_t n = write(probe_pipe[1], p, 1);
	if (n == 1) {
		char c;
		read(probe_pipe[0], &c, 1);
		return 1;
	}
	return 0;
}

/* A PROT_NONE reservation of pages pages, to carve mappings from. */
static char *reserve(unsigned long pages)
{
	void *p = mmap(NULL, pages * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* pages anonymous pages at exactly at (inside a reservation). */
static char *place(char *at, unsigned long pages, int flags)
{
	void *p = mmap(at, pages * PG, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_FIXED,
	               -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void fill(char *p, unsigned long pages, char base)
{
	for (unsigned long i = 0; i < pages; i++)
		memset(p + i * PG, base + (char)i, PG);
}

static int check(const char *p, unsigned long pages, char base)
{
	for (unsigned long i = 0; i < pages; i++)
		for (unsigned long j = 0; j < PG; j += 512)
			if (p[i * PG + j] != (char)(base + (char)i))
				return 0;
	return 1;
}

static int zero(const char *p, unsigned long pages)
{
	for (unsigned long i = 0; i < pages * PG; i += 256)
		if (p[i])
			return 0;
	return 1;
}

static void in_place(void)
{
	char *r = reserve(32);
	munmap(r + 4 * PG, 28 * PG);   /* free room above the first four pages */
	char *a = place(r, 4, MAP_PRIVATE);
	fill(a, 4, 'a');
	char *b = mremap(a, 4 * PG, 8 * PG, 0);
	say("grow 4 -> 8 pages without MAYMOVE, room above: %s, in place: %s\n",
	    b == MAP_FAILED ? err_name(errno) : "ok", yes(b == a));
	if (b == MAP_FAILED)
		return;
	say("data kept: %s, new pages zero: %s\n", yes(check(b, 4, 'a')), yes(zero(b + 4 * PG, 4)));
	memset(b + 7 * PG, 'z', PG);
	say("new last page writable: %s\n", yes(b[7 * PG + 100] == 'z'));
	char *c = mremap(b, 8 * PG, 2 * PG, 0);
	say("shrink 8 -> 2: same address: %s, page 1 kept: %s, page 2 gone: %s, page 7 gone: %s\n",
	    yes(c == b), yes(check(c, 2, 'a')), yes(!mapped(c + 2 * PG)), yes(!mapped(c + 7 * PG)));
	char *d = mremap(c, 2 * PG, 2 * PG, MREMAP_MAYMOVE);
	say("same size with MAYMOVE: stays: %s\n", yes(d == c));
	d = mremap(c, 2 * PG + 1, 3 * PG - 5, 0);
	say("lengths rounded up to pages (2 -> 3): %s\n", yes(d == c && mapped(c + 2 * PG)));
	munmap(c, 3 * PG);
}

static void moving(void)
{
	char *r = reserve(16);
	char *a = place(r, 4, MAP_PRIVATE);
	char *wall = place(r + 4 * PG, 1, MAP_PRIVATE);   /* blocks growth in place */
	fill(a, 4, 'm');
	void *n = mremap(a, 4 * PG, 8 * PG, 0);
	say("grow with a neighbour above, no MAYMOVE: %s\n", n == MAP_FAILED ? err_name(errno) : "ok");
	say("  still mapped and whole: %s\n", yes(check(a, 4, 'm')));
	char *b = mremap(a, 4 * PG, 8 * PG, MREMAP_MAYMOVE);
	say("with MAYMOVE: %s, moved: %s\n", b == MAP_FAILED ? err_name(errno) : "ok",
	    yes(b != a && b != MAP_FAILED));
	if (b == MAP_FAILED)
		return;
	say("data moved: %s, grown pages zero: %s, old range gone: %s, neighbour kept: %s\n",
	    yes(check(b, 4, 'm')), yes(zero(b + 4 * PG, 4)), yes(!mapped(a) && !mapped(a + 3 * PG)),
	    yes(mapped(wall)));

	/* MREMAP_FIXED into a reservation: replaces what is there. */
	char *target = reserve(8);
	char *c = mremap(b, 8 * PG, 8 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	say("MREMAP_FIXED to a reserved range: at the target: %s, data there: %s, old gone: %s\n",
	    yes(c == target), yes(c != MAP_FAILED && check(c, 4, 'm')), yes(!mapped(b)));
	char *target2 = reserve(4);
	char *d = mremap(c, 8 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, target2);
	say("MREMAP_FIXED shrinking 8 -> 2: at the target: %s, data: %s, old range gone: %s\n",
	    yes(d == target2), yes(d != MAP_FAILED && check(d, 2, 'm')),
	    yes(!mapped(c) && !mapped(c + 7 * PG)));
	say("the rest of the second reservation still there (PROT_NONE): %s\n",
	    yes(mprotect(target2 + 2 * PG, 2 * PG, PROT_READ) == 0 && mapped(target2 + 3 * PG)));
	munmap(d, 2 * PG);
	munmap(target2, 4 * PG);
	munmap(r, 16 * PG);
}

static void after_fork(void)
{
	/* Copy-on-write pages moved by the child stay its own. */
	char *r = reserve(8);
	char *a = place(r, 2, MAP_PRIVATE);
	place(r + 2 * PG, 1, MAP_PRIVATE);
	fill(a, 2, 'p');
	pid_t pid = fork();
	if (pid == 0) {
		char *b = mremap(a, 2 * PG, 4 * PG, MREMAP_MAYMOVE);
		if (b == MAP_FAILED || !check(b, 2, 'p'))
			_exit(1);
		memset(b, 'c', PG);
		_exit(b[0] == 'c' ? 0 : 2);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	say("child moved and wrote copy-on-write pages: %s; parent's unchanged: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0), yes(check(a, 2, 'p')));

	/* Shared anonymous memory moved by the parent still shares its pages. */
	int go[2], done[2];
	pipe(go);
	pipe(done);
	char *s = reserve(8);
	char *sh = place(s, 2, MAP_SHARED);
	place(s + 2 * PG, 1, MAP_PRIVATE);
	sh[0] = 's';
	pid = fork();
	if (pid == 0) {
		char c;
		read(go[0], &c, 1);
		int ok = sh[0] == 'S' && sh[PG] == 'T';
		sh[1] = 'k';
		write(done[1], "x", 1);
		_exit(ok ? 0 : 1);
	}
	/* Moved, not grown: Linux backs it with an object of the first size,
	 * and a page grown past it gives SIGBUS there (docs/posix.md). */
	char *to = reserve(2);
	char *moved = mremap(sh, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	if (moved != MAP_FAILED) {
		moved[0] = 'S';
		moved[PG] = 'T';
	}
	write(go[1], "x", 1);
	char c;
	read(done[0], &c, 1);
	waitpid(pid, &status, 0);
	say("shared mapping moved by the parent: child sees its writes: %s, parent sees the "
	    "child's: %s, old range gone: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0),
	    yes(moved != MAP_FAILED && moved[1] == 'k'), yes(!mapped(sh)));
}

static void file_mapping(void)
{
	scratch_enter("mremap");
	int fd = open("f", O_RDWR | O_CREAT, 0644);
	char buf[2 * PG];
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (char)('A' + i / PG);
	write(fd, buf, sizeof buf);
	char *m = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *target = reserve(4);
	char *n = mremap(m, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	say("file mapping moved: %s, reads the file: %s\n", n == MAP_FAILED ? err_name(errno) : "ok",
	    yes(n != MAP_FAILED && n[0] == 'A' && n[PG] == 'B'));
	if (n != MAP_FAILED) {
		n[PG + 1] = 'w';
		msync(n, 2 * PG, MS_SYNC);
		char got = 0;
		pread(fd, &got, 1, PG + 1);
		say("a write through the moved mapping reaches the file: %s\n", yes(got == 'w'));
		char *s = mremap(n, 2 * PG, PG, 0);
		say("file mapping shrunk: %s, page 2 gone: %s\n", yes(s == n), yes(!mapped(n + PG)));
		munmap(n, PG);
	}
	close(fd);
	munmap(target, 4 * PG);
	scratch_leave();
}

static void hostile(void)
{
	char *r = reserve(16);
	munmap(r + 4 * PG, 12 * PG);
	char *a = place(r, 2, MAP_PRIVATE);
	errno = 0;
#define TRY(what, expr) do { void *p_ = (expr); \
		say("%s: %s\n", what, p_ == MAP_FAILED ? err_name(errno) : "ok"); } while (0)
	TRY("unaligned address", mremap(a + 1, PG, 2 * PG, MREMAP_MAYMOVE));
	TRY("unknown flag 8", mremap(a, PG, 2 * PG, 8));
	TRY("MREMAP_DONTUNMAP alone", mremap(a, PG, PG, 4));
	TRY("MREMAP_FIXED without MAYMOVE", mremap(a, PG, PG, MREMAP_FIXED, r + 8 * PG));
	TRY("new length 0", mremap(a, PG, 0, MREMAP_MAYMOVE));
	TRY("new length that rounds up to 0", (void *)syscall(SYS_mremap, a, PG, -1l, MREMAP_MAYMOVE));
	TRY("old length 0 of a private mapping", mremap(a, 0, PG, MREMAP_MAYMOVE));
	TRY("no mapping there", mremap(r + 8 * PG, PG, 2 * PG, MREMAP_MAYMOVE));
	TRY("no mapping there, shrinking", mremap(r + 8 * PG, 2 * PG, PG, 0));
	TRY("kernel address", (void *)syscall(SYS_mremap, 0xffff800000000000ul, PG, 2 * PG,
	                                      MREMAP_MAYMOVE));
	TRY("old range past the mapping, growing", mremap(a, 3 * PG, 4 * PG, MREMAP_MAYMOVE));
	TRY("huge growth", mremap(a, 2 * PG, 1ul << 46, MREMAP_MAYMOVE));
	TRY("FIXED unaligned target", mremap(a, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, r + 8 * PG + 1));
	TRY("FIXED overlapping target", mremap(a, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, a + PG));
	TRY("FIXED target past user space",
	    mremap(a, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)0xffff800000000000ul));
	say("the mapping survived all that: %s\n", yes(mapped(a) && mapped(a + PG)));
	munmap(a, 2 * PG);
}

int main(void)
{
	pipe(probe_pipe);
	in_place();
	moving();
	after_fork();
	file_mapping();
	hostile();
	return 0;
}
