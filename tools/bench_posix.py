#!/usr/bin/env python3
"""bench_posix.py - the POSIX benchmark boot of `make bench` (suite posix, issue 5).

Role: measures the POSIX personality with unmodified static programs
(bench/posix/: posix.getpid, posix.read4k, posix.fork_exec_wait,
posix.pipe_pingpong, posix.clock_gettime, posix.timeq.*), the same binaries
on Myrmex and on Linux:

- the disk: an ext2 root made by tools/mkrootfs.py (rootfs/, Debian's static
  busybox) plus the programs of --posix-dir, read4k's data file (4 KiB,
  byte i = i % 251) and time_fileread's (16 MiB) in POSIX_DIR; written
  afresh for every run to
  <out>/posix-boot/root.img, and every boot gets its own copy of it;
- Myrmex, once per mode (bench.py's run_mode: icount, native): the init is
  `sysinit /bench/posix/run` with the boot modules posix_start, timed,
  virtio_blk, uart, fileman and pm; the runner prints the BENCH lines (and,
  after stopping timed, those of the time benchmarks again), and its exit ends
  the boot (sysinit powers off with its status, which is checked, as are the
  runner's BENCH-ERROR lines);
- Linux, once per mode, in the same QEMU machine (tools/linux_guest.py's
  run_linux_mode, kernel and modules from tools/linux_kernel.py): an
  initramfs whose /init mounts the same disk read-only at MOUNT and runs
  `chroot MOUNT /bench/posix/run`, so the programs, the data file and exit0
  are read from the same ext2 image as on Myrmex. MYRMEX_BENCH_LINUX=0 skips
  it (the Linux rows of an earlier run are kept).

Everything goes to <out>/posix-boot/ (logs, disk copies, the Linux initramfs)
and its results.jsonl (Myrmex and Linux records of suite posix), which bench.py
merges into <out>/results.jsonl and the report. Run by bench.py when it is
given --posix-init (the Makefile's bench rule does); MYRMEX_BENCH_ONLY=posix
runs only this part.
"""

import argparse
import datetime
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py: boots, parser, records)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSIX_DIR = "/bench/posix"          # where the disk holds the programs
RUNNER = POSIX_DIR + "/run"
DATA_NAME = "data4k"                # bench/posix/read4k.c's DATA_NAME
DATA_BYTES = 4096
BIG_NAME = "data16m"                # bench/posix/time_fileread.c's DATA_NAME
BIG_BYTES = 16 << 20
ROOT_MIB = 64
MOUNT = "/mnt/root"                 # where Linux's /init mounts the disk
LINUX_APPLETS = ["sh", "mount", "poweroff", "cat", "cut", "uname", "insmod",
                 "mkdir", "sleep", "chroot", "ifconfig"]
RESULTS = "results.jsonl"
OUT_DIR = "posix-boot"              # under bench.py's --out


def data_block():
    """read4k's data: byte i is i % 251 (checked by the program)."""
    return bytes(i % 251 for i in range(DATA_BYTES))


def big_data():
    """time_fileread's file, read cold beside the time loop: 4 KiB block i
    holds the byte i % 256 (nothing checks it; it only has to be read)."""
    return b"".join(bytes([i % 256]) * 4096 for i in range(BIG_BYTES // 4096))


def bench_error(text):
    return RuntimeError("POSIX boot: %s" % text)


def programs(posix_dir):
    """Paths of the executables in posix_dir (the runner, the benchmarks, exit0)."""
    found = []
    for name in sorted(os.listdir(posix_dir)):
        path = os.path.join(posix_dir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(path)
    if not any(os.path.basename(p) == "run" for p in found):
        raise bench_error("no runner %s/run (make benchmarks)" % posix_dir)
    return found


def make_image(posix_dir, out, extra=(), mib=ROOT_MIB):
    """Writes <out>/root.img (mib MiB): tools/mkrootfs.py's root plus the
    programs and the data file in POSIX_DIR, and extra: more "SRC:DEST"
    files or folders (bench_fsconf.py's). Returns its path."""
    data = os.path.join(out, DATA_NAME)
    with open(data, "wb") as f:
        f.write(data_block())
    big = os.path.join(out, BIG_NAME)
    with open(big, "wb") as f:
        f.write(big_data())
    image = os.path.join(out, "root.img")
    cmd = [sys.executable, os.path.join(ROOT, "tools", "mkrootfs.py"), image,
           str(mib), "--add", "%s:%s/%s" % (data, POSIX_DIR, DATA_NAME),
           "--add", "%s:%s/%s" % (big, POSIX_DIR, BIG_NAME)]
    for path in programs(posix_dir):
        cmd += ["--add", "%s:%s/%s" % (os.path.abspath(path), POSIX_DIR,
                                      os.path.basename(path))]
    for spec in extra:
        cmd += ["--add", spec]
    # mkrootfs.py copies rootfs/ from the current folder: the repository's.
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise bench_error("mkrootfs.py failed: %s" % (proc.stderr or proc.stdout).strip())
    return image


# ---------------------------------------------------------------- Myrmex

class PosixParser(bench.BenchParser):
    """bench.py's parser, plus the runner's BENCH-ERROR lines and sysinit's
    last line ("sysinit: <program> ended with status <n>; ..."), which are
    problems (report notes) when a benchmark failed."""

    def feed(self, raw):
        words = raw.split()
        if words[:1] == ["BENCH-ERROR"]:
            self.problems.append(raw.strip())
        elif words[:1] == ["sysinit:"] and "status" in words:
            status = words[words.index("status") + 1:][:1]
            if status != ["0;"]:
                self.problems.append(raw.strip())
        return super().feed(raw)


USER_NET_ADDRESS = "10.0.2.15"   # eth0 of the Linux guest, as Myrmex's tcpip service


def runner_command(only):
    """The runner with the programs it is to run (all of its list when none)."""
    return " ".join([RUNNER] + list(only))


def run_myrmex(args, image, out, only=()):
    """One Myrmex boot per mode; returns the bench.ModeResult list."""
    boot = argparse.Namespace(
        # calls=10: the runner and what it forks may call the TCP/IP server
        # natively (bench/posix/net_send.c's paper-002 path).
        kernel=args.kernel, init="%s calls=10 %s" % (args.posix_init, runner_command(only)),
        modules=list(args.posix_modules), out=out, disk=image,
        timeout=args.timeout, quiet=args.quiet,
        # A NIC on QEMU's restricted user network, so that the service table
        # starts the network servers (net_loopback uses 127.0.0.1 only).
        net=True, net_model=["user"])
    results = []
    for mode in args.modes:
        print("== POSIX boot on Myrmex: %s" % boot.init, flush=True)
        results.append(bench.run_mode(mode, boot, PosixParser()))
    return results


# ---------------------------------------------------------------- Linux

def linux_init(modules, only=(), nic_modules=()):
    """/init of the Linux guest: the disk mounted, /proc in it (net_send reads
    the CPU's idle time there), eth0 up at 10.0.2.15 on QEMU's restricted
    user network (as Myrmex's tcpip service: net_send's peer is 10.0.2.100),
    the runner in a chroot."""
    from linux_initramfs import INIT_MARK, disk_script, net_script
    return """#!/bin/sh
# /init of the POSIX benchmark initramfs (written by tools/bench_posix.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) clocksource=$(cat $cs) $(uname -r)"
ifconfig lo 127.0.0.1 up
{disk}mount -t proc proc {mount}/proc 2>/dev/null
{net}chroot {mount} {runner} </dev/null >/dev/console 2>&1
echo "{mark} exit $?"
poweroff -f
""".format(mark=INIT_MARK, disk=disk_script(modules, MOUNT, "ro"), mount=MOUNT,
           net=net_script(nic_modules, USER_NET_ADDRESS) if nic_modules else "",
           runner=runner_command(only))


def run_linux(args, image, out, only=()):
    """One Linux boot per mode; returns (records, notes). Raises on setup
    failures (no kernel, no busybox...)."""
    import linux_guest
    import linux_initramfs as initramfs
    import linux_kernel as lk
    kernel = lk.get_kernel(lk.LINUX_DIR)
    busybox = lk.get_busybox(lk.LINUX_DIR)
    mods = lk.get_modules(lk.LINUX_DIR, kernel)
    nic_mods = lk.get_nic_modules(lk.LINUX_DIR, kernel, "user")
    cpio = initramfs.base_archive(busybox, sorted(set(LINUX_APPLETS + initramfs.NET_APPLETS)))
    initramfs.add_modules(cpio, lk.merge_modules(mods, nic_mods))
    cpio.file("init", linux_init([name for name, _ in mods], only,
                                 [name for name, _ in nic_mods]).encode())
    initrd = os.path.join(out, "linux-initramfs.cpio.gz")
    initramfs.write_archive(cpio, initrd)
    version = lk.bzimage_version(kernel) or "unknown"
    append = lk.kernel_append()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    records, notes = [], []
    for mode in args.modes:
        print("== POSIX boot on Linux: chroot %s %s" % (MOUNT, runner_command(only)),
              flush=True)
        res = linux_guest.run_linux_mode(mode, kernel, initrd, append, out,
                                         args.linux_timeout, args.quiet, image, nic="user")
        records += bench.make_records(res, os_name="linux", extra={
            "kernel": version.split()[0], "cmdline": append, "date": date})
        notes += ["POSIX boot, Linux %s: %s" % (mode, n) for n in res.notes]
        if res.error:
            notes.append("**POSIX boot, Linux mode %s failed:** %s" % (mode, res.error))
    return records, notes


# ---------------------------------------------------------------- the part

def keep_earlier(path, records, os_names):
    """This run's records plus the earlier ones (in path) of the OSes not run."""
    kept = [r for r in bench.read_other_os(path) if r.get("os") not in os_names]
    return records + kept


def run_part(args, only=(), out_name=OUT_DIR):
    """The POSIX part of `make bench`: writes <out>/<out_name>/results.jsonl.
    only: the programs the runner runs (its own list when empty); the part
    wsc of bench.py runs wsc_fwd alone this way, into wsc-boot/.

    Returns (Myrmex ModeResults, report notes, failed): failed when a Myrmex
    mode did not finish; a Linux failure is a note, as in bench.py.
    """
    out = os.path.join(args.out, out_name)
    os.makedirs(out, exist_ok=True)
    try:
        image = make_image(args.posix_dir, out)
    except (OSError, RuntimeError) as e:
        return [], ["**POSIX boot not run:** %s" % e], True
    results = run_myrmex(args, image, out, only)
    records = [rec for r in results for rec in bench.make_records(r)]
    notes, ran = [], ["myrmex"]
    failed = False
    for r in results:
        notes += ["POSIX boot, Myrmex %s: %s" % (r.mode, n) for n in r.notes]
        if r.error:
            notes.append("**POSIX boot, Myrmex mode %s failed:** %s" % (r.mode, r.error))
            failed = True
    path = os.path.join(out, RESULTS)
    bench.write_jsonl(path, keep_earlier(path, records, ran))
    if bench.linux_wanted():
        try:
            linux_records, linux_notes = run_linux(args, image, out, only)
            records += linux_records
            notes += linux_notes
            ran.append("linux")
        except KeyboardInterrupt:
            notes.append("**POSIX boot on Linux interrupted.**")
        except Exception as e:  # noqa: BLE001 (keep the Myrmex results)
            notes.append("**POSIX boot on Linux failed:** %s: %s" % (type(e).__name__, e))
    else:
        notes.append("POSIX boot on Linux skipped (%s=0)." % bench.LINUX_ENV)
    bench.write_jsonl(path, keep_earlier(path, records, ran))
    return results, notes, failed

