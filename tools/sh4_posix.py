#!/usr/bin/env python3
"""sh4_posix.py - the POSIX conformance suite's programs on SH-4.

Role: the host side of the SH-4 POSIX boot (docs/sh4.md, "POSIX programs";
mk/arch-sh4.mk's sh4-posix-test). `image` writes the CF disk the boot runs
from; `check` reads what tests/sh4/posix/posix_run.c wrote on it and
compares each program's section with the Linux reference of the x86-64
suite (tools/posix_suite.py: the same tests/posix sources, run on Linux,
the transcript cached under <build>/posix-suite/linux-cache), with the
exceptions of tests/posix/EXCEPTIONS.

    python3 tools/sh4_posix.py image --programs build/sh4/posix --out IMG name...
        /posix/<name> (mode 0755) and /posix/LIST (the names, in order),
        /tmp (1777), /dev (the device nodes), /proc, /etc/passwd and group,
        as tools/posix_image.py's image without busybox.
    python3 tools/sh4_posix.py check --image IMG --build build name...
        [--linux-log LOG]   a Linux transcript instead of posix_suite's
        Prints "PASS sh4-posix/<name>" or "FAIL sh4-posix/<name>: why" with
        the diff, then "sh4-posix: N passed, N failed"; exits 1 on a failure
        or when the transcript is missing or unfinished.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402
import posix_compare  # noqa: E402
import posix_image  # noqa: E402

OUT_PATH = "/sh4-posix.out"   # posix_run.c's OUT_PATH
IMAGE_MIB = 48


def make_image(programs_dir, names, image):
    """The disk of the boot (written under a temporary name, then renamed)."""
    scratch = tempfile.mkdtemp(prefix="myrmex-sh4-posix.")
    try:
        root = os.path.join(scratch, "tree")
        os.mkdir(root)
        for d, mode in (("posix", 0o755), ("tmp", 0o1777), ("dev", 0o755), ("proc", 0o555),
                        ("etc", 0o755)):
            os.mkdir(os.path.join(root, d))
            os.chmod(os.path.join(root, d), mode)
        for name in names:
            src = os.path.join(programs_dir, name)
            if not os.path.isfile(src):
                raise OSError("program %s not built: %s is missing" % (name, src))
            dest = os.path.join(root, "posix", name)
            shutil.copyfile(src, dest)
            os.chmod(dest, 0o755)
        with open(os.path.join(root, "posix", "LIST"), "w", encoding="utf-8") as f:
            f.write("\n".join(names) + "\n")
        for name in posix_image.ETC_FILES:
            dest = os.path.join(root, "etc", name)
            shutil.copyfile(os.path.join(posix_image.ROOT, "rootfs", "etc", name), dest)
            os.chmod(dest, 0o644)
        os.makedirs(os.path.dirname(image) or ".", exist_ok=True)
        tmp = image + ".tmp"
        e2fs.mke2fs(tmp, root, IMAGE_MIB, "myrmex-sh4-posix")
        e2fs.make_dev_nodes(tmp)
        os.replace(tmp, image)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def read_output(image):
    """The lines posix_run wrote on the disk (debugfs), or None."""
    r = subprocess.run(["debugfs", "-R", "cat %s" % OUT_PATH, image], capture_output=True,
                       text=True, errors="replace")
    if r.returncode != 0 or not r.stdout:
        return None
    return r.stdout.splitlines()


def linux_lines(build, log):
    """The Linux transcript: the file log, or tools/posix_suite.py's run
    (its cache when the x86-64 suite ran with the same inputs, which
    `make test` does before the SH-4 boots). (lines, error)."""
    if log:
        with open(log, encoding="utf-8", errors="replace") as f:
            return [l.rstrip("\r\n") for l in f], None
    import linux_kernel  # noqa: E402  (only here: it needs the Linux artefacts)
    import posix_guests  # noqa: E402
    out = os.path.join(build, "posix-suite")
    linux_dir = os.path.join(build, "linux")
    try:
        programs = posix_image.suite_programs()
        busybox = linux_kernel.get_busybox(linux_dir)
        image = os.path.join(out, "posix.img")
        posix_image.make_image(os.path.join(build, "posix"), busybox, image)
    except (posix_image.ImageError, linux_kernel.LinuxSetupError, OSError) as e:
        return None, "no Linux reference: %s" % e
    inputs = [(n, os.path.join(build, "posix", n)) for n in programs]
    inputs += [(f, os.path.join(posix_image.SUITE_DIR, f)) for f in posix_image.SUITE_FILES]
    inputs += [("busybox", busybox), ("posix_image.py", posix_image.__file__)]
    res = posix_guests.run_linux(image, inputs, out, linux_dir, (), echo=False)
    if res.error:
        return None, "no Linux reference: %s" % res.error
    return res.lines, None


def check(image, build, names, log):
    got = read_output(image)
    if got is None:
        print("FAIL sh4-posix/run: %s is not on the disk (posix_run did not start)" % OUT_PATH)
        return 1
    sh4 = posix_compare.parse_transcript(got)
    if not sh4.done:
        print("FAIL sh4-posix/run: the transcript has no POSIX-SUITE-DONE")
    lines, error = linux_lines(build, log)
    if lines is None:
        print("FAIL sh4-posix/linux: %s" % error)
        return 1
    linux = posix_compare.parse_transcript(lines)
    rules = posix_compare.read_exceptions(os.path.join(posix_image.SUITE_DIR, "EXCEPTIONS"))
    passed = failed = 0
    for name in names:
        ok, why, diff, _ = posix_compare.compare(name, linux.sections.get(name),
                                                 sh4.sections.get(name), rules.get(name, []))
        if ok:
            passed += 1
            print("PASS sh4-posix/%s" % name)
        else:
            failed += 1
            print("FAIL sh4-posix/%s: %s" % (name, why))
            for line in diff:
                print("  | %s" % line)
    print("sh4-posix: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and sh4.done else 1


def main(argv=None):
    p = argparse.ArgumentParser(description="The POSIX suite's programs on SH-4.")
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("image", help="write the CF disk of the POSIX boot")
    s.add_argument("--programs", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("names", nargs="+")
    s = sub.add_parser("check", help="compare the disk's transcript with Linux's")
    s.add_argument("--image", required=True)
    s.add_argument("--build", default="build")
    s.add_argument("--linux-log")
    s.add_argument("names", nargs="+")
    args = p.parse_args(argv)
    if args.action == "image":
        try:
            make_image(args.programs, args.names, args.out)
        except (e2fs.E2fsError, OSError) as e:
            print("sh4_posix: error: %s" % e, file=sys.stderr)
            return 1
        print("sh4_posix: %s: %d programs" % (args.out, len(args.names)))
        return 0
    return check(args.image, args.build, args.names, args.linux_log)


if __name__ == "__main__":
    sys.exit(main())
