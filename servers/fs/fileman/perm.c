/*
 * perm.c - permission checks, on the caller's identity: the file-system
 * uid and gid the kernel stamps into every Linux call it forwards
 * (include/myrmex/fs.h, FS_CRED_*; trusted only when the delivery's origin
 * is the kernel); any other caller (a server, a native program) counts as
 * root. As Linux's: root (uid 0) may read and write anything and search
 * any directory, and execute a file with an execute bit; others get the
 * owner's bits when they own the object, the group's when its group is
 * their gid or one of their supplementary groups (asked of the kernel,
 * proc_groups, only then), the others' bits otherwise. Every directory a
 * path is looked up in must be searchable (path.c asks perm_search).
 * The process manager's FS_OPEN_AS (an execve's open) carries the ids of
 * the process it opens for, which are believed from it alone.
 */
#include "fileman.h"

#include <errno.h>

struct fm_cred request_cred(const struct server_request *rq)
{
	struct fm_cred c = { 0, 0, rq->d.requester };
	/* The process manager's FS_OPEN_AS opens for an execve of process
	 * pid, with that caller's ids, which it stamps where the kernel does. */
	bool exec_open = rq->d.opcode == FS_OPEN_AS && rq->d.origin != MYRMEX_ORIGIN_KERNEL &&
	                 request_from_pm(rq);
	if (rq->d.origin == MYRMEX_ORIGIN_KERNEL || exec_open) {
		const struct myrmex_ctl_header *h = request_ctl(rq);
		c.uid = h->reserved[FS_CRED_UID];
		c.gid = h->reserved[FS_CRED_GID];
	}
	if (exec_open)
		c.pid = (int)SERVER_IN(rq, struct fs_open_args)->pid;   /* checked by do_open_as */
	return c;
}

/* Whether gid is one of the supplementary groups of c's process (asked of
 * the kernel: only the file server may, and only when it matters). */
static bool in_groups(const struct fm_cred *c, uint32_t gid)
{
	uint32_t groups[FS_GROUPS_MAX];
	long n = myrmex_syscall6(MYRMEX_SYS_PROC_GROUPS, c->pid, (long)groups, 0, 0, 0, 0);
	for (long i = 0; i < n && i < (long)FS_GROUPS_MAX; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

int perm_check(const struct server_request *rq, const struct ext2_stat *st, unsigned want)
{
	struct fm_cred c = request_cred(rq);
	if (c.uid == 0) {
		/* Execute needs some execute bit, except on a directory. */
		bool dir = (st->mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
		return !(want & PERM_X) || dir || (st->mode & 0111) ? 0 : -EACCES;
	}
	unsigned bits = st->mode & 07;
	if (st->uid == c.uid)
		bits = (st->mode >> 6) & 07;
	else if (st->gid == c.gid || in_groups(&c, st->gid))
		bits = (st->mode >> 3) & 07;
	return (bits & want) == want ? 0 : -EACCES;
}

int perm_inode(struct server_request *rq, uint32_t ino, unsigned want)
{
	if (request_cred(rq).uid == 0 && !(want & PERM_X))
		return 0;   /* no inode read for root's reads and writes */
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	return rc < 0 ? rc : perm_check(rq, &st, want);
}

int perm_search(struct server_request *rq, uint32_t dir)
{
	return request_cred(rq).uid == 0 ? 0 : perm_inode(rq, dir, PERM_X);
}

int perm_sticky(struct server_request *rq, uint32_t dir, uint32_t victim)
{
	struct fm_cred c = request_cred(rq);
	if (c.uid == 0)
		return 0;
	struct ext2_stat d, v;
	int rc = ext2_stat(fm_fs_for(rq), dir, &d);
	if (rc == 0 && (d.mode & 01000) && d.uid != c.uid) {
		rc = ext2_stat(fm_fs_for(rq), victim, &v);
		if (rc == 0 && v.uid != c.uid)
			rc = -EPERM;
	}
	return rc;
}

int perm_owner(struct server_request *rq, uint32_t ino)
{
	struct fm_cred c = request_cred(rq);
	if (c.uid == 0)
		return 0;
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	return rc < 0 ? rc : st.uid == c.uid ? 0 : -EPERM;
}

int perm_chown(struct server_request *rq, uint32_t ino, uint32_t uid, uint32_t gid)
{
	struct fm_cred c = request_cred(rq);
	if (c.uid == 0)
		return 0;
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return rc;
	/* The owner may give it to its own group, keeping the owner. */
	bool uid_ok = uid == UINT32_MAX || uid == st.uid;
	bool gid_ok = gid == UINT32_MAX || gid == st.gid || gid == c.gid || in_groups(&c, gid);
	return st.uid == c.uid && uid_ok && gid_ok ? 0 : -EPERM;
}
