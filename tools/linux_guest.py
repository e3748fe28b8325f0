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
        [--disk build/bench/fs.img]
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

The kernel: $MYRMEX_LINUX_KERNEL (a bzImage) if set; else build/linux/vmlinuz, which
is fetched once, without installing anything on the host, from Debian's
linux-image-<version>-cloud-amd64 (the package linux-image-cloud-amd64 depends on)
with `apt-get download` and `dpkg-deb -x`. Busybox: /bin/busybox when it is static,
else build/linux/busybox from Debian's busybox-static, fetched the same way.
$MYRMEX_LINUX_APPEND replaces the kernel command line (default: DEFAULT_APPEND).
With $MYRMEX_LINUX_KERNEL, $MYRMEX_LINUX_MODULES may name that kernel's
lib/modules/<release> folder; without it the kernel must have virtio-blk built in.
"""

import argparse
import datetime
import glob
import gzip
import os
import re
import shlex
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py: the BENCH-line parser and records)
import linux_modules  # noqa: E402  (tools/linux_modules.py: the disk modules)
import qemu   # noqa: E402  (tools/qemu.py: the machine and the console reader)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINUX_DIR = os.path.join(ROOT, "build", "linux")
KERNEL_ENV = "MYRMEX_LINUX_KERNEL"
APPEND_ENV = "MYRMEX_LINUX_APPEND"
MODULES_ENV = "MYRMEX_LINUX_MODULES"
KERNEL_META = "linux-image-cloud-amd64"
KERNEL_PKG_RE = re.compile(r"^linux-image-[0-9][^\s]*-cloud-amd64$")
BUSYBOX_PKG = "busybox-static"

# console=ttyS0: the console is the serial port QEMU reads (-serial stdio).
# quiet: few kernel lines on that console (each costs time under TCG).
# panic=-1: a panic reboots at once, which -no-reboot turns into QEMU's exit.
# tsc=reliable: no clocksource watchdog; under TCG the TSC would be judged unstable
#   and CLOCK_MONOTONIC moved off the TSC, so the vDSO could not serve it.
# nokaslr, mitigations=off: Myrmex has neither; mitigations=off also turns off page
#   table isolation (PTI), which would add two CR3 writes to every system call.
DEFAULT_APPEND = "console=ttyS0 quiet panic=-1 tsc=reliable nokaslr mitigations=off"

# Kernel options the harness cannot do without (=y, not modules), and options
# worth reporting either way.
REQUIRED_CONFIG = ["SERIAL_8250", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD",
                   "RD_GZIP", "DEVTMPFS", "PROC_FS", "BINFMT_ELF", "BINFMT_SCRIPT",
                   "ACPI"]
REPORTED_CONFIG = ["VIRTIO_PCI", "VIRTIO_BLK", "PAGE_TABLE_ISOLATION", "HZ"]

INIT_MARK = "LINUX-INIT"    # lines printed by our /init
BUSYBOX_APPLETS = ["sh", "mount", "poweroff", "cat", "cut", "ls", "dmesg", "uname",
                   "insmod", "mkdir", "sleep"]

# The disk: the modules that drive it (their dependencies are found), where /init
# mounts it (bench/bench_fs.c's FS_LINUX_MOUNT) and as what.
DISK_MODULES = ["virtio_pci", "virtio_blk"]
DISK_MOUNT = "/mnt/benchfs"
DISK_FSTYPE = "ext2"
DISK_NAME = "fs.img"        # the default disk, in the bench folder


class LinuxSetupError(Exception):
    """The Linux guest cannot be prepared (no kernel, no busybox, no apt lists...)."""


def say(text):
    print("linux: %s" % text, flush=True)


# ---------------------------------------------------------------- Debian packages

def run_tool(argv, cwd=None, timeout=600):
    """Run a host tool; return (status, combined output). Status 127: not found."""
    try:
        proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except FileNotFoundError:
        return 127, "%s: not found" % argv[0]
    except subprocess.TimeoutExpired:
        return 124, "%s: no answer within %d s" % (" ".join(argv), timeout)
    return proc.returncode, proc.stdout


def need_debian_tools():
    missing = [t for t in ("apt-get", "apt-cache", "dpkg-deb") if not shutil.which(t)]
    if missing:
        raise LinuxSetupError(
            "%s not found: fetching the kernel needs Debian's apt and dpkg; set "
            "%s=/path/to/bzImage instead" % (", ".join(missing), KERNEL_ENV))


def no_lists_message(package, output):
    last = " / ".join(output.strip().splitlines()[-2:])
    return ("apt does not know the package %s (%s). Debian's package lists are "
            "probably missing: run `apt-get update` as root (sudo apt-get update), "
            "then again; or set %s=/path/to/bzImage" % (package, last, KERNEL_ENV))


def kernel_package():
    """The real kernel package behind linux-image-cloud-amd64 (candidate version)."""
    status, out = run_tool(["apt-cache", "depends", KERNEL_META], timeout=120)
    names = []
    for line in out.splitlines():
        key, sep, value = line.strip().partition(":")
        value = value.strip()
        if sep and key.strip() == "Depends" and KERNEL_PKG_RE.match(value):
            names.append(value)
    if status != 0 or not names:
        raise LinuxSetupError(no_lists_message(KERNEL_META, out))
    return names[0]


def download_deb(package, workdir):
    """apt-get download <package> into workdir; return the .deb path."""
    status, out = run_tool(["apt-get", "download", package], cwd=workdir)
    debs = glob.glob(os.path.join(workdir, "*.deb"))
    if status != 0 or len(debs) != 1:
        if any(text in out for text in ("Unable to locate", "no installation candidate",
                                        "Can't find a source")):
            raise LinuxSetupError(no_lists_message(package, out))
        raise LinuxSetupError("`apt-get download %s` failed (status %d): %s" % (
            package, status, " / ".join(out.strip().splitlines()[-3:])))
    return debs[0]


def extract_deb(deb, dest):
    status, out = run_tool(["dpkg-deb", "-x", deb, dest])
    if status != 0:
        raise LinuxSetupError("`dpkg-deb -x %s` failed: %s" % (deb, out.strip()))
    status, out = run_tool(["dpkg-deb", "-f", deb, "Package", "Version"])
    fields = dict(l.split(": ", 1) for l in out.splitlines() if ": " in l)
    return "%s %s" % (fields.get("Package", "?"), fields.get("Version", "?"))


def install_file(src, dest, mode=0o644):
    """Copy src to dest atomically (a temporary name, then rename)."""
    tmp = dest + ".part"
    shutil.copyfile(src, tmp)
    os.chmod(tmp, mode)
    os.replace(tmp, dest)


# ---------------------------------------------------------------- kernel

def bzimage_version(path):
    """The version string in a bzImage's setup header, or None if not a bzImage."""
    try:
        with open(path, "rb") as f:
            head = f.read(0x8000)
    except OSError:
        return None
    if len(head) < 0x210 or head[0x202:0x206] != b"HdrS":
        return None
    offset = struct.unpack_from("<H", head, 0x20E)[0] + 0x200
    if not 0x200 < offset < len(head):
        return "unknown version"
    return head[offset:offset + 200].split(b"\0")[0].decode("ascii", "replace")


def read_config(path):
    """{"OPTION": "y"/"m"/value} from a kernel .config; {} if absent."""
    options = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^CONFIG_([A-Za-z0-9_]+)=(.*)$", line.strip())
                if m:
                    options[m.group(1)] = m.group(2)
    except OSError:
        pass
    return options


def check_config(path):
    """Say which needed options a kernel config lacks (a warning, not an error)."""
    options = read_config(path)
    if not options:
        return
    lacking = [o for o in REQUIRED_CONFIG if options.get(o) != "y"]
    if lacking:
        say("warning: kernel config lacks (built in) %s: the boot may fail" %
            ", ".join("CONFIG_" + o for o in lacking))
    present = [o for o in REQUIRED_CONFIG if o not in lacking]
    say("kernel config: built in %s; %s" % (", ".join(present), ", ".join(
        "%s=%s" % (o, options.get(o, "n")) for o in REPORTED_CONFIG)))


def fetch_kernel(linux_dir):
    """Download and extract the Debian cloud kernel into linux_dir/vmlinuz."""
    need_debian_tools()
    package = kernel_package()
    say("fetching %s (Debian's %s) with apt-get download" % (package, KERNEL_META))
    with tempfile.TemporaryDirectory(dir=linux_dir, prefix="fetch-") as work:
        os.chmod(work, 0o755)
        deb = download_deb(package, work)
        tree = os.path.join(work, "tree")
        label = extract_deb(deb, tree)
        images = glob.glob(os.path.join(tree, "boot", "vmlinuz-*"))
        if len(images) != 1:
            raise LinuxSetupError("%s holds %d boot/vmlinuz-* files, expected 1" % (
                os.path.basename(deb), len(images)))
        configs = glob.glob(os.path.join(tree, "boot", "config-*"))
        if configs:
            install_file(configs[0], os.path.join(linux_dir, "config"))
        with open(os.path.join(linux_dir, "kernel-package"), "w") as f:
            f.write(label + "\n")
        try:
            keep_modules(tree, os.path.join(linux_dir, "modules"))
        except LinuxSetupError as e:
            say("warning: no disk modules kept (%s): the disk benchmarks will fail" % e)
        install_file(images[0], os.path.join(linux_dir, "vmlinuz"))
    say("kernel: %s -> %s" % (label, os.path.join(linux_dir, "vmlinuz")))


def get_kernel(linux_dir):
    """Path of the bzImage to boot: $MYRMEX_LINUX_KERNEL, or the cached or freshly
    fetched linux_dir/vmlinuz."""
    override = os.environ.get(KERNEL_ENV, "").strip()
    if override:
        if not os.path.isfile(override):
            raise LinuxSetupError("%s=%s: no such file" % (KERNEL_ENV, override))
        say("kernel from %s: %s" % (KERNEL_ENV, override))
        return override
    path = os.path.join(linux_dir, "vmlinuz")
    if not os.path.isfile(path):
        os.makedirs(linux_dir, exist_ok=True)
        fetch_kernel(linux_dir)
    check_config(os.path.join(linux_dir, "config"))
    return path


# ---------------------------------------------------------------- kernel modules

def keep_modules(source, dest, package=True):
    """linux_modules.save_modules of DISK_MODULES from an extracted kernel package
    (package) or a lib/modules/<release> folder into dest, errors as
    LinuxSetupError."""
    try:
        moddir = linux_modules.package_module_dir(source) if package else source
        names = linux_modules.save_modules(moddir, DISK_MODULES, dest)
    except (linux_modules.ModuleError, OSError) as e:
        raise LinuxSetupError(str(e))
    say("disk modules: %s -> %s" % (" ".join(names) or "none (built in)", dest))


def fetch_modules(linux_dir, dest):
    """The modules of the cached Debian kernel: the same package version again
    (build/linux/kernel-package), its vmlinuz checked to be the cached one."""
    try:
        with open(os.path.join(linux_dir, "kernel-package")) as f:
            package, version = f.read().split()[:2]
    except (OSError, ValueError):
        raise LinuxSetupError("no %s/kernel-package: remove %s/vmlinuz to fetch the "
                              "kernel again" % (linux_dir, linux_dir))
    need_debian_tools()
    say("fetching %s %s again for its modules" % (package, version))
    with tempfile.TemporaryDirectory(dir=linux_dir, prefix="fetch-") as work:
        os.chmod(work, 0o755)
        deb = download_deb("%s=%s" % (package, version), work)
        tree = os.path.join(work, "tree")
        extract_deb(deb, tree)
        images = glob.glob(os.path.join(tree, "boot", "vmlinuz-*"))
        cached = os.path.join(linux_dir, "vmlinuz")
        if len(images) != 1 or not same_file(images[0], cached):
            raise LinuxSetupError("%s %s does not hold the cached %s/vmlinuz: remove "
                                  "it to fetch the kernel again" % (
                                      package, version, linux_dir))
        keep_modules(tree, dest)


def same_file(a, b):
    """Do files a and b hold the same bytes?"""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def get_modules(linux_dir, kernel):
    """The disk modules for `kernel` as [(name, bytes)], in load order.

    Debian's kernel: build/linux/modules, made when the kernel is fetched (or
    now, from the same package version). $MYRMEX_LINUX_KERNEL: the modules of
    $MYRMEX_LINUX_MODULES if set, else none (virtio-blk must be built in).
    Raises LinuxSetupError when a module's vermagic is not the kernel's release.
    """
    if os.environ.get(KERNEL_ENV, "").strip():
        source = os.environ.get(MODULES_ENV, "").strip()
        if not source:
            say("%s without %s: no modules loaded (the kernel must have virtio-pci "
                "and virtio-blk built in)" % (KERNEL_ENV, MODULES_ENV))
            return []
        folder = os.path.join(linux_dir, "modules-custom")
        keep_modules(source, folder, package=False)
    else:
        folder = os.path.join(linux_dir, "modules")
        if not os.path.isfile(os.path.join(folder, "order")):
            fetch_modules(linux_dir, folder)
    try:
        mods, release = linux_modules.read_modules(folder)
    except OSError as e:
        raise LinuxSetupError("%s: %s (remove the folder to make it again)" % (folder, e))
    version = bzimage_version(kernel) or ""
    if mods and version.split()[:1] != [release]:
        raise LinuxSetupError("the modules in %s are for %s, the kernel is %s" % (
            folder, release, version))
    return mods


# ---------------------------------------------------------------- busybox

def elf_is_static(path):
    """True if path is an x86-64 ELF executable without a program interpreter."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:5] != b"\x7fELF\x02" or head[5] != 1:
                return False
            if struct.unpack_from("<H", head, 18)[0] != 62:     # EM_X86_64
                return False
            phoff = struct.unpack_from("<Q", head, 32)[0]
            phentsize, phnum = struct.unpack_from("<HH", head, 54)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
    except OSError:
        return False
    for i in range(phnum):
        if struct.unpack_from("<I", table, i * phentsize)[0] == 3:   # PT_INTERP
            return False
    return True


def get_busybox(linux_dir):
    """A static busybox: linux_dir/busybox, /bin/busybox, or Debian's busybox-static."""
    cached = os.path.join(linux_dir, "busybox")
    for path in (cached, "/bin/busybox", "/usr/bin/busybox"):
        if os.path.isfile(path) and elf_is_static(path):
            return path
    need_debian_tools()
    say("fetching %s with apt-get download" % BUSYBOX_PKG)
    os.makedirs(linux_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=linux_dir, prefix="fetch-") as work:
        os.chmod(work, 0o755)
        deb = download_deb(BUSYBOX_PKG, work)
        tree = os.path.join(work, "tree")
        label = extract_deb(deb, tree)
        found = [p for p in (os.path.join(tree, "bin", "busybox"),
                             os.path.join(tree, "usr", "bin", "busybox"))
                 if os.path.isfile(p)]
        if not found or not elf_is_static(found[0]):
            raise LinuxSetupError("%s has no static bin/busybox" % label)
        install_file(found[0], cached, 0o755)
    say("busybox: %s -> %s" % (label, cached))
    return cached


# ---------------------------------------------------------------- initramfs

class Cpio:
    """A newc ("070701") cpio archive, as the kernel unpacks an initramfs."""

    def __init__(self):
        self.parts = []
        self.ino = 1

    def add(self, name, mode, data=b"", rdev=(0, 0)):
        name_b = name.encode() + b"\0"
        fields = [self.ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0,
                  len(data), 0, 0, rdev[0], rdev[1], len(name_b), 0]
        self.ino += 1
        head = b"070701" + b"".join(b"%08x" % v for v in fields)
        self.parts += [head, name_b, b"\0" * (-(len(head) + len(name_b)) % 4),
                       data, b"\0" * (-len(data) % 4)]

    def dir(self, name):
        self.add(name, stat.S_IFDIR | 0o755)

    def file(self, name, data, perm=0o755):
        self.add(name, stat.S_IFREG | perm, data)

    def symlink(self, name, target):
        self.add(name, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, name, major, minor, perm=0o600):
        self.add(name, stat.S_IFCHR | perm, rdev=(major, minor))

    def finish(self):
        self.ino = 0
        self.add("TRAILER!!!", 0)
        return b"".join(self.parts)


def disk_script(modules):
    """The part of /init that loads the disk modules and mounts the disk: it
    prints `LINUX-INIT disk mounted ...` or `LINUX-INIT disk failed: <why>`."""
    return """for m in {modules}; do
    insmod /lib/modules/$m.ko || echo "{mark} disk insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mkdir -p {mount}
if [ ! -b /dev/vda ]; then
    echo "{mark} disk failed: no /dev/vda (virtio-blk)"
elif mount -t {fstype} -o ro /dev/vda {mount}; then
    up=$(cut -d' ' -f1 /proc/uptime)
    echo "{mark} disk mounted /dev/vda at {mount} ({fstype}, read-only) uptime=$up"
else
    echo "{mark} disk failed: mount -t {fstype} /dev/vda {mount}"
fi
""".format(modules=" ".join(modules) or "", mark=INIT_MARK, mount=DISK_MOUNT,
           fstype=DISK_FSTYPE)


def init_script(only, disk_modules=None):
    """The initramfs's /init: mount, run benchinit on the console, power off.
    disk_modules (a list, maybe empty) adds the disk: modules loaded, mounted."""
    args = "".join(" " + name for name in only)
    disk = disk_script(disk_modules) if disk_modules is not None else ""
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


def build_initramfs(bench_dir, busybox, dest, only=(), disk_modules=None):
    """Write a gzip'd newc initramfs to dest; return the bench program names.
    disk_modules: None (no disk), or [(name, bytes)] to load, in order, before
    the disk is mounted (lib/modules/<name>.ko)."""
    for name in only:
        if not re.match(r"^[A-Za-z0-9_.-]+$", name):
            raise LinuxSetupError("bad benchmark name %r" % name)
    programs = bench_programs(bench_dir)
    cpio = Cpio()
    for d in ("bin", "dev", "proc", "sys", "tmp", "bench", "mnt", "lib", "lib/modules"):
        cpio.dir(d)
    cpio.chardev("dev/console", 5, 1)   # the kernel opens it before /init runs
    with open(busybox, "rb") as f:
        cpio.file("bin/busybox", f.read())
    for applet in BUSYBOX_APPLETS:
        cpio.symlink("bin/" + applet, "busybox")
    for name, path in programs.items():
        with open(path, "rb") as f:
            cpio.file("bench/" + name, f.read())
    for name, data in disk_modules or []:
        cpio.file("lib/modules/%s.ko" % name, data, 0o644)
    names = None if disk_modules is None else [n for n, _ in disk_modules]
    cpio.file("init", init_script(only, names).encode())
    data = gzip.compress(cpio.finish(), compresslevel=6, mtime=0)
    tmp = dest + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dest)
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


def describe_linux_run(run):
    """qemu.describe_run, but QEMU's status 0 is how Linux's poweroff ends it."""
    if run.status == 0 and not (run.start_error or run.timed_out or run.stopped_early):
        return ("QEMU exited with status 0: Linux powered off, or rebooted after a "
                "panic (after %.1f s)" % run.elapsed)
    return qemu.describe_run(run)


def kernel_append():
    return os.environ.get(APPEND_ENV, "").strip() or DEFAULT_APPEND


def prepare(bench_dir, linux_dir, only=(), disk=None):
    """Kernel path and initramfs path for a run (with the disk modules and the
    mount in /init when a disk is given)."""
    kernel = get_kernel(linux_dir)
    busybox = get_busybox(linux_dir)
    mods = get_modules(linux_dir, kernel) if disk else None
    if disk and not os.path.isfile(disk):
        raise LinuxSetupError("disk image not found: %s" % disk)
    os.makedirs(linux_dir, exist_ok=True)
    initrd = os.path.join(linux_dir, "bench-initramfs.cpio.gz")
    names = build_initramfs(bench_dir, busybox, initrd, only, mods)
    say("initramfs: %s (%d KiB: busybox from %s, /bench: %s%s)" % (
        initrd, os.path.getsize(initrd) // 1024, busybox, " ".join(names),
        "; disk modules: %s" % (" ".join(n for n, _ in mods) or "none")
        if mods is not None else ""))
    return kernel, initrd


def disk_command(kernel, initrd, append, accel, icount, disk):
    """QEMU's argv: qemu.linux_command's machine, plus the disk as Myrmex gets it
    (qemu_command's -drive/-device virtio-blk-pci) when disk is a path."""
    if not disk:
        return qemu.linux_command(kernel, initrd, append, accel, icount=icount)
    return qemu.qemu_command(kernel, [initrd], accel, icount=icount, disk=disk,
                             extra=["-append", append])


def run_linux_mode(mode, kernel, initrd, append, out, timeout, quiet, disk=None):
    """Boot Linux in one mode; return a bench.ModeResult. disk: the pristine
    image, copied afresh to <out>/linux-disk.img for this boot."""
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
    cmd = disk_command(kernel, initrd, append, res.accel, icount, work_disk)
    say("== mode %s: accelerator %s (%s), timeout %d s" % (
        mode, res.accel, res.reason, timeout))
    res.parser.start = time.monotonic()
    log_path = os.path.join(out, "linux-%s.log" % mode)
    run = bench.run_boot(res, cmd, log_path, timeout, quiet, describe_linux_run)
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
              linux_dir=LINUX_DIR, disk=None):
    """Run the bench programs on Linux in each mode; write <out>/results.linux.jsonl.
    disk: a raw image given to the guest as its virtio-blk disk (a fresh copy
    per boot), mounted at DISK_MOUNT; None for none.

    Returns the bench.ModeResult list. Raises LinuxSetupError if the guest cannot
    be prepared.
    """
    os.makedirs(out, exist_ok=True)
    kernel, initrd = prepare(bench_dir, linux_dir, only, disk)
    version = bzimage_version(kernel)
    if version is None:
        raise LinuxSetupError("%s is not a bzImage (no HdrS setup header)" % kernel)
    kernel_label = version.split()[0]
    append = kernel_append()
    say("kernel %s; command line: %s" % (version, append))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results, records = [], []
    for mode in modes:
        res = run_linux_mode(mode, kernel, initrd, append, out, timeout, quiet, disk)
        results.append(res)
        records += bench.make_records(res, os_name="linux", extra={
            "kernel": kernel_label, "cmdline": append, "date": date})
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
                        args.quiet, args.only, args.linux_dir, cli_disk(args))
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
