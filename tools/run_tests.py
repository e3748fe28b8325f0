#!/usr/bin/env python3
"""run_tests.py - the Myrmex test runner behind `make test`.

Role: runs the host unit-test binaries (UNIT-RESULT lines), then boots the test init
under QEMU and reads its serial console (TEST-PLAN / TEST-RESULT / TEST-SUMMARY /
KERNEL PANIC, see docs/testing.md), then checks the file-system images the guest
wrote (tools/fscheck.py: e2fsck and debugfs), then, with --posix, the POSIX
conformance suite (tools/posix_suite.py: the same programs on Linux and Myrmex,
compared). It always ends with exactly one line `N passed, N failed` (plus
`, N skipped` when some were skipped) and exits 0 only when nothing failed.

    python3 tools/run_tests.py --unit build/unit/t_pmm ... \\
        --kernel build/kernel.elf --init "build/tests/testinit -v" \\
        --modules build/tests/t_alive ... [--disk build/test/disk.img ...] \\
        [--fs-image build/test/fs.img] [--full-image build/test/full.img] \\
        [--timeout 900] [--log build/test/kernel.log] [--posix build] [--no-panic-checks] \\
        [--net]   (a virtio-net NIC wired to tools/net_peer.py on 127.0.0.1)
        [--net-model virtio|rtl8139|virtio,rtl8139]   (which NICs, each on a peer)
    python3 tools/run_tests.py --no-boot --unit build/unit/t_pmm ...
"""

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py)
import fscheck  # noqa: E402  (tools/fscheck.py)
import posix_suite  # noqa: E402  (tools/posix_suite.py)

UNIT_TIMEOUT = 120          # seconds per unit-test binary
SUMMARY_GRACE = 30          # seconds QEMU may take to power off after TEST-SUMMARY
PANIC_LINES = 40            # log lines kept after KERNEL PANIC
PANIC_GRACE = 15            # seconds to wait for the panic dump before killing QEMU

ANSI_RE = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[@-Z\\-_]|c)")


def say(text=""):
    print(text, flush=True)


class Tally:
    """Passed count and the list of (name, reason) failures, over all tiers."""

    def __init__(self):
        self.passed = 0
        self.failures = []
        self.skipped = []
        self.notes = []

    def ok(self, name):
        self.passed += 1

    def fail(self, name, reason):
        self.failures.append((name, reason))

    def skip(self, name, reason):
        self.skipped.append((name, reason))


# ---------------------------------------------------------------- unit tests

def parse_unit_line(line):
    """Parse `UNIT-RESULT <name> PASS|FAIL [reason]` -> (name, passed, reason)."""
    words = clean(line).split(None, 3)
    if len(words) < 3 or words[0] != "UNIT-RESULT" or words[2] not in ("PASS", "FAIL"):
        return None
    reason = words[3].strip() if len(words) > 3 else ""
    return words[1], words[2] == "PASS", reason


def run_binary(path, timeout):
    """Run one binary; return (status or None on timeout, output text, error)."""
    try:
        proc = subprocess.Popen([path], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
    except OSError as e:
        return None, "", "cannot run: %s" % (e.strerror or e)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        qemu.kill_group(proc, grace=1.0)
        out, _ = proc.communicate()
        return None, out.decode("utf-8", "replace"), "timed out after %d s" % timeout
    return proc.returncode, out.decode("utf-8", "replace"), None


def judge_unit(binary, status, output, error):
    """Turn one binary's run into [(name, passed, reason)]."""
    label = os.path.basename(binary)
    results = []
    for line in output.splitlines():
        parsed = parse_unit_line(line)
        if parsed:
            name, passed, reason = parsed
            results.append(("%s:%s" % (label, name), passed, reason))
    any_fail = any(not passed for _, passed, _ in results)
    if error:
        results.append((label, False, error))
    elif status != 0 and not any_fail:
        if status < 0:
            why = "crashed (signal %d)" % -status
        else:
            why = "exited with status %d" % status
        results.append((label, False, why + " without a FAIL line"))
    elif status == 0 and not results:
        results.append((label, False, "printed no UNIT-RESULT line"))
    return results


def tail(text, n=20):
    lines = text.rstrip("\n").splitlines()
    return lines[-n:]


def run_unit_tests(binaries, tally):
    for binary in binaries:
        say("== unit: %s" % binary)
        status, output, error = run_binary(binary, UNIT_TIMEOUT)
        results = judge_unit(binary, status, output, error)
        for name, passed, reason in results:
            if passed:
                tally.ok(name)
                say("PASS %s" % name)
            else:
                tally.fail(name, reason)
                say("FAIL %s: %s" % (name, reason))
        if any(not passed for _, passed, _ in results):
            for line in tail(output):
                say("  | %s" % line)


# ---------------------------------------------------------------- booted tests

def clean(line):
    """Drop terminal escapes and stray control characters before matching."""
    line = ANSI_RE.sub("", line)
    return "".join(c for c in line if c >= " " or c == "\t").strip()


class ConsoleParser:
    """Reads serial-console lines of the test init and the kernel."""

    def __init__(self):
        self.plan = None
        self.extra_plans = 0
        self.results = []           # (name, passed, reason)
        self.summary = None         # (passed, failed)
        self.panic = False
        self.panic_lines = []
        self.bad_lines = []

    def feed(self, raw):
        """Take one line; return a grace period (s) when QEMU should stop soon."""
        if self.panic and len(self.panic_lines) <= PANIC_LINES:
            self.panic_lines.append(raw.rstrip())
        line = clean(raw)
        word = line.split(None, 1)[0] if line else ""
        if line.startswith("KERNEL PANIC"):
            if not self.panic:
                self.panic = True
                self.panic_lines = [raw.rstrip()]
            return PANIC_GRACE
        if word == "TEST-PLAN":
            self._plan(line)
        elif word == "TEST-RESULT":
            self._result(line)
        elif word == "TEST-SUMMARY":
            self._summary(line)
            return SUMMARY_GRACE
        return None

    def _plan(self, line):
        words = line.split()
        if len(words) != 2 or not words[1].isdigit():
            self.bad_lines.append(line)
        elif self.plan is None:
            self.plan = int(words[1])
        else:
            self.extra_plans += 1

    def _result(self, line):
        words = line.split(None, 3)
        if len(words) < 3 or words[2] not in ("PASS", "FAIL"):
            self.bad_lines.append(line)
            return
        reason = words[3].strip() if len(words) > 3 else ""
        if words[2] == "FAIL" and not reason:
            reason = "(no reason given)"
        self.results.append((words[1], words[2] == "PASS", reason))

    def _summary(self, line):
        words = line.split()
        if len(words) != 3 or not (words[1].isdigit() and words[2].isdigit()):
            self.bad_lines.append(line)
        elif self.summary is None:
            self.summary = (int(words[1]), int(words[2]))


def judge_boot(parser, run):
    """Turn the console record and the QEMU outcome into (results, notes).

    results: [(name, passed, reason)]; notes: lines worth showing the user.
    """
    results = list(parser.results)
    notes = []
    if run.start_error:
        notes.append(run.start_error)
    if run.timed_out:
        notes.append("guest run timed out after %.0f s: QEMU killed" % run.elapsed)
    if parser.plan is None:
        why = "guest did not start the tests"
        if run.start_error:
            why += " (%s)" % run.start_error
        results.append(("boot", False, why))
    else:
        missing = parser.plan - len(parser.results)
        for i in range(missing):
            results.append(("missing-result-%d" % (len(parser.results) + i + 1), False,
                            "no result: guest hung or crashed"))
        if missing < 0:
            results.append(("test-plan", False, "TEST-PLAN %d but %d results"
                            % (parser.plan, len(parser.results))))
    if parser.extra_plans:
        notes.append("TEST-PLAN printed %d more time(s); the first one counts"
                     % parser.extra_plans)
    if parser.summary is not None:
        got = (sum(1 for r in parser.results if r[1]),
               sum(1 for r in parser.results if not r[1]))
        if got != parser.summary:
            results.append(("test-summary", False,
                            "TEST-SUMMARY %d %d but the results say %d %d"
                            % (parser.summary + got)))
    if parser.panic:
        results.append(("kernel-panic", False, "KERNEL PANIC on the console"))
    for line in parser.bad_lines:
        notes.append("malformed protocol line: %r" % line)
    killed = run.timed_out or run.stopped_early
    if not run.start_error and not killed and parser.summary is None and \
            run.status not in (qemu.STATUS_POWEROFF_OK, qemu.STATUS_POWEROFF_FAIL):
        notes.append("QEMU exit status %s without TEST-SUMMARY: %s"
                     % (run.status, qemu.describe_status(run.status)))
    if run.stopped_early:
        notes.append("QEMU did not power off after the summary/panic: killed")
    return results, notes


def boot_tests(args, tally):
    """Boot the test init; add its results to tally. Returns the panic dump lines
    and the names of the tests the guest reported."""
    say("== booted tests")
    modules = [args.init] + list(args.modules)
    parser = ConsoleParser()
    try:
        qemu.check_files(args.kernel, modules, args.disk)
        accel, reason = qemu.choose_accel()
    except qemu.QemuError as e:
        run = qemu.GuestRun()
        run.start_error = str(e)
    else:
        say("accelerator: %s (%s)" % (accel, reason))
        peers = qemu.net_peers_start(args.net_model, args.net_log, args.timeout + 60) \
            if args.net else []
        for model, _, peer_port, qemu_port, log in peers:
            say("net peer (%s): 127.0.0.1:%d <-> QEMU 127.0.0.1:%d (log %s)"
                % (model, peer_port, qemu_port, log))
        extra = qemu.net_args(qemu.net_links(peers))
        cmd = qemu.qemu_command(args.kernel, modules, accel, disk=args.disk, extra=extra)
        say("qemu: %s" % shlex.join(cmd))
        say("log: %s" % args.log)
        try:
            run = qemu.run_guest(cmd, args.log, args.timeout, parser.feed, echo=sys.stdout,
                                 stdin_for=qemu.console_type_request)
        finally:
            qemu.net_peers_stop(peers)
        say()
        say("qemu: %s" % qemu.describe_run(run))
    results, notes = judge_boot(parser, run)
    for name, passed, reason in results:
        if passed:
            tally.ok(name)
        else:
            tally.fail(name, reason)
    tally.notes.extend(notes)
    if run.stderr_lines and parser.summary is None:
        tally.notes.append("QEMU stderr: " + " / ".join(run.stderr_lines[-5:]))
    reported = [name for name, _, _ in parser.results]
    return (parser.panic_lines if parser.panic else []), reported


# ----------------------------------------------------------- image checks

def image_checks(args, reported, tally):
    """After the guest: the file-system images it wrote, checked on the host
    (only those the reported tests used; see tools/fscheck.py)."""
    results = fscheck.check_images(args.fs_image, args.full_image, reported)
    if not results:
        return
    say("== file-system images")
    for name, passed, reason in results:
        if passed:
            tally.ok(name)
            say("PASS %s" % name)
        else:
            tally.fail(name, reason)
            say("FAIL %s: %s" % (name, reason))


# ----------------------------------------------------------- panic checks

# Boots that must end in a clean kernel panic: the cause, the registers, a
# backtrace symbolized down to kmain, and QEMU's exit status 255 (code 0x7f).
PANIC_CASES = [
    ("panic-no-modules", [], "no boot modules"),
    ("panic-bad-init", ["Makefile"], "cannot start init"),
]
PANIC_STATUS = (0x7f << 1) | 1


def panic_checks(args, tally):
    say("== panic checks")
    accel, _ = qemu.choose_accel()
    for name, modules, cause in PANIC_CASES:
        lines = []
        cmd = qemu.qemu_command(args.kernel, modules, accel)
        log = os.path.join(os.path.dirname(args.log) or ".", name + ".log")
        run = qemu.run_guest(cmd, log, 120, lines.append, echo=None)
        text = "\n".join(lines)
        missing = [what for what, needle in (
            ("cause", "KERNEL PANIC: " + cause), ("registers", "cr3="),
            ("symbolized backtrace", "kmain+")) if needle not in text]
        if run.status != PANIC_STATUS:
            missing.append("exit status %s (want %d)" % (run.status, PANIC_STATUS))
        if missing:
            tally.fail(name, "missing: " + ", ".join(missing) + " (log %s)" % log)
        else:
            tally.ok(name)
        say("%s %s" % ("PASS" if not missing else "FAIL", name))


# ----------------------------------------------------------- POSIX suite

def posix_checks(args, tally):
    """The POSIX conformance suite (tools/posix_suite.py) on the build folder
    args.posix: each program a test, Linux's reference and Myrmex's diff."""
    say("== POSIX conformance suite")
    build = args.posix
    results, notes = posix_suite.run_suite(
        build, args.kernel, os.path.join(build, "posix-suite"),
        os.path.join(build, "linux"))
    posix_suite.print_results(results, say)
    for r in results:
        if r.state == "pass":
            tally.ok(r.name)
        elif r.state == "skip":
            tally.skip(r.name, r.reason)
        else:
            tally.fail(r.name, r.reason)
    tally.notes.extend("posix: %s" % n for n in notes)


# ---------------------------------------------------------------- report

def report(tally, panic_lines):
    if panic_lines:
        say()
        say("== kernel panic (%d lines of log from the panic)" % len(panic_lines))
        for line in panic_lines:
            say("  %s" % line)
    if tally.notes:
        say()
        say("== notes")
        for note in tally.notes:
            say("  %s" % note)
    if tally.failures:
        say()
        say("== failures")
        for name, reason in tally.failures:
            say("  %s: %s" % (name, reason))
    say()
    if tally.skipped:
        say("%d passed, %d failed, %d skipped" % (tally.passed, len(tally.failures),
                                                  len(tally.skipped)))
    else:
        say("%d passed, %d failed" % (tally.passed, len(tally.failures)))


class Parser(argparse.ArgumentParser):
    """argparse that still prints the closing line on a usage error."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print("run_tests.py: error: %s" % message, file=sys.stderr)
        say("0 passed, 1 failed")
        sys.exit(2)


def net_models(text):
    try:
        return qemu.parse_net_models(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def parse_args(argv):
    p = Parser(description="Run Myrmex unit tests and booted tests.")
    p.add_argument("--unit", nargs="*", default=[], metavar="BINARY",
                   help="host unit-test binaries")
    p.add_argument("--kernel", help="kernel ELF to boot")
    p.add_argument("--init", help='test init module: "<path> args"')
    p.add_argument("--modules", nargs="*", default=[], metavar="PATH",
                   help="further boot modules (test programs)")
    p.add_argument("--disk", metavar="IMAGE", action="append",
                   help="raw disk image attached as a virtio-blk device to the test "
                        "boot; repeat for more (the guest sees them in this order)")
    p.add_argument("--net", action="store_true",
                   help="give the test boot a virtio-net NIC connected to the host peer "
                        "tools/net_peer.py on 127.0.0.1 (docs/net.md)")
    p.add_argument("--net-model", type=net_models, default=["virtio"],
                   help="with --net: the NIC model, or several comma-separated, each "
                        "on a peer of its own: virtio (default), rtl8139")
    p.add_argument("--net-log", default="build/test/net_peer.log",
                   help="the peer's output (default build/test/net_peer.log)")
    p.add_argument("--fs-image", metavar="IMAGE",
                   help="the fs tests' ext2 image, checked after the boot (fscheck.py)")
    p.add_argument("--full-image", metavar="IMAGE",
                   help="the full-disk test's ext2 image, checked after the boot")
    p.add_argument("--timeout", type=float, default=900,
                   help="seconds for the whole guest run (default 900)")
    p.add_argument("--log", default="build/test/kernel.log",
                   help="serial log (default build/test/kernel.log)")
    p.add_argument("--no-boot", action="store_true", help="only the unit tests")
    p.add_argument("--no-panic-checks", action="store_true",
                   help="skip the boots that must panic (make fuzz: one boot only)")
    p.add_argument("--posix", metavar="BUILD",
                   help="also run the POSIX suite from this build folder (its posix/, "
                        "user/, servers/; Linux kernel cached in BUILD/linux)")
    args = p.parse_args(argv)
    if not args.no_boot and not (args.kernel and args.init):
        p.error("--kernel and --init are required unless --no-boot")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    tally = Tally()
    panic_lines = []
    try:
        run_unit_tests(args.unit, tally)
        if not args.no_boot:
            if not args.no_panic_checks:
                panic_checks(args, tally)
            panic_lines, reported = boot_tests(args, tally)
            image_checks(args, reported, tally)
            if args.posix:
                posix_checks(args, tally)
    except KeyboardInterrupt:
        tally.fail("interrupted", "stopped by the user (Ctrl-C)")
    except Exception as e:  # the closing line must appear whatever happens
        tally.fail("runner-error", "%s: %s" % (type(e).__name__, e))
    report(tally, panic_lines)
    return 0 if not tally.failures else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
