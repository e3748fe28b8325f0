/*
 * t_gusa: atomics on SH-4. musl and GCC's -m4-nofpu code make atomic
 * read-modify-writes gUSA sequences (SH-4 has no LL/SC), which the kernel
 * restarts from their start when it interrupts them (kernel/arch/sh4/trap.c).
 *
 * - Restarts: an atomic add whose load is the first touch of a fresh page
 *   faults inside the sequence (a TLB miss and demand paging), so the
 *   kernel restarts it: every page must end up holding exactly 1.
 * - Threads: three threads and main each add 1 to one counter ROUNDS times;
 *   the total must be exact. (QEMU takes interrupts between translation
 *   blocks only, never inside such a short sequence, so under QEMU this
 *   cannot catch a missing restart; it checks that restarts lose nothing.)
 *
 * Built with musl and libmyrmex (tests/sh4/libc).
 */
#define TEST_NAME "t_gusa"
#include "test_check.h"

#include <sys/mman.h>

#define THREADS 3
#define ROUNDS 1000000
#define PAGES 64
#define PAGE 4096

static volatile int counter;

static void adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++)
		__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

static void check_fresh_pages(void)
{
	char *area = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
	                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		test_fail("mmap of %d pages failed", PAGES);
		return;
	}
	for (int i = 0; i < PAGES; i++)
		__atomic_add_fetch((volatile int *)(area + i * PAGE), 1, __ATOMIC_RELAXED);
	for (int i = 0; i < PAGES; i++)
		CHECK(*(volatile int *)(area + i * PAGE) == 1, "page %d holds %d after one add", i,
		      *(volatile int *)(area + i * PAGE));
	munmap(area, PAGES * PAGE);
}

int main(void)
{
	check_fresh_pages();

	struct myrmex_thread t[THREADS];
	int made = 0;
	for (int i = 0; i < THREADS; i++) {
		long err = myrmex_thread_create(&t[i], adder, NULL, 0);
		if (err < 0) {
			test_fail("myrmex_thread_create: %ld", err);
			break;
		}
		made++;
	}
	adder(NULL);
	for (int i = 0; i < made; i++)
		myrmex_thread_join(&t[i]);
	CHECK(counter == (made + 1) * ROUNDS, "counter %d, expected %d: updates lost", counter,
	      (made + 1) * ROUNDS);
	return test_exit_code();
}
