/*
 * t_exhaust_mem: runs the process out of memory on purpose. Maps and touches
 * 1 MiB anonymous chunks until mmap is refused, then single pages; the
 * refusal must be ENOMEM (the process is not killed). While exhausted, brk
 * cannot grow and a thread cannot be made. After everything is unmapped, a
 * new 1 MiB mapping works again. On Linux (no per-process limit here) the
 * loop stops after MAX_CHUNKS_ON_LINUX chunks with a note.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_exhaust_mem"
#include "test_check.h"

#include <errno.h>
#include <sys/mman.h>

#define PAGE 4096L
#define CHUNK (1024L * 1024L)
#define MAX_CHUNKS_ON_LINUX 512
#define MAX_CHUNKS 4096          /* 4 GiB: far above any Myrmex limit */
#define MAX_SINGLE_PAGES 512

static long chunks[MAX_CHUNKS];
static long pages[MAX_SINGLE_PAGES];

static long map_anon(long len)
{
	return myrmex_syscall6(SYS_mmap, 0, len, PROT_READ | PROT_WRITE,
	                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* Writes one byte in every page, so the memory is really in use. */
static void touch(long start, long len)
{
	for (long off = 0; off < len; off += PAGE)
		((volatile char *)start)[off] = (char)(off / PAGE + 1);
}

static int check_touched(long start, long len)
{
	for (long off = 0; off < len; off += PAGE)
		if (((volatile char *)start)[off] != (char)(off / PAGE + 1))
			return 0;
	return 1;
}

/* Makes 32 KiB of stack present before memory runs out, so that the
 * program's own calls later cannot need a new stack page. */
static void prefault_stack(void)
{
	volatile char area[32 * 1024];
	for (size_t i = 0; i < sizeof area; i += 512)
		area[i] = 0;
}

static void nothing(void *arg)
{
	(void)arg;
}

int main(void)
{
	int native = myrmex_is_native();
	int limit = native ? MAX_CHUNKS : MAX_CHUNKS_ON_LINUX;
	int n_chunks = 0, n_pages = 0;
	long refusal = 0;

	prefault_stack();
	while (n_chunks < limit) {
		long chunk = map_anon(CHUNK);
		if (chunk < 0) {
			refusal = chunk;
			break;
		}
		touch(chunk, CHUNK);
		chunks[n_chunks++] = chunk;
	}
	if (refusal == 0) {
		if (native) {
			test_fail("%d MiB mapped and touched without a refusal", n_chunks);
		} else {
			test_note("not on Myrmex: %d MiB mapped without a refusal (no limit here)",
			          n_chunks);
		}
	} else {
		CHECK(refusal == -ENOMEM, "mmap of 1 MiB was refused with %ld, not -ENOMEM",
		      refusal);
		test_note("mmap refused after %d MiB", n_chunks);
		/* Fill what is left page by page, to the exact limit. */
		long page_refusal = 0;
		while (n_pages < MAX_SINGLE_PAGES) {
			long page = map_anon(PAGE);
			if (page < 0) {
				page_refusal = page;
				break;
			}
			touch(page, PAGE);
			pages[n_pages++] = page;
		}
		CHECK(page_refusal == -ENOMEM, "a single-page mmap was refused with %ld after %d "
		      "pages", page_refusal, n_pages);

		long brk_now = raw1(SYS_brk, 0);
		CHECK_EQ(raw1(SYS_brk, brk_now + CHUNK), brk_now);
		CHECK_EQ(raw1(SYS_brk, brk_now + PAGE), brk_now);
		CHECK_EQ(raw1(SYS_brk, 0), brk_now);

		struct myrmex_thread t;
		long err = myrmex_thread_create(&t, nothing, NULL, 0);
		CHECK(err == -ENOMEM || err == -EAGAIN,
		      "thread creation with no memory left returned %ld", err);
		if (err == 0)
			myrmex_thread_join(&t);
	}

	int damaged = 0;
	for (int i = 0; i < n_chunks; i++)
		if (!check_touched(chunks[i], CHUNK))
			damaged++;
	CHECK(damaged == 0, "%d chunks lost their contents", damaged);

	for (int i = 0; i < n_chunks; i++)
		CHECK_EQ(raw2(SYS_munmap, chunks[i], CHUNK), 0);
	for (int i = 0; i < n_pages; i++)
		CHECK_EQ(raw2(SYS_munmap, pages[i], PAGE), 0);

	long again = map_anon(CHUNK);
	CHECK(again > 0, "mmap of 1 MiB after freeing everything returned %ld", again);
	if (again > 0) {
		touch(again, CHUNK);
		CHECK(check_touched(again, CHUNK), "the new 1 MiB mapping does not keep data");
		CHECK_EQ(raw2(SYS_munmap, again, CHUNK), 0);
	}
	long brk_now = raw1(SYS_brk, 0);
	CHECK_EQ(raw1(SYS_brk, brk_now + CHUNK), brk_now + CHUNK);
	CHECK_EQ(raw1(SYS_brk, brk_now), brk_now);
	return test_exit_code();
}
