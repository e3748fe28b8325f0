/*
 * Files: open (O_CREAT, O_EXCL, O_TRUNC, O_APPEND, the umask), close, read,
 * write, lseek (SEEK_SET/CUR/END, past the end: a hole of zeros), pread and
 * pwrite (the offset stays), readv and writev, fstat and stat, ftruncate
 * (shrink, grow with zeros), fsync and fdatasync, a write and a read of
 * 200000 bytes in one call, /dev/null, and the open errors.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <sys/uio.h>

#define BIG 200000

static void show(const char *what, int fd, off_t at, size_t n)
{
	char buf[64] = { 0 };
	ssize_t got = pread(fd, buf, n < sizeof buf - 1 ? n : sizeof buf - 1, at);
	for (ssize_t i = 0; i < got; i++)
		if (buf[i] < ' ' || buf[i] > '~')
			buf[i] = '.';
	say("%s: %zd [%s]\n", what, got, got > 0 ? buf : "");
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(void)
{
	scratch_enter("file_io");
	int fd = open("f", O_WRONLY | O_CREAT | O_EXCL, 0666);
	outcome("open O_CREAT|O_EXCL", fd);
	outcome_value("write 12 bytes", write(fd, "hello world\n", 12));
	errno = 0;
	outcome("open O_CREAT|O_EXCL of an existing file", open("f", O_WRONLY | O_CREAT | O_EXCL, 0666));
	outcome("close", close(fd));

	struct stat st;
	stat("f", &st);
	say("stat: regular: %s, size %ld, mode %o (umask 022), links %ld\n", yes(S_ISREG(st.st_mode)),
	    (long)st.st_size, (unsigned)(st.st_mode & 07777), (long)st.st_nlink);

	fd = open("f", O_RDWR);
	char buf[64] = { 0 };
	outcome_value("read 100 from the start", read(fd, buf, 100));
	say("read: [%.11s]\n", buf);
	outcome_value("read at the end", read(fd, buf, 100));
	outcome_value("lseek SEEK_SET 6", lseek(fd, 6, SEEK_SET));
	memset(buf, 0, sizeof buf);
	outcome_value("read 5", read(fd, buf, 5));
	say("read: [%s]\n", buf);
	outcome_value("lseek SEEK_CUR -5", lseek(fd, -5, SEEK_CUR));
	outcome_value("lseek SEEK_END 0", lseek(fd, 0, SEEK_END));
	outcome_value("lseek SEEK_END -6", lseek(fd, -6, SEEK_END));

	show("pread 5 at 0", fd, 0, 5);
	say("offset after pread unchanged: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 6));
	outcome_value("pwrite HELLO at 0", pwrite(fd, "HELLO", 5, 0));
	say("offset after pwrite unchanged: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 6));
	show("contents", fd, 0, 12);

	struct iovec wv[3] = { { "one ", 4 }, { "", 0 }, { "two three", 9 } };
	lseek(fd, 0, SEEK_END);
	outcome_value("writev of 4 + 0 + 9 bytes", writev(fd, wv, 3));
	char a[6] = { 0 }, b[20] = { 0 };
	struct iovec rv[2] = { { a, 5 }, { b, 19 } };
	lseek(fd, 10, SEEK_SET);
	outcome_value("readv into 5 + 19 bytes from 10", readv(fd, rv, 2));
	say("readv: [%s] [%s]\n", a, b);

	outcome_value("lseek to 100, past the end", lseek(fd, 100, SEEK_SET));
	outcome_value("write 1 byte there", write(fd, "x", 1));
	fstat(fd, &st);
	say("fstat size after the hole: %ld\n", (long)st.st_size);
	show("bytes 22..30 of the hole", fd, 22, 8);
	struct stat by_path;
	stat("f", &by_path);
	say("stat and fstat agree on inode and device: %s\n",
	    yes(by_path.st_ino == st.st_ino && by_path.st_dev == st.st_dev));

	outcome("ftruncate to 5", ftruncate(fd, 5));
	say("size: %ld\n", file_size("f"));
	outcome("ftruncate to 10000", ftruncate(fd, 10000));
	say("size: %ld\n", file_size("f"));
	show("bytes 0..8 after the grow", fd, 0, 8);
	outcome("fsync", fsync(fd));
	outcome("fdatasync", fdatasync(fd));
	close(fd);

	fd = open("f", O_WRONLY | O_APPEND);
	lseek(fd, 0, SEEK_SET);
	outcome_value("O_APPEND write after lseek 0", write(fd, "END", 3));
	say("size: %ld\n", file_size("f"));
	close(fd);
	fd = open("f", O_RDONLY);
	show("the last 3 bytes", fd, 10000, 3);
	close(fd);
	fd = open("f", O_WRONLY | O_TRUNC);
	say("O_TRUNC: size %ld\n", file_size("f"));
	close(fd);

	umask(077);
	fd = open("private", O_WRONLY | O_CREAT, 0666);
	fstat(fd, &st);
	say("created under umask 077: mode %o\n", (unsigned)(st.st_mode & 0777));
	close(fd);
	umask(022);

	char *data = malloc(BIG), *back = malloc(BIG);
	for (int i = 0; i < BIG; i++)
		data[i] = (char)(i * 7 + i / 1000);
	fd = open("big", O_RDWR | O_CREAT, 0644);
	outcome_value("write 200000 bytes in one call", write(fd, data, BIG));
	lseek(fd, 0, SEEK_SET);
	memset(back, 0, BIG);
	ssize_t got = 0, n;
	while (got < BIG && (n = read(fd, back + got, BIG - got)) > 0)
		got += n;
	say("read them back: %zd bytes, equal: %s\n", got, yes(got == BIG && !memcmp(data, back, BIG)));
	close(fd);

	fd = open("/dev/null", O_RDWR);
	outcome("open /dev/null", fd);
	outcome_value("write 10 to /dev/null", write(fd, "0123456789", 10));
	outcome_value("read from /dev/null", read(fd, buf, 10));
	close(fd);

	outcome("open a missing file", open("missing", O_RDONLY));
	outcome("open under a file", open("f/x", O_RDONLY));
	outcome("open O_CREAT in a missing directory", open("nodir/x", O_WRONLY | O_CREAT, 0644));
	outcome("open a file with O_DIRECTORY", open("f", O_RDONLY | O_DIRECTORY));
	outcome("open a directory for writing", open(".", O_WRONLY));
	outcome("open a directory read-only", fd = open(".", O_RDONLY));
	close(fd);
	outcome("open an empty path", open("", O_RDONLY));
	scratch_leave();
	return 0;
}
