/*
 * devfiles.c - the device files of /dev and getrandom: reads of /dev/zero
 * (small and larger than one request), writes to /dev/null and /dev/full
 * (ENOSPC), random bytes from /dev/urandom and /dev/random, the modes and
 * device numbers stat and fstat give (S_ISCHR, major and minor as Linux's),
 * lseek on them, the links /dev/stdin, stdout, stderr and fd, and
 * getrandom with every flag, bad flags (EINVAL) and bad pointers (EFAULT).
 * Prints facts only: random bytes are checked, never shown.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

static char big[200000];

static void device(const char *path)
{
	struct stat st;
	char what[96];
	snprintf(what, sizeof what, "stat %s", path);
	if (stat(path, &st) < 0) {
		outcome(what, -1);
		return;
	}
	say("%s: chr %s, major %u minor %u, perm %03o\n", what, yes(S_ISCHR(st.st_mode)),
	    major(st.st_rdev), minor(st.st_rdev), (unsigned)(st.st_mode & 0777));
	int fd = open(path, O_RDONLY);
	struct stat fst;
	snprintf(what, sizeof what, "fstat %s same as stat", path);
	say("%s: %s\n", what,
	    yes(fd >= 0 && fstat(fd, &fst) == 0 && fst.st_rdev == st.st_rdev &&
	        fst.st_mode == st.st_mode && fst.st_ino == st.st_ino));
	if (fd >= 0)
		close(fd);
}

/* No more than a few of n random bytes are zero, and not all are equal. */
static int looks_random(const unsigned char *b, size_t n)
{
	size_t zeros = 0, same = 0;
	for (size_t i = 0; i < n; i++) {
		zeros += b[i] == 0;
		same += b[i] == b[0];
	}
	return zeros < n / 8 && same < n / 8;
}

static void link_of(const char *path)
{
	char buf[64];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0) {
		say("readlink %s: error %s\n", path, err_name(errno));
		return;
	}
	buf[n] = '\0';
	say("readlink %s: %s\n", path, buf);
}

int main(void)
{
	/* /dev/zero */
	int fd = open("/dev/zero", O_RDONLY);
	outcome("open /dev/zero", fd);
	memset(big, 0x5a, sizeof big);
	outcome_value("read 100 from /dev/zero", read(fd, big, 100));
	outcome_value("read 200000 from /dev/zero", read(fd, big, sizeof big));
	size_t nonzero = 0;
	for (size_t i = 0; i < sizeof big; i++)
		nonzero += big[i] != 0;
	say("all zero: %s\n", yes(nonzero == 0));
	outcome_value("lseek /dev/zero", lseek(fd, 1000, SEEK_SET));
	outcome_value("write 10 to read-only /dev/zero", write(fd, "0123456789", 10));
	close(fd);
	fd = open("/dev/zero", O_WRONLY);
	outcome_value("write 10 to /dev/zero", write(fd, "0123456789", 10));
	close(fd);

	/* /dev/null and /dev/full */
	fd = open("/dev/null", O_RDWR);
	outcome_value("write 200000 to /dev/null", write(fd, big, sizeof big));
	outcome_value("read from /dev/null", read(fd, big, 10));
	close(fd);
	fd = open("/dev/full", O_RDWR);
	outcome("open /dev/full", fd);
	outcome_value("write 10 to /dev/full", write(fd, "0123456789", 10));
	big[0] = 1;
	outcome_value("read 4096 from /dev/full", read(fd, big, 4096));
	say("/dev/full reads zeros: %s\n", yes(big[0] == 0 && big[4095] == 0));
	close(fd);

	/* /dev/urandom and /dev/random */
	const char *rnd[] = { "/dev/urandom", "/dev/random" };
	for (int i = 0; i < 2; i++) {
		unsigned char a[256], b[256];
		char what[64];
		fd = open(rnd[i], O_RDONLY);
		snprintf(what, sizeof what, "read 256 from %s twice", rnd[i]);
		ssize_t n1 = read(fd, a, sizeof a), n2 = read(fd, b, sizeof b);
		say("%s: %s\n", what, yes(n1 == 256 && n2 == 256));
		say("%s random and different: %s\n", rnd[i],
		    yes(looks_random(a, 256) && looks_random(b, 256) && memcmp(a, b, 256) != 0));
		close(fd);
	}

	/* numbers and modes */
	const char *names[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random",
	                        "/dev/urandom", "/dev/tty", "/dev/console" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		device(names[i]);
	struct stat st;
	outcome("open /dev/zero with O_DIRECTORY", open("/dev/zero", O_RDONLY | O_DIRECTORY));
	outcome("unlink of /dev/zero in a directory without it", unlink("/dev/zero/x"));
	(void)st;

	/* the links into /proc */
	link_of("/dev/stdin");
	link_of("/dev/stdout");
	link_of("/dev/stderr");
	link_of("/dev/fd");
	say("lstat /dev/stdin is a link: %s\n", yes(lstat("/dev/stdin", &st) == 0 && S_ISLNK(st.st_mode)));

	/* getrandom */
	unsigned char r[512];
	outcome_value("getrandom 512", getrandom(r, sizeof r, 0));
	say("getrandom bytes look random: %s\n", yes(looks_random(r, sizeof r)));
	outcome_value("getrandom GRND_NONBLOCK", getrandom(r, 16, GRND_NONBLOCK));
	outcome_value("getrandom GRND_RANDOM", getrandom(r, 16, GRND_RANDOM));
	outcome_value("getrandom GRND_RANDOM|GRND_NONBLOCK", getrandom(r, 16, GRND_RANDOM | GRND_NONBLOCK));
	outcome_value("getrandom 0 bytes", getrandom(r, 0, 0));
	outcome_value("getrandom bad flags 0x40", syscall(SYS_getrandom, r, 16, 0x40));
	outcome_value("getrandom GRND_INSECURE|GRND_RANDOM", syscall(SYS_getrandom, r, 16, 0x4 | 0x2));
	outcome_value("getrandom NULL", syscall(SYS_getrandom, NULL, 16, 0));
	outcome_value("getrandom kernel address", syscall(SYS_getrandom, (void *)0xffffffff80000000ul, 16, 0));
	outcome_value("getrandom unmapped", syscall(SYS_getrandom, (void *)0x10000, 16, 0));
	outcome_value("getrandom read-only memory", syscall(SYS_getrandom, (void *)main, 16, 0));
	return 0;
}
