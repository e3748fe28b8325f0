#!/usr/bin/env python3
"""linux_modules.py - Linux kernel modules for the benchmark guest (host side).

Role: tools/linux_guest.py boots a stock kernel whose disk drivers (virtio-pci,
virtio-blk) are modules; this file finds them in a kernel's lib/modules/<release>
folder (an extracted Debian package), works out what they depend on from each
module's own .modinfo section (`depends=`; Debian's package carries no
modules.dep, depmod makes it at install time), leaves out what modules.builtin
lists, decompresses .ko.xz/.ko.gz/.ko.zst, and keeps the result in a folder the
initramfs is built from: <name>.ko, `order` (load order: a module after all it
depends on) and `release` (the kernel release of their vermagic, to be checked
against the kernel booted). No host tool is needed, zstd aside.
"""

import glob
import gzip
import lzma
import os
import re
import shutil
import struct
import subprocess


class ModuleError(Exception):
    """A module is missing, unreadable or inconsistent; the message says which."""


MODULE_FILE_RE = re.compile(r"^(.+)\.ko(\.xz|\.gz|\.zst)?$")


def module_name(filename):
    """'virtio_blk.ko.xz' -> 'virtio_blk' (dashes as underscores), else None."""
    m = MODULE_FILE_RE.match(filename)
    return m.group(1).replace("-", "_") if m else None


def module_bytes(path):
    """A module file's ELF bytes, decompressed (.ko.xz, .ko.gz, .ko.zst)."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".zst"):
        try:
            return subprocess.run(["zstd", "-dc", path], check=True,
                                  stdout=subprocess.PIPE).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise ModuleError("cannot decompress %s (zstd: %s)" % (path, e))
    return data


def modinfo(data, label):
    """{key: value} from the .modinfo section of a module (an ELF64 relocatable):
    depends= (its dependencies, comma-separated), vermagic= (the kernel release
    first) and the others; the first value of a key."""
    if len(data) < 64 or data[:5] != b"\x7fELF\x02" or data[5] != 1:
        raise ModuleError("%s is not an x86-64 ELF module" % label)
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def section(i):     # (name offset, file offset, size)
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", data,
                                                          shoff + i * shentsize)
        return name, offset, size

    try:
        _, names, _ = section(shstrndx)
        for i in range(shnum):
            name, offset, size = section(i)
            end = data.index(b"\0", names + name)
            if data[names + name:end] != b".modinfo":
                continue
            info = {}
            for item in data[offset:offset + size].split(b"\0"):
                key, sep, value = item.decode("utf-8", "replace").partition("=")
                if sep:
                    info.setdefault(key, value)
            return info
    except (struct.error, ValueError) as e:
        raise ModuleError("%s: bad ELF section table (%s)" % (label, e))
    raise ModuleError("%s has no .modinfo section" % label)


def resolve_modules(moddir, roots):
    """The modules to load for `roots` from a lib/modules/<release> folder, with
    their dependencies, in load order (a module after all it depends on), the
    built-in ones (modules.builtin) left out: [(name, ELF bytes, modinfo)]."""
    files, builtin = {}, set()
    for dirpath, _, names in os.walk(moddir):
        for f in sorted(names):
            name = module_name(f)
            if name:
                files.setdefault(name, os.path.join(dirpath, f))
    try:
        with open(os.path.join(moddir, "modules.builtin"), encoding="utf-8") as f:
            builtin = {module_name(os.path.basename(l.strip())) for l in f}
    except OSError:
        pass
    order, done = [], set()

    def visit(name, chain):
        if name in builtin or name in done:
            return
        if name in chain:
            raise ModuleError("module dependency cycle: %s" % " -> ".join(
                chain + [name]))
        if name not in files:
            raise ModuleError("module %s is neither in %s nor built in" % (
                name, moddir))
        data = module_bytes(files[name])
        info = modinfo(data, files[name])
        for dep in info.get("depends", "").split(","):
            if dep:
                visit(dep.replace("-", "_"), chain + [name])
        done.add(name)
        order.append((name, data, info))

    for root in roots:
        visit(root, [])
    return order


def package_module_dir(tree):
    """The lib/modules/<release> folder of an extracted kernel package."""
    found = glob.glob(os.path.join(tree, "lib", "modules", "*", "kernel"))
    if len(found) != 1:
        raise ModuleError("the kernel package holds %d lib/modules/*/kernel "
                              "folders, expected 1" % len(found))
    return os.path.dirname(found[0])


def save_modules(moddir, roots, dest):
    """Keep the modules of moddir that `roots` need in dest: <name>.ko
    (uncompressed), `order` (the names in load order, one a line; empty when
    all are built in) and `release` (the kernel release of their vermagic).
    Returns the names in load order."""
    mods = resolve_modules(moddir, roots)
    releases = {info.get("vermagic", "?").split()[0] for _, _, info in mods}
    if len(releases) > 1:
        raise ModuleError("modules of several kernels in %s: %s" % (
            moddir, ", ".join(sorted(releases))))
    tmp = dest + ".part"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for name, data, _ in mods:
        with open(os.path.join(tmp, name + ".ko"), "wb") as f:
            f.write(data)
    with open(os.path.join(tmp, "release"), "w") as f:
        f.write((releases.pop() if releases else "") + "\n")
    with open(os.path.join(tmp, "order"), "w") as f:
        f.write("".join(name + "\n" for name, _, _ in mods))
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    return [name for name, _, _ in mods]


def read_modules(folder):
    """[(name, bytes)] in load order and the release, from a save_modules folder."""
    with open(os.path.join(folder, "order")) as f:
        names = f.read().split()
    with open(os.path.join(folder, "release")) as f:
        release = f.read().strip()
    mods = []
    for name in names:
        with open(os.path.join(folder, name + ".ko"), "rb") as f:
            mods.append((name, f.read()))
    return mods, release
