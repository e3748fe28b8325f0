#!/usr/bin/env python3
"""mkfsimage.py - the ext2 images of the file-system tests and of `make run`.

Role: writes the file trees and runs mke2fs -d over them (tools/e2fs.py), so
no root is needed. Every file's content follows from its path, so the images
are the same on every run. `make test` writes a fresh set before each run,
because the booted tests change them.

    python3 tools/mkfsimage.py tests build/test     the test images, below
    python3 tools/mkfsimage.py dir rootfs build/run/root.img 32
                                                    any folder as an image
    python3 tools/mkfsimage.py tree /tmp/t          only the fs.img tree

The test images (their order as disks is fixed in the Makefile's TEST_DISKS
and testinit's DISK_* numbers):

  fs.img (32 MiB)   the tree of make_test_tree(): files of 0, 1, 4095, 4096,
                    4097, 49152 (all 12 direct blocks), 49153, 100000 bytes
                    and 6 MiB + 12345 (double indirect), a file with holes,
                    /many with 500 files, a nested chain /nest/l1/.../l7, a
                    255-byte name, an empty directory, and /SUMS, the
                    manifest t_fs checks everything against:
                        f <size> <crc32, 8 hex digits> <path>
                        d <number of entries, . and .. left out> <path>
                    sorted by path; /SUMS and the root are not listed.
                    Beside them, outside /SUMS, /links holds symbolic
                    links for t_fs_posix (LINKS below).
  full.img (4 MiB)  almost empty (one small file), for the full-disk test.
  corrupt-*.img     copies of one small valid image (make_corrupt_tree()),
                    each with the corruption described in CORRUPTIONS; the
                    exact bytes changed are printed when they are made.

Checksums are CRC-32 (zlib's, the one of ISO-HDLC), which t_fs computes too.
"""

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402  (tools/e2fs.py)
import ext2layout  # noqa: E402  (tools/ext2layout.py)

FS_MIB = 32
FULL_MIB = 4
CORRUPT_MIB = 2
MANY_FILES = 500
BIG_SIZE = 6 * 1024 * 1024 + 12345     # past 4 MiB + 48 KiB: double indirect
NAME_MAX = 255


def content(seed, size):
    """size deterministic bytes for seed (SHA-256 of "seed:counter")."""
    out = bytearray()
    key = seed.encode()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(key + b":%d" % counter).digest()
        counter += 1
    return bytes(out[:size])


def crc32(data):
    return zlib.crc32(data) & 0xffffffff


# ------------------------------------------------------------ trees

class Tree:
    """A folder being filled: files and directories with fixed modes."""

    def __init__(self, root):
        self.root = root
        self.files = {}        # path -> bytes
        self.dirs = {"/"}

    def host(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def mkdir(self, path):
        """Makes directory path (absolute, no trailing '/') and its parents."""
        if path in self.dirs:
            return
        self.mkdir(os.path.dirname(path))
        os.mkdir(self.host(path))
        os.chmod(self.host(path), 0o755)
        self.dirs.add(path)

    def file(self, path, data):
        self.mkdir(os.path.dirname(path))
        with open(self.host(path), "wb") as f:
            f.write(data)
        os.chmod(self.host(path), 0o644)
        self.files[path] = data

    def entries(self, d):
        """Names directly in directory d."""
        prefix = d.rstrip("/") + "/"
        names = set()
        for p in list(self.files) + list(self.dirs):
            if p != d and p.startswith(prefix) and "/" not in p[len(prefix):]:
                names.add(p[len(prefix):])
        return names


def many_name(i):
    """Name of file i of /many: lengths from 4 to 40 bytes, all distinct."""
    return "m%03d" % i + "-abcdefghijklmnopqrstuvwxyz0123456789"[:i % 37]


def make_test_tree(root):
    """Fills root with the fs.img tree and writes /SUMS; returns the Tree."""
    t = Tree(root)
    for size in (0, 1, 4095, 4096, 4097, 49152, 49153, 100000):
        t.file("/sizes/s%d" % size, content("size%d" % size, size))
    t.file("/big", content("big", BIG_SIZE))
    # Whole zero blocks become holes (mke2fs -d skips them when it copies).
    t.file("/holes", content("holes-a", 8192) + bytes(25 * 4096) + content("holes-b", 5000))
    t.file("/text/hello.txt", b"hello from the Myrmex test image\n")
    for i in range(MANY_FILES):
        t.file("/many/" + many_name(i), content("many%d" % i, (i * 37) % 700))
    path = "/nest"
    for level in range(1, 8):
        path += "/l%d" % level
        t.file(path + "/f%d.bin" % level, content("nest%d" % level, 5000 * level))
    t.file(path + "/deep.txt", b"seven levels down\n")
    t.file("/names/" + "n" * NAME_MAX, b"a name of 255 bytes\n")
    t.file("/names/x", b"a name of 1 byte\n")
    t.file("/names/with.dots-and_dashes", b"punctuation\n")
    t.mkdir("/emptydir")
    lines = []
    for p in sorted(t.files):
        lines.append("f %d %08x %s" % (len(t.files[p]), crc32(t.files[p]), p))
    for d in sorted(t.dirs - {"/"}):
        lines.append("d %d %s" % (len(t.entries(d)), d))
    lines.sort(key=lambda line: line.split()[-1])
    with open(t.host("/SUMS"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(t.host("/SUMS"), 0o644)
    make_links(t)
    return t


# /links: name -> target. "long" (over 60 bytes) is kept in a data block (a
# slow link), the others in the inode (fast links); "dir" leads to a
# directory, "via-dir" goes through it and back up with "..", the loop never
# ends, "dangling" leads nowhere.
LINKS = [
    ("short", "../text/hello.txt"),
    ("abs", "/text/hello.txt"),
    ("long", "../nest/l1/l2/l3/l4/l5/l6/l7/../../../../l4/l5/l6/l7/../l7/./deep.txt"),
    ("dir", "../nest/l1"),
    ("via-dir", "dir/../../text/hello.txt"),
    ("loop1", "loop2"),
    ("loop2", "loop1"),
    ("dangling", "nosuch"),
]


def make_links(t):
    """The symbolic links of /links (not in t.files: /SUMS leaves them out)."""
    os.mkdir(t.host("/links"))
    os.chmod(t.host("/links"), 0o755)
    for name, target in LINKS:
        os.symlink(target, t.host("/links/" + name))


def make_full_tree(root):
    t = Tree(root)
    t.file("/README", b"the full-disk test image: t_fs full fills it\n")
    return t


def make_corrupt_tree(root):
    """The small valid tree every corrupt image starts from."""
    t = Tree(root)
    t.file("/ok.txt", b"this file is intact\n")
    for d in ("d1", "d2"):
        for i in range(20):
            t.file("/%s/e%02d" % (d, i), b"entry %d of %s\n" % (i, d.encode()))
    for i in range(3):
        t.file("/baddir/f%d" % i, b"in baddir\n")
    t.file("/badfile", content("badfile", 3 * 4096))
    t.file("/zeromode", b"this inode's mode is zeroed\n")
    return t


# ------------------------------------------------------------ corruptions

def corrupt_magic(img):
    off = img.sb_offset("magic")
    img.put(off, "<H", 0x1234)
    return ["superblock s_magic at byte %d: 0xef53 -> 0x1234" % off]


def corrupt_count(img):
    """s_blocks_count four times the device: an impossible size."""
    off = img.sb_offset("blocks_count")
    old = img.sb("blocks_count")
    img.put(off, "<I", old * 4)
    return ["superblock s_blocks_count at byte %d: %d -> %d (the device has %d)"
            % (off, old, old * 4, old)]


def corrupt_inode(img):
    """Three inodes: /baddir's first block and /badfile's second block past
    the end of the file system, /zeromode's mode 0 while it is linked."""
    past = img.sb("blocks_count") + 100
    notes = []
    for path, index in (("/baddir", 0), ("/badfile", 1)):
        ino = img.lookup(path)
        off = img.inode_field_offset(ino, "block", index)
        old = img.get(off, "<I")
        img.put(off, "<I", past)
        notes.append("%s (inode %d) i_block[%d] at byte %d: %d -> %d (past the end)"
                     % (path, ino, index, off, old, past))
    ino = img.lookup("/zeromode")
    off = img.inode_field_offset(ino, "mode")
    notes.append("/zeromode (inode %d) i_mode at byte %d: %#o -> 0 (links %d)"
                 % (ino, off, img.get(off, "<H"), img.inode(ino, "links_count")))
    img.put(off, "<H", 0)
    return notes


def corrupt_dirent(img):
    """/d1: the 5th entry's rec_len + 2 (not a multiple of 4); /d2: the 3rd
    entry's rec_len running 8 bytes past the block."""
    notes = []
    e = img.dir_entries(img.lookup("/d1"))[4]
    img.put(e["offset"] + 4, "<H", e["rec_len"] + 2)
    notes.append("/d1 entry %r (block %d + %d) rec_len at byte %d: %d -> %d"
                 % (e["name"], e["block"], e["in_block"], e["offset"] + 4, e["rec_len"],
                    e["rec_len"] + 2))
    e = img.dir_entries(img.lookup("/d2"))[2]
    new = ext2layout.BLOCK - e["in_block"] + 8
    img.put(e["offset"] + 4, "<H", new)
    notes.append("/d2 entry %r (block %d + %d) rec_len at byte %d: %d -> %d (past the block)"
                 % (e["name"], e["block"], e["in_block"], e["offset"] + 4, e["rec_len"], new))
    return notes


# name -> how; t_fs corrupt-<name> runs on corrupt-<name>.img.
CORRUPTIONS = {
    "magic": corrupt_magic,
    "count": corrupt_count,
    "inode": corrupt_inode,
    "dirent": corrupt_dirent,
}


# ------------------------------------------------------------ images

def image_from_tree(make_tree, image, mib, label):
    """Fills a scratch folder with make_tree and makes image from it (written
    under a temporary name, then renamed)."""
    os.makedirs(os.path.dirname(image) or ".", exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="myrmex-fsimage.")
    try:
        src = os.path.join(scratch, "tree")
        os.mkdir(src)
        make_tree(src)
        tmp = image + ".tmp"
        e2fs.mke2fs(tmp, src, mib, label)
        os.replace(tmp, image)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def make_test_images(outdir):
    """fs.img, full.img and the corrupt images in outdir; prints each."""
    fs_img = os.path.join(outdir, "fs.img")
    image_from_tree(make_test_tree, fs_img, FS_MIB, "myrmex-test")
    print("mkfsimage: %s (%d MiB)" % (fs_img, FS_MIB))
    full_img = os.path.join(outdir, "full.img")
    image_from_tree(make_full_tree, full_img, FULL_MIB, "myrmex-full")
    print("mkfsimage: %s (%d MiB)" % (full_img, FULL_MIB))
    base = os.path.join(outdir, "corrupt-base.img")
    image_from_tree(make_corrupt_tree, base, CORRUPT_MIB, "myrmex-bad")
    for name, corrupt in CORRUPTIONS.items():
        path = os.path.join(outdir, "corrupt-%s.img" % name)
        img = ext2layout.Image(base)
        notes = corrupt(img)
        img.save(path + ".tmp")
        os.replace(path + ".tmp", path)
        for note in notes:
            print("mkfsimage: %s: %s" % (path, note))
    os.remove(base)


def main(argv=None):
    p = argparse.ArgumentParser(description="Make the ext2 images of Myrmex.")
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("tests", help="the images of the booted file-system tests")
    s.add_argument("outdir")
    s = sub.add_parser("dir", help="an image holding a folder's tree")
    s.add_argument("source")
    s.add_argument("image")
    s.add_argument("mib", type=int)
    s = sub.add_parser("tree", help="only write the fs.img tree (to look at it)")
    s.add_argument("outdir")
    args = p.parse_args(argv)
    try:
        if args.action == "tests":
            make_test_images(args.outdir)
        elif args.action == "dir":
            tmp = args.image + ".tmp"
            os.makedirs(os.path.dirname(args.image) or ".", exist_ok=True)
            e2fs.mke2fs(tmp, args.source, args.mib, "myrmex-root")
            os.replace(tmp, args.image)
            print("mkfsimage: %s (%d MiB) from %s" % (args.image, args.mib, args.source))
        else:
            os.makedirs(args.outdir, exist_ok=True)
            make_test_tree(args.outdir)
    except (e2fs.E2fsError, ext2layout.LayoutError, OSError) as e:
        print("mkfsimage: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
