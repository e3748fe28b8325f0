#!/usr/bin/env python3
"""orphan_crash.py - the ext2 orphan list across a crash (Myrmex only).

Role: one test of tools/posix_suite.py, `posix/orphan-crash`. On a copy of
the suite's image it boots Myrmex twice with /posix/orphan_crash
(tests/posix/orphan_crash.c):

1. The program leaves two files unlinked (one renamed over) but open, syncs
   and prints ORPHAN-HELD; QEMU is killed at once, so no close and no
   shutdown reach the disk. The disk must then hold an orphan list
   (s_last_orphan set): the file manager wrote it.
2. The same disk boots again: the mount frees the orphans; the program
   leaves a third file unlinked and held open by a child while the machine
   shuts down cleanly. e2fsck -fn must find the disk clean, and the
   superblock's free block and inode counts must be the fresh image's again.
"""

import os
import struct

import e2fs
import posix_guests
import qemu

PROGRAM = "orphan_crash"
HELD = "ORPHAN-HELD"
SECOND_DONE = "ORPHAN-SECOND-DONE"
BOOT_TIMEOUT = 600


class CrashWatch(posix_guests.ConsoleWatch):
    """A console watch that stops QEMU at once when the program holds its
    orphans."""

    def feed(self, line):
        super().feed(line)
        if line.strip() == HELD:
            self.held = True
            self.stop(0)


def super_counts(image):
    """(free blocks, free inodes, s_last_orphan) from image's superblock."""
    with open(image, "rb") as f:
        f.seek(1024)
        sb = f.read(1024)
    free_blocks, free_inodes = struct.unpack_from("<II", sb, 12)
    (last_orphan,) = struct.unpack_from("<I", sb, 232)
    return free_blocks, free_inodes, last_orphan


def one_boot(kernel, build, disk, log, crash, echo):
    """Boots Myrmex on disk running the program through run.sh; returns the
    console lines, or raises RuntimeError."""
    modules, why = posix_guests.myrmex_boot(build, [PROGRAM])
    if modules is None:
        raise RuntimeError(why)
    qemu.check_files(kernel, modules, disk)
    accel, _ = qemu.choose_accel()
    cmd = qemu.qemu_command(kernel, modules, accel, disk=disk)
    watch = CrashWatch("myrmex-crash" if crash else "myrmex-after", echo, BOOT_TIMEOUT)
    watch.held = False
    status, _, stderr = posix_guests.stream_qemu(cmd, log, watch)
    if crash and not watch.held:
        raise RuntimeError("the first boot never printed %s (log %s)" % (HELD, log))
    if not crash and not watch.done:
        raise RuntimeError("the second boot did not finish: QEMU status %s (log %s)%s" % (
            status, log, ": " + stderr.strip()[-300:] if stderr.strip() else ""))
    return watch.lines


def run(image, kernel, build, out, echo=True):
    """(passed, reason, detail lines)."""
    disk = os.path.join(out, "orphan-disk.img")
    posix_guests.fresh_copy(image, disk)
    blocks0, inodes0, _ = super_counts(disk)
    detail = []
    try:
        one_boot(kernel, build, disk, os.path.join(out, "orphan-crash-1.log"), True, echo)
        blocks1, inodes1, orphan1 = super_counts(disk)
        detail.append("after the crash: s_last_orphan %d, free blocks %d (fresh %d)" % (
            orphan1, blocks1, blocks0))
        if orphan1 == 0:
            return False, "no orphan list on the disk after the crash", detail
        lines = one_boot(kernel, build, disk, os.path.join(out, "orphan-crash-2.log"),
                         False, echo)
    except (RuntimeError, qemu.QemuError) as e:
        return False, str(e), detail
    bad = [l for l in lines if "orphan_crash:" in l or ": error " in l]
    if bad or SECOND_DONE not in [l.strip() for l in lines]:
        return False, "the program failed on the second boot", bad[-5:]
    status, text = e2fs.fsck(disk)
    if status != 0:
        return False, "e2fsck -fn exited %d after the second boot" % status, \
            text.strip().splitlines()[-8:]
    blocks2, inodes2, orphan2 = super_counts(disk)
    if (blocks2, inodes2, orphan2) != (blocks0, inodes0, 0):
        return False, "free blocks %d inodes %d orphan head %d; fresh image %d %d 0" % (
            blocks2, inodes2, orphan2, blocks0, inodes0), detail
    return True, "", detail
