/*
 * The Linux ABI of x86-64, as the Linux personality (kernel/posix) needs
 * it: the layouts of the structures its system calls copy to and from user
 * space, the word of the initial stack, the ELF class and machine of its
 * programs, and the names uname and AT_PLATFORM give. The personality fills
 * and reads these structures field by field, by name, so a port of another
 * CPU gives the same names with its own Linux's layout. Every field has a
 * fixed width and every structure a size check against Linux's.
 */
#ifndef ARCH_LINUX_ABI_H
#define ARCH_LINUX_ABI_H

#include <stdint.h>

/* The ABI's unsigned long: the word of the initial stack (argc, the argv
 * and envp pointers, the auxiliary vector), of the pointer vectors execve
 * reads, and of the bit masks counted in longs (select's fd_set). */
typedef uint64_t linux_ulong;
typedef linux_ulong linux_auxv_word;

/* uname's machine and the auxiliary vector's AT_PLATFORM string. */
#define LINUX_UTS_MACHINE "x86_64"
#define LINUX_PLATFORM    "x86_64"

/* Programs are ELF64 (the header layouts of kernel/posix/elf.c), little
 * endian, for EM_X86_64. */
#define LINUX_ELF_CLASS   2    /* ELFCLASS64 */
#define LINUX_ELF_DATA    1    /* ELFDATA2LSB */
#define LINUX_ELF_MACHINE 62   /* EM_X86_64 */
typedef struct elf64_ehdr linux_elf_ehdr;
typedef struct elf64_phdr linux_elf_phdr;

/* struct stat (<asm/stat.h>), of stat, fstat, lstat and newfstatat. */
struct linux_stat {
	uint64_t st_dev;
	uint64_t st_ino;
	uint64_t st_nlink;
	uint32_t st_mode;
	uint32_t st_uid;
	uint32_t st_gid;
	uint32_t pad0;
	uint64_t st_rdev;
	int64_t st_size;
	int64_t st_blksize;
	int64_t st_blocks;        /* 512-byte units */
	uint64_t st_atime_sec, st_atime_nsec;
	uint64_t st_mtime_sec, st_mtime_nsec;
	uint64_t st_ctime_sec, st_ctime_nsec;
	int64_t reserved[3];
};
_Static_assert(sizeof(struct linux_stat) == 144, "struct stat of x86-64 Linux");

/* struct statfs, of statfs and fstatfs. */
struct linux_statfs {
	int64_t f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	int64_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct linux_statfs) == 120, "struct statfs of x86-64 Linux");

/* struct sysinfo. */
struct linux_sysinfo {
	int64_t uptime;
	uint64_t loads[3];
	uint64_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t pad2;
	uint64_t totalhigh, freehigh;
	uint32_t mem_unit;
	char reserved[4];
};
_Static_assert(sizeof(struct linux_sysinfo) == 112, "struct sysinfo of x86-64 Linux");

/* struct iovec, of readv and writev. */
struct linux_iovec {
	uint64_t base, len;
};
_Static_assert(sizeof(struct linux_iovec) == 16, "struct iovec of x86-64 Linux");

/* struct msghdr of sendmsg and recvmsg (x86-64 Linux: 56 bytes). */
struct linux_msghdr {
	uint64_t name;
	uint32_t namelen;
	uint32_t pad0;
	uint64_t iov;
	uint64_t iovlen;
	uint64_t control;
	uint64_t controllen;
	int32_t flags;
	uint32_t pad1;
};
_Static_assert(sizeof(struct linux_msghdr) == 56, "struct msghdr of x86-64 Linux");

/* struct ifconf of SIOCGIFCONF (x86-64 Linux: 16 bytes). */
struct linux_ifconf {
	int32_t len;
	uint32_t pad;
	uint64_t buf;
};
_Static_assert(sizeof(struct linux_ifconf) == 16, "struct ifconf of x86-64 Linux");

/* The kernel's struct sigaction, of rt_sigaction. */
struct linux_sigaction {
	uint64_t handler;    /* SIG_DFL, SIG_IGN or the handler's address */
	uint64_t flags;      /* SA_* */
	uint64_t restorer;   /* SA_RESTORER */
	uint64_t mask;
};
_Static_assert(sizeof(struct linux_sigaction) == 32, "struct sigaction of x86-64 Linux");

/* stack_t, of sigaltstack. */
struct linux_stack {
	uint64_t sp;
	int32_t flags;
	int32_t pad;
	uint64_t size;
};
_Static_assert(sizeof(struct linux_stack) == 24, "stack_t of x86-64 Linux");

/* struct timespec and struct timeval of the time calls, and
 * struct itimerval of getitimer/setitimer. */
struct linux_timespec {
	int64_t sec, nsec;
};
_Static_assert(sizeof(struct linux_timespec) == 16, "struct timespec of x86-64 Linux");

struct linux_timeval {
	int64_t sec, usec;
};
_Static_assert(sizeof(struct linux_timeval) == 16, "struct timeval of x86-64 Linux");

/* struct tms of times(): clock_t (long) counts of clock ticks (USER_HZ). */
struct linux_tms {
	int64_t utime, stime, cutime, cstime;
};
_Static_assert(sizeof(struct linux_tms) == 32, "struct tms of x86-64 Linux");

struct linux_itimerval {
	struct linux_timeval interval, value;
};
_Static_assert(sizeof(struct linux_itimerval) == 32, "struct itimerval of x86-64 Linux");

/* struct flock (the same as flock64 here), of fcntl's record locks. */
struct linux_flock {
	int16_t l_type, l_whence;
	int64_t l_start, l_len;
	int32_t l_pid;
	int32_t pad;
};
_Static_assert(sizeof(struct linux_flock) == 32, "struct flock of x86-64 Linux");

/* The size set_robust_list accepts: struct robust_list_head. */
#define LINUX_ROBUST_LIST_HEAD_SIZE 24

/* The vDSO image of this port's POSIX processes (kernel/arch/x86_64/vdso,
 * embedded by vdso_image.S): an ELF shared object that the personality maps
 * at AT_SYSINFO_EHDR (include/myrmex/vdso.h). Empty (end == start): none. */
extern const uint8_t linux_vdso_image[], linux_vdso_image_end[];

#endif
