#!/usr/bin/env python3
"""sysinit_args.py - sysinit's bad boot arguments (posix/sysinit-args of the
POSIX suite, tools/posix_suite.py; Myrmex alone).

`sysinit calls=<coreid>,...` gives the first POSIX process the right to call
those servers (the benchmark boot's calls=10). A list that is not one of
coreids 0..255 must stop the boot with a message and status 2, before any
server starts, never reach the shell with rights it did not name. Each bad
list below is one short boot of the suite's modules with the disk image."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import posix_guests  # noqa: E402  (the boot's modules and the console reader)
import qemu          # noqa: E402

BAD_LISTS = ["calls=7,x", "calls=256", "calls=", "calls=3,,4", "calls=3,"]
BOOT_TIMEOUT = 120
MESSAGE = "not a list of coreids"
USAGE_STATUS = 2


def one_boot(kernel, build, disk, arg, log, echo):
    """Boots sysinit with arg: (QEMU's status, console lines); raises
    RuntimeError when the boot cannot be made."""
    modules, why = posix_guests.myrmex_boot(build)
    if modules is None:
        raise RuntimeError(why)
    words = modules[0].split()
    modules = [" ".join([words[0], arg] + words[1:])] + modules[1:]
    qemu.check_files(kernel, modules, disk)
    accel, _ = qemu.choose_accel()
    cmd = qemu.qemu_command(kernel, modules, accel, disk=disk)
    watch = posix_guests.ConsoleWatch("sysinit " + arg, echo, BOOT_TIMEOUT)
    status, _, _ = posix_guests.stream_qemu(cmd, log, watch)
    return status, watch.lines


def run(image, kernel, build, out, echo=True):
    """(passed, reason, detail lines)."""
    disk = os.path.join(out, "sysinit-args.img")
    posix_guests.fresh_copy(image, disk)
    detail = []
    for i, arg in enumerate(BAD_LISTS):
        try:
            status, lines = one_boot(kernel, build, disk, arg,
                                     os.path.join(out, "sysinit-args-%d.log" % i), echo)
        except (RuntimeError, qemu.QemuError) as e:
            return False, str(e), detail
        said = any(MESSAGE in l for l in lines)
        code = status >> 1 if status is not None and status & 1 else None
        detail.append("%s: status %s, message %s" % (arg, code, "yes" if said else "no"))
        if not said or code != USAGE_STATUS:
            return False, "sysinit %s: not refused with status %d" % (arg, USAGE_STATUS), detail
    return True, "", detail
