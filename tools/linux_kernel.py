#!/usr/bin/env python3
"""linux_kernel.py - the Linux guest's parts: kernel, disk modules, busybox.

Role: what every Linux run in QEMU needs before it boots, for the benchmarks
(tools/linux_guest.py) and the POSIX conformance suite (tools/posix_suite.py):
a stock Debian kernel, the virtio disk modules that kernel lacks built in, and a
static busybox. Nothing is installed on the host.

The kernel: $MYRMEX_LINUX_KERNEL (a bzImage) if set; else <linux-dir>/vmlinuz,
fetched once from Debian's linux-image-<version>-cloud-amd64 (the package
linux-image-cloud-amd64 depends on) with `apt-get download` and `dpkg-deb -x`.
Its virtio-pci and virtio-blk modules (and what they depend on,
tools/linux_modules.py) are kept in <linux-dir>/modules, the modules of
each NIC model (NIC_MODULES: virtio_net and its failover modules; 8139cp and
mii, which the cloud kernel lacks: Debian's generic kernel of the same version,
in <linux-dir>/generic, has them) in <linux-dir>/modules-<model>. Busybox: /bin/busybox
when it is static, else <linux-dir>/busybox from Debian's busybox-static,
fetched the same way. $MYRMEX_LINUX_APPEND replaces the kernel command line
(default: DEFAULT_APPEND). With $MYRMEX_LINUX_KERNEL, $MYRMEX_LINUX_MODULES may
name that kernel's lib/modules/<release> folder; without it the kernel must
have virtio-blk built in.
"""

import glob
import os
import re
import shutil
import struct
import subprocess
import tempfile

import linux_modules  # tools/linux_modules.py: the disk and NIC modules
import qemu           # tools/qemu.py: the machine

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

# The modules that drive the virtio disk (their dependencies are found).
DISK_MODULES = ["virtio_pci", "virtio_blk"]

# The modules that drive each NIC model of qemu.NET_MODELS ("user" is a
# virtio-net NIC too); their dependencies (net_failover, failover; mii) are
# found the same way. Each set is kept in <linux-dir>/modules-<model>.
# QEMU's RTL8139 says it is an 8139C+ (revision 0x20): Linux's 8139too
# refuses it ("use 8139cp") and 8139cp drives it, in C+ mode (descriptor
# rings, no copy out of a ring), which Myrmex's driver does not use.
NIC_MODULES = {"virtio": ["virtio_pci", "virtio_net"], "user": ["virtio_pci", "virtio_net"],
               "rtl8139": ["8139cp"]}


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


def fetch_kernel(linux_dir, package=None):
    """Download and extract the Debian cloud kernel (or `package`, a
    "name=version" apt takes) into linux_dir/vmlinuz, with its config,
    kernel-package and modules."""
    need_debian_tools()
    package = package or kernel_package()
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
        keep_nic_modules(tree, linux_dir)
        install_file(images[0], os.path.join(linux_dir, "vmlinuz"))
    say("kernel: %s -> %s" % (label, os.path.join(linux_dir, "vmlinuz")))


# Debian's generic kernel of the cloud kernel's version, for the NICs the
# cloud kernel has no driver for (the RTL8139): <linux-dir>/generic, laid
# out as <linux-dir> is (vmlinuz, config, kernel-package, modules,
# modules-<model>), so get_modules and get_nic_modules read it alike.
GENERIC_DIR = "generic"


def get_generic_kernel(linux_dir):
    """Path of the generic kernel (fetched once: the package of the cached
    cloud kernel's version without "-cloud"); LinuxSetupError when it cannot
    be had. Its folder is generic_dir(linux_dir)."""
    gdir = generic_dir(linux_dir)
    path = os.path.join(gdir, "vmlinuz")
    if os.path.isfile(path):
        return path
    try:
        with open(os.path.join(linux_dir, "kernel-package")) as f:
            package, version = f.read().split()[:2]
    except (OSError, ValueError):
        raise LinuxSetupError("no %s/kernel-package: the cloud kernel first" % linux_dir)
    if "-cloud-amd64" not in package:
        raise LinuxSetupError("%s is no cloud kernel: no generic one to match" % package)
    os.makedirs(gdir, exist_ok=True)
    fetch_kernel(gdir, "%s=%s" % (package.replace("-cloud-amd64", "-amd64"), version))
    return path


def generic_dir(linux_dir):
    return os.path.join(linux_dir, GENERIC_DIR)


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

def keep_modules(source, dest, package=True, roots=DISK_MODULES, label="disk"):
    """linux_modules.save_modules of roots (by default DISK_MODULES) from an
    extracted kernel package (package) or a lib/modules/<release> folder into
    dest, errors as LinuxSetupError."""
    try:
        moddir = linux_modules.package_module_dir(source) if package else source
        names = linux_modules.save_modules(moddir, roots, dest)
    except (linux_modules.ModuleError, OSError) as e:
        raise LinuxSetupError(str(e))
    say("%s modules: %s -> %s" % (label, " ".join(names) or "none (built in)", dest))


def nic_module_roots(model):
    """The modules that drive NIC model (a qemu.NET_MODELS name), without
    their dependencies; LinuxSetupError for an unknown model."""
    if model not in NIC_MODULES:
        raise LinuxSetupError("no Linux modules known for NIC model %r (known: %s)" % (
            model, ", ".join(sorted(NIC_MODULES))))
    return list(NIC_MODULES[model])


def nic_module_dir(linux_dir, model):
    return os.path.join(linux_dir, "modules-" + model)


def keep_nic_modules(source, linux_dir, package=True):
    """The NIC modules of every model from source (as keep_modules) into
    <linux-dir>/modules-<model>; a model whose driver the kernel lacks (the
    cloud kernel has no 8139cp) gets a folder holding only `missing`, the
    reason, so that it is not fetched again."""
    for model in sorted(NIC_MODULES):
        dest = nic_module_dir(linux_dir, model)
        try:
            keep_modules(source, dest, package, NIC_MODULES[model], "NIC %s" % model)
        except LinuxSetupError as e:
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            with open(os.path.join(dest, "missing"), "w") as f:
                f.write("%s\n" % e)
            say("NIC %s: no modules (%s)" % (model, e))


def fetch_modules(linux_dir, dest):
    """The modules of the cached Debian kernel: the same package version again
    (build/linux/kernel-package), its vmlinuz checked to be the cached one;
    the disk modules into dest (None: not these) and the NIC modules of every
    model (keep_nic_modules)."""
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
        if dest:
            keep_modules(tree, dest)
        keep_nic_modules(tree, linux_dir)


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
    return read_checked_modules(folder, kernel)


def read_checked_modules(folder, kernel):
    """The modules kept in folder, [(name, bytes)] in load order, checked to
    be for `kernel`'s release; LinuxSetupError otherwise."""
    try:
        mods, release = linux_modules.read_modules(folder)
    except OSError as e:
        raise LinuxSetupError("%s: %s (remove the folder to make it again)" % (folder, e))
    version = bzimage_version(kernel) or ""
    if mods and version.split()[:1] != [release]:
        raise LinuxSetupError("the modules in %s are for %s, the kernel is %s" % (
            folder, release, version))
    return mods


def get_nic_modules(linux_dir, kernel, model):
    """The modules that drive NIC model (qemu.NET_MODELS: "virtio", "user",
    "rtl8139") for `kernel`, as [(name, bytes)] in load order, dependencies
    first. Debian's kernel: <linux-dir>/modules-<model>, made when the kernel
    is fetched (or now, from the same package version). $MYRMEX_LINUX_KERNEL:
    from $MYRMEX_LINUX_MODULES, else none (the driver must be built in).
    Raises LinuxSetupError when the kernel has no such driver (Debian's cloud
    kernel has no 8139cp) or a module is not for this kernel."""
    roots = nic_module_roots(model)
    if os.environ.get(KERNEL_ENV, "").strip():
        source = os.environ.get(MODULES_ENV, "").strip()
        if not source:
            return []
        folder = os.path.join(linux_dir, "modules-custom-" + model)
        keep_modules(source, folder, False, roots, "NIC %s" % model)
    else:
        folder = nic_module_dir(linux_dir, model)
        if not os.path.isdir(folder):
            fetch_modules(linux_dir, None)
    missing = os.path.join(folder, "missing")
    if os.path.isfile(missing):
        with open(missing) as f:
            raise LinuxSetupError("the Linux kernel cannot drive the %s NIC: %s (%s; "
                                  "remove the folder to look again)" % (
                                      model, f.read().strip(), folder))
    return read_checked_modules(folder, kernel)


def merge_modules(*lists):
    """Module lists [(name, bytes)] joined in order, each module once (the
    disk's and the NIC's share virtio_pci and what it needs)."""
    seen, out = set(), []
    for mods in lists:
        for name, data in mods or []:
            if name not in seen:
                seen.add(name)
                out.append((name, data))
    return out


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


# ---------------------------------------------------------------- the boot

def describe_linux_run(run):
    """qemu.describe_run, but QEMU's status 0 is how Linux's poweroff ends it."""
    if run.status == 0 and not (run.start_error or run.timed_out or run.stopped_early):
        return ("QEMU exited with status 0: Linux powered off, or rebooted after a "
                "panic (after %.1f s)" % run.elapsed)
    return qemu.describe_run(run)


def kernel_append():
    return os.environ.get(APPEND_ENV, "").strip() or DEFAULT_APPEND



def disk_command(kernel, initrd, append, accel, icount, disk, extra=()):
    """QEMU's argv: qemu.linux_command's machine, plus the disk as Myrmex gets it
    (qemu_command's -drive/-device virtio-blk-pci) when disk is a path, plus
    extra (e.g. qemu.net_args' NICs)."""
    if not disk:
        return qemu.linux_command(kernel, initrd, append, accel, icount=icount,
                                  extra=extra)
    return qemu.qemu_command(kernel, [initrd], accel, icount=icount, disk=disk,
                             extra=["-append", append] + list(extra))

