#!/usr/bin/env python3
"""mkpattern.py - writes the raw disk image the disk tests read (host side).

Role: makes a disk image of a known content, so that a booted test can check any
sector it reads without a copy of the image: sector s begins with s as 8 bytes little
endian, and its byte i (8 <= i < 512) is (7 * s + i) mod 256. tests/kernel/t_disk.c
computes the same pattern (disk_pattern_byte). The image is written to a temporary
file and renamed, so an interrupted run never leaves a half-written image.

    python3 tools/mkpattern.py build/test/disk.img 64      (size in MiB)
"""

import argparse
import os
import sys

SECTOR = 512
SECTORS_PER_CHUNK = 2048    # 1 MiB per write


def sector_bytes(s, tails):
    """The 512 bytes of sector s."""
    return s.to_bytes(8, "little") + tails[(7 * s) & 0xff]


def make_tails():
    """Bytes 8..511 of a sector depend only on 7*s mod 256: 256 precomputed tails."""
    return [bytes((k + i) & 0xff for i in range(8, SECTOR)) for k in range(256)]


def write_image(path, mib):
    sectors = mib * 1024 * 1024 // SECTOR
    tails = make_tails()
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for first in range(0, sectors, SECTORS_PER_CHUNK):
            last = min(first + SECTORS_PER_CHUNK, sectors)
            f.write(b"".join(sector_bytes(s, tails) for s in range(first, last)))
    os.replace(tmp, path)
    return sectors


def main(argv=None):
    p = argparse.ArgumentParser(description="Write a disk image with a known pattern.")
    p.add_argument("path", help="image file to write")
    p.add_argument("mib", type=int, help="size in MiB (at least 1)")
    args = p.parse_args(argv)
    if args.mib < 1:
        p.error("the size must be at least 1 MiB")
    sectors = write_image(args.path, args.mib)
    print("mkpattern: %s: %d sectors" % (args.path, sectors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
