#!/usr/bin/env python3
"""linux_initramfs.py - the Linux guest's initramfs, written without cpio or root.

Role: a newc cpio archive (Cpio) as the kernel unpacks it, so /dev/console can
be a device node without root, and the pieces of /init that every Linux run
shares: the disk part (load the virtio modules, wait for /dev/vda, mount it)
and the network part (load a NIC's modules, bring eth0 up).
Used by tools/linux_guest.py (benchmarks) and tools/posix_suite.py (the POSIX
conformance suite).
"""

import gzip
import os
import stat

INIT_MARK = "LINUX-INIT"    # lines printed by our /init scripts
DISK_FSTYPE = "ext2"


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



def disk_script(modules, mount, options="ro"):
    """The part of /init that loads the disk modules (lib/modules/<name>.ko) and
    mounts /dev/vda at mount with options: it prints `LINUX-INIT disk mounted
    ...` or `LINUX-INIT disk failed: <why>`."""
    return """for m in {modules}; do
    insmod /lib/modules/$m.ko || echo "{mark} disk insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mkdir -p {mount}
if [ ! -b /dev/vda ]; then
    echo "{mark} disk failed: no /dev/vda (virtio-blk)"
elif mount -t {fstype} -o {options} /dev/vda {mount}; then
    up=$(cut -d' ' -f1 /proc/uptime)
    echo "{mark} disk mounted /dev/vda at {mount} ({fstype}, {options}) uptime=$up"
else
    echo "{mark} disk failed: mount -t {fstype} /dev/vda {mount}"
fi
""".format(modules=" ".join(modules) or "", mark=INIT_MARK, mount=mount,
           fstype=DISK_FSTYPE, options=options)


def net_script(modules, address=None, netmask="255.255.255.0", iface="eth0"):
    """The part of /init that loads a NIC's modules (lib/modules/<name>.ko, in
    order; one already loaded, e.g. virtio_pci by the disk part, is skipped),
    waits for iface and brings it up, with address/netmask when an address is
    given (else up without one: enough for packet sockets). It prints
    `LINUX-INIT net <iface> up <mac> [<address>]` or `LINUX-INIT net failed:
    <why>`. IPv6 is turned off first (when the kernel has it), so that the
    kernel sends no frames of its own (router and neighbour solicitations)
    which a packet socket would see. Needs the insmod, ifconfig, cat, grep
    and sleep applets."""
    addr = " %s netmask %s" % (address, netmask) if address else ""
    return """v6=/proc/sys/net/ipv6/conf/default/disable_ipv6
[ -e $v6 ] && echo 1 > $v6
for m in {modules}; do
    grep -q "^$m " /proc/modules || insmod /lib/modules/$m.ko || echo "{mark} net insmod $m failed"
done
i=0
while [ ! -e /sys/class/net/{iface} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ ! -e /sys/class/net/{iface} ]; then
    echo "{mark} net failed: no {iface}"
elif ifconfig {iface}{addr} up; then
    echo "{mark} net {iface} up $(cat /sys/class/net/{iface}/address){shown}"
else
    echo "{mark} net failed: ifconfig {iface}{addr} up"
fi
""".format(modules=" ".join(modules), mark=INIT_MARK, iface=iface, addr=addr,
           shown=" " + address if address else "")


NET_APPLETS = ["insmod", "ifconfig", "cat", "grep", "sleep"]


def base_archive(busybox, applets, dirs=()):
    """A Cpio holding the folders every /init needs (plus dirs), /dev/console,
    /bin/busybox (the file at path busybox) and a symbolic link per applet."""
    cpio = Cpio()
    for d in ("bin", "dev", "proc", "sys", "tmp", "mnt", "lib", "lib/modules") + tuple(dirs):
        cpio.dir(d)
    cpio.chardev("dev/console", 5, 1)   # the kernel opens it before /init runs
    with open(busybox, "rb") as f:
        cpio.file("bin/busybox", f.read())
    for applet in applets:
        cpio.symlink("bin/" + applet, "busybox")
    return cpio


def add_modules(cpio, disk_modules):
    """The modules [(name, bytes)] (disk, NIC) as lib/modules/<name>.ko; each
    name once (the disk's and a NIC's share virtio_pci and what it needs)."""
    seen = set()
    for name, data in disk_modules or []:
        if name not in seen:
            seen.add(name)
            cpio.file("lib/modules/%s.ko" % name, data, 0o644)


def write_archive(cpio, dest):
    """Finish cpio, gzip it and write it to dest (a temporary name, then rename)."""
    data = gzip.compress(cpio.finish(), compresslevel=6, mtime=0)
    tmp = dest + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dest)
