/*
 * t_vdso: the vDSO of POSIX processes (include/myrmex/vdso.h,
 * docs/posix.md). A POSIX process with the time server, the file manager,
 * the console (messages) and the process manager (fork, execve). Modes:
 *
 *   main        AT_SYSINFO_EHDR names a valid ELF image exporting
 *               __vdso_clock_gettime, __vdso_gettimeofday, __vdso_time
 *               and __vdso_clock_getres at version LINUX_2.6 (through
 *               DT_HASH and the version tables, as musl looks them up; the
 *               GNU hash table is there for glibc); the clock page holds
 *               the time server's clock (clock_info's numbers); musl's
 *               clock_gettime, gettimeofday and time and the vDSO's own
 *               functions agree with the real system call read just before
 *               and after (s1 <= v <= s2) on MONOTONIC and REALTIME, and
 *               MONOTONIC never goes back; clocks the vDSO does not know
 *               get the system call's answer; vDSO reads make no system
 *               call and no IPC (kstats, the time server's TIME_STATS);
 *               a store into the clock page or the image kills the writer
 *               alone with SIGSEGV, the kernel refuses to write there
 *               (-EFAULT), and a copy made writable with mprotect is the
 *               writer's own; after fork the child's vDSO works, and after
 *               execve (this program, copied from its boot module to the
 *               file system) too.
 *   exec-child  the program execve runs: the same agreement checks; the
 *               exit status is the verdict.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_vdso"
#include "test_check.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <myrmex/time.h>
#include <myrmex/vdso.h>

#define NS_PER_S   1000000000ull
#define MS         1000000ull
#define READS      200
#define EXEC_PATH  "/t_vdso.exec"

typedef int (*cgt_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef int (*getres_fn)(clockid_t, struct timespec *);

static struct {
	const Elf64_Ehdr *ehdr;
	const volatile struct myrmex_vdso_data *data;
	cgt_fn clock_gettime;
	gtod_fn gettimeofday;
	time_fn time;
	getres_fn clock_getres;
} vdso;

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
}

static uint64_t raw_clock(clockid_t c)
{
	struct timespec ts = { 0, 0 };
	long r = raw2(SYS_clock_gettime, c, (long)&ts);
	if (r != 0)
		test_fail("raw clock_gettime(%d): %ld", (int)c, r);
	return ts_ns(&ts);
}

/* ------------------------------------------------ the image's symbols */

/* Whether symbol i has version `want` by the DT_VERSYM and DT_VERDEF tables
 * (a definition's first auxiliary entry names it). */
static int has_version(const Elf64_Verdef *def, const Elf64_Half *versym, size_t i,
                       const char *strings, const char *want)
{
	unsigned v = versym[i] & 0x7fff;
	for (;;) {
		if (!(def->vd_flags & VER_FLG_BASE) && (def->vd_ndx & 0x7fff) == v) {
			const Elf64_Verdaux *aux = (const void *)((const char *)def + def->vd_aux);
			return strcmp(strings + aux->vda_name, want) == 0;
		}
		if (!def->vd_next)
			return 0;
		def = (const void *)((const char *)def + def->vd_next);
	}
}

/* Looks name up as musl does: the symbols counted by DT_HASH's nchain,
 * defined, global functions, with the version. NULL when absent. */
static void *lookup(const Elf64_Ehdr *eh, const char *name)
{
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	uintptr_t base = 0;
	int loads = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD) {
			base = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
			loads++;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
		}
	}
	CHECK(loads == 1 && dyn, "the image has %d PT_LOAD and %s PT_DYNAMIC", loads,
	      dyn ? "a" : "no");
	if (!dyn)
		return NULL;
	const char *strings = NULL;
	const Elf64_Sym *syms = NULL;
	const Elf64_Word *hash = NULL;
	const Elf64_Half *versym = NULL;
	const Elf64_Verdef *verdef = NULL;
	int gnu_hash = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *p = (const void *)(base + dyn->d_un.d_ptr);
		switch (dyn->d_tag) {
		case DT_STRTAB: strings = p; break;
		case DT_SYMTAB: syms = p; break;
		case DT_HASH: hash = p; break;
		case DT_GNU_HASH: gnu_hash = 1; break;
		case DT_VERSYM: versym = p; break;
		case DT_VERDEF: verdef = p; break;
		default: break;
		}
	}
	CHECK(strings && syms && hash && gnu_hash && versym && verdef,
	      "dynamic tables: strtab %d symtab %d hash %d gnu_hash %d versym %d verdef %d",
	      !!strings, !!syms, !!hash, gnu_hash, !!versym, !!verdef);
	if (!strings || !syms || !hash || !versym || !verdef)
		return NULL;
	for (size_t i = 0; i < hash[1]; i++) {
		if (ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC ||
		    ELF64_ST_BIND(syms[i].st_info) != STB_GLOBAL || syms[i].st_shndx == SHN_UNDEF)
			continue;
		if (strcmp(strings + syms[i].st_name, name) != 0)
			continue;
		if (!has_version(verdef, versym, i, strings, MYRMEX_VDSO_VERSION))
			continue;
		return (void *)(base + syms[i].st_value);
	}
	return NULL;
}

/* Finds the image and its four functions; 0, or -1 (failures reported). */
static int find_vdso(void)
{
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	if (!at) {
		test_fail("no AT_SYSINFO_EHDR in the auxiliary vector");
		return -1;
	}
	const Elf64_Ehdr *eh = (const void *)at;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_type != ET_DYN || eh->e_machine != EM_X86_64) {
		test_fail("AT_SYSINFO_EHDR %#lx is not an x86-64 ELF shared object", at);
		return -1;
	}
	CHECK((at & 4095) == 0, "AT_SYSINFO_EHDR %#lx not page aligned", at);
	vdso.ehdr = eh;
	vdso.data = (const volatile void *)(at - MYRMEX_VDSO_DATA_SIZE);
	vdso.clock_gettime = (cgt_fn)lookup(eh, "__vdso_clock_gettime");
	vdso.gettimeofday = (gtod_fn)lookup(eh, "__vdso_gettimeofday");
	vdso.time = (time_fn)lookup(eh, "__vdso_time");
	vdso.clock_getres = (getres_fn)lookup(eh, "__vdso_clock_getres");
	CHECK(lookup(eh, "__vdso_nothing") == NULL, "a symbol that is not there was found");
	if (!vdso.clock_gettime || !vdso.gettimeofday || !vdso.time || !vdso.clock_getres) {
		test_fail("symbols: clock_gettime %p gettimeofday %p time %p clock_getres %p",
		          (void *)vdso.clock_gettime, (void *)vdso.gettimeofday, (void *)vdso.time,
		          (void *)vdso.clock_getres);
		return -1;
	}
	return 0;
}

/* The time server publishes its clock right after it registers; a test
 * may start in between. */
static void wait_published(void)
{
	for (int i = 0; i < 5000 && !vdso.data->published; i++) {
		struct timespec ms = { 0, (long)MS };
		raw2(SYS_nanosleep, (long)&ms, 0);
	}
	CHECK(vdso.data->published == 1, "the time server never published its clock");
}

/* ----------------------------------------------- agreement with the call */

static void agree(void)
{
	static const clockid_t clocks[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME,
	                                    CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC_COARSE,
	                                    CLOCK_REALTIME_COARSE };
	uint64_t previous = 0;
	for (int i = 0; i < READS; i++) {
		clockid_t c = clocks[i % 6];
		struct timespec libc = { -1, -1 }, direct = { -1, -1 };
		uint64_t s1 = raw_clock(c);
		int r1 = clock_gettime(c, &libc);
		int r2 = vdso.clock_gettime(c, &direct);
		uint64_t s2 = raw_clock(c);
		if (r1 != 0 || r2 != 0 || libc.tv_nsec < 0 || libc.tv_nsec >= (long)NS_PER_S ||
		    direct.tv_nsec < 0 || direct.tv_nsec >= (long)NS_PER_S) {
			test_fail("clock %d: libc %d (%ld ns), vdso %d (%ld ns)", (int)c, r1,
			          libc.tv_nsec, r2, direct.tv_nsec);
			return;
		}
		uint64_t v1 = ts_ns(&libc), v2 = ts_ns(&direct);
		if (!(s1 <= v1 && v1 <= v2 && v2 <= s2)) {
			test_fail("clock %d: syscall %llu, libc %llu, vdso %llu, syscall %llu", (int)c,
			          (unsigned long long)s1, (unsigned long long)v1, (unsigned long long)v2,
			          (unsigned long long)s2);
			return;
		}
		if (c == CLOCK_MONOTONIC) {
			CHECK(v1 >= previous, "MONOTONIC went back by %llu ns",
			      (unsigned long long)(previous - v1));
			previous = v2;
		}
	}
	for (int i = 0; i < READS / 4; i++) {
		struct timeval libc, direct;
		struct timezone tz = { 7, 7 };
		uint64_t s1 = raw_clock(CLOCK_REALTIME) / 1000;
		int r1 = gettimeofday(&libc, NULL);
		int r2 = vdso.gettimeofday(&direct, &tz);
		uint64_t s2 = raw_clock(CLOCK_REALTIME) / 1000;
		uint64_t v1 = (uint64_t)libc.tv_sec * 1000000u + (uint64_t)libc.tv_usec;
		uint64_t v2 = (uint64_t)direct.tv_sec * 1000000u + (uint64_t)direct.tv_usec;
		if (r1 || r2 || !(s1 <= v1 && v1 <= v2 && v2 <= s2) || direct.tv_usec >= 1000000 ||
		    tz.tz_minuteswest || tz.tz_dsttime) {
			test_fail("gettimeofday: %d %d, %llu <= %llu <= %llu <= %llu us, tz %d %d", r1, r2,
			          (unsigned long long)s1, (unsigned long long)v1, (unsigned long long)v2,
			          (unsigned long long)s2, tz.tz_minuteswest, tz.tz_dsttime);
			return;
		}
		time_t t2 = 0;
		int64_t s3 = raw1(SYS_time, 0);
		time_t v3 = time(NULL), v4 = vdso.time(&t2);
		int64_t s4 = raw1(SYS_time, 0);
		if (!(s3 <= v3 && v3 <= v4 && v4 <= s4 && t2 == v4)) {
			test_fail("time: %lld <= %lld <= %lld (%lld) <= %lld", (long long)s3,
			          (long long)v3, (long long)v4, (long long)t2, (long long)s4);
			return;
		}
	}
	CHECK(vdso.gettimeofday(NULL, NULL) == 0, "gettimeofday(NULL, NULL) failed");
	CHECK(vdso.time(NULL) > 1577836800, "the date is before 2020");
}

/* Clocks and arguments the vDSO leaves to the kernel: the same answers. */
static void fallbacks(void)
{
	static const clockid_t odd[] = { CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, 99, -1,
	                                 -6 /* a thread's CPU clock */, 0x7fffffff };
	for (unsigned i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		struct timespec a = { -1, -1 }, b = { -1, -1 }, c = { -1, -1 }, d = { -1, -1 };
		long want = raw2(SYS_clock_gettime, odd[i], (long)&a);
		long got = vdso.clock_gettime(odd[i], &b);
		CHECK(got == want, "vdso clock_gettime(%d) = %ld, the call %ld", (int)odd[i], got, want);
		want = raw2(SYS_clock_getres, odd[i], (long)&c);
		got = vdso.clock_getres(odd[i], &d);
		CHECK(got == want, "vdso clock_getres(%d) = %ld, the call %ld", (int)odd[i], got, want);
	}
	struct timespec res = { -1, -1 };
	CHECK_EQ(vdso.clock_getres(CLOCK_MONOTONIC, &res), 0);
	CHECK(res.tv_sec == 0 && res.tv_nsec == 1, "resolution %ld.%09ld", (long)res.tv_sec,
	      res.tv_nsec);
	CHECK_EQ(vdso.clock_getres(CLOCK_REALTIME, NULL), 0);
	CHECK_EQ(clock_getres(CLOCK_MONOTONIC, &res), 0);
}

/* ------------------------------------------------- no call, no IPC */

static long time_call_stats(uint64_t res[8])
{
	static long handle = -1;
	if (handle < 0 && (handle = myrmex_ica_alloc(1)) < 0)
		return handle;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)handle));
	myrmex_ctl_push(h, 1, MYRMEX_COREID_TIME, TIME_STATS);
	long r = myrmex_callsync(h);
	if (r < 0)
		return r;
	struct myrmex_frame *f = myrmex_ctl_result(h);
	if (!f)
		return -EIO;
	memcpy(res, f->arg, sizeof f->arg);
	return (long)f->status;
}

static uint64_t server_gets(void)
{
	uint64_t res[8] = { 0 };
	long r = time_call_stats(res);
	if (r != 0)
		test_fail("TIME_STATS: %ld", r);
	return res[TIME_STAT_GETS];
}

static uint64_t syscalls(void)
{
	struct myrmex_kstats ks;
	return myrmex_kstats(&ks) == (long)sizeof ks ? ks.syscalls : 0;
}

static void no_call(void)
{
	struct myrmex_clock_info info;
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_CLOCK_INFO, (long)&info, 0, 0, 0, 0, 0), 0);
	CHECK(vdso.data->clock.tsc_boot == info.tsc_boot && vdso.data->clock.mult == info.mult &&
	      vdso.data->clock.epoch_ns == info.epoch_ns && vdso.data->clock.tsc_khz == info.tsc_khz,
	      "the clock page is not the time server's clock");
	CHECK((vdso.data->seq & 1) == 0, "the clock page's seq is odd: %u", vdso.data->seq);

	uint64_t gets = server_gets();
	uint64_t before = syscalls();
	struct timespec ts;
	struct timeval tv;
	for (int i = 0; i < 1000; i++) {
		clock_gettime(i & 1 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
		gettimeofday(&tv, NULL);
		time(NULL);
		vdso.clock_getres(CLOCK_MONOTONIC, &ts);
	}
	/* kstats counts the whole system's calls: a server's own (the file
	 * manager's writeback thread, the time server's alarms, the harness)
	 * may fall in the window, more of them on a loaded host, where the
	 * loop takes longer. Reads that fell back to the system call would
	 * make 4000; a few dozen are others'. */
	uint64_t made = syscalls() - before;
	CHECK(made < 400, "4000 vDSO reads made %llu system calls", (unsigned long long)made);
	CHECK_EQ((long)(server_gets() - gets), 0);
	/* The same count sees a real call. */
	raw_clock(CLOCK_MONOTONIC);
	CHECK_EQ((long)(server_gets() - gets), 1);
}

/* ------------------------------------------------- nobody writes it */

/* Runs fn in a forked child; returns its wait status. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(test_exit_code());
	}
	if (pid < 0) {
		test_fail("fork: %d", errno);
		return -1;
	}
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid: %d", errno);
	return status;
}

static void write_data(void)
{
	((volatile uint32_t *)vdso.data)[0] = 12345;
}

static void write_text(void)
{
	*(volatile uint8_t *)vdso.clock_gettime = 0xcc;
}

static void write_header(void)
{
	*(volatile uint32_t *)vdso.ehdr = 0;
}

/* mprotect may make the pages writable: the stores reach a private copy. */
static void write_own_copy(void)
{
	void *page = (void *)((uintptr_t)vdso.data & ~(uintptr_t)4095);
	CHECK_EQ(mprotect(page, 4096, PROT_READ | PROT_WRITE), 0);
	((volatile uint32_t *)vdso.data)[1] = 0;   /* published, in the copy */
	CHECK(vdso.data->published == 0, "the store did not happen");
	struct timespec ts;
	CHECK_EQ(clock_gettime(CLOCK_MONOTONIC, &ts), 0);   /* the system call now */
}

static void check_killed(const char *what, int status)
{
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "%s: status %#x, not SIGSEGV",
	      what, status);
}

static void nobody_writes(void)
{
	uint32_t seq = vdso.data->seq;
	check_killed("a store into the clock page", in_child(write_data));
	check_killed("a store into the vDSO's code", in_child(write_text));
	check_killed("a store into the vDSO's header", in_child(write_header));
	int status = in_child(write_own_copy);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "mprotect child: status %#x", status);
	CHECK(vdso.data->seq == seq && vdso.data->published == 1,
	      "the clock page changed: seq %u, published %u", vdso.data->seq, vdso.data->published);
	/* The kernel writes there for nobody either. */
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)vdso.data), -EFAULT);
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)vdso.ehdr), -EFAULT);
	/* The vDSO's own stores into its pages fault as the program's would. */
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_CLOCK_PUBLISH, (long)&seq, 0, 0, 0, 0, 0), -EPERM);
	agree();
}

/* ------------------------------------------------- fork and execve */

static void child_agrees(void)
{
	agree();
	fallbacks();
}

static void after_fork(void)
{
	int status = in_child(child_agrees);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "forked child: status %#x", status);
}

/* Copies this program from its boot module into the file system. */
static int copy_program(void)
{
	int fd = open(EXEC_PATH, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0) {
		test_fail("open %s: %d", EXEC_PATH, errno);
		return -1;
	}
	static char buf[65536];
	uint64_t off = 0;
	for (;;) {
		long n = myrmex_module_read("t_vdso", off, buf, sizeof buf);
		if (n < 0) {
			test_fail("module_read: %ld", n);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		if (write(fd, buf, (size_t)n) != n) {
			test_fail("write %s: %d", EXEC_PATH, errno);
			close(fd);
			return -1;
		}
		off += (uint64_t)n;
	}
	close(fd);
	return 0;
}

static void after_exec(void)
{
	if (copy_program() < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "t_vdso", "exec-child", NULL };
		char *envp[] = { "MYRMEX_TEST=1", NULL };
		execve(EXEC_PATH, argv, envp);
		test_fail("execve: %d", errno);
		_exit(99);
	}
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork or waitpid: %d", errno);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the executed child: status %#x",
	      status);
	CHECK_EQ(unlink(EXEC_PATH), 0);
}

/* ------------------------------------------------- modes */

static void console_for_messages(void)
{
	long fd = raw3(SYS_open, (long)"/dev/console", O_RDWR, 0);
	if (fd >= 0) {
		raw2(SYS_dup2, fd, 1);
		raw2(SYS_dup2, fd, 2);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	if (strcmp(mode, "exec-child") == 0) {
		if (find_vdso() == 0) {
			wait_published();
			child_agrees();
		}
		return test_exit_code();
	}
	console_for_messages();
	if (find_vdso() < 0)
		return 1;
	wait_published();
	agree();
	fallbacks();
	no_call();
	nobody_writes();
	after_fork();
	after_exec();
	if (test_exit_code() == 0)
		test_note("all checks passed");
	return test_exit_code();
}
