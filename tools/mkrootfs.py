#!/usr/bin/env python3
"""mkrootfs.py - the root image of `make run`: the folder rootfs/ plus
Debian's static busybox (/bin/busybox from the busybox-static package) with
every applet it offers installed as a hard link at its usual path (/bin/sh,
/bin/ls, /usr/bin/wc, ...), a writable /tmp, and, when given, extra files or folders.

    python3 tools/mkrootfs.py build/run/root.img 64 [--busybox /bin/busybox]
                                                   [--add SRC:DEST ...]

Hard links rather than symbolic links keep the applets working while the
file manager does not follow symbolic links; busybox picks the applet from
argv[0]'s last component either way.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402  (tools/e2fs.py)


# The normal user of /etc/passwd (uid 1000, "guest") owns its home.
HOME_OWNERS = [("/home/guest", 1000, 1000), ("/home/guest/notes.txt", 1000, 1000)]


def applets(busybox):
    """The applets' install paths, as busybox lists them (usr/bin/wc, ...)."""
    out = subprocess.run([busybox, "--list-full"], check=True, capture_output=True, text=True)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def stage(tree, busybox, extras):
    """Fills tree with rootfs/, busybox and its links, and the extras."""
    shutil.copytree("rootfs", tree, dirs_exist_ok=True, symlinks=True)
    os.makedirs(os.path.join(tree, "bin"), exist_ok=True)
    main = os.path.join(tree, "bin", "busybox")
    shutil.copy(busybox, main)
    os.chmod(main, 0o755)
    for path in applets(busybox):
        dest = os.path.join(tree, path)
        if os.path.exists(dest):
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        os.link(main, dest)
    for d in ("tmp", "root", "proc", "dev"):
        os.makedirs(os.path.join(tree, d), exist_ok=True)
    os.chmod(os.path.join(tree, "tmp"), 0o1777)
    for spec in extras:
        src, dest = spec.split(":", 1)
        target = os.path.join(tree, dest.lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(src):   # a whole tree (bench_fsconf.py's source tree)
            shutil.copytree(src, target, symlinks=True)
        else:
            shutil.copy(src, target)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("image")
    ap.add_argument("mib", type=int)
    ap.add_argument("--busybox", default="/bin/busybox")
    ap.add_argument("--add", action="append", default=[], help="SRC:DEST to copy in")
    args = ap.parse_args()
    if not os.path.exists(args.busybox):
        sys.exit(f"mkrootfs: {args.busybox} is missing (apt-get install busybox-static)")
    os.makedirs(os.path.dirname(os.path.abspath(args.image)), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "root")
        stage(tree, args.busybox, args.add)
        image = args.image + ".tmp"
        e2fs.mke2fs(image, tree, args.mib, "myrmex-root")
        e2fs.make_dev_nodes(image)
        e2fs.set_owners(image, HOME_OWNERS)
        os.replace(image, args.image)


if __name__ == "__main__":
    main()
