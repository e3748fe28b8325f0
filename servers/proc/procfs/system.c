/*
 * system.c - the files of /proc itself and its listing. Memory from the
 * kernel's sysinfo (pages as they stand now), time from the monotonic clock
 * (the uptime), the CPU from CPUID, the rest fixed facts of this system:
 * one ext2 root, /proc, and a devtmpfs-like /dev the file manager serves.
 */
#include "procfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

static void uptime_file(struct procfs_out *o)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* The idle time is not counted per CPU here: given as the uptime
	 * (an idle machine), which is what tools divide into. */
	out_printf(o, "%lld.%02ld %lld.%02ld\n", (long long)ts.tv_sec, ts.tv_nsec / 10000000,
	           (long long)ts.tv_sec, ts.tv_nsec / 10000000);
}

static void meminfo_file(struct procfs_out *o)
{
	struct sysinfo si;
	sysinfo(&si);
	unsigned long unit = si.mem_unit ? si.mem_unit : 1;
	unsigned long total = si.totalram * unit / 1024, freek = si.freeram * unit / 1024;
	out_printf(o, "MemTotal:       %8lu kB\n", total);
	out_printf(o, "MemFree:        %8lu kB\n", freek);
	out_printf(o, "MemAvailable:   %8lu kB\n", freek);
	out_printf(o, "Buffers:        %8lu kB\n", 0ul);
	out_printf(o, "Cached:         %8lu kB\n", 0ul);
	out_printf(o, "SwapCached:     %8lu kB\n", 0ul);
	out_printf(o, "Shmem:          %8lu kB\n", 0ul);
	out_printf(o, "SReclaimable:   %8lu kB\n", 0ul);
	out_printf(o, "SwapTotal:      %8lu kB\n", 0ul);
	out_printf(o, "SwapFree:       %8lu kB\n", 0ul);
}

static void count_procs(unsigned *all, unsigned *running, int *last)
{
	struct myrmex_procinfo info;
	*all = *running = 0;
	*last = 0;
	for (long pid = 1; (pid = myrmex_syscall6(MYRMEX_SYS_PROC_INFO, pid, (long)&info, 0, 0, 0, 0)) > 0; pid++) {
		(*all)++;
		*running += info.state == 'R';
		*last = (int)pid;
	}
}

static void loadavg_file(struct procfs_out *o)
{
	unsigned all, running;
	int last;
	count_procs(&all, &running, &last);
	/* No load average is kept yet: 0.00, as an idle Linux shows. */
	out_printf(o, "0.00 0.00 0.00 %u/%u %d\n", running, all, last);
}

static void stat_file(struct procfs_out *o)
{
	struct timespec up, now;
	clock_gettime(CLOCK_MONOTONIC, &up);
	clock_gettime(CLOCK_REALTIME, &now);
	unsigned all, running;
	int last;
	count_procs(&all, &running, &last);
	unsigned long long ticks = (unsigned long long)up.tv_sec * 100 + (unsigned long long)up.tv_nsec / 10000000;
	/* CPU time is not split into user and idle per CPU yet: all idle. */
	out_printf(o, "cpu  0 0 0 %llu 0 0 0 0 0 0\n", ticks);
	out_printf(o, "cpu0 0 0 0 %llu 0 0 0 0 0 0\n", ticks);
	out_printf(o, "intr 0\nctxt 0\nbtime %lld\nprocesses %d\nprocs_running %u\nprocs_blocked 0\n",
	           (long long)(now.tv_sec - up.tv_sec), last, running);
}

static void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

static void cpuinfo_file(struct procfs_out *o)
{
	uint32_t r[4], brand[12];
	char vendor[13];
	cpuid(0, r);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = '\0';
	cpuid(1, r);
	unsigned family = (r[0] >> 8) & 15, model = (r[0] >> 4) & 15;
	if (family == 15)
		family += (r[0] >> 20) & 255;
	if (family >= 6)
		model |= ((r[0] >> 16) & 15) << 4;
	bool rdrand = r[2] & (1u << 30);
	cpuid(0x80000000, r);
	char name[49] = "unknown";
	if (r[0] >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++)
			cpuid(0x80000002 + i, &brand[i * 4]);
		memcpy(name, brand, 48);
		name[48] = '\0';
	}
	/* The kernel starts one CPU (docs/architecture.md). */
	out_printf(o, "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n"
	           "model name\t: %s\ncpu cores\t: 1\nflags\t\t: fpu tsc msr pae cx8 apic sep pge cmov "
	           "fxsr sse sse2 syscall nx lm%s\n\n",
	           vendor, family, model, name, rdrand ? " rdrand" : "");
}

static void version_file(struct procfs_out *o)
{
	struct utsname u;
	uname(&u);
	out_printf(o, "%s version %s (myrmex) %s\n", u.sysname, u.release, u.version);
}

/* In the order a Linux system that mounts /dev before /proc lists them;
 * devtmpfs with tmpfs's default size, half the memory, and as many inodes
 * as pages (what statfs of /dev says, kernel/posix/sys_statfs.c). */
static void mounts_file(struct procfs_out *o)
{
	struct sysinfo si;
	sysinfo(&si);
	unsigned long unit = si.mem_unit ? si.mem_unit : 1;
	unsigned long half_k = si.totalram * unit / 1024 / 2;
	out_printf(o, "/dev/root / ext2 rw,relatime 0 0\n");
	out_printf(o, "devtmpfs /dev devtmpfs rw,relatime,size=%luk,nr_inodes=%lu,mode=755,inode64 0 0\n",
	           half_k, half_k / 4);
	out_printf(o, "proc /proc proc rw,relatime 0 0\n");
}

static const struct {
	const char *name;
	void (*make)(struct procfs_out *o);
	const char *text;     /* fixed contents, when make is NULL */
} files[] = {
	{ "uptime", uptime_file, NULL },
	{ "meminfo", meminfo_file, NULL },
	{ "loadavg", loadavg_file, NULL },
	{ "stat", stat_file, NULL },
	{ "cpuinfo", cpuinfo_file, NULL },
	{ "version", version_file, NULL },
	{ "mounts", mounts_file, NULL },
	{ "filesystems", NULL, "\text2\nnodev\tproc\nnodev\tdevtmpfs\n" },
};
#define NFILES (sizeof(files) / sizeof(files[0]))

int system_get(const char *path, struct procfs_out *o)
{
	if (path[0] == '\0') {
		o->type = PROCFS_DIR;
		o->perm = 0555;
		for (unsigned i = 0; i < NFILES; i++)
			out_entry(o, files[i].name, 'f');
		out_entry(o, "self", 'l');
		struct myrmex_procinfo info;
		char name[24];
		for (long pid = 1; (pid = myrmex_syscall6(MYRMEX_SYS_PROC_INFO, pid, (long)&info, 0, 0, 0, 0)) > 0; pid++) {
			snprintf(name, sizeof name, "%ld", pid);
			out_entry(o, name, 'd');
		}
		return 0;
	}
	for (unsigned i = 0; i < NFILES; i++) {
		size_t n = strlen(files[i].name);
		if (strncmp(path, files[i].name, n) != 0 || (path[n] != '\0' && path[n] != '/'))
			continue;
		if (path[n] == '/')
			return -ENOTDIR;
		o->ino = 2 + i;
		if (files[i].make)
			files[i].make(o);
		else
			out_bytes(o, files[i].text, strlen(files[i].text));
		return 0;
	}
	return -ENOENT;
}
