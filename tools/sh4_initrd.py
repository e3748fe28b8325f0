#!/usr/bin/env python3
"""Writes the SH-4 port's boot-module archive, the initrd QEMU's r2d loads
(kernel/arch/sh4/boot.c reads it): the header b"MYRMEXIR", a 32-bit count
and a reserved word, then per module its offset, size and command line
(256-byte entries), then the modules, each starting on a 4 KiB page.
Usage: sh4_initrd.py OUT "path args..." path ...
"""
import struct
import sys


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    mods = []
    for spec in specs:
        path = spec.split(" ", 1)[0]
        with open(path, "rb") as f:
            mods.append((spec, f.read()))
    offset = 16 + 256 * len(mods)
    entries, blobs = [], []
    for spec, data in mods:
        offset = (offset + 4095) & ~4095
        cmd = spec.encode()[:247]
        entries.append(struct.pack("<II248s", offset, len(data), cmd))
        blobs.append((offset, data))
        offset += len(data)
    image = bytearray(offset)
    image[0:16] = struct.pack("<8sII", b"MYRMEXIR", len(mods), 0)
    for i, e in enumerate(entries):
        image[16 + 256 * i:16 + 256 * (i + 1)] = e
    for off, data in blobs:
        image[off:off + len(data)] = data
    with open(out, "wb") as f:
        f.write(image)
    return 0


if __name__ == "__main__":
    sys.exit(main())
