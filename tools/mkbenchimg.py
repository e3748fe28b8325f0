#!/usr/bin/env python3
"""mkbenchimg.py - writes the ext2 image of the file-system benchmarks (host side).

Role: makes build/bench/fs.img, the disk that bench/bench_fs.c reads on Myrmex (through
the file manager) and on Linux (mounted by tools/linux_guest.py): an ext2 file system
with 4 KiB blocks holding one file, /bench/file64m, of 64 MiB. The file's bytes are
pseudo-random from a fixed seed (so every build makes the same image content) and all
non-zero (so no block can be mistaken for a hole or for zero-filled memory); the
file system's UUID, hash seed and times are fixed too, so two builds give the same
image byte for byte (mke2fs -d copies the change times of the files, which no call
can set, so debugfs resets them afterwards). The first 8 bytes of each 4 KiB block b
are a tag, little endian:

    tag(b) = (b * 0x9E3779B97F4A7C15) mod 2**64  XOR  0x6D79726D65782121

with every zero byte of it made 0x01, as in the rest of the file, so bench_fs checks
that each block it reads is the right one (bench_fs.c computes the same tag). The file
is written into a scratch folder beside the image, packed with
`mke2fs -t ext2 -b 4096 -d` (no root needed; tools/e2fs.py, which also fixes the UUID,
the hash seed and mke2fs's clock), and the image renamed into place, so an interrupted
run never leaves a half-written image.

    python3 tools/mkbenchimg.py build/bench/fs.img [--mib 64] [--image-mib 80]
"""

import argparse
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402  (tools/e2fs.py: mke2fs and debugfs)

BLOCK = 4096
SEED = 0x4D79726D   # "Myrm"
FS_TIME = 1700000000    # the files' times: the clock e2fs.py gives mke2fs
TAG_MUL = 0x9E3779B97F4A7C15
TAG_XOR = 0x6D79726D65782121
FILE_PATH = ("bench", "file64m")

# Every zero byte becomes 0x01; the other 255 values stay.
NO_ZERO = bytes([1] + list(range(1, 256)))


def block_tag(b):
    """The first 8 bytes of block b of the file."""
    value = ((b * TAG_MUL) & 0xFFFFFFFFFFFFFFFF) ^ TAG_XOR
    return value.to_bytes(8, "little").translate(NO_ZERO)


def file_bytes(mib):
    """The benchmark file's content: mib MiB, pseudo-random, non-zero, tagged."""
    data = bytearray(random.Random(SEED).randbytes(mib * 1024 * 1024).translate(NO_ZERO))
    for b in range(len(data) // BLOCK):
        data[b * BLOCK:b * BLOCK + 8] = block_tag(b)
    return data


def write_image(path, mib, image_mib):
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    root = path + ".root"
    tmp = path + ".tmp"
    shutil.rmtree(root, ignore_errors=True)
    try:
        target = os.path.join(root, *FILE_PATH)
        os.makedirs(os.path.dirname(target))
        with open(target, "wb") as f:
            f.write(file_bytes(mib))
        for name in (target, os.path.dirname(target), root):
            os.utime(name, (FS_TIME, FS_TIME))
        e2fs.mke2fs(tmp, root, image_mib, "myrmex-bench")
        for i in range(len(FILE_PATH)):
            name = "/" + "/".join(FILE_PATH[:i + 1])
            e2fs.run_tool("debugfs", ["-w", "-R", "set_inode_field %s ctime @%d" % (
                name, FS_TIME), tmp])
        os.replace(tmp, path)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        if os.path.exists(tmp):
            os.remove(tmp)


def main(argv=None):
    p = argparse.ArgumentParser(description="Write the ext2 image of the fs benchmarks.")
    p.add_argument("path", help="image file to write")
    p.add_argument("--mib", type=int, default=64, help="size of /bench/file64m in MiB")
    p.add_argument("--image-mib", type=int, default=80, help="image size in MiB")
    args = p.parse_args(argv)
    if args.mib < 1 or args.image_mib < args.mib + 8:
        p.error("need --mib >= 1 and --image-mib >= --mib + 8 (room for metadata)")
    try:
        write_image(args.path, args.mib, args.image_mib)
    except e2fs.E2fsError as e:
        sys.exit("mkbenchimg.py: %s" % e)
    print("mkbenchimg.py: %s: ext2, %d MiB, /%s of %d MiB" % (
        args.path, args.image_mib, "/".join(FILE_PATH), args.mib))
    return 0


if __name__ == "__main__":
    sys.exit(main())
