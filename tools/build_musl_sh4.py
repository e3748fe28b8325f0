#!/usr/bin/env python3
"""Builds musl, the C library of the SH-4 port's programs, from Debian's
`musl` source package with Debian's SH-4 cross compiler.

    tools/build_musl_sh4.py OUT_DIR CC "CFLAGS"

The source comes from apt's mirror through tools/debsrc.py (checked against
the .dsc) into OUT_DIR/src, once, with one fix of ours (fix_sigsetjmp, below)
and otherwise untouched: musl's configure runs out of tree in OUT_DIR/build (--target=sh4-linux-gnu, CROSS_COMPILE, static
only) and installs into OUT_DIR: include/, lib/crt1.o, lib/libc.a...

CFLAGS are the port's (mk/arch-sh4.mk: -ml -m4-nofpu, so musl configures its
"sh-nofpu" variant, and the port's one optimization level SH4_OPT, because
Debian's GCC 12 for SH-4 miscompiles at -O1 and above, docs/sh4.md).
--disable-optimize keeps musl's configure from adding -Os/-O2 or compiling
some directories at -O3; musl's Makefile puts CFLAGS after its own flags,
so the given -O wins anyway. Nothing of musl is kept in the repository.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debsrc  # noqa: E402


def step(cmd, cwd, log, env=None):
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ %s\n%s%s" % (" ".join(cmd), res.stdout, res.stderr))
    if res.returncode != 0:
        raise debsrc.DebSrcError("%s failed (see %s): %s" % (
            " ".join(cmd[:2]), log, (res.stderr or res.stdout).strip()[-400:]))
    return res.stdout


def source(out):
    """The unpacked, untouched musl tree under OUT_DIR/src."""
    hit = debsrc.source_tree("musl", os.path.join(out, "src"), "arch/sh/syscall_arch.h")
    return os.path.dirname(os.path.dirname(os.path.dirname(hit)))


# musl 1.2.3's src/signal/sh/sigsetjmp.s keeps the caller's r8 at buf+72
# (60 + 12, through r6) while it calls setjmp and sigprocmask, but loads it
# back from buf+12 (through r4), where setjmp saved r11: sigsetjmp(jb, 1)
# returned with r8 holding r11 (found on Myrmex by tests/posix/mmap, whose
# sigsetjmp loop then unmapped the wrong addresses; docs/sh4.md). The load
# is made through r6, buf+60, as the store.
SIGSETJMP = os.path.join("src", "signal", "sh", "sigsetjmp.s")
SIGSETJMP_BAD = "\tbraf r0\n\t mov.l @(4+8,r4), r8\n"
SIGSETJMP_GOOD = "\tbraf r0\n\t mov.l @(4+8,r6), r8\n"


def fix_sigsetjmp(tree):
    path = os.path.join(tree, SIGSETJMP)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if SIGSETJMP_GOOD in text:
        return
    if text.count(SIGSETJMP_BAD) != 1:
        raise debsrc.DebSrcError("%s is not the one the fix knows: check it by hand" % path)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(SIGSETJMP_BAD, SIGSETJMP_GOOD))


def build(out, cc, cflags):
    out = os.path.abspath(out)
    tree = source(out)
    fix_sigsetjmp(tree)
    work = os.path.join(out, "build")
    log = os.path.join(out, "build.log")
    for old in (work, os.path.join(out, "include"), os.path.join(out, "lib")):
        if os.path.exists(old):
            shutil.rmtree(old)
    if os.path.exists(log):
        os.remove(log)
    os.makedirs(work)
    cross = cc[:-len("gcc")] if cc.endswith("gcc") else ""
    text = step([os.path.join(tree, "configure"), "--target=sh4-linux-gnu",
                 "--prefix=" + out, "--disable-shared", "--disable-optimize",
                 "--disable-wrapper", "CROSS_COMPILE=" + cross, "CC=" + cc,
                 "CFLAGS=" + cflags], work, log)
    if "sh-nofpu" not in text:
        raise debsrc.DebSrcError("musl did not configure its sh-nofpu variant (see %s)" % log)
    # Not the calling make's variables: its ARCH=sh4 would override musl's
    # ARCH (sh), and its jobserver is not this make's.
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "ARCH")}
    step(["make", "-j2"], work, log, env)
    step(["make", "install"], work, log, env)
    return out


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        build(argv[1], argv[2], argv[3])
    except (debsrc.DebSrcError, OSError) as e:
        print("build_musl_sh4: musl cannot be built: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
