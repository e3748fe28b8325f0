#!/usr/bin/env python3
"""bench_fsconf.py - the file service's configurations (suite fsconf, issue 19,
paper 003; docs/fs.md), a part of `make bench`.

Role: boots a disk made for this part once per configuration and mode, with
`sysinit fsconf=<cfg> /bench/posix/run fsconf fscmd`, and Linux once per
mode with the same disk and programs. The disk is tools/bench_posix.py's
image (the programs of bench/posix and data16m) made larger (ROOT_MIB),
plus for paper 003's figure 2 GNU make (/usr/bin/make, static, musl, built
by tools/build_make.py from Debian's make-dfsg) and its untouched source
tree as the tree the commands work on (/bench/src), and bench/posix/fscmd.mk.
The runner runs bench/posix/fsconf.c (figure 1 and the concurrent readers)
and fscmd.c (figure 2); their figures fsconf.<figure> come back named
fsconf.<cfg>.<figure> here, fsconf.linux.<figure> for Linux (os "linux").

Linux: the initramfs's /init mounts the disk read-write at MOUNT, /proc
inside it (fsconf.c writes /proc/sys/vm/drop_caches before each run, and
reads /proc/stat) and runs the same runner in a chroot, so that the
commands, make and busybox are the very files Myrmex runs.

The disk: icount mode gets QEMU's plain disk (instruction counts; under
-icount sleep=off a halted CPU jumps to its next timer, so a disk wait has
no real length there anyway); native mode gets a disk with latency, on both
systems alike: the same image served by tools/nbd_latency.py, every request
answered DISK_LATENCY_US after it came, requests in parallel.

Logs and disk copies go to <out>/fsconf-boot/<cfg>/, the records to
<out>/fsconf-boot/results.jsonl, which bench.py merges into its results and
report. MYRMEX_BENCH_ONLY=fsconf runs only this part; MYRMEX_FSCONF_CONFIGS
(some of one,split,ult,klt,linux) narrows the boots.
"""

import argparse
import datetime
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py: boots, parser, records)
import bench_posix  # noqa: E402  (its disk image and parser)

CONFIGS = ("one", "split", "ult", "klt")
LINUX = "linux"          # the Linux rows' name in place of a configuration
CONFIGS_ENV = "MYRMEX_FSCONF_CONFIGS"
OUT_DIR = "fsconf-boot"
RESULTS = "results.jsonl"
SUITE = "fsconf"
ROOT_MIB = 300           # data16m, DATA_NAME, the tree (7.6 MiB), its copies
DATA_NAME = "data128m"   # bench/posix/fsconf.c's: read once, cold, in parts
DATA_BYTES = 128 << 20
PROGRAMS = ("fsconf", "fscmd")
SRC_DEST = "/bench/src"  # bench/posix/fscmd.c's SRC_TREE
MAKE_DEST = "/usr/bin/make"
MK_NAME = "fscmd.mk"
MOUNT = "/mnt/root"
DISK_LATENCY_US = 2000   # per request, native mode (an SSD's 0.1, a disk's 5-10 ms)


def configs():
    """The configurations to run: all, or those of MYRMEX_FSCONF_CONFIGS."""
    wanted = [c.strip() for c in os.environ.get(CONFIGS_ENV, "").split(",") if c.strip()]
    bad = [c for c in wanted if c not in CONFIGS + (LINUX,)]
    if bad:
        raise ValueError("%s: unknown configuration %s" % (CONFIGS_ENV, ", ".join(bad)))
    return wanted or list(CONFIGS) + [LINUX]


def disk_latency(mode):
    """The disk's latency per request in microseconds: DISK_LATENCY_US in
    native mode, none (QEMU's plain disk) under -icount."""
    return DISK_LATENCY_US if mode == "native" else 0


def extra_files(gnumake_dir, out):
    """mkrootfs.py --add specs: fsconf.c's data file (written to out), and
    for figure 2 GNU make, its source tree and fscmd.mk. Raises
    RuntimeError when make was not built."""
    make = os.path.join(gnumake_dir or "", "make")
    trees = sorted(glob.glob(os.path.join(gnumake_dir or "", "src", "*", "src", "remake.c")))
    if not gnumake_dir or not os.path.isfile(make) or not trees:
        raise RuntimeError("no GNU make in %s (tools/build_make.py)" % gnumake_dir)
    tree = os.path.dirname(os.path.dirname(trees[-1]))
    mk = os.path.join(bench_posix.ROOT, "bench", "posix", MK_NAME)
    data = os.path.join(out, DATA_NAME)
    with open(data, "wb") as f:   # 4 KiB block i holds the byte i % 256
        for i in range(DATA_BYTES // 4096):
            f.write(bytes([i % 256]) * 4096)
    return ["%s:%s/%s" % (data, bench_posix.POSIX_DIR, DATA_NAME),"%s:%s" % (make, MAKE_DEST), "%s:%s" % (tree, SRC_DEST),
            "%s:%s/%s" % (mk, bench_posix.POSIX_DIR, MK_NAME)]


def linux_init(modules):
    """/init of the Linux guest: the disk mounted read-write, /proc in it,
    the runner in a chroot."""
    from linux_initramfs import INIT_MARK, disk_script
    return """#!/bin/sh
# /init of the fsconf initramfs (written by tools/bench_fsconf.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) $(uname -r)"
{disk}mount -t proc proc {mount}/proc
chroot {mount} /bin/sh -c 'PATH=/bin:/usr/bin:/sbin:/usr/sbin exec {runner}' \
    </dev/null >/dev/console 2>&1
echo "{mark} exit $?"
poweroff -f
""".format(mark=INIT_MARK, disk=disk_script(modules, MOUNT, "rw"), mount=MOUNT,
           runner=" ".join([bench_posix.RUNNER] + list(PROGRAMS)))


def run_linux(args, image, out):
    """One Linux boot per mode; returns (records, notes)."""
    import linux_guest
    import linux_initramfs as initramfs
    import linux_kernel as lk
    kernel = lk.get_kernel(lk.LINUX_DIR)
    busybox = lk.get_busybox(lk.LINUX_DIR)
    mods = lk.get_modules(lk.LINUX_DIR, kernel)
    cpio = initramfs.base_archive(busybox, bench_posix.LINUX_APPLETS)
    initramfs.add_modules(cpio, mods)
    cpio.file("init", linux_init([name for name, _ in mods]).encode())
    initrd = os.path.join(out, "linux-initramfs.cpio.gz")
    initramfs.write_archive(cpio, initrd)
    version = lk.bzimage_version(kernel) or "unknown"
    append = lk.kernel_append()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    records, notes = [], []
    for mode in args.modes:
        print("== fsconf boot on Linux (disk latency %d us)" % disk_latency(mode), flush=True)
        res = linux_guest.run_linux_mode(mode, kernel, initrd, append, out,
                                         args.linux_timeout, args.quiet, image,
                                         disk_latency_us=disk_latency(mode))
        records += renamed(bench.make_records(res, os_name="linux", extra={
            "kernel": version.split()[0], "cmdline": append, "date": date}), LINUX)
        notes += ["fsconf Linux, %s: %s" % (mode, n) for n in res.notes]
        if res.error:
            notes.append("**fsconf boot on Linux, mode %s failed:** %s" % (mode, res.error))
    return records, notes


def renamed(records, conf):
    """fsconf.<figure> becomes fsconf.<conf>.<figure>."""
    for rec in records:
        if rec["name"].startswith(SUITE + "."):
            rec["name"] = "%s.%s.%s" % (SUITE, conf, rec["name"][len(SUITE) + 1:])
        rec["fsconf"] = conf
    return records


def run_part(args):
    """Writes <out>/fsconf-boot/results.jsonl. Returns (ModeResults, report
    notes, failed)."""
    out = os.path.join(args.out, OUT_DIR)
    os.makedirs(out, exist_ok=True)
    try:
        confs = configs()
        extra = extra_files(getattr(args, "gnumake_dir", None), out)
        image = bench_posix.make_image(args.posix_dir, out, extra, ROOT_MIB)
    except (OSError, RuntimeError, ValueError) as e:
        return [], ["**fsconf boot not run:** %s" % e], True
    results, records, notes, failed = [], [], [], False
    runner = " ".join([bench_posix.RUNNER] + list(PROGRAMS))
    for conf in [c for c in confs if c != LINUX]:
        conf_out = os.path.join(out, conf)
        os.makedirs(conf_out, exist_ok=True)
        boot = argparse.Namespace(
            kernel=args.kernel,
            init="%s fsconf=%s %s" % (args.posix_init, conf, runner),
            modules=list(args.posix_modules), out=conf_out, disk=image,
            timeout=args.timeout, quiet=args.quiet)
        for mode in args.modes:
            boot.disk_latency_us = disk_latency(mode)
            print("== fsconf boot on Myrmex, configuration %s (disk latency %d us): %s" % (
                conf, boot.disk_latency_us, boot.init), flush=True)
            res = bench.run_mode(mode, boot, bench_posix.PosixParser())
            results.append(res)
            records += renamed(bench.make_records(res), conf)
            notes += ["fsconf %s, %s: %s" % (conf, mode, n) for n in res.notes]
            if res.error:
                notes.append("**fsconf boot, %s, mode %s failed:** %s" % (conf, mode, res.error))
                failed = True
    if LINUX in confs and bench.linux_wanted():
        linux_out = os.path.join(out, LINUX)
        os.makedirs(linux_out, exist_ok=True)
        try:
            linux_records, linux_notes = run_linux(args, image, linux_out)
            records += linux_records
            notes += linux_notes
        except KeyboardInterrupt:
            notes.append("**fsconf boot on Linux interrupted.**")
        except Exception as e:  # noqa: BLE001 (keep the Myrmex results)
            notes.append("**fsconf boot on Linux failed:** %s: %s" % (type(e).__name__, e))
    elif LINUX in confs:
        notes.append("fsconf boot on Linux skipped (%s=0)." % bench.LINUX_ENV)
        confs = [c for c in confs if c != LINUX]
    path = os.path.join(out, RESULTS)
    ran = {r.get("fsconf") for r in records}
    kept = [r for r in bench.read_other_os(path) if r.get("fsconf") not in ran]
    bench.write_jsonl(path, records + kept)
    return results, notes, failed
