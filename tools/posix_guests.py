#!/usr/bin/env python3
"""posix_guests.py - booting Linux and Myrmex on the POSIX suite's disk.

Role: the two guest runs of tools/posix_suite.py, in the same QEMU machine
(tools/qemu.py: -m 512M -smp 1, the same accelerator choice), each on a fresh
copy of the suite's ext2 image (tools/posix_image.py) as its virtio-blk disk,
each running `/bin/sh /posix/run.sh` from that disk with the console as fds 0,
1 and 2; they return the console lines.

Linux: Debian's kernel (tools/linux_kernel.py) with an initramfs whose /init
loads the virtio modules, mounts the disk read-write, mounts devtmpfs on its
/dev, and runs run.sh chrooted into it, as Myrmex's posix_start does: in a new
session with the console as controlling terminal and posix_start's
environment. Kernel messages are silenced (printk level 1) so that an OOM kill
does not land in the middle of a program's output. The console lines of a run
are cached under <out>/linux-cache/, keyed by a hash of everything the run
depends on (the programs, the suite's scripts, busybox, the kernel and its
modules, /init, the kernel command line), so a second `make test` does not
boot Linux again; a clean build directory makes them afresh.

Myrmex: see myrmex_boot() below, the one place that knows how Myrmex boots
the suite.
"""

import hashlib
import os
import shutil
import time

import linux_initramfs
import linux_kernel
import qemu

LINUX_APPLETS = ["sh", "mount", "umount", "poweroff", "cat", "cut", "mkdir", "sleep",
                 "insmod", "chroot", "sync", "uname", "setsid", "env"]
LINUX_MOUNT = "/mnt/posix"
# posix_start's environment (user/posix_start), given to run.sh on Linux too.
POSIX_ENV = ["PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/root", "TERM=vt100",
             "SHELL=/bin/sh", "USER=root", "LOGNAME=root"]
RUN_SH = "/posix/run.sh"
DONE_GRACE = 60         # seconds for the guest to power off after the suite
PANIC_GRACE = 15
CACHE_KEEP = 4          # cached Linux transcripts kept


class GuestResult:
    """One guest run: its console lines, how QEMU ended, and notes."""

    def __init__(self, system):
        self.system = system
        self.lines = []
        self.error = None       # why there is no usable transcript
        self.notes = []
        self.cached = False
        self.elapsed = 0.0
        self.log = None


class ConsoleWatch:
    """Collects console lines; asks QEMU to stop soon after the suite's end
    or a kernel panic."""

    def __init__(self, label, echo):
        self.lines = []
        self.label = label
        self.echo = echo
        self.done = False
        self.panic = False
        self.start = time.monotonic()

    def feed(self, line):
        self.lines.append(line)
        stripped = line.strip()
        if self.echo and (stripped.startswith("=== ") or stripped.startswith("POSIX-SUITE")):
            print("posix: [%s +%.0f s] %s" % (self.label, time.monotonic() - self.start,
                                            stripped), flush=True)
        if stripped == "POSIX-SUITE-DONE":
            self.done = True
            return DONE_GRACE
        if stripped.startswith("KERNEL PANIC") or "Kernel panic - not syncing" in stripped:
            self.panic = True
            return PANIC_GRACE
        return None


def fresh_copy(image, dest):
    tmp = dest + ".part"
    shutil.copyfile(image, tmp)
    os.replace(tmp, dest)


def boot(system, cmd, log, timeout, echo):
    """Run QEMU cmd; return a GuestResult with the console lines."""
    res = GuestResult(system)
    res.log = log
    watch = ConsoleWatch(system, echo)
    run = qemu.run_guest(cmd, log, timeout, watch.feed, echo=None)
    res.lines = watch.lines
    res.elapsed = run.elapsed
    describe = linux_kernel.describe_linux_run if system == "linux" else qemu.describe_run
    if watch.panic:
        res.notes.append("kernel panic (see %s)" % log)
    if not watch.done:
        res.error = "the suite did not finish: %s (log %s)" % (describe(run), log)
        if run.stderr_lines:
            res.notes.append("QEMU stderr: " + " / ".join(run.stderr_lines[-5:]))
    return res


# ---------------------------------------------------------------- Linux

def linux_init(args, modules):
    """The initramfs's /init: the disk mounted read-write (after loading the
    modules named), run.sh chrooted, its arguments args."""
    return """#!/bin/sh
# /init of the POSIX suite's Linux initramfs (written by tools/posix_guests.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 1 > /proc/sys/kernel/printk
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) $(uname -r)"
{disk}mount -t devtmpfs devtmpfs {mount}/dev
setsid -c env -i {env} chroot {mount} /bin/sh {run}{args} </dev/console >/dev/console 2>&1
echo "{mark} exit $?"
umount {mount}/dev
umount {mount} && echo "{mark} disk unmounted"
poweroff -f
""".format(mark=linux_initramfs.INIT_MARK, mount=LINUX_MOUNT, run=RUN_SH,
           disk=linux_initramfs.disk_script(modules, LINUX_MOUNT, "rw"),
           env=" ".join(POSIX_ENV), args="".join(" " + a for a in args))


def linux_parts(linux_dir, args):
    """(kernel, busybox, modules, init text) of the Linux run; LinuxSetupError
    when they cannot be had."""
    kernel = linux_kernel.get_kernel(linux_dir)
    busybox = linux_kernel.get_busybox(linux_dir)
    mods = linux_kernel.get_modules(linux_dir, kernel)
    init = linux_init(args, [n for n, _ in mods])
    return kernel, busybox, mods, init


def linux_key(image_inputs, kernel, busybox, mods, init):
    """The cache key: a hash of every input of the Linux run."""
    h = hashlib.sha256()

    def add_file(label, path):
        h.update(label.encode() + b"\0")
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())

    for label, path in image_inputs:
        add_file(label, path)
    add_file("kernel", kernel)
    add_file("busybox", busybox)
    for name, data in mods:
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    h.update(init.encode())
    h.update(linux_kernel.kernel_append().encode())
    h.update(" ".join(qemu.accel_args("tcg")).encode())
    return h.hexdigest()[:24]


def run_linux(image, image_inputs, out, linux_dir, args=(), timeout=900, echo=True,
              use_cache=True):
    """The suite on Linux (or its cached transcript): a GuestResult."""
    res = GuestResult("linux")
    try:
        kernel, busybox, mods, init = linux_parts(linux_dir, args)
    except (linux_kernel.LinuxSetupError, OSError) as e:
        res.error = "Linux cannot be prepared: %s" % e
        return res
    cache_dir = os.path.join(out, "linux-cache")
    key = linux_key(image_inputs, kernel, busybox, mods, init)
    cached = os.path.join(cache_dir, key + ".log")
    if use_cache and os.path.isfile(cached):
        with open(cached, encoding="utf-8", errors="replace") as f:
            res.lines = [l.rstrip("\r\n") for l in f]
        res.cached = True
        res.log = cached
        return res
    archive = linux_initramfs.base_archive(busybox, LINUX_APPLETS)
    linux_initramfs.add_modules(archive, mods)
    archive.file("init", init.encode())
    initrd = os.path.join(out, "linux-initramfs.cpio.gz")
    linux_initramfs.write_archive(archive, initrd)
    disk = os.path.join(out, "linux-disk.img")
    fresh_copy(image, disk)
    try:
        accel, reason = qemu.choose_accel()
    except qemu.QemuError as e:
        res.error = str(e)
        return res
    cmd = linux_kernel.disk_command(kernel, initrd, linux_kernel.kernel_append(), accel,
                                    False, disk)
    if echo:
        print("posix: booting Linux (%s, %s), log %s" % (accel, reason,
              os.path.join(out, "linux.log")), flush=True)
    res = boot("linux", cmd, os.path.join(out, "linux.log"), timeout, echo)
    if res.error is None:
        os.makedirs(cache_dir, exist_ok=True)
        tmp = cached + ".part"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(res.lines) + "\n")
        os.replace(tmp, cached)
        prune_cache(cache_dir)
    return res


def prune_cache(cache_dir):
    """Keep the CACHE_KEEP newest cached transcripts."""
    logs = sorted((os.path.getmtime(os.path.join(cache_dir, n)), n)
                  for n in os.listdir(cache_dir) if n.endswith(".log"))
    for _, name in logs[:-CACHE_KEEP]:
        os.remove(os.path.join(cache_dir, name))


# ---------------------------------------------------------------- Myrmex

# ======================================================================
# THE MYRMEX BOOT OF THE SUITE - the one place that says how Myrmex runs it.
# sysinit (user/sysinit, pid 1) starts the servers named here from the
# boot modules (virtio_blk on the disk, uart on COM1, fileman, pm), then
# spawns posix_start (user/posix_start) with its arguments; posix_start
# opens /dev/console as fds 0, 1 and 2 and execs /bin/sh /posix/run.sh from
# the disk. When it exits, sysinit shuts the file manager down and powers off.
MYRMEX_INIT = "user/sysinit"
MYRMEX_FIRST = "user/posix_start"
MYRMEX_SERVERS = ["servers/virtio_blk", "servers/uart", "servers/fileman", "servers/pm"]


def myrmex_boot(build, args=()):
    """(boot module strings, None) or (None, why not) for the build folder."""
    init = os.path.join(build, MYRMEX_INIT)
    files = [init, os.path.join(build, MYRMEX_FIRST)] + \
        [os.path.join(build, s) for s in MYRMEX_SERVERS]
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        return None, "not built: %s" % ", ".join(missing)
    command = " ".join([init, "/bin/sh", RUN_SH] + list(args))
    return [command] + files[1:], None
# ======================================================================


def run_myrmex(image, kernel, build, out, args=(), timeout=1800, echo=True):
    """The suite on Myrmex: a GuestResult (error set when it could not run)."""
    res = GuestResult("myrmex")
    modules, why = myrmex_boot(build, args)
    if modules is None:
        res.error = why
        return res
    disk = os.path.join(out, "myrmex-disk.img")
    fresh_copy(image, disk)
    try:
        qemu.check_files(kernel, modules, disk)
        accel, reason = qemu.choose_accel()
    except qemu.QemuError as e:
        res.error = str(e)
        return res
    cmd = qemu.qemu_command(kernel, modules, accel, disk=disk)
    if echo:
        print("posix: booting Myrmex (%s, %s), log %s" % (accel, reason,
              os.path.join(out, "myrmex.log")), flush=True)
    res = boot("myrmex", cmd, os.path.join(out, "myrmex.log"), timeout, echo)
    res.disk = disk
    return res
