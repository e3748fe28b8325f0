/*
 * The layouts 32-bit Linux gives the structures kernel/posix fills and
 * reads, the same on i386 and on SH (<asm/stat.h>, <asm/signal.h>...), with
 * fixed-width fields and size checks. A 32-bit port's <arch/linux_abi.h>
 * names its machine and includes this; the x86-64 port has layouts of its
 * own.
 */
#ifndef POSIX_LINUX_ABI32_H
#define POSIX_LINUX_ABI32_H

#include <stdint.h>

typedef uint32_t linux_ulong;
typedef linux_ulong linux_auxv_word;

#define LINUX_ELF_CLASS   1    /* ELFCLASS32 */
#define LINUX_ELF_DATA    1    /* ELFDATA2LSB */
typedef struct elf32_ehdr linux_elf_ehdr;
typedef struct elf32_phdr linux_elf_phdr;

struct linux_stat {
	uint32_t st_dev;
	uint32_t st_ino;
	uint16_t st_mode;
	uint16_t st_nlink;
	uint16_t st_uid;
	uint16_t st_gid;
	uint32_t st_rdev;
	uint32_t st_size;
	uint32_t st_blksize;
	uint32_t st_blocks;
	uint32_t st_atime_sec, st_atime_nsec;
	uint32_t st_mtime_sec, st_mtime_nsec;
	uint32_t st_ctime_sec, st_ctime_nsec;
	uint32_t unused4, unused5;
};
_Static_assert(sizeof(struct linux_stat) == 64, "struct stat of 32-bit Linux");

struct linux_statfs {
	uint32_t f_type, f_bsize;
	uint32_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct linux_statfs) == 64, "struct statfs of 32-bit Linux");

struct linux_sysinfo {
	int32_t uptime;
	uint32_t loads[3];
	uint32_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t totalhigh, freehigh;
	uint32_t mem_unit;
	char reserved[8];
};
_Static_assert(sizeof(struct linux_sysinfo) == 64, "struct sysinfo of 32-bit Linux");

struct linux_iovec {
	uint32_t base, len;
};
_Static_assert(sizeof(struct linux_iovec) == 8, "struct iovec of 32-bit Linux");

/* struct msghdr of sendmsg and recvmsg (32-bit Linux: 28 bytes). */
struct linux_msghdr {
	uint32_t name;
	uint32_t namelen;
	uint32_t iov;
	uint32_t iovlen;
	uint32_t control;
	uint32_t controllen;
	int32_t flags;
};
_Static_assert(sizeof(struct linux_msghdr) == 28, "struct msghdr of 32-bit Linux");

/* struct ifconf of SIOCGIFCONF (32-bit Linux: 8 bytes). */
struct linux_ifconf {
	int32_t len;
	uint32_t buf;
};
_Static_assert(sizeof(struct linux_ifconf) == 8, "struct ifconf of 32-bit Linux");

struct linux_sigaction {
	uint32_t handler;
	uint32_t flags;
	uint32_t restorer;
	uint64_t mask;       /* 4-byte aligned on i386 and SH: no padding */
};
_Static_assert(sizeof(struct linux_sigaction) == 20, "struct sigaction of 32-bit Linux");

struct linux_stack {
	uint32_t sp;
	int32_t flags;
	uint32_t size;
};
_Static_assert(sizeof(struct linux_stack) == 12, "stack_t of 32-bit Linux");

struct linux_timespec {
	int32_t sec, nsec;
};
_Static_assert(sizeof(struct linux_timespec) == 8, "struct timespec of 32-bit Linux");

struct linux_timeval {
	int32_t sec, usec;
};
_Static_assert(sizeof(struct linux_timeval) == 8, "struct timeval of 32-bit Linux");

/* struct tms of times(): clock_t (long) counts of clock ticks (USER_HZ). */
struct linux_tms {
	int32_t utime, stime, cutime, cstime;
};
_Static_assert(sizeof(struct linux_tms) == 16, "struct tms of 32-bit Linux");

struct linux_itimerval {
	struct linux_timeval interval, value;
};
_Static_assert(sizeof(struct linux_itimerval) == 16, "struct itimerval of 32-bit Linux");

/* struct flock64 of fcntl64 (its 64-bit fields 4-byte aligned on i386 and SH). */
struct linux_flock {
	int16_t l_type, l_whence;
	int64_t l_start, l_len;
	int32_t l_pid;
};
_Static_assert(sizeof(struct linux_flock) == 24, "struct flock64 of 32-bit Linux");

#define LINUX_ROBUST_LIST_HEAD_SIZE 12

#endif
