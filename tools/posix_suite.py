#!/usr/bin/env python3
"""posix_suite.py - the POSIX conformance suite: Myrmex's output against Linux's.

Role: builds the suite's ext2 image (tools/posix_image.py: busybox, the
programs of tests/posix built into <build>/posix, run.sh, shell.sh,
shell.expected), runs `/bin/sh /posix/run.sh` from it on Linux and on Myrmex
in the same QEMU machine (tools/posix_guests.py; the Linux transcript is
cached), cuts both transcripts into one section per program and compares them
(tools/posix_compare.py, with the exceptions of tests/posix/EXCEPTIONS).
Results, in run_tests.py's format:

    PASS posix/linux/<name>   the program ran on Linux and exited 0 (the shell
                              test: its output equals shell.expected): the
                              reference itself is sound
    PASS posix/<name>         Myrmex printed what Linux printed (the shell
                              test: and what shell.expected says)
    SKIP posix/<name>: why    Myrmex cannot boot the suite yet (not built)
    PASS posix/fsck           Myrmex left the disk clean (e2fsck -fn)
    PASS posix/quiet-console  no console line about a missing call (a whole run)
    PASS posix/orphan-crash   files unlinked while open survive a crash only
                              until the next mount (tools/orphan_crash.py)
    PASS posix/sysinit-args   sysinit refuses a bad calls= list with status 2
                              (tools/sysinit_args.py)

`make test` runs it through run_tests.py (--posix); on its own:

    python3 tools/posix_suite.py --build build [--kernel build/kernel/myrmex.bin]
        [--out build/posix-suite] [--linux-dir build/linux] [--only fork wait ...]
        [--linux-only] [--no-cache] [--quiet]

MYRMEX_POSIX=0 leaves Myrmex out (every posix/<name> skipped).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402
import linux_kernel  # noqa: E402
import orphan_crash  # noqa: E402
import sysinit_args  # noqa: E402
import posix_compare  # noqa: E402
import posix_guests  # noqa: E402
import posix_image  # noqa: E402

ROOT = posix_image.ROOT
SUITE_DIR = posix_image.SUITE_DIR
EXCEPTIONS = os.path.join(SUITE_DIR, "EXCEPTIONS")
SHELL = "shell"
APPLETS = "applets"             # tests/posix/applets.sh: busybox applets, against Linux
ORPHAN_CRASH = "orphan-crash"   # tools/orphan_crash.py, Myrmex alone
MYRMEX_ENV = "MYRMEX_POSIX"


class Result:
    """One test: name, state ("pass", "fail", "skip"), reason, detail lines."""

    def __init__(self, name, state, reason="", detail=()):
        self.name = name
        self.state = state
        self.reason = reason
        self.detail = list(detail)


def read_expected(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f]


def linux_checks(names, linux, expected):
    """posix/linux/<name>: the reference run itself."""
    results = []
    for name in names:
        test = "posix/linux/" + name
        sec = linux.sections.get(name) if linux else None
        if sec is None:
            results.append(Result(test, "fail", "no output on Linux"))
        elif sec.status != "0":
            results.append(Result(test, "fail", "exit status %s on Linux (the programs "
                                  "exit 0 there)" % sec.status, sec.lines[-10:]))
        elif name == SHELL and sec.lines[:-1] != expected:
            diff = posix_compare.diff_lines(expected, sec.lines[:-1], "shell.expected",
                                            "linux/shell")
            results.append(Result(test, "fail", "differs from shell.expected", diff))
        else:
            results.append(Result(test, "pass"))
    return results


def myrmex_checks(names, linux, myrmex, myrmex_error, exceptions, expected):
    """posix/<name>: Myrmex against Linux (and the shell against shell.expected)."""
    results = []
    for name in names:
        test = "posix/" + name
        m = myrmex.sections.get(name) if myrmex else None
        l = linux.sections.get(name) if linux else None
        ok, why, diff, excused = posix_compare.compare(name, l, m, exceptions.get(name, []))
        if m is None and myrmex_error:
            why = "not run on Myrmex: %s" % myrmex_error
        if ok and name == SHELL and m.lines[:-1] != expected:
            ok, why = False, "differs from shell.expected"
            diff = posix_compare.diff_lines(expected, m.lines[:-1], "shell.expected",
                                            "myrmex/shell")
        if ok:
            results.append(Result(test, "pass", "%d lines excused by EXCEPTIONS" % excused
                                  if excused else ""))
        else:
            results.append(Result(test, "fail", why, diff))
    return results


def fsck_check(disk):
    """posix/fsck: e2fsck -fn of the disk Myrmex used."""
    try:
        status, text = e2fs.fsck(disk)
    except e2fs.E2fsError as e:
        return Result("posix/fsck", "fail", str(e))
    if status != 0:
        return Result("posix/fsck", "fail", "e2fsck -fn exited %d" % status,
                      text.strip().splitlines()[-8:])
    return Result("posix/fsck", "pass")


# Words a console line of Myrmex's must never hold: an unimplemented call
# returns -ENOSYS quietly (counted, docs/posix.md), never a log line.
NOISY = ("unimplemented", "not implemented")


def quiet_check(lines):
    """posix/quiet-console: nothing on the console says a call is missing."""
    noisy = [l for l in lines if any(w in l.lower() for w in NOISY)]
    if noisy:
        return Result("posix/quiet-console", "fail", "%d console lines about missing "
                      "calls" % len(noisy), noisy[:5])
    return Result("posix/quiet-console", "pass")


def run_suite(build, kernel, out, linux_dir, only=(), linux_only=False, use_cache=True,
              echo=True):
    """Build the image, run both systems, judge. Returns (results, notes)."""
    notes = []
    os.makedirs(out, exist_ok=True)
    try:
        programs = posix_image.suite_programs()
        exceptions = posix_compare.read_exceptions(EXCEPTIONS)
        busybox = linux_kernel.get_busybox(linux_dir)
        image = os.path.join(out, "posix.img")
        posix_image.make_image(os.path.join(build, "posix"), busybox, image)
    except (posix_image.ImageError, posix_compare.ExceptionsError,
            linux_kernel.LinuxSetupError, OSError) as e:
        return [Result("posix/setup", "fail", str(e))], notes
    if list(only) == [ORPHAN_CRASH]:   # the crash test alone: no Linux run
        if os.environ.get(MYRMEX_ENV, "").strip() == "0":
            return [Result("posix/" + ORPHAN_CRASH, "skip", "Myrmex left out")], notes
        ok, why, detail = orphan_crash.run(image, kernel, build, out, echo)
        return [Result("posix/" + ORPHAN_CRASH, "pass" if ok else "fail", why, detail)], notes
    names = list(only) if only else programs + [SHELL, APPLETS]
    unknown = [n for n in names if n not in programs + [SHELL, APPLETS]]
    if unknown:
        return [Result("posix/setup", "fail", "not in run.sh's PROGRAMS: %s" %
                       " ".join(unknown))], notes
    args = list(only)
    inputs = [(n, os.path.join(build, "posix", n)) for n in programs]
    inputs += [(f, os.path.join(SUITE_DIR, f)) for f in posix_image.SUITE_FILES]
    inputs += [("busybox", busybox), ("posix_image.py", posix_image.__file__)]
    expected = read_expected(os.path.join(SUITE_DIR, "shell.expected"))

    lres = posix_guests.run_linux(image, inputs, out, linux_dir, args, echo=echo,
                                  use_cache=use_cache)
    if lres.cached and echo:
        print("posix: Linux transcript from the cache: %s" % lres.log, flush=True)
    notes += ["linux: %s" % n for n in lres.notes]
    linux = posix_compare.parse_transcript(lres.lines)
    results = []
    if lres.error:
        results.append(Result("posix/linux-run", "fail", lres.error))
    results += linux_checks(names, linux, expected)

    skip_why = None
    if linux_only:
        skip_why = "Myrmex left out (--linux-only)"
    elif os.environ.get(MYRMEX_ENV, "").strip() == "0":
        skip_why = "Myrmex left out (%s=0)" % MYRMEX_ENV
    else:
        modules, why = posix_guests.myrmex_boot(build, args)
        if modules is None:
            skip_why = "Myrmex cannot boot the suite yet (%s)" % why
    if skip_why:
        results += [Result("posix/" + n, "skip", skip_why) for n in names]
        return results, notes

    mres = posix_guests.run_myrmex(image, kernel, build, out, programs + [SHELL, APPLETS], args,
                                   echo=echo)
    notes += ["myrmex: %s" % n for n in mres.notes]
    if mres.hung:
        notes.append("myrmex: hung (booted again without them): %s" % " ".join(mres.hung))
    myrmex = posix_compare.parse_transcript(mres.lines)
    results += myrmex_checks(names, linux, myrmex, mres.error, exceptions, expected)
    if mres.disk and myrmex.done:
        results.append(fsck_check(mres.disk))
    if not only:
        results.append(quiet_check(mres.lines))
    if not only:
        ok, why, detail = orphan_crash.run(image, kernel, build, out, echo)
        results.append(Result("posix/" + ORPHAN_CRASH, "pass" if ok else "fail", why, detail))
        ok, why, detail = sysinit_args.run(image, kernel, build, out, echo)
        results.append(Result("posix/sysinit-args", "pass" if ok else "fail", why, detail))
    if not only:
        for stale in posix_compare.unused_exceptions(exceptions, [linux, myrmex]):
            notes.append("EXCEPTIONS entry matches nothing in this run: %s" % stale)
    return results, notes


def print_results(results, say=print):
    for r in results:
        label = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[r.state]
        say("%s %s%s" % (label, r.name, ": " + r.reason if r.reason else ""))
        for line in r.detail:
            say("  | %s" % line)


def main(argv=None):
    p = argparse.ArgumentParser(description="Run the POSIX conformance suite on Linux "
                                "and Myrmex and compare.")
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="build folder: <build>/posix, user/, servers/ (default build)")
    p.add_argument("--kernel", help="Myrmex kernel (default <build>/kernel/myrmex.bin)")
    p.add_argument("--out", help="output folder (default <build>/posix-suite)")
    p.add_argument("--linux-dir", help="Linux kernel cache (default <build>/linux)")
    p.add_argument("--only", nargs="*", default=[], metavar="NAME",
                   help="only these programs (and 'shell'); the cache is not shared")
    p.add_argument("--linux-only", action="store_true", help="leave Myrmex out")
    p.add_argument("--no-cache", action="store_true", help="boot Linux even if cached")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    kernel = args.kernel or os.path.join(args.build, "kernel", "myrmex.bin")
    out = args.out or os.path.join(args.build, "posix-suite")
    linux_dir = args.linux_dir or os.path.join(args.build, "linux")
    results, notes = run_suite(args.build, kernel, out, linux_dir, args.only,
                               args.linux_only, not args.no_cache, not args.quiet)
    print_results(results)
    for note in notes:
        print("note: %s" % note)
    counts = {s: sum(1 for r in results if r.state == s) for s in ("pass", "fail", "skip")}
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
