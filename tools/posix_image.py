#!/usr/bin/env python3
"""posix_image.py - the ext2 disk of the POSIX conformance suite.

Role: one image that both systems run the suite from (tools/posix_suite.py):
Myrmex's file manager mounts it as its root, Linux mounts it and chroots into
it, so the programs, the shell and every path are the same on both. It holds

    /bin/busybox      Debian's static busybox, and each applet of APPLETS as a
                      hard link to it (mke2fs -d keeps hard links as links)
    /posix/<name>     the conformance programs (build/posix), mode 0755, and
                      EXTRA_PROGRAMS (not in run.sh's list)
    /posix/run.sh, /posix/shell.sh, /posix/shell.expected
    /tmp              writable (mode 1777): run.sh works there
    /dev              the device nodes and links of tools/e2fs.py's
                      make_dev_nodes (debugfs): Linux mounts devtmpfs on it;
                      Myrmex's file manager serves the devices by name
    /proc             empty: Linux mounts proc on it; Myrmex's file manager
                      routes it to the procfs server
    /etc/passwd, /etc/group   the users of the root image (rootfs/etc: root,
                      guest 1000), for whoami, id, su and owners' names

made with `mke2fs -d` (tools/e2fs.py: no root needed). Every boot gets a fresh
copy, since the suite writes to it.

    python3 tools/posix_image.py --programs build/posix --out build/posix-suite/posix.img
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402  (tools/e2fs.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE_DIR = os.path.join(ROOT, "tests", "posix")
IMAGE_MIB = 64
SUITE_FILES = ["run.sh", "shell.sh", "shell.expected", "applets.sh"]

# The busybox applets the suite and a person at the shell use, each a hard
# link to /bin/busybox (busybox picks the applet from argv[0]).
APPLETS = ["sh", "ls", "cat", "echo", "top", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "wc",
           "grep", "sort", "head", "tail", "sleep", "kill", "true", "false",
           "test", "[", "tr", "seq", "printf", "basename", "dirname", "pwd",
           "touch", "env", "uname", "id", "cmp", "diff", "chmod", "chown", "stat", "sync",
           "readlink",
           "ps", "uniq", "cut", "expr", "tee", "xargs", "find", "od", "timeout",
           "vi", "more", "clear", "date", "yes", "df", "du", "hostname",
           "dd", "free", "uptime", "tty", "pidof", "mount", "whoami", "su"]
# Programs in /posix that run.sh's PROGRAMS leaves out: run by other tests
# of the suite on Myrmex alone (tools/orphan_crash.py).
EXTRA_PROGRAMS = ["orphan_crash"]
# The users, as the root image has them.
ETC_FILES = ["passwd", "group"]


class ImageError(Exception):
    """The image cannot be made (a missing program, busybox, mke2fs...)."""


def suite_programs(run_sh=os.path.join(SUITE_DIR, "run.sh")):
    """The program names of run.sh's PROGRAMS list, in order."""
    with open(run_sh, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'^PROGRAMS="([^"]*)"', text, re.M)
    if not m:
        raise ImageError("%s has no PROGRAMS=\"...\" list" % run_sh)
    return m.group(1).split()


def fill_tree(root, programs_dir, busybox, suite_dir=SUITE_DIR):
    """Writes the image's tree into the empty folder root; returns the
    program names (run.sh's list). Raises ImageError for a missing file."""
    names = suite_programs(os.path.join(suite_dir, "run.sh"))
    for d, mode in (("bin", 0o755), ("posix", 0o755), ("tmp", 0o1777), ("dev", 0o755),
                    ("proc", 0o555), ("etc", 0o755)):
        os.mkdir(os.path.join(root, d))
        os.chmod(os.path.join(root, d), mode)
    if not os.path.isfile(busybox):
        raise ImageError("busybox not found: %s" % busybox)
    box = os.path.join(root, "bin", "busybox")
    shutil.copyfile(busybox, box)
    os.chmod(box, 0o755)
    for applet in APPLETS:
        os.link(box, os.path.join(root, "bin", applet))
    for name in names + EXTRA_PROGRAMS:
        src = os.path.join(programs_dir, name)
        if not os.path.isfile(src):
            raise ImageError("program %s not built: %s is missing (make posix)" % (name, src))
        dest = os.path.join(root, "posix", name)
        shutil.copyfile(src, dest)
        os.chmod(dest, 0o755)
    for name in ETC_FILES:
        dest = os.path.join(root, "etc", name)
        shutil.copyfile(os.path.join(ROOT, "rootfs", "etc", name), dest)
        os.chmod(dest, 0o644)
    for name in SUITE_FILES:
        dest = os.path.join(root, "posix", name)
        shutil.copyfile(os.path.join(suite_dir, name), dest)
        os.chmod(dest, 0o644)
    return names


def make_image(programs_dir, busybox, image, mib=IMAGE_MIB, suite_dir=SUITE_DIR):
    """Makes image (mib MiB, ext2) from programs_dir and the suite's files;
    returns the program names. Written under a temporary name, then renamed."""
    os.makedirs(os.path.dirname(image) or ".", exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="myrmex-posix-image.")
    try:
        tree = os.path.join(scratch, "tree")
        os.mkdir(tree)
        names = fill_tree(tree, programs_dir, busybox, suite_dir)
        tmp = image + ".tmp"
        try:
            e2fs.mke2fs(tmp, tree, mib, "myrmex-posix")
            e2fs.make_dev_nodes(tmp)
        except e2fs.E2fsError as e:
            raise ImageError(str(e))
        os.replace(tmp, image)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return names


def main(argv=None):
    p = argparse.ArgumentParser(description="Make the POSIX suite's ext2 image.")
    p.add_argument("--programs", required=True, help="folder of the built programs")
    p.add_argument("--busybox", default="/bin/busybox", help="a static busybox")
    p.add_argument("--out", required=True, help="the image to write")
    p.add_argument("--mib", type=int, default=IMAGE_MIB)
    args = p.parse_args(argv)
    try:
        names = make_image(args.programs, args.busybox, args.out, args.mib)
    except (ImageError, OSError) as e:
        print("posix_image: error: %s" % e, file=sys.stderr)
        return 1
    print("posix_image: %s (%d MiB): %d programs, busybox with %d applets" % (
        args.out, args.mib, len(names), len(APPLETS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
