#!/usr/bin/env python3
"""shell_jobctl.py - job control in the interactive shell of `make run`, end to end.

Role: boots what `make run` boots (sysinit, the servers, busybox ash on the
serial console) with QEMU's stdio on pipes, types at the prompt as a person
would, and checks what the shell prints: Ctrl-Z stops the foreground job
(`[1]+  Stopped`), `jobs` lists it, `bg` runs it in the background
(`Running`), `fg` brings it back and Ctrl-C ends it; a stopped `cat` whose
read was cut short by Ctrl-Z reads again after `fg`; `cat &` is stopped by
SIGTTIN when it reads, leaves the input to the shell, and reads after `fg`. Typed bytes reach the
guest's serial port as the console tests' CONSOLE-TYPE bytes do.

    python3 tools/shell_jobctl.py [--build build] [--timeout 180] [--linux]
                                                        (make shell-jobctl)

With --linux the same session is typed first at Linux's busybox sh on the
serial console of the same QEMU machine (Debian's kernel, a copy of the same
root image, tools/linux_kernel.py), its checks reported as
shell-jobctl/linux/<name>, and the job-status lines the shell printed
("[1]+  Stopped  sleep 100") must be the same on both (job-lines-as-linux).

Prints one line per check (PASS/FAIL) and exits 1 if any failed. Not part of
`make test`: it boots a second guest for a few checks the t_console_tty
test and tests/posix/stopcont.c already make piecewise.
"""

import argparse
import difflib
import os
import re
import select
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = "uart virtio_blk fileman eth virtio_net pm procfs svcman timed services.conf"
PROMPT = b"/ # "


class Guest:
    """QEMU with the guest's serial port on pipes; everything read is kept."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""

    def read_until(self, want, seconds, start=0):
        """Reads until want appears in the output after offset start, or the
        time runs out; True if it appeared."""
        end = time.time() + seconds
        while want not in self.out[start:] and time.time() < end:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                data = os.read(self.proc.stdout.fileno(), 4096)
                if not data:
                    break
                self.out += data
        return want in self.out[start:]

    def type(self, data, until=PROMPT, seconds=20):
        """Types data; returns what the guest printed up to `until` (or the
        time out)."""
        start = len(self.out)
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        self.read_until(until, seconds, start)
        return self.out[start:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def qemu_argv(build, disk=None, icount=False):
    """QEMU's argv for what `make run` boots; disk: another root image (the
    default is `make run`'s own), icount: TCG with -icount shift=0 (the
    TSC counts instructions: tools/bench_shell.py)."""
    mods = ["%s/user/sysinit /bin/sh" % build, "%s/user/posix_start" % build]
    mods += ["%s/servers/%s" % (build, s) for s in SERVERS.split()]
    cmd = subprocess.check_output(
        [sys.executable, os.path.join(ROOT, "tools", "qemu.py"), "cmd",
         "--kernel", "%s/kernel/myrmex.bin" % build,
         "--disk", disk or "%s/run/root.img" % build] + (["--icount"] if icount else []) +
        ["--modules"] + mods, stderr=subprocess.DEVNULL, cwd=ROOT).decode().strip()
    return shlex.split(cmd)


def linux_argv(build, out, linux_dir, disk=None, icount=False):
    """QEMU's argv for Linux (Debian's kernel, tools/linux_kernel.py) running
    busybox sh interactively on its serial console, chrooted into a copy of
    `make run`'s own root image (or of disk): the same busybox, the same
    disk; icount as qemu_argv's."""
    import linux_initramfs
    import linux_kernel
    import posix_guests
    import qemu as qemu_mod
    kernel = linux_kernel.get_kernel(linux_dir)
    busybox = linux_kernel.get_busybox(linux_dir)
    mods = linux_kernel.get_modules(linux_dir, kernel)
    mount = "/mnt/root"
    init = """#!/bin/sh
# /init of shell_jobctl.py's Linux guest: the root image, an interactive shell.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 1 > /proc/sys/kernel/printk
{disk}mount -t devtmpfs devtmpfs {mount}/dev
mount -t proc proc {mount}/proc
setsid -c env -i {env} chroot {mount} /bin/sh -i </dev/console >/dev/console 2>&1
echo "{mark} exit $?"
umount {mount}/proc
umount {mount}/dev
umount {mount}
poweroff -f
""".format(disk=linux_initramfs.disk_script([n for n, _ in mods], mount, "rw"), mount=mount,
           env=" ".join(posix_guests.POSIX_ENV), mark=linux_initramfs.INIT_MARK)
    archive = linux_initramfs.base_archive(busybox, posix_guests.LINUX_APPLETS)
    linux_initramfs.add_modules(archive, mods)
    archive.file("init", init.encode())
    os.makedirs(out, exist_ok=True)
    initrd = os.path.join(out, "linux-initramfs.cpio.gz")
    linux_initramfs.write_archive(archive, initrd)
    copy = os.path.join(out, "linux-root.img")
    posix_guests.fresh_copy(disk or os.path.join(build, "run", "root.img"), copy)
    accel = "tcg" if icount else qemu_mod.choose_accel()[0]
    return linux_kernel.disk_command(kernel, initrd, linux_kernel.kernel_append(), accel,
                                     icount, copy)


def job_lines(out):
    """The shell's job-status lines ("[1]+  Stopped  sleep 100") in out."""
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.decode("utf-8", "replace").replace("\r", ""))
    lines = [l[2:] if l[:2] in ("^Z", "^C") else l for l in text.split("\n")]
    return [l.rstrip() for l in lines if l.startswith("[")]


def session(guest, check, timeout, background=True):
    """Types the session at the prompt; check(name, cond) judges each step.
    Returns the job-status lines the shell printed, for the comparison.
    background: also the steps with a background reader (`cat &`). Linux's
    run stalls there (observed: the shell answers `jobs` with "Running" and
    then answers nothing more, busybox's unanswered cursor query ESC[6n
    pending), so they are typed at Myrmex only."""
    jobs = []
    check("prompt", guest.read_until(PROMPT, timeout))
    # The job is stopped once the shell prints the prompt again.
    out = guest.type(b"sleep 100\r", until=b"\n", seconds=10)
    time.sleep(2)   # sleep has started and reads nothing
    out = guest.type(b"\x1a")
    jobs += job_lines(out)
    check("ctrl-z-stops", b"Stopped" in out and b"sleep 100" in out)
    out = guest.type(b"jobs\r")
    jobs += job_lines(out)
    check("jobs-lists-stopped", b"[1]+" in out and b"Stopped" in out)
    out = guest.type(b"bg\r")
    jobs += job_lines(out)
    out = guest.type(b"jobs\r")
    jobs += job_lines(out)
    check("bg-runs", b"Running" in out and b"sleep 100" in out)
    out = guest.type(b"fg\r", until=b"sleep 100", seconds=10)
    time.sleep(2)
    out = guest.type(b"\x03")
    out = guest.type(b"jobs\r")
    jobs += job_lines(out)
    check("fg-then-ctrl-c-ends-it", b"sleep" not in out)
    out = guest.type(b"cat\r", until=b"\n", seconds=10)
    time.sleep(2)
    out = guest.type(b"\x1a")
    jobs += job_lines(out)
    check("ctrl-z-stops-a-reader", b"Stopped" in out and b"cat" in out)
    out = guest.type(b"fg\r", until=b"cat", seconds=10)
    time.sleep(1)
    out = guest.type(b"typed after fg\r", until=b"typed after fg", seconds=10)
    time.sleep(1)
    out = guest.type(b"\x04")
    check("reader-reads-after-fg", guest.out.count(b"typed after fg") >= 2)
    out = guest.type(b"echo status $?\r")
    check("reader-exits-0", b"status 0" in out)
    if not background:
        return jobs
    # A background reader is stopped by SIGTTIN instead of taking input.
    out = guest.type(b"cat &\r")
    time.sleep(3)
    out = guest.type(b"jobs\r")
    jobs += job_lines(out)
    check("background-reader-stopped", b"Stopped" in out and b"cat" in out)
    out = guest.type(b"echo still mine\r")
    check("shell-keeps-input", out.count(b"still mine") >= 2)
    out = guest.type(b"fg\r", until=b"cat", seconds=10)
    time.sleep(1)
    out = guest.type(b"now for cat\r", until=b"now for cat", seconds=10)
    time.sleep(1)
    guest.type(b"\x04")
    check("background-reader-reads-after-fg", guest.out.count(b"now for cat") >= 2)
    return jobs


def keep_log(build, name, data):
    """The console of a run, in <build>/shell-jobctl/<name>."""
    folder = os.path.join(build, "shell-jobctl")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=int, default=180, help="seconds for the boot")
    ap.add_argument("--linux", action="store_true",
                    help="also on Linux (the same session, job lines compared)")
    ap.add_argument("--linux-dir", help="Linux kernel cache (default <build>/linux)")
    args = ap.parse_args()
    results = []

    def checker(prefix):
        def check(name, cond):
            results.append(cond)
            print("%s shell-jobctl/%s%s" % ("PASS" if cond else "FAIL", prefix, name), flush=True)
        return check

    linux_jobs = None
    if args.linux:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        argv = linux_argv(args.build, os.path.join(args.build, "shell-jobctl"),
                          args.linux_dir or os.path.join(args.build, "linux"))
        guest = Guest(argv)
        try:
            linux_jobs = session(guest, checker("linux/"), args.timeout, background=False)
            guest.type(b"exit\r", until=b"LINUX-INIT exit", seconds=30)
        finally:
            guest.stop()
            keep_log(args.build, "linux.log", guest.out)
    guest = Guest(qemu_argv(args.build))
    try:
        jobs = session(guest, checker(""), args.timeout)
        guest.type(b"exit\r", until=b"sysinit:", seconds=30)
    finally:
        guest.stop()
        keep_log(args.build, "myrmex.log", guest.out)
    if linux_jobs is not None:
        same = jobs[:len(linux_jobs)] == linux_jobs
        checker("")("job-lines-as-linux", same)
        if not same:
            for line in difflib.unified_diff(linux_jobs, jobs, "linux", "myrmex", lineterm=""):
                print("  | " + line)
    failed = results.count(False)
    print("shell-jobctl: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
