/*
 * t_posix_calls: the kernel's side of the Linux call path (docs/posix.md),
 * run as a POSIX process (spawned with MYRMEX_SPAWN_POSIX) with the file
 * manager on fs.img and the console server. Raw system calls, so that the
 * kernel's own answers are seen without libc in between:
 *   - every bad pointer, length, flag and descriptor gives the Linux error
 *     and the process goes on;
 *   - a long read is split into several requests and returns every byte;
 *   - sendfile relays through the channel's data ICA;
 *   - umask applies to the modes of creat and mkdir;
 *   - the kernel channel cannot be taken: no handle frees it, no address
 *     starts a call with it, and forwarded calls still work afterwards.
 */
#define TEST_NAME "t_posix_calls"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#define BAD_PTR     0x1L                   /* below every mapping */
#define KERNEL_PTR  (long)0xffff800000001000ull
#define BIG_FILE    "/big"                 /* fs.img: 6 MiB + 12345 bytes */
#define LONG_READ   (1024 * 1024 + 4097)   /* more than 16 requests' worth */
#define TCGETS      0x5401

static char big_a[LONG_READ], big_b[LONG_READ];

static void bad_paths(void)
{
	char *longpath = malloc(5000);
	memset(longpath, 'a', 4999);
	longpath[0] = '/';
	longpath[4999] = '\0';
	CHECK_EQ(raw3(SYS_open, 0, O_RDONLY, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_open, BAD_PTR, O_RDONLY, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_open, KERNEL_PTR, O_RDONLY, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_open, (long)longpath, O_RDONLY, 0), -ENAMETOOLONG);
	CHECK_EQ(raw3(SYS_open, (long)"", O_RDONLY, 0), -ENOENT);
	struct stat st;
	CHECK_EQ(raw2(SYS_stat, (long)"/SUMS", 0), -EFAULT);
	CHECK_EQ(raw2(SYS_stat, (long)"/SUMS", KERNEL_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_stat, 0, (long)&st), -EFAULT);
	CHECK_EQ(raw4(SYS_newfstatat, AT_FDCWD, (long)"/SUMS", (long)&st, 0x4000000), -EINVAL);
	CHECK_EQ(raw2(SYS_mkdir, BAD_PTR, 0755), -EFAULT);
	CHECK_EQ(raw1(SYS_unlink, BAD_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_rename, (long)"/SUMS", BAD_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_access, (long)"/SUMS", 8), -EINVAL);
	CHECK_EQ(raw3(SYS_readlink, (long)"/SUMS", (long)big_a, 0), -EINVAL);
	CHECK_EQ(raw1(SYS_chdir, BAD_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_getcwd, 0, 100), -EFAULT);
	CHECK_EQ(raw2(SYS_getcwd, (long)big_a, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_getcwd, (long)big_a, 1), -ERANGE);
	CHECK_EQ(raw3(SYS_execve, 0, 0, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_execve, (long)"/bin/none", BAD_PTR, 0), -EFAULT);
	free(longpath);
}

static void bad_descriptors(long fd)
{
	CHECK_EQ(raw3(SYS_read, fd, 0, 10), -EFAULT);
	CHECK_EQ(raw3(SYS_read, fd, KERNEL_PTR, 10), -EFAULT);
	CHECK_EQ(raw3(SYS_read, fd, (long)big_a, -1L), -EINVAL);
	CHECK_EQ(raw3(SYS_read, 99, (long)big_a, 10), -EBADF);
	CHECK_EQ(raw3(SYS_read, -1, (long)big_a, 10), -EBADF);
	CHECK_EQ(raw3(SYS_write, fd, (long)big_a, 10), -EBADF);   /* read-only */
	CHECK_EQ(raw3(SYS_readv, fd, BAD_PTR, 1), -EFAULT);
	CHECK_EQ(raw3(SYS_readv, fd, (long)big_a, 2000), -EINVAL);
	CHECK_EQ(raw2(SYS_fstat, 99, (long)big_a), -EBADF);
	CHECK_EQ(raw2(SYS_fstat, fd, BAD_PTR), -EFAULT);
	CHECK_EQ(raw3(SYS_getdents64, fd, KERNEL_PTR, 4096), -EFAULT);
	CHECK_EQ(raw2(SYS_dup2, fd, 200), -EBADF);
	CHECK_EQ(raw1(SYS_dup, 77), -EBADF);
	CHECK_EQ(raw3(SYS_dup3, fd, fd, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_fcntl, fd, 999, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_fcntl, fd, F_DUPFD, -3), -EINVAL);
	CHECK_EQ(raw3(SYS_ioctl, fd, TCGETS, (long)big_a), -ENOTTY);
	CHECK_EQ(raw3(SYS_lseek, fd, 0, 7), -EINVAL);
	CHECK_EQ(raw2(SYS_ftruncate, fd, -5), -EINVAL);
	CHECK_EQ(raw1(SYS_pipe, 0), -EFAULT);
	int fds[2];
	CHECK_EQ(raw2(SYS_pipe2, (long)fds, 0x1234), -EINVAL);
	CHECK_EQ(raw3(SYS_poll, 0, 1, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_poll, (long)big_a, 5000, 0), -EINVAL);
	CHECK_EQ(myrmex_syscall6(SYS_select, -1, 0, 0, 0, 0, 0), -EINVAL);
	CHECK_EQ(myrmex_syscall6(SYS_sendfile, 1, fd, BAD_PTR, 10, 0, 0), -EFAULT);
}

/* One read of more than the channel carries at once, against preads. */
static void long_read(void)
{
	long fd = raw3(SYS_open, (long)BIG_FILE, O_RDONLY, 0);
	CHECK(fd >= 0, "open %s: %ld", BIG_FILE, fd);
	if (fd < 0)
		return;
	CHECK_EQ(raw3(SYS_read, fd, (long)big_a, LONG_READ), LONG_READ);
	long done = 0;
	while (done < LONG_READ) {
		long n = LONG_READ - done < 4096 ? LONG_READ - done : 4096;
		long r = raw4(SYS_pread64, fd, (long)big_b + done, n, done);
		if (r <= 0)
			break;
		done += r;
	}
	CHECK_EQ(done, LONG_READ);
	CHECK(memcmp(big_a, big_b, LONG_READ) == 0, "one long read differs from 4 KiB preads");
	CHECK_EQ(raw3(SYS_lseek, fd, 0, SEEK_CUR), LONG_READ);
	bad_descriptors(fd);
	raw1(SYS_close, fd);
}

static void relay(void)
{
	long fd = raw3(SYS_open, (long)BIG_FILE, O_RDONLY, 0);
	int p[2];
	CHECK_EQ(raw1(SYS_pipe, (long)p), 0);
	int64_t off = 4000;
	CHECK_EQ(myrmex_syscall6(SYS_sendfile, p[1], fd, (long)&off, 3000, 0, 0), 3000);
	CHECK_EQ(off, 7000);
	CHECK_EQ(raw3(SYS_read, p[0], (long)big_a, 3000), 3000);
	CHECK_EQ(raw4(SYS_pread64, fd, (long)big_b, 3000, 4000), 3000);
	CHECK(memcmp(big_a, big_b, 3000) == 0, "sendfile relayed other bytes");
	raw1(SYS_close, p[0]);
	raw1(SYS_close, p[1]);
	raw1(SYS_close, fd);
}

static void modes(void)
{
	CHECK_EQ(raw1(SYS_umask, 077), 022);
	long fd = raw2(SYS_creat, (long)"/posix-umask", 0666);
	CHECK(fd >= 0, "creat: %ld", fd);
	struct stat st;
	CHECK_EQ(raw2(SYS_stat, (long)"/posix-umask", (long)&st), 0);
	CHECK_EQ(st.st_mode & 0777, 0600);
	raw1(SYS_close, fd);
	CHECK_EQ(raw1(SYS_unlink, (long)"/posix-umask"), 0);
	CHECK_EQ(raw1(SYS_umask, 022), 077);
}

/* No handle and no address gives the user the kernel's channel. */
static void channel_is_kernels(void)
{
	for (uint32_t slot = 0; slot < MYRMEX_ICA_SLOTS; slot++) {
		for (uint32_t gen = 1; gen <= 4; gen++) {
			uint32_t h = slot | gen << MYRMEX_ICA_GEN_SHIFT;
			CHECK_EQ(myrmex_ica_free(h), -EINVAL);
			CHECK_EQ(myrmex_ica_detach(h), -EINVAL);
			CHECK_EQ(myrmex_ica_attach(h), -EINVAL);
		}
		CHECK_EQ(myrmex_callsync(myrmex_ica_addr(slot)), -EINVAL);
	}
	struct stat st;
	CHECK_EQ(raw2(SYS_stat, (long)"/SUMS", (long)&st), 0);
}

int main(void)
{
	test_console_for_messages();
	bad_paths();
	long_read();
	relay();
	modes();
	channel_is_kernels();
	test_note("%s", test_exit_code() ? "FAILED" : "all checks passed");
	return test_exit_code();
}
