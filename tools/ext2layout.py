#!/usr/bin/env python3
"""ext2layout.py - where things are in an ext2 image file (host side).

Role: reads just enough of an ext2 image (4096-byte blocks) to find the byte
offset of a superblock field, of an inode and its fields, and of the entries
of a directory block, so that tools/mkfsimage.py can corrupt one precise
structure. It follows the on-disk layout of the ext2 documentation (the same
one servers/fs/ext2/ext2_disk.h declares); nothing here depends on e2fsprogs.

Offsets used (all little endian):
  superblock at byte 1024: s_inodes_count +0, s_blocks_count +4,
    s_first_data_block +20, s_log_block_size +24, s_blocks_per_group +32,
    s_inodes_per_group +40, s_magic +56 (u16, 0xEF53), s_state +58 (u16:
    1 cleanly unmounted, 2 errors found), s_rev_level +76,
    s_inode_size +88 (u16, revision 1; 128 in revision 0)
  group descriptors (32 bytes each) from block s_first_data_block + 1:
    bg_inode_table +8
  inode n (from 1): group (n-1) / s_inodes_per_group, index (n-1) % that, at
    byte bg_inode_table * 4096 + index * s_inode_size: i_mode +0 (u16),
    i_size +4, i_links_count +26 (u16), i_block[0..14] +40 (u32 each)
  directory entry: inode +0, rec_len +4 (u16), name_len +6 (u8),
    file_type +7 (u8), name +8; the rec_len values of a block add up to 4096
"""

import struct

BLOCK = 4096
SB_OFFSET = 1024
EXT2_MAGIC = 0xEF53
STATE_VALID = 1         # s_state: unmounted cleanly
STATE_ERROR = 2         # s_state: errors were found
ROOT_INO = 2

# Superblock fields: name -> (offset from the superblock start, struct format).
SB_FIELDS = {
    "inodes_count": (0, "<I"),
    "blocks_count": (4, "<I"),
    "first_data_block": (20, "<I"),
    "log_block_size": (24, "<I"),
    "blocks_per_group": (32, "<I"),
    "inodes_per_group": (40, "<I"),
    "magic": (56, "<H"),
    "state": (58, "<H"),
    "rev_level": (76, "<I"),
    "inode_size": (88, "<H"),
}
GD_SIZE = 32
GD_INODE_TABLE = 8
# Inode fields: name -> (offset in the inode, struct format).
INODE_FIELDS = {
    "mode": (0, "<H"),
    "size": (4, "<I"),
    "links_count": (26, "<H"),
    "block": (40, "<15I"),
}
I_BLOCK = 40
N_DIRECT = 12
DIRENT_HEAD = 8


class LayoutError(Exception):
    """The image is not the ext2 this module reads, or a path is missing."""


class Image:
    """An ext2 image file opened for reading and patching."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = bytearray(f.read())
        if self.sb("magic") != EXT2_MAGIC:
            raise LayoutError("%s: not ext2 (magic %#x)" % (path, self.sb("magic")))
        if self.sb("log_block_size") != 2:
            raise LayoutError("%s: block size is not 4096" % path)
        self.inode_size = self.sb("inode_size") if self.sb("rev_level") >= 1 else 128

    # -------------------------------------------------------- raw access

    def get(self, offset, fmt):
        value = struct.unpack_from(fmt, self.data, offset)
        return value[0] if len(value) == 1 else value

    def put(self, offset, fmt, value):
        struct.pack_into(fmt, self.data, offset, value)

    def save(self, path=None):
        with open(path or self.path, "wb") as f:
            f.write(self.data)

    # -------------------------------------------------------- superblock

    def sb_offset(self, field):
        """Byte offset in the image of a superblock field."""
        return SB_OFFSET + SB_FIELDS[field][0]

    def sb(self, field):
        return self.get(self.sb_offset(field), SB_FIELDS[field][1])

    # -------------------------------------------------------- inodes

    def inode_offset(self, ino):
        """Byte offset of inode ino (from 1) in the image."""
        ipg = self.sb("inodes_per_group")
        if not 1 <= ino <= self.sb("inodes_count"):
            raise LayoutError("inode %d out of range" % ino)
        group, index = divmod(ino - 1, ipg)
        gd = (self.sb("first_data_block") + 1) * BLOCK + group * GD_SIZE
        table = self.get(gd + GD_INODE_TABLE, "<I")
        return table * BLOCK + index * self.inode_size

    def inode_field_offset(self, ino, field, index=0):
        """Byte offset of an inode field (index: which i_block entry)."""
        if field == "block":
            return self.inode_offset(ino) + I_BLOCK + 4 * index
        return self.inode_offset(ino) + INODE_FIELDS[field][0]

    def inode(self, ino, field):
        off, fmt = INODE_FIELDS[field]
        return self.get(self.inode_offset(ino) + off, fmt)

    # -------------------------------------------------------- directories

    def dir_entries(self, ino):
        """The entries of directory ino's direct blocks, as dicts with the
        keys offset (of the entry in the image), inode, rec_len, name_len,
        name. Unused entries (inode 0) are included."""
        size = self.inode(ino, "size")
        blocks = self.inode(ino, "block")
        entries = []
        for fb in range(min(size // BLOCK, N_DIRECT)):
            base = blocks[fb] * BLOCK
            pos = 0
            while pos < BLOCK:
                inode, rec_len, name_len = struct.unpack_from("<IHB", self.data, base + pos)
                if rec_len < DIRENT_HEAD or pos + rec_len > BLOCK:
                    raise LayoutError("directory %d: bad entry at block %d + %d"
                                      % (ino, blocks[fb], pos))
                name = bytes(self.data[base + pos + DIRENT_HEAD:
                                       base + pos + DIRENT_HEAD + name_len])
                entries.append({"offset": base + pos, "inode": inode, "rec_len": rec_len,
                                "name_len": name_len, "name": name.decode("utf-8", "replace"),
                                "block": blocks[fb], "in_block": pos})
                pos += rec_len
        return entries

    def lookup(self, path):
        """Inode number of an absolute path (directories' direct blocks only)."""
        ino = ROOT_INO
        for part in [p for p in path.split("/") if p]:
            found = [e for e in self.dir_entries(ino) if e["inode"] and e["name"] == part]
            if not found:
                raise LayoutError("%s: %s not found" % (self.path, path))
            ino = found[0]["inode"]
        return ino
