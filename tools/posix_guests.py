#!/usr/bin/env python3
"""posix_guests.py - booting Linux and Myrmex on the POSIX suite's disk.

Role: the two guest runs of tools/posix_suite.py, in the same QEMU machine
(tools/qemu.py: -m 512M -smp 1, the same accelerator choice), each on a fresh
copy of the suite's ext2 image (tools/posix_image.py) as its virtio-blk disk,
each running `/bin/sh /posix/run.sh` from that disk with the console as fds 0,
1 and 2; they return the console lines.

Linux: Debian's kernel (tools/linux_kernel.py) with an initramfs whose /init
loads the virtio modules, mounts the disk read-write, brings eth0 up (a
virtio-net NIC on QEMU's restricted user network, as Myrmex gets; its modules
from linux_kernel.get_nic_modules), mounts devtmpfs on its
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

A program that runs PROGRAM_LIMIT seconds without its exit line counts as
hung: QEMU is killed, and on Myrmex the machine is booted again with the
programs after it (run.sh takes names), so one hang does not hide the rest.
"""

import hashlib
import os
import queue
import shutil
import subprocess
import threading
import time

import linux_initramfs
import linux_kernel
import posix_compare
import qemu

LINUX_APPLETS = ["sh", "mount", "umount", "poweroff", "cat", "cut", "mkdir", "sleep", "ln",
                 "insmod", "chroot", "sync", "uname", "setsid", "env", "ifconfig", "grep"]
# The guest's address on QEMU's user network, as Myrmex's TCP/IP server takes it.
USER_NET_ADDRESS = "10.0.2.15"
LINUX_MOUNT = "/mnt/posix"
# posix_start's environment (user/posix_start), given to run.sh on Linux too.
POSIX_ENV = ["PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/root", "TERM=vt100",
             "SHELL=/bin/sh", "USER=root", "LOGNAME=root"]
RUN_SH = "/posix/run.sh"
DONE_GRACE = 60         # seconds for the guest to power off after the suite
# Seconds one program may run before it counts as hung ($MYRMEX_POSIX_LIMIT).
PROGRAM_LIMIT = int(os.environ.get("MYRMEX_POSIX_LIMIT", "") or 180)
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
        self.hung = None        # the program that passed PROGRAM_LIMIT (a list for Myrmex)
        self.disk = None        # the disk of the last boot


class ConsoleWatch:
    """Collects console lines and keeps the deadline of the program running:
    PROGRAM_LIMIT seconds from its "=== <name>" line (the whole boot's limit
    before the first and after the last). Asks QEMU to stop soon after the
    suite's end or a kernel panic."""

    def __init__(self, label, echo, timeout):
        self.lines = []
        self.label = label
        self.echo = echo
        self.start = time.monotonic()
        self.overall = self.start + timeout
        self.deadline = self.overall
        self.stop_at = None
        self.done = False
        self.panic = False
        self.hung = None        # the program whose deadline passed
        self.current = None     # the program running now

    def feed(self, line):
        self.lines.append(line)
        stripped = line.strip()
        now = time.monotonic()
        if stripped.startswith("=== "):
            self.deadline = min(self.overall, now + PROGRAM_LIMIT)
            self.current = stripped[4:].strip()
        elif stripped.startswith("--- exit "):
            self.deadline = self.overall
            self.current = None
        if self.echo and (stripped.startswith("=== ") or stripped.startswith("POSIX-SUITE")):
            print("posix: [%s +%.0f s] %s" % (self.label, now - self.start, stripped),
                  flush=True)
        if stripped == "POSIX-SUITE-DONE":
            self.done = True
            self.stop(DONE_GRACE)
        if stripped.startswith("KERNEL PANIC") or "Kernel panic - not syncing" in stripped:
            self.panic = True
            self.stop(PANIC_GRACE)

    def stop(self, grace):
        t = time.monotonic() + grace
        self.stop_at = t if self.stop_at is None else min(self.stop_at, t)

    def limit(self):
        """When QEMU must be gone, and whether that is a hang of a program."""
        if self.stop_at is not None and self.stop_at <= self.deadline:
            return self.stop_at, False
        return self.deadline, self.deadline < self.overall


def fresh_copy(image, dest):
    """A fresh copy of the suite's image for one boot (the suite writes to it)."""
    tmp = dest + ".part"
    shutil.copyfile(image, tmp)
    os.replace(tmp, dest)


def _reader(stream, q):
    for chunk in iter(lambda: stream.read1(4096), b""):
        q.put(chunk)
    q.put(None)


def stream_qemu(cmd, log_path, watch):
    """Run QEMU cmd, feeding console lines to watch, until it exits or the
    watch's limit passes (then it is killed). Returns (status, elapsed,
    stderr text); status None when killed, and watch.hung names the program
    that was running when a program limit passed."""
    start = time.monotonic()
    with open(log_path, "wb") as log:
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:
            return None, 0.0, "cannot start %s: %s" % (cmd[0], e.strerror or e)
        q = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True).start()
        err = []
        threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()
        pending = b""
        try:
            while True:
                limit, is_hang = watch.limit()
                now = time.monotonic()
                if now >= limit:
                    if is_hang:
                        watch.hung = watch.current
                    qemu.kill_group(proc)
                    break
                try:
                    chunk = q.get(timeout=min(0.5, limit - now))
                except queue.Empty:
                    continue
                if chunk is None:
                    if pending:
                        watch.feed(pending.decode("utf-8", "replace").rstrip("\r"))
                    try:
                        proc.wait(timeout=max(0.1, watch.limit()[0] - time.monotonic()))
                    except subprocess.TimeoutExpired:
                        qemu.kill_group(proc)
                    break
                log.write(chunk)
                log.flush()
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    watch.feed(line.rstrip(b"\r").decode("utf-8", "replace"))
        except BaseException:
            qemu.kill_group(proc)
            raise
        status = proc.returncode if watch.hung is None else None
    time.sleep(0.1)
    stderr = (err[0] if err else b"").decode("utf-8", "replace")
    return status, time.monotonic() - start, stderr


def boot(system, cmd, log, timeout, echo):
    """Run QEMU cmd; return a GuestResult with the console lines (hung: the
    program that passed its PROGRAM_LIMIT, QEMU then killed)."""
    res = GuestResult(system)
    res.log = log
    watch = ConsoleWatch(system, echo, timeout)
    status, res.elapsed, stderr = stream_qemu(cmd, log, watch)
    res.lines = watch.lines
    res.hung = watch.hung
    if watch.panic:
        res.notes.append("kernel panic (see %s)" % log)
    if watch.hung:
        res.error = "%s passed %d s without its exit line: QEMU killed (log %s)" % (
            watch.hung, PROGRAM_LIMIT, log)
    elif not watch.done:
        res.error = "the suite did not finish: QEMU status %s after %.0f s (log %s)" % (
            status, res.elapsed, log)
        if stderr.strip():
            res.notes.append("QEMU stderr: " + " / ".join(stderr.strip().splitlines()[-5:]))
    return res


# ---------------------------------------------------------------- Linux

def linux_init(args, modules, nic_modules=()):
    """The initramfs's /init: the disk mounted read-write (after loading the
    modules named), eth0 up at USER_NET_ADDRESS (after loading nic_modules),
    run.sh chrooted, its arguments args."""
    return """#!/bin/sh
# /init of the POSIX suite's Linux initramfs (written by tools/posix_guests.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 1 > /proc/sys/kernel/printk
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) $(uname -r)"
ifconfig lo 127.0.0.1 up
{disk}{net}mount -t devtmpfs devtmpfs {mount}/dev
mount -t proc proc {mount}/proc
# as udev makes them on a running Linux system (devtmpfs does not)
ln -s /proc/self/fd/0 {mount}/dev/stdin
ln -s /proc/self/fd/1 {mount}/dev/stdout
ln -s /proc/self/fd/2 {mount}/dev/stderr
ln -s /proc/self/fd {mount}/dev/fd
setsid -c env -i {env} chroot {mount} /bin/sh {run}{args} </dev/console >/dev/console 2>&1
echo "{mark} exit $?"
umount {mount}/proc
umount {mount}/dev
umount {mount} && echo "{mark} disk unmounted"
poweroff -f
""".format(mark=linux_initramfs.INIT_MARK, mount=LINUX_MOUNT, run=RUN_SH,
           disk=linux_initramfs.disk_script(modules, LINUX_MOUNT, "rw"),
           net=linux_initramfs.net_script(nic_modules, USER_NET_ADDRESS),
           env=" ".join(POSIX_ENV), args="".join(" " + a for a in args))


def linux_parts(linux_dir, args):
    """(kernel, busybox, modules, init text) of the Linux run; LinuxSetupError
    when they cannot be had."""
    kernel = linux_kernel.get_kernel(linux_dir)
    busybox = linux_kernel.get_busybox(linux_dir)
    disk_mods = linux_kernel.get_modules(linux_dir, kernel)
    nic_mods = linux_kernel.get_nic_modules(linux_dir, kernel, "user")
    init = linux_init(args, [n for n, _ in disk_mods], [n for n, _ in nic_mods])
    return kernel, busybox, linux_kernel.merge_modules(disk_mods, nic_mods), init


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


def user_nic():
    """QEMU's arguments for the NIC both guests get: virtio-net on QEMU's
    restricted user network (qemu.user_netdev), the MAC the tests expect."""
    return ["-netdev", qemu.user_netdev(0, qemu.free_udp_port(), qemu.free_tcp_port()),
            "-device", "virtio-net-pci,netdev=net0,mac=%s" % qemu.USER_MAC]


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
                                    False, disk, user_nic())
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
# sysinit (user/sysinit, pid 1) starts the service manager (svcman), which
# starts the servers named in its table (servers/services.conf: timed,
# virtio_blk on the disk, uart on COM1, fileman, pm) from the boot modules,
# then spawns posix_start (user/posix_start) with its arguments; posix_start
# opens /dev/console as fds 0, 1 and 2 and execs /bin/sh /posix/run.sh from
# the disk. When it exits, sysinit stops the service manager (which shuts the
# file manager down) and powers off.
MYRMEX_INIT = "user/sysinit"
MYRMEX_FIRST = "user/posix_start"
MYRMEX_SERVERS = ["servers/timed", "servers/virtio_blk", "servers/uart", "servers/fileman",
                  "servers/pm", "servers/procfs", "servers/svcman", "servers/services.conf",
                  "servers/virtio_net", "servers/eth", "servers/tcpip"]


def myrmex_boot(build, args=()):
    """(boot module strings, None) or (None, why not) for the build folder."""
    init = os.path.join(build, MYRMEX_INIT)
    files = [init, os.path.join(build, MYRMEX_FIRST)] + \
        [os.path.join(build, s) for s in MYRMEX_SERVERS]
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        return None, "not built: %s" % ", ".join(missing)
    # MYRMEX_FSCONF: the file service's configuration (docs/fs.md), as
    # sysinit's boot argument.
    conf = os.environ.get("MYRMEX_FSCONF", "")
    command = " ".join([init] + (["fsconf=" + conf] if conf else []) + ["/bin/sh", RUN_SH] +
                       list(args))
    return [command] + files[1:], None
# ======================================================================


def run_myrmex(image, kernel, build, out, names, args=(), timeout=1800, echo=True):
    """The suite on Myrmex: a GuestResult whose lines join every boot's
    console (error set when it could not run or did not finish).

    names: run.sh's whole list (programs, then "shell"); args: the subset
    asked for, or () for all. When a program passes PROGRAM_LIMIT, QEMU is
    killed and Myrmex booted again, on a fresh copy of the disk, with the
    programs after it (run.sh's arguments), until the list is done or the
    timeout (for all boots together) is used up. res.hung lists the programs
    that hung; res.disk is the last boot's disk."""
    total = GuestResult("myrmex")
    total.hung = []
    order = list(args) or list(names)
    todo = list(args)
    end = time.monotonic() + timeout
    for number in range(1, len(order) + 1):
        modules, why = myrmex_boot(build, todo)
        if modules is None:
            total.error = why
            return total
        disk = os.path.join(out, "myrmex-disk.img")
        fresh_copy(image, disk)
        log = os.path.join(out, "myrmex.log" if number == 1 else "myrmex-%d.log" % number)
        try:
            qemu.check_files(kernel, modules, disk)
            accel, reason = qemu.choose_accel()
        except qemu.QemuError as e:
            total.error = str(e)
            return total
        # A NIC on QEMU's restricted user network, so that the service table
        # starts the network servers (the sockets program uses 127.0.0.1 only).
        cmd = qemu.qemu_command(kernel, modules, accel, disk=disk, extra=user_nic())
        if echo:
            print("posix: booting Myrmex (%s, %s)%s, log %s" % (
                accel, reason, " again after a hang" if number > 1 else "", log), flush=True)
        res = boot("myrmex", cmd, log, max(1.0, end - time.monotonic()), echo)
        if number > 1:
            total.lines.append(posix_compare.REBOOT)
        total.lines += res.lines
        total.notes += res.notes
        total.elapsed += res.elapsed
        total.disk = disk
        total.error = res.error
        if not res.hung or res.hung not in order:
            break
        total.hung.append(res.hung)
        todo = order[order.index(res.hung) + 1:]
        if not todo or time.monotonic() >= end:
            break
    return total
