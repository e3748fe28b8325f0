/*
 * orphan.c - the on-disk orphan list, as ext3 and ext4 keep it: a regular
 * file whose last link goes while it is still open stays allocated with a
 * link count of 0 and is chained from the superblock's s_last_orphan
 * through its i_dtime field (the next orphan's inode number, 0 at the end).
 * Its last close takes it off the list and frees it (ext2_release); after a
 * crash, the next read-write mount frees whatever the list still holds, so
 * neither the inodes nor their blocks leak. e2fsck treats the list the same
 * way (and a dtime below the inode count as such a link).
 *
 * Invariant: an inode is on the list exactly while it is an orphan, so a
 * dtime that is a valid inode number (or 0) on an inode with no link marks
 * an orphan and a time marks a freed inode.
 */
#include "ext2_disk.h"

bool ext2_orphan_dtime(const struct ext2_fs *fs, const struct ext2_inode *in)
{
	return in->i_dtime <= fs->inodes_count;
}

void ext2_orphan_add(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	struct ext2_super *sb = ext2_sb(fs);
	in->i_dtime = sb->s_last_orphan;
	sb->s_last_orphan = ino;
	fs->sb_dirty = true;
}

/* True if ino may be on the list (an ordinary inode's number). */
static bool orphan_ino_ok(const struct ext2_fs *fs, uint32_t ino)
{
	return ino >= fs->first_ino && ino <= fs->inodes_count;
}

int ext2_orphan_remove(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	struct ext2_super *sb = ext2_sb(fs);
	uint32_t next = in->i_dtime;
	in->i_dtime = 0;
	if (sb->s_last_orphan == ino) {
		sb->s_last_orphan = next;
		fs->sb_dirty = true;
		return 0;
	}
	/* Walk from the head to ino's predecessor; the disk is not trusted, so
	 * the walk stops at a bad number or after as many steps as inodes. */
	uint32_t prev = sb->s_last_orphan;
	for (uint32_t steps = 0; steps < fs->inodes_count && orphan_ino_ok(fs, prev); steps++) {
		struct ext2_inode p;
		int rc = ext2_read_inode(fs, prev, &p);
		if (rc < 0)
			return rc;
		if (p.i_links_count != 0 || !ext2_orphan_dtime(fs, &p))
			return 0;   /* not a list any more: nothing to mend */
		if (p.i_dtime == ino) {
			p.i_dtime = next;
			return ext2_write_inode(fs, prev, &p);
		}
		prev = p.i_dtime;
	}
	return 0;
}

int ext2_orphans_recover(struct ext2_fs *fs)
{
	struct ext2_super *sb = ext2_sb(fs);
	uint32_t ino = sb->s_last_orphan;
	if (fs->read_only || ino == 0)
		return 0;
	/* Whatever happens below, the head is not used again (as e2fsck). */
	sb->s_last_orphan = 0;
	fs->sb_dirty = true;
	if (sb->s_state & EXT2_ERROR_FS)
		return (int)ext2_finish(fs, 0);   /* a damaged list is e2fsck's to repair */
	int rc = 0;
	for (uint32_t steps = 0; ino != 0 && rc == 0; steps++) {
		if (steps >= fs->inodes_count || !orphan_ino_ok(fs, ino)) {
			rc = ext2_corrupt(fs, "bad inode number in the orphan list");
			break;
		}
		struct ext2_inode in;
		rc = ext2_read_inode(fs, ino, &in);
		if (rc < 0)
			break;
		if (in.i_mode == 0 || !ext2_orphan_dtime(fs, &in)) {
			rc = ext2_corrupt(fs, "orphan list names a free inode");
			break;
		}
		uint32_t next = in.i_dtime;
		if (in.i_links_count == 0) {
			rc = ext2_evict_inode(fs, ino, &in);
		} else {
			in.i_dtime = 0;   /* linked again: it lives on, off the list */
			rc = ext2_write_inode(fs, ino, &in);
		}
		ino = next;
	}
	return (int)ext2_finish(fs, rc);
}
