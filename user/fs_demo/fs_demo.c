/*
 * fs_demo: the demo's client of the file manager (make run). It lists the
 * root directory of the ext2 disk, prints /etc/motd, writes a file, reads it
 * back, renames and removes it, syncs, and prints what the file manager
 * counted (requests, cache hits and misses, disk requests, copies) — every
 * step a call over the communication mechanism, with the data in the
 * channel's data ICA. Its last line goes out through /dev/console: the file
 * manager passes the write on to the console server, which answers straight
 * back to us (direct return).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <myrmex.h>

static void list_root(void)
{
	int fd = myrmex_fs_open("/", O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		printf("fs_demo: open /: error %d\n", -fd);
		return;
	}
	static char buf[8192];
	printf("fs_demo: / holds:");
	long n;
	while ((n = myrmex_fs_readdir(fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			const struct myrmex_dirent64 *d = (const void *)(buf + off);
			printf(" %s%s", d->d_name, d->d_type == 4 ? "/" : "");
			off += d->d_reclen;
		}
	}
	printf("\n");
	myrmex_fs_close(fd);
}

static void cat(const char *path)
{
	int fd = myrmex_fs_open(path, O_RDONLY, 0);
	if (fd < 0) {
		printf("fs_demo: open %s: error %d\n", path, -fd);
		return;
	}
	char buf[1024];
	long n = myrmex_fs_read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	printf("fs_demo: %s says: %s%s", path, buf, n > 0 && buf[n - 1] == '\n' ? "" : "\n");
	myrmex_fs_close(fd);
}

static void write_and_remove(void)
{
	static const char text[] = "written by fs_demo through the file manager\n";
	int fd = myrmex_fs_open("/demo.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0) {
		printf("fs_demo: create /demo.txt: error %d\n", -fd);
		return;
	}
	long w = myrmex_fs_write(fd, text, sizeof text - 1);
	char back[sizeof text];
	long r = myrmex_fs_pread(fd, back, sizeof back - 1, 0);
	myrmex_fs_close(fd);
	int same = r == w && r == (long)sizeof text - 1 && memcmp(back, text, sizeof text - 1) == 0;
	int renamed = myrmex_fs_rename("/demo.txt", "/demo-renamed.txt");
	int removed = myrmex_fs_unlink("/demo-renamed.txt");
	int synced = myrmex_fs_sync();
	printf("fs_demo: wrote %ld bytes, read back %s, rename %d, unlink %d, sync %d\n", w,
	       same ? "the same" : "DIFFERENT", renamed, removed, synced);
}

int main(void)
{
	if (myrmex_fs_wait(5000) < 0) {
		printf("fs_demo: no file manager\n");
		return 1;
	}
	list_root();
	cat("/etc/motd");
	write_and_remove();
	uint64_t c[8];
	if (myrmex_fs_stats(c) == 0)
		printf("fs_demo: file manager: %llu requests, %llu cache hits, %llu misses, "
		       "%llu disk reads, %llu disk writes, %llu copies (%llu bytes)\n",
		       (unsigned long long)c[FS_STAT_REQUESTS], (unsigned long long)c[FS_STAT_CACHE_HITS],
		       (unsigned long long)c[FS_STAT_CACHE_MISSES], (unsigned long long)c[FS_STAT_DISK_READS],
		       (unsigned long long)c[FS_STAT_DISK_WRITES], (unsigned long long)c[FS_STAT_COPIES],
		       (unsigned long long)c[FS_STAT_COPY_BYTES]);
	int con = myrmex_fs_open("/dev/console", O_WRONLY, 0);
	static const char bye[] = "fs_demo: this line went fs_demo -> fileman -> console server "
	                          "(direct return)\n";
	long w = con >= 0 ? myrmex_fs_write(con, bye, sizeof bye - 1) : con;
	if (w != (long)sizeof bye - 1)
		printf("fs_demo: /dev/console: error %ld\n", w < 0 ? -w : 0);
	if (con >= 0)
		myrmex_fs_close(con);
	return 0;
}
