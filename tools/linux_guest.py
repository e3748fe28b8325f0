#!/usr/bin/env python3
"""linux_guest.py - the same benchmark binaries on Linux, in the same QEMU machine.

Role: the Linux half of `make bench`. It boots a stock Debian kernel with a small
initramfs (busybox, the static bench programs in /bench, an /init script) on the
machine Myrmex gets (tools/qemu.py: -m 512M -smp 1, -cpu max, TCG or KVM as
choose_accel says, the same -icount flags in icount mode). The /init runs
/bench/benchinit, which on Linux measures the TSC against CLOCK_MONOTONIC and runs
the bench programs beside it, printing the BENCH lines of docs/testing.md; they are
read with bench.py's parser and written to <out>/results.linux.jsonl ("os": "linux"),
which bench.py merges into its report.

    python3 tools/linux_guest.py bench --bench-dir build/bench --out build/bench \\
        [--modes icount,native] [--timeout 600] [--quiet] [--only bench_getpid ...] \\
        [--disk build/bench/fs.img] [--net-model virtio]
    python3 tools/linux_guest.py fetch         (only get the kernel, modules and busybox)
    python3 tools/linux_guest.py cmd --bench-dir build/bench [--icount] [--disk IMG]
                                               (build the initramfs, print QEMU's argv)

The disk: with --disk (by default <bench-dir>/fs.img when it exists) the guest gets a
fresh copy of that raw image (<out>/linux-disk.img, made again before every boot, so
every run starts from the same bytes) as the same virtio-blk PCI device Myrmex gets
(qemu.qemu_command's disk=), and /init mounts it read-only as ext2 at DISK_MOUNT,
where bench_fs reads it. The Debian kernel has virtio-pci and virtio-blk as modules
(ext2 is served by the built-in ext4 driver): they and their dependencies are taken
from the kernel package into build/linux/modules/ (tools/linux_modules.py) and loaded
by /init with insmod, in dependency order.

The NIC: with --net-model (bench.py passes its own) the guest gets a NIC of the
first model its kernel drives, wired to its own tools/net_peer.py as Myrmex's boot
is (qemu.net_args); /init loads that NIC's modules (linux_kernel.get_nic_modules:
virtio_net and its failover modules) and brings eth0 up without an address, for
bench_eth's packet socket. Debian's cloud kernel has no RTL8139 driver: for that
NIC bench_eth runs in boots of its own on Debian's generic kernel of the same
version (linux_kernel.get_generic_kernel), whose 8139cp drives QEMU's RTL8139.

The kernel, its disk modules and busybox come from tools/linux_kernel.py
(build/linux/vmlinuz, fetched once from Debian's cloud kernel package, or
$MYRMEX_LINUX_KERNEL), the initramfs archive from tools/linux_initramfs.py.
"""

import argparse
import datetime
import os
import re
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py: the BENCH-line parser and records)
import qemu   # noqa: E402  (tools/qemu.py: the machine and the console reader)
import nbd_latency  # noqa: E402  (a disk with latency, for the fsconf part)
from linux_initramfs import INIT_MARK, base_archive, add_modules, disk_script, \
    net_script, write_archive  # noqa: E402
from linux_kernel import ROOT, LINUX_DIR, LinuxSetupError, say, get_kernel, \
    get_modules, get_busybox, elf_is_static, bzimage_version, kernel_append, \
    describe_linux_run, disk_command, get_nic_modules, get_generic_kernel, \
    generic_dir  # noqa: E402,F401

BUSYBOX_APPLETS = ["sh", "mount", "poweroff", "cat", "cut", "ls", "dmesg", "uname",
                   "insmod", "mkdir", "sleep", "ifconfig", "grep"]

# Where /init mounts the bench disk (bench/bench_fs.c's FS_LINUX_MOUNT).
DISK_MOUNT = "/mnt/benchfs"
DISK_NAME = "fs.img"        # the default disk, in the bench folder


# ---------------------------------------------------------------- initramfs

def init_script(only, disk_modules=None, nic_modules=None):
    """The initramfs's /init: mount, run benchinit on the console, power off.
    disk_modules (a list, maybe empty) adds the disk: modules loaded, mounted;
    nic_modules (a list, maybe empty) the NIC: modules loaded, eth0 up
    without an address (bench_eth's packet socket needs none)."""
    args = "".join(" " + name for name in only)
    disk = disk_script(disk_modules, DISK_MOUNT) if disk_modules is not None else ""
    if nic_modules is not None:
        disk += net_script(nic_modules)
    return """#!/bin/sh
# /init of the Myrmex benchmark initramfs (written by tools/linux_guest.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) clocksource=$(cat $cs) $(uname -r)"
{disk}/bench/benchinit{args} </dev/null >/dev/console 2>&1
echo "{mark} exit $?"
poweroff -f
""".format(mark=INIT_MARK, args=args, disk=disk)


def bench_programs(bench_dir):
    """{name: path} of the static ELF executables in bench_dir (benchinit included)."""
    found = {}
    for name in sorted(os.listdir(bench_dir)):
        path = os.path.join(bench_dir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK) and elf_is_static(path):
            found[name] = path
    if "benchinit" not in found:
        raise LinuxSetupError("no static benchinit in %s (run `make benchmarks`)" %
                              bench_dir)
    return found


def build_initramfs(bench_dir, busybox, dest, only=(), disk_modules=None, nic_modules=None):
    """Write a gzip'd newc initramfs to dest; return the bench program names.
    disk_modules: None (no disk), or [(name, bytes)] to load, in order, before
    the disk is mounted (lib/modules/<name>.ko); nic_modules the same for the
    NIC (None: no NIC)."""
    for name in only:
        if not re.match(r"^[A-Za-z0-9_.-]+$", name):
            raise LinuxSetupError("bad benchmark name %r" % name)
    programs = bench_programs(bench_dir)
    cpio = base_archive(busybox, BUSYBOX_APPLETS, dirs=("bench",))
    for name, path in programs.items():
        with open(path, "rb") as f:
            cpio.file("bench/" + name, f.read())
    add_modules(cpio, (disk_modules or []) + (nic_modules or []))
    names = None if disk_modules is None else [n for n, _ in disk_modules]
    nic_names = None if nic_modules is None else [n for n, _ in nic_modules]
    cpio.file("init", init_script(only, names, nic_names).encode())
    write_archive(cpio, dest)
    return list(programs)


# ---------------------------------------------------------------- the run

class LinuxBenchParser(bench.BenchParser):
    """bench.py's parser, plus Linux's panic line, our /init's lines and progress."""

    def __init__(self, label):
        super().__init__()
        self.label = label
        self.start = time.monotonic()
        self.first_output = None
        self.init_at = None
        self.init_exit = None
        self.disk = None        # the /init's disk line, words after "disk"
        self.net = None         # the /init's net line, words after "net"
        self.errors = []

    def is_panic(self, line):
        return super().is_panic(line) or "Kernel panic - not syncing" in line

    def progress(self, text):
        say("[%s +%.1f s] %s" % (self.label, time.monotonic() - self.start, text))

    def feed(self, raw):
        line = raw.strip()
        words = line.split()
        if self.first_output is None and line:
            self.first_output = time.monotonic() - self.start
        if words[:2] == [INIT_MARK, "start"]:
            self.init_at = time.monotonic() - self.start
            self.progress("kernel booted, /init running (%s)" % " ".join(words[2:]))
        elif words[:2] == [INIT_MARK, "disk"]:
            self.disk = " ".join(words[2:])
            self.progress("disk %s" % self.disk)
            if words[2:3] != ["mounted"]:
                self.errors.append(line)
        elif words[:2] == [INIT_MARK, "net"] and words[2:3] != ["insmod"]:
            self.net = " ".join(words[2:])
            self.progress("net %s" % self.net)
            if words[2:3] == ["failed:"]:
                self.errors.append(line)
        elif words[:2] == [INIT_MARK, "exit"]:
            self.init_exit = words[2] if len(words) > 2 else "?"
            self.progress("benchinit exited with status %s" % self.init_exit)
        elif words[:1] == ["BENCH-ERROR"]:
            self.errors.append(line)
        count = len(self.figures)
        grace = super().feed(raw)
        if len(self.figures) > count:
            fig = self.figures[-1]
            self.progress("%s %s: %s" % (fig["suite"], fig["name"], fig["median"]))
        elif words[:1] == ["BENCH-DONE"]:
            self.progress("BENCH-DONE")
        elif self.panic and grace is not None:
            self.progress("kernel panic")
        return grace



def choose_nic(linux_dir, kernel, models):
    """(model, its modules, notes): the first of the NIC models the kernel
    can drive (the Linux guest gets one NIC, eth0), or (None, None, notes);
    the notes say which models were left out and why."""
    notes, chosen = [], (None, None)
    for model in models:
        try:
            mods = get_nic_modules(linux_dir, kernel, model)
        except LinuxSetupError as e:
            notes.append("NIC %s not given to Linux: %s" % (model, e))
            continue
        if chosen[0] is None:
            chosen = (model, mods)
        else:
            notes.append("NIC %s not given to Linux: it gets one NIC (%s)" % (
                model, chosen[0]))
    return chosen[0], chosen[1], notes


def generic_nics(linux_dir, models):
    """For the NIC models the cloud kernel has no driver for: [(model,
    kernel, its NIC modules)] that Debian's generic kernel of the same
    version drives (get_generic_kernel), and notes on the others. bench_eth
    runs over them in boots of their own."""
    kernel = get_kernel(linux_dir)
    found, notes = [], []
    for model in models:
        try:
            get_nic_modules(linux_dir, kernel, model)
            continue   # the cloud kernel drives it
        except LinuxSetupError:
            pass
        try:
            generic = get_generic_kernel(linux_dir)
            found.append((model, generic, get_nic_modules(generic_dir(linux_dir), generic, model)))
        except LinuxSetupError as e:
            notes.append("NIC %s: no Linux kernel here drives it (%s)" % (model, e))
    return found, notes


def prepare(bench_dir, linux_dir, only=(), disk=None, nic_modules=None):
    """Kernel path and initramfs path for a run (with the disk modules and the
    mount in /init when a disk is given, with the NIC's modules and eth0
    brought up when nic_modules is a list)."""
    kernel = get_kernel(linux_dir)
    busybox = get_busybox(linux_dir)
    mods = get_modules(linux_dir, kernel) if disk else None
    if disk and not os.path.isfile(disk):
        raise LinuxSetupError("disk image not found: %s" % disk)
    os.makedirs(linux_dir, exist_ok=True)
    initrd = os.path.join(linux_dir, "bench-initramfs.cpio.gz")
    names = build_initramfs(bench_dir, busybox, initrd, only, mods, nic_modules)
    say("initramfs: %s (%d KiB: busybox from %s, /bench: %s%s%s)" % (
        initrd, os.path.getsize(initrd) // 1024, busybox, " ".join(names),
        "; disk modules: %s" % (" ".join(n for n, _ in mods) or "none")
        if mods is not None else "",
        "; NIC modules: %s" % (" ".join(n for n, _ in nic_modules) or "none")
        if nic_modules is not None else ""))
    return kernel, initrd


def run_linux_mode(mode, kernel, initrd, append, out, timeout, quiet, disk=None, nic=None,
                   disk_latency_us=0, tag=""):
    """Boot Linux in one mode; return a bench.ModeResult. disk: the pristine
    image, copied afresh to <out>/linux-disk.img for this boot;
    disk_latency_us: serve that copy through tools/nbd_latency.py with this
    latency per request (0: QEMU's plain disk); nic: a NIC model
    (qemu.NET_MODELS) wired to its host peer, as Myrmex's boot gets it;
    tag: added to the log names (linux-<mode>[-<tag>].log)."""
    res = bench.ModeResult(mode, parser=LinuxBenchParser(mode))
    try:
        res.accel, icount, res.reason = bench.mode_accel(mode)
    except qemu.QemuError as e:
        res.error = str(e)
        return res
    work_disk = None
    if disk:
        work_disk = os.path.join(out, "linux-disk.img")
        bench.copy_disk(disk, work_disk)
    nbd = None
    if work_disk and disk_latency_us:
        try:
            nbd, work_disk = nbd_latency.start(work_disk, os.path.join(out, "nbd.sock"),
                                               disk_latency_us,
                                               os.path.join(out, "linux-%s.nbd.log" % mode))
        except RuntimeError as e:
            res.error = str(e)
            return res
    peers = []
    if nic:
        peers = qemu.net_peers_start([nic], os.path.join(
            out, "linux-%s%s.net_peer.log" % (mode, "-" + tag if tag else "")), timeout + 60)
    cmd = disk_command(kernel, initrd, append, res.accel, icount, work_disk,
                       qemu.net_args(qemu.net_links(peers)) if nic else ())
    say("== mode %s: accelerator %s (%s), timeout %d s" % (
        mode, res.accel, res.reason, timeout))
    res.parser.start = time.monotonic()
    log_path = os.path.join(out, "linux-%s%s.log" % (mode, "-" + tag if tag else ""))
    try:
        run = bench.run_boot(res, cmd, log_path, timeout, quiet, describe_linux_run)
    finally:
        qemu.net_peers_stop(peers)
        if nbd:
            nbd_latency.stop(nbd)
    p = res.parser
    res.notes.extend(p.errors)
    if disk and p.init_at is not None and p.disk is None:
        res.notes.append("the disk was not mounted (no LINUX-INIT disk line)")
    if p.init_exit not in (None, "0"):
        res.notes.append("benchinit exited with status %s" % p.init_exit)
    if mode == "icount" and p.tsc_khz and not 900000 <= p.tsc_khz <= 1100000:
        res.notes.append("BENCH-TSC-KHZ %s under icount: expected about 1000000 "
                         "(one TSC tick per instruction, 1 ns each)" % p.tsc_khz)
    boot = "%.1f s to /init" % p.init_at if p.init_at is not None else "/init not reached"
    say("mode %s: %s, %.1f s in all" % (mode, boot, run.elapsed))
    res.timing = {"boot_s": p.init_at, "total_s": run.elapsed}
    return res


def merge_records(path, records, modes_run):
    """results.linux.jsonl: this run's records, plus the earlier records of modes
    not run this time (so `--modes native` keeps the instruction counts)."""
    metrics_run = {bench.MODES[m]["metric"] for m in modes_run}
    kept = [r for r in bench.read_other_os(path)
            if r.get("os") == "linux" and r.get("metric") not in metrics_run]
    merged = kept + records
    if merged:
        bench.write_jsonl(path, merged)
    elif os.path.exists(path):
        os.remove(path)
    return merged


def run_bench(bench_dir, out, modes, timeout=600, quiet=False, only=(),
              linux_dir=LINUX_DIR, disk=None, net_models=()):
    """Run the bench programs on Linux in each mode; write <out>/results.linux.jsonl.
    disk: a raw image given to the guest as its virtio-blk disk (a fresh copy
    per boot), mounted at DISK_MOUNT; None for none. net_models: the NIC
    models Myrmex's boots got (bench.py --net-model); Linux gets the first
    one its kernel drives (choose_nic), wired to a host peer of its own.
    A model only Debian's generic kernel drives (the RTL8139) gets boots of
    its own, per mode, running bench_eth alone on that kernel (generic_nics;
    its records say which kernel).

    Returns the bench.ModeResult list. Raises LinuxSetupError if the guest cannot
    be prepared.
    """
    os.makedirs(out, exist_ok=True)
    nic, nic_mods, nic_notes = None, None, []
    if net_models:
        nic, nic_mods, nic_notes = choose_nic(linux_dir, get_kernel(linux_dir),
                                              list(net_models))
    extra_nics = []
    if net_models and (not only or "bench_eth" in only):
        extra_nics, notes = generic_nics(linux_dir, [m for m in net_models if m != "user"])
        handled = {m for m, _, _ in extra_nics}
        nic_notes = [n for n in nic_notes if not any(n.startswith("NIC %s " % m)
                                                    for m in handled)] + notes
        nic_notes += ["NIC %s: bench_eth on Debian's generic kernel (the cloud kernel has no "
                      "driver for it)" % m for m in sorted(handled)]
    for note in nic_notes:
        say(note)
    kernel, initrd = prepare(bench_dir, linux_dir, only, disk, nic_mods)
    version = bzimage_version(kernel)
    if version is None:
        raise LinuxSetupError("%s is not a bzImage (no HdrS setup header)" % kernel)
    kernel_label = version.split()[0]
    append = kernel_append()
    say("kernel %s; command line: %s" % (version, append))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results, records = [], []
    for mode in modes:
        res = run_linux_mode(mode, kernel, initrd, append, out, timeout, quiet, disk, nic)
        res.notes.extend(nic_notes)
        results.append(res)
        records += bench.make_records(res, os_name="linux", extra={
            "kernel": kernel_label, "cmdline": append, "date": date})
    for model, generic, mods in extra_nics:
        gk, ginitrd = prepare(bench_dir, generic_dir(linux_dir), ["bench_eth"], None, mods)
        glabel = (bzimage_version(gk) or "?").split()[0]
        for mode in modes:
            res = run_linux_mode(mode, gk, ginitrd, append, out, timeout, quiet, None, model,
                                 tag=model)
            results.append(res)
            records += bench.make_records(res, os_name="linux", extra={
                "kernel": glabel, "cmdline": append, "date": date})
    path = os.path.join(out, "results.linux.jsonl")
    merged = merge_records(path, records, [r.mode for r in results])
    if merged:
        say("wrote %s (%d figures of this run, %d kept from earlier runs)" % (
            path, len(records), len(merged) - len(records)))
    else:
        say("no figures: %s not written" % path)
    return results


# ---------------------------------------------------------------- CLI

def cli_bench(args):
    start = time.monotonic()
    results = run_bench(args.bench_dir, args.out, args.modes, args.timeout,
                        args.quiet, args.only, args.linux_dir, cli_disk(args),
                        args.net_model or ())
    failed = False
    for r in results:
        for note in r.notes:
            bench.warn("linux %s: %s" % (r.mode, note))
        if r.error:
            bench.warn("linux mode %s failed: %s" % (r.mode, r.error))
            failed = True
        t = r.timing if hasattr(r, "timing") else {}
        print("linux %s: %d figures, TSC kHz %s, boot %s s, run %s s" % (
            r.mode, len(r.parser.figures), bench.fmt(r.parser.tsc_khz),
            bench.fmt(t.get("boot_s")), bench.fmt(t.get("total_s"))))
    print("linux: done in %.1f s" % (time.monotonic() - start))
    return 1 if failed else 0


def cli_disk(args):
    """--disk: a path, "none", or by default <bench-dir>/fs.img if it exists."""
    if args.disk is None:
        default = os.path.join(args.bench_dir, DISK_NAME)
        return default if os.path.isfile(default) else None
    return None if args.disk in ("", "none") else args.disk


def cli_fetch(args):
    kernel = get_kernel(args.linux_dir)
    print("kernel: %s (%s)" % (kernel, bzimage_version(kernel)))
    mods = get_modules(args.linux_dir, kernel)
    print("disk modules: %s" % (" ".join(n for n, _ in mods) or "none needed"))
    for model in ("virtio", "rtl8139"):
        try:
            nic = get_nic_modules(args.linux_dir, kernel, model)
            print("NIC %s modules: %s" % (model, " ".join(n for n, _ in nic) or "none needed"))
        except LinuxSetupError as e:
            print("NIC %s: %s" % (model, e))
    print("busybox: %s" % get_busybox(args.linux_dir))
    return 0


def cli_cmd(args):
    disk = cli_disk(args)
    kernel, initrd = prepare(args.bench_dir, args.linux_dir, args.only, disk)
    if args.icount:
        accel = "tcg"
    else:
        accel, _ = qemu.choose_accel()
    cmd = disk_command(kernel, initrd, kernel_append(), accel, args.icount, disk)
    print(shlex.join(cmd))
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(description="Run the bench programs on Linux "
                                "under QEMU, as Myrmex runs them.")
    sub = p.add_subparsers(dest="action", required=True)
    b = sub.add_parser("bench", help="boot Linux per mode, write results.linux.jsonl")
    c = sub.add_parser("cmd", help="build the initramfs and print QEMU's argv")
    f = sub.add_parser("fetch", help="get the kernel and busybox into build/linux")
    for s in (b, c, f):
        s.add_argument("--linux-dir", default=LINUX_DIR,
                       help="kernel/busybox/initramfs cache (default build/linux)")
    for s in (b, c):
        s.add_argument("--bench-dir", default=os.path.join(ROOT, "build", "bench"),
                       help="folder of benchinit and the bench programs")
        s.add_argument("--only", nargs="*", default=[], metavar="NAME",
                       help="benchmarks for benchinit to run (default all)")
        s.add_argument("--disk", help="raw disk image (virtio-blk, mounted at %s); "
                       "default <bench-dir>/%s if it exists; 'none' for no disk" % (
                           DISK_MOUNT, DISK_NAME))
    b.add_argument("--out", default=os.path.join(ROOT, "build", "bench"),
                   help="output folder (results.linux.jsonl, linux-<mode>.log)")
    b.add_argument("--modes", type=bench.parse_modes, default=["icount", "native"],
                   help="comma-separated: icount,native (default both)")
    b.add_argument("--timeout", type=float, default=600,
                   help="seconds per mode for the whole guest run (default 600)")
    b.add_argument("--quiet", action="store_true", help="do not echo the console")
    b.add_argument("--net-model", type=bench.net_models, default=None,
                   help="NIC models (comma-separated, as bench.py's): Linux gets the "
                   "first its kernel drives, wired to tools/net_peer.py")
    c.add_argument("--icount", action="store_true", help="the icount machine")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    actions = {"bench": cli_bench, "fetch": cli_fetch, "cmd": cli_cmd}
    try:
        return actions[args.action](args)
    except (LinuxSetupError, qemu.QemuError) as e:
        print("linux_guest.py: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("linux_guest.py: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
