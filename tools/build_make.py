#!/usr/bin/env python3
"""Builds GNU make, static with musl, from Debian's make-dfsg source package.

    tools/build_make.py OUT_DIR

Paper 003's figure 2 (the fsconf part of `make bench`, docs/benchmarks.md)
has make drive everyday commands over a source tree, on Myrmex and on Linux
with the same binary. The source comes from apt's mirror through
tools/debsrc.py (checked against the .dsc) into OUT_DIR/src, once; the
unpacked tree is left untouched (it is also the source tree the commands
work on) and copied to OUT_DIR/build, where autoreconf (Debian's source has
no configure script), configure (CC=musl-gcc, -static, no NLS, no Guile, no
loadable objects) and make run. Writes OUT_DIR/make (stripped) and prints
the unpacked tree's path. Nothing of make is kept in the repository.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debsrc  # noqa: E402

CONFIGURE = ["--disable-nls", "--without-guile", "--disable-load",
             "CC=musl-gcc", "LDFLAGS=-static", "CFLAGS=-O2"]


def step(cmd, cwd, log):
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ %s\n%s%s" % (" ".join(cmd), res.stdout, res.stderr))
    if res.returncode != 0:
        raise debsrc.DebSrcError("%s failed (see %s): %s" % (
            " ".join(cmd[:2]), log, (res.stderr or res.stdout).strip()[-400:]))


def source(out):
    """The unpacked, untouched make-dfsg tree under OUT_DIR/src."""
    hit = debsrc.source_tree("make", os.path.join(out, "src"), "src/remake.c")
    return os.path.dirname(os.path.dirname(hit))


def build(out):
    out = os.path.abspath(out)
    tree = source(out)
    work = os.path.join(out, "build")
    log = os.path.join(out, "build.log")
    if os.path.exists(work):
        shutil.rmtree(work)
    if os.path.exists(log):
        os.remove(log)
    shutil.copytree(tree, work, symlinks=True)
    step(["autoreconf", "-fi"], work, log)
    step(["./configure"] + CONFIGURE, work, log)
    step(["make", "-j2"], work, log)
    binary = os.path.join(out, "make")
    shutil.copy(os.path.join(work, "make"), binary + ".part")
    step(["strip", binary + ".part"], out, log)
    os.replace(binary + ".part", binary)
    return tree


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        tree = build(argv[1])
    except (debsrc.DebSrcError, OSError) as e:
        print("build_make: GNU make cannot be built: %s" % e, file=sys.stderr)
        return 1
    print(tree)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
