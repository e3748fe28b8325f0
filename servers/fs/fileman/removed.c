/*
 * removed.c - a directory removed while a process still has it as its
 * current directory or open. ext2 frees it at rmdir; what stays is inode 0
 * in the current directory (files_forget_inode) and in its descriptions
 * (ofd_forget_inode). As Linux answers for such a directory: creating in it
 * gives -ENOENT (path.c: a lookup from base 0), reading it too (Linux's
 * getdents of a dead directory), "." names it still (open, stat), and its
 * stat says a directory with no link left. Its permission bits, owner and times are gone with the
 * inode: they read 0.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>

bool removed_dot(uint32_t base, const char *path)
{
	if (base != 0 || path[0] == '/')
		return false;
	for (const char *p = path; *p;) {
		if (p[0] == '/') {
			p++;
			continue;
		}
		if (p[0] != '.' || (p[1] != '/' && p[1] != '\0'))
			return false;
		p++;
	}
	return true;
}

int64_t removed_dir_stat(struct server_request *rq)
{
	struct myrmex_stat out;
	memset(&out, 0, sizeof(out));
	out.st_dev = FS_ST_DEV_DISK;
	out.st_mode = EXT2_S_IFDIR;
	out.st_blksize = FM_BLOCK;
	if (!rq->data || rq->data_size < sizeof(out))
		return -EINVAL;
	memcpy(rq->data, &out, sizeof(out));
	return 0;
}

int64_t removed_dir_open(struct server_request *rq, int flags, int keep, bool cloexec)
{
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
		return -EISDIR;
	struct open_file *f = ofd_new(FM_DIR, keep);
	if (!f)
		return -ENFILE;
	int fd = files_install(rq->d.requester, f, 0, cloexec);
	ofd_unref(f);
	return fd;
}
