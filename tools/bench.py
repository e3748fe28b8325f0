#!/usr/bin/env python3
"""bench.py - the Myrmex benchmark driver behind `make bench`.

Role: boots the benchmark init under QEMU once per mode and collects its
`BENCH ...` lines (docs/testing.md):
  icount  TCG with -icount shift=0: the TSC counts guest instructions (deterministic)
  native  the normal accelerator (choose_accel): TSC cycles, converted to µs
Then, unless MYRMEX_BENCH_LINUX=0, it runs the same bench programs (the folder of
--init) on Linux in the same QEMU configuration (tools/linux_guest.py), which writes
<out>/results.linux.jsonl; a Linux failure is reported but keeps the Myrmex results.
With --disk, every boot (each mode, Myrmex and Linux) gets a fresh copy of that raw
image as its virtio-blk disk (<out>/myrmex-disk.img, <out>/linux-disk.img), so all
start from the same bytes. A BENCH line's `bytes=<n>` key is not a count but the
bytes one operation moves: the record gets "bytes_per_op" and, for cycles with a
TSC frequency, "mb_s" (10^6 bytes per second), which the report shows.
Writes <out>/results.jsonl (myrmex records, then <out>/results.linux.jsonl if present),
<out>/report.md (one table per suite, Linux rows beside Myrmex rows, also printed),
<out>/<mode>.log, the wrapped-call plots <out>/wsc-*.svg (tools/plot_wsc.py) and paper
004's figure 10 <out>/eth-fig10.svg (tools/plot_eth.py), both with
matplotlib).
With --posix-init, the POSIX boot follows (tools/bench_posix.py: static programs run
by sysinit from an ext2 disk, on Myrmex and on Linux); its records, in
<out>/posix-boot/results.jsonl, are merged in. With --fmap-dir, the On-Memory File boot
follows (tools/bench_fmap.py, issue 6); its records, in <out>/fmap-boot/results.jsonl,
are merged in too. The wrapped-call boot (part wsc, issue 18) is the POSIX boot
running bench/posix/wsc_fwd and wsc_files alone (suite wsc-fwd, into
<out>/wsc-boot/).
The file service's configurations (tools/bench_fsconf.py, issue 19, with
--posix-init) go to <out>/fsconf-boot/results.jsonl, merged in as well.
With --cachesim, paper 001's cache and TLB experiment (part wsccache, issue 18:
tools/bench_wsc_cache.py, bench_wsc_cache under the cachesim plugin) writes
<out>/wsccache-boot/results.jsonl (suite wsc-cache), merged in too.
The shell part (tools/bench_shell.py, issue 20, with --posix-init) types a pipeline
at the interactive shell of `make run` and under sh -c, on Myrmex and on Linux,
into <out>/shell-boot/results.jsonl (suite shell).
MYRMEX_BENCH_ONLY=posix, =fmap, =wsc, =wsccache, =fsconf, =shell or =benchinit runs
only that part;
the rows of the parts not run are those of their last run.

    python3 tools/bench.py --kernel build/kernel.elf --init "build/bench/benchinit" \\
        --modules build/bench/b_ipc ... [--out build/bench] [--timeout 1800] \\
        [--modes icount,native] [--disk build/bench/fs.img] [--quiet] \\
        [--posix-init build/user/sysinit --posix-modules build/user/posix_start ... \\
         --posix-dir build/bench/posix] [--fmap-dir build/bench/fmap] \\
        [--cachesim build/tools/cachesim.so]
"""

import argparse
import datetime
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py)

MODES = {
    "icount": {"metric": "instructions", "unit": "instructions"},
    "native": {"metric": "cycles", "unit": "cycles"},
}
LINUX_ENV = "MYRMEX_BENCH_LINUX"   # =0 skips the Linux run
ONLY_ENV = "MYRMEX_BENCH_ONLY"     # =posix, =fmap, =wsc, =wsccache, =fsconf, =shell or =benchinit
PARTS = ("benchinit", "posix", "fmap", "wsc", "wsccache", "fsconf", "shell")
WSC_PROGRAMS = ("wsc_fwd", "wsc_files")   # the wsc part: bench/posix programs run alone
WSC_OUT = "wsc-boot"
FMAP_SUITES = ("fmap", "fmap-postmark", "fmap-bonnie")   # tools/bench_fmap.py's
DONE_GRACE = 20     # seconds QEMU may take to power off after BENCH-DONE
PANIC_GRACE = 10    # seconds of panic dump before QEMU is killed
BYTES_KEY = "bytes"  # BENCH key: bytes per operation (for MB/s), not a count


def warn(text):
    print("bench: %s" % text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- parsing

def parse_number(text):
    """'12' -> 12, '12.5' -> 12.5; raises ValueError otherwise."""
    try:
        return int(text)
    except ValueError:
        value = float(text)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("not a finite number: %r" % text)
        return value


def parse_bench_line(line):
    """Parse `BENCH <suite> <name> median=<v> min=<v> runs=<n> [k=v ...]`.

    Returns {"suite","name","median","min","runs","counts"}; raises ValueError when
    the line starts with BENCH but is malformed; returns None for other lines.
    """
    words = line.split()
    if not words or words[0] != "BENCH":
        return None
    if len(words) < 6:
        raise ValueError("too few fields")
    fig = {"suite": words[1], "name": words[2], "counts": {}}
    for word in words[3:]:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError("not key=value: %r" % word)
        if key in ("median", "min", "runs"):
            fig[key] = parse_number(value)
        else:
            fig["counts"][key] = float(parse_number(value))
    for key in ("median", "min", "runs"):
        if key not in fig:
            raise ValueError("missing %s=" % key)
    return fig


class BenchParser:
    """Collects the bench init's console lines for one mode."""

    def __init__(self):
        self.tsc_khz = None
        self.figures = []
        self.done = False
        self.panic = False
        self.problems = []
        self.skipped = []       # "BENCH-SKIP <program> <why>" lines, as text
        self.recovery = []      # "BENCH-RECOVERY kills=.. recovered=.. lost=.." (bench_restart)

    def is_panic(self, line):
        """Does this console line report a kernel panic? (Myrmex's marker.)"""
        return line.startswith("KERNEL PANIC")

    def feed(self, raw):
        """Take one line; return a grace period (s) once QEMU should stop."""
        line = raw.strip()
        words = line.split()
        head = words[0] if words else ""
        if self.is_panic(line):
            self.panic = True
            return PANIC_GRACE
        if head == "BENCH-DONE":
            self.done = True
            return DONE_GRACE
        if head == "BENCH-TSC-KHZ":
            try:
                self.tsc_khz = parse_number(words[1])
            except (IndexError, ValueError):
                self.problems.append("malformed line: %r" % line)
        elif head == "BENCH-SKIP":
            self.skipped.append(" ".join(words[1:]))
        elif head == "BENCH-RECOVERY":
            self.recovery.append(" ".join(words[1:]))
        elif head == "BENCH":
            try:
                self.figures.append(parse_bench_line(line))
            except ValueError as e:
                self.problems.append("malformed BENCH line (%s): %r" % (e, line))
        return None


# ---------------------------------------------------------------- running

class ModeResult:
    def __init__(self, mode, parser=None):
        self.mode = mode
        self.accel = None
        self.reason = ""
        self.parser = parser if parser is not None else BenchParser()
        self.error = None       # why the mode failed (no BENCH-DONE), or None
        self.notes = []


def mode_accel(mode):
    """(accel, icount, reason) for a mode."""
    if mode == "icount":
        return "tcg", True, "-icount shift=0,align=off,sleep=off"
    accel, reason = qemu.choose_accel()
    return accel, False, reason


def missing_items(mode, parser):
    """What the console lacked, for error messages."""
    missing = []
    if not parser.done:
        missing.append("BENCH-DONE")
    if parser.tsc_khz is None and mode == "native":
        missing.append("BENCH-TSC-KHZ")
    if not parser.figures:
        missing.append("any BENCH figure")
    return missing


def run_mode(mode, args, parser=None):
    """Boot the bench init in one mode; return a ModeResult. parser: a
    BenchParser (or subclass) to read the console, default a new one."""
    res = ModeResult(mode, parser)
    modules = [args.init] + list(args.modules)
    log_path = os.path.join(args.out, "%s.log" % mode)
    try:
        qemu.check_files(args.kernel, modules, args.disk)
        res.accel, icount, res.reason = mode_accel(mode)
    except qemu.QemuError as e:
        res.error = str(e)
        return res
    disk = None
    if args.disk:
        disk = os.path.join(args.out, "myrmex-disk.img")
        copy_disk(args.disk, disk)
    peers = []
    if getattr(args, "net", False):
        # bench_eth's other end (docs/net.md): the host peer on 127.0.0.1.
        peers = qemu.net_peers_start(getattr(args, "net_model", ["virtio"]),
                                     os.path.join(args.out, "%s.net_peer.log" % mode),
                                     args.timeout + 60)
    extra = qemu.net_args(qemu.net_links(peers))
    nbd = None
    latency = getattr(args, "disk_latency_us", 0)
    if disk and latency:   # tools/nbd_latency.py serves the copy, slowly
        import nbd_latency  # noqa: E402
        try:
            nbd, disk = nbd_latency.start(disk, os.path.join(args.out, "nbd.sock"), latency,
                                          os.path.join(args.out, "%s.nbd.log" % mode))
        except RuntimeError as e:
            qemu.net_peers_stop(peers)
            res.error = str(e)
            return res
    cmd = qemu.qemu_command(args.kernel, modules, res.accel, icount=icount,
                            disk=disk, extra=extra)
    print("== mode %s: accelerator %s (%s)" % (mode, res.accel, res.reason), flush=True)
    try:
        run_boot(res, cmd, log_path, args.timeout, args.quiet)
    finally:
        qemu.net_peers_stop(peers)
        if nbd:
            nbd_latency.stop(nbd)
    return res


def copy_disk(src, dest):
    """A fresh copy of the disk image src at dest, for one boot: the guest may
    write to its disk (a file manager's mount), and every boot must start from
    the same bytes."""
    tmp = dest + ".part"
    shutil.copyfile(src, tmp)
    os.replace(tmp, dest)


def run_boot(res, cmd, log_path, timeout, quiet, describe=None):
    """Run one guest boot (Myrmex or another OS) and fill res from its console.

    res.parser reads the console; res.error is set when BENCH-DONE is missing.
    describe(run) words how QEMU ended (default qemu.describe_run). Returns the
    qemu.GuestRun.
    """
    describe = describe or qemu.describe_run
    print("log: %s" % log_path, flush=True)
    echo = None if quiet else sys.stdout
    run = qemu.run_guest(cmd, log_path, timeout, res.parser.feed, echo=echo)
    print("\nqemu: %s" % describe(run), flush=True)
    p = res.parser
    res.notes.extend(p.problems)
    res.notes.extend("skipped: %s" % text for text in p.skipped)
    res.notes.extend("fault injection under load (%s mode, bench_restart): %s" % (res.mode, text)
                     for text in p.recovery)
    if p.panic:
        res.notes.append("KERNEL PANIC on the console (see %s)" % log_path)
    if not p.done:
        res.error = "%s; missing %s" % (
            describe(run), ", ".join(missing_items(res.mode, p)))
        if run.stderr_lines:
            res.notes.append("QEMU stderr: " + " / ".join(run.stderr_lines[-5:]))
    elif res.mode == "native" and p.tsc_khz is None:
        res.notes.append("no BENCH-TSC-KHZ: no µs figures")
    return run


# ---------------------------------------------------------------- records

def make_records(res, os_name="myrmex", extra=None):
    """results.jsonl records for one mode's figures; extra: more keys for each."""
    spec = MODES[res.mode]
    khz = res.parser.tsc_khz
    records = []
    for fig in res.parser.figures:
        counts = dict(fig["counts"])
        per_op = counts.pop(BYTES_KEY, None)
        value = fig["median"]
        # A figure measured across waits for a peer (bench_eth) gives busy=,
        # its ticks less the halted CPU's: under -icount the instructions the
        # guest executed, idle excluded, which is the instruction figure;
        # the ticks with the waits stay in the record as ticks.
        if spec["metric"] == "instructions" and "busy" in counts:
            value = counts["busy"]
        rec = {"suite": fig["suite"], "name": fig["name"], "os": os_name,
               "metric": spec["metric"], "value": value, "unit": spec["unit"],
               "min": fig["min"], "runs": fig["runs"], "accel": res.accel,
               "tsc_khz": khz, "counts": counts}
        if value != fig["median"]:
            rec["ticks"] = fig["median"]
        if per_op:
            rec["bytes_per_op"] = int(per_op)
        if spec["metric"] == "cycles" and khz:
            rec["us"] = round(fig["median"] / khz * 1000, 3)
            rec["us_min"] = round(fig["min"] / khz * 1000, 3)
            if per_op and fig["median"] > 0:
                rec["mb_s"] = round(per_op / (fig["median"] / khz * 1000), 2)
        rec.update(extra or {})
        records.append(rec)
    return records


def read_other_os(path):
    """Records of other OSes (e.g. results.linux.jsonl), as dicts; [] if absent."""
    if not os.path.isfile(path):
        return []
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError as e:
                warn("%s:%d: skipped, not JSON (%s)" % (path, number, e))
    return records


def write_jsonl(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, sort_keys=False) + "\n")


# ---------------------------------------------------------------- report

def fmt(value, digits=1):
    """Format a figure: integers as is, floats with `digits` decimals."""
    if value is None:
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return "%.*f" % (digits, value)
    return "%d" % value


def fmt_pair(rec):
    return "%s / %s" % (fmt(rec.get("value")), fmt(rec.get("min"))) if rec else "–"


def fmt_count(value):
    """A count per operation: up to 4 decimals, trailing zeros dropped."""
    if isinstance(value, float) and not value.is_integer():
        return ("%.4f" % value).rstrip("0")
    return fmt(value)


def fmt_counts(counts):
    if not counts:
        return ""
    return " ".join("%s=%s" % (k, fmt_count(v)) for k, v in counts.items())


def group_rows(records):
    """{suite: {(os, name): {metric: record}}}: names in first-seen order, and
    for each name the Myrmex row first, then the other OSes' rows beside it."""
    suites = {}
    for rec in records:
        try:
            key = (rec.get("os", "?"), rec["name"])
            row = suites.setdefault(rec["suite"], {}).setdefault(key, {})
            row[rec["metric"]] = rec
        except (KeyError, TypeError):
            continue
    ordered = {}
    for suite, rows in suites.items():
        names = list(dict.fromkeys(name for _, name in rows))
        keys = sorted(rows, key=lambda k: (names.index(k[1]), k[0] != "myrmex"))
        ordered[suite] = {k: rows[k] for k in keys}
    return ordered


def suite_table(rows):
    """The table of one suite; a MB/s column when a row moves bytes (bytes=)."""
    rate = any(rec.get("bytes_per_op") for row in rows.values() for rec in row.values())
    lines = ["| name | instructions (median / min) | cycles (median / min) "
             "| µs (median) |%s counts per op |" % (" MB/s (median) |" if rate else ""),
             "|---|---:|---:|---:|%s---|" % ("---:|" if rate else "")]
    for (os_name, name), row in rows.items():
        ins, cyc = row.get("instructions"), row.get("cycles")
        label = name if os_name == "myrmex" else "%s (%s)" % (name, os_name)
        us = fmt(cyc.get("us"), 3) if cyc and cyc.get("us") is not None else "–"
        mb_s = ""
        if rate:
            mb_s = " %s |" % (fmt(cyc.get("mb_s"), 1) if cyc and cyc.get("mb_s")
                              is not None else "–")
        counts = (ins or cyc or {}).get("counts")
        lines.append("| %s | %s | %s | %s |%s %s |" % (
            label, fmt_pair(ins), fmt_pair(cyc), us, mb_s, fmt_counts(counts)))
    return lines


def other_os_lines(records):
    """One line per other OS in the records: where its figures come from."""
    lines = []
    for os_name in dict.fromkeys(r.get("os") for r in records):
        if os_name in (None, "myrmex"):
            continue
        mine = [r for r in records if r.get("os") == os_name]
        parts = []
        for key, label in (("kernel", "kernel"), ("cmdline", "command line"),
                           ("date", "measured")):
            values = list(dict.fromkeys(str(r[key]) for r in mine if r.get(key)))
            if values:
                parts.append("%s %s" % (label, "; ".join(
                    "`%s`" % v if key == "cmdline" else v for v in values)))
        modes = list(dict.fromkeys("%s: %s, TSC kHz %s" % (
            r.get("metric"), r.get("accel"), fmt(r.get("tsc_khz"))) for r in mine))
        parts.append("; ".join(modes))
        lines.append("Rows marked (%s): %s." % (os_name, ", ".join(parts)))
    return lines


def render_report(records, results, version, notes=()):
    """The report: header, accelerators, failures, notes, one table per suite."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    accels = "; ".join("%s: %s (%s)" % (r.mode, r.accel or "none", r.reason or r.error)
                       for r in results)
    khz = ", ".join("%s %s" % (r.mode, fmt(r.parser.tsc_khz)) for r in results)
    head = "%s, %s." % (date, version)
    if results:
        head += " Accelerators: %s. TSC kHz: %s." % (accels, khz)
    out = ["# Myrmex benchmarks", "", head, ""]
    for r in results:
        if r.error:
            out.append("**Mode %s failed:** %s" % (r.mode, r.error))
            out.append("")
    for line in list(notes) + other_os_lines(records):
        out += [line, ""]
    suites = group_rows(records)
    if not suites:
        out.append("No figures.")
    for suite, rows in suites.items():
        if suite == "wsc-cache":   # ratios over a plane: grids, not rows
            import bench_wsc_cache  # noqa: E402  (tools/bench_wsc_cache.py)
            mine = [rec for row in rows.values() for rec in row.values()]
            out += ["## %s" % suite, ""] + bench_wsc_cache.report_lines(mine)
            continue
        out += ["## %s" % suite, ""] + suite_table(rows) + [""]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- main

def net_models(text):
    try:
        return qemu.parse_net_models(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def parse_modes(text):
    modes = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in modes if m not in MODES]
    if bad or not modes:
        raise argparse.ArgumentTypeError("modes are icount and/or native, got %r" % text)
    return modes


def parse_args(argv):
    p = argparse.ArgumentParser(description="Run the Myrmex benchmarks.")
    p.add_argument("--kernel", required=True, help="kernel ELF to boot")
    p.add_argument("--init", required=True, help='bench init module: "<path> args"')
    p.add_argument("--modules", nargs="*", default=[], metavar="PATH",
                   help="further boot modules (benchmark programs)")
    p.add_argument("--out", default="build/bench", help="output folder")
    p.add_argument("--timeout", type=float, default=1800,
                   help="seconds per mode for the whole guest run (default 1800)")
    p.add_argument("--modes", type=parse_modes, default=["icount", "native"],
                   help="comma-separated: icount,native (default both)")
    p.add_argument("--disk", help="raw disk image (virtio-blk), copied afresh for "
                   "every boot, Myrmex's and Linux's (bench_fs reads it)")
    p.add_argument("--net", action="store_true",
                   help="give the bench init's boots a virtio-net NIC wired to the host "
                        "peer tools/net_peer.py on 127.0.0.1 (bench_eth)")
    p.add_argument("--net-model", type=net_models, default=["virtio"],
                   help="with --net: the NIC model, or several comma-separated, each on "
                        "a peer of its own: virtio (default), rtl8139 (bench_eth measures "
                        "the one its argument names)")
    p.add_argument("--linux-timeout", type=float, default=600,
                   help="seconds per mode for the Linux guest (default 600)")
    p.add_argument("--quiet", action="store_true",
                   help="do not echo the guest console")
    p.add_argument("--posix-init", help="init of the POSIX boot (sysinit); without it "
                   "there is no POSIX boot")
    p.add_argument("--posix-modules", nargs="*", default=[], metavar="PATH",
                   help="the POSIX boot's other modules (posix_start, the servers)")
    p.add_argument("--posix-dir", help="the POSIX bench programs, put on its disk")
    p.add_argument("--gnumake-dir", help="GNU make and its source tree "
                   "(tools/build_make.py's folder), for the fsconf part's commands")
    p.add_argument("--cachesim", help="the cachesim QEMU plugin (build/tools/cachesim.so); "
                   "with it the wsccache part runs (tools/bench_wsc_cache.py)")
    p.add_argument("--fmap-dir", help="the On-Memory File bench programs (bench/fmap); "
                   "without it there is no OMF boot (it reuses the POSIX boot's modules)")
    args = p.parse_args(argv)
    if args.posix_init and not args.posix_dir:
        p.error("--posix-init needs --posix-dir")
    if args.fmap_dir and not args.posix_init:
        p.error("--fmap-dir needs --posix-init and --posix-modules")
    return args


def parts_wanted(args):
    """The parts to run: benchinit's boots, with --posix-init the POSIX boot, with
    --fmap-dir the OMF boot; MYRMEX_BENCH_ONLY=<part> narrows them to one. Raises
    ValueError on a bad value."""
    parts = [p for p in PARTS if (p not in ("posix", "wsc", "fsconf", "shell") or
                                  args.posix_init) and
             (p != "fmap" or args.fmap_dir) and (p != "wsccache" or args.cachesim)]
    only = os.environ.get(ONLY_ENV, "").strip().lower()
    if not only:
        return parts
    if only not in parts:
        raise ValueError("%s=%s: must be one of %s" % (ONLY_ENV, only, ", ".join(parts)))
    return [only]


def earlier_records(args):
    """The Myrmex records of benchinit's boots from the last results.jsonl (for a
    run of the POSIX part alone)."""
    return [r for r in read_other_os(os.path.join(args.out, "results.jsonl"))
            if r.get("os") == "myrmex" and
            r.get("suite") not in ("posix", "wsc-fwd", "wsc-cache", "fsconf", "shell") and
            r.get("suite") not in FMAP_SUITES]


def linux_wanted():
    """False when MYRMEX_BENCH_LINUX=0 (or no/false/off) asks to skip Linux."""
    value = os.environ.get(LINUX_ENV, "1").strip().lower()
    return value not in ("0", "no", "false", "off")


def run_linux(args):
    """Run the same bench programs on Linux (tools/linux_guest.py).

    Returns (report notes, failed). Never raises: a Linux failure must not cost
    the Myrmex results, which are already written.
    """
    linux_file = os.path.join(args.out, "results.linux.jsonl")
    if not linux_wanted():
        note = "Linux run skipped (%s=0)" % LINUX_ENV
        if os.path.isfile(linux_file):
            note += "; the Linux rows are those of an earlier run (%s)" % linux_file
        print("== %s" % note, flush=True)
        return [note + "."], False
    words = args.init.split()
    bench_dir = os.path.dirname(os.path.abspath(words[0]))
    print("== Linux: the same bench programs (%s) on Linux, same QEMU machine" %
          bench_dir, flush=True)
    try:
        import linux_guest  # noqa: E402  (tools/linux_guest.py)
        results = linux_guest.run_bench(bench_dir, args.out, args.modes,
                                        timeout=args.linux_timeout,
                                        quiet=args.quiet, only=words[1:],
                                        disk=args.disk,
                                        net_models=args.net_model if args.net else ())
    except KeyboardInterrupt:
        warn("Linux run interrupted; the Myrmex results are kept")
        return ["**Linux run interrupted.**"], True
    except Exception as e:  # noqa: BLE001 (any failure: keep the Myrmex results)
        setup = type(e).__name__ in ("LinuxSetupError", "QemuError")
        why = str(e) if setup else "%s: %s" % (type(e).__name__, e)
        if os.path.isfile(linux_file):
            why += " (the Linux rows below are those of an earlier run)"
        return ["**Linux run failed:** %s" % why], True
    notes, failed = [], False
    for r in results:
        if r.error:
            notes.append("**Linux mode %s failed:** %s" % (r.mode, r.error))
            failed = True
    return notes, failed


def publish(args, records, results, notes=(), show=False):
    """Write results.jsonl (Myrmex, then other OSes, then the POSIX part's) and
    report.md."""
    other = read_other_os(os.path.join(args.out, "results.linux.jsonl"))
    other += read_other_os(os.path.join(args.out, "posix-boot", "results.jsonl"))
    other += read_other_os(os.path.join(args.out, "fmap-boot", "results.jsonl"))
    other += read_other_os(os.path.join(args.out, WSC_OUT, "results.jsonl"))
    other += read_other_os(os.path.join(args.out, "wsccache-boot", "results.jsonl"))
    other += read_other_os(os.path.join(args.out, "fsconf-boot", "results.jsonl"))
    other += read_other_os(os.path.join(args.out, "shell-boot", "results.jsonl"))
    write_jsonl(os.path.join(args.out, "results.jsonl"), records + other)
    report = render_report(records + other, results, qemu.qemu_version(), notes)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(report)
    if show:
        print()
        print(report, end="")


def draw_plots(out):
    """The wrapped-call plots (tools/plot_wsc.py) and paper 004's figure 10
    (tools/plot_eth.py), matplotlib, from out's
    results.jsonl; returns report notes. Run by a python3 that has matplotlib
    (tools/plot_panels.py: this one, or Debian's /usr/bin/python3)."""
    import subprocess
    import plot_panels  # noqa: E402  (tools/plot_panels.py)
    python = plot_panels.python_with_matplotlib()
    if python is None:
        return ["Plots not drawn: no python3 with matplotlib (Debian: python3-matplotlib)."]
    notes = []
    for name in ("plot_wsc.py", "plot_eth.py"):   # wrapped calls; paper 004's figure 10
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
        proc = subprocess.run([python, script, out], capture_output=True, text=True)
        if proc.returncode != 0:
            notes.append("Plots of %s failed: %s" % (name, (proc.stderr or proc.stdout).strip()[-300:]))
        else:
            print(proc.stdout.strip(), flush=True)
    return notes


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    os.makedirs(args.out, exist_ok=True)
    try:
        parts = parts_wanted(args)
    except ValueError as e:
        warn(str(e))
        return 2
    results, records, linux_notes, linux_failed = [], [], [], False
    if "benchinit" in parts:
        try:
            for mode in args.modes:
                results.append(run_mode(mode, args))
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        records = [rec for r in results for rec in make_records(r)]
        # Written now, so that whatever happens to the Linux run keeps them.
        publish(args, records, results)
        linux_notes, linux_failed = run_linux(args)
    else:
        records = earlier_records(args)
        linux_notes = ["Only the %s part was run (%s=%s): the other rows are those of "
                       "the last full run." % (parts[0], ONLY_ENV, parts[0])]
    posix_notes, posix_failed, header = [], False, results
    if "posix" in parts:
        import bench_posix  # noqa: E402  (tools/bench_posix.py; it imports us)
        try:
            posix_results, posix_notes, posix_failed = bench_posix.run_part(args)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        header = results or posix_results   # the report's accelerators
    elif args.posix_init:
        posix_notes = ["The POSIX boot was not run (%s=%s): its rows are those "
                       "of its last run." % (ONLY_ENV, parts[0])]
    fmap_notes, fmap_failed = [], False
    if "fmap" in parts:
        import bench_fmap  # noqa: E402  (tools/bench_fmap.py; it imports us)
        try:
            fmap_results, fmap_notes, fmap_failed = bench_fmap.run_part(args)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        header = header or fmap_results
    elif args.fmap_dir:
        fmap_notes = ["The OMF boot was not run (%s=%s): its rows are those of its "
                      "last run." % (ONLY_ENV, parts[0])]
    wsc_notes, wsc_failed = [], False
    if "wsc" in parts:
        import bench_posix  # noqa: E402
        try:
            wsc_results, wsc_notes, wsc_failed = bench_posix.run_part(
                args, only=WSC_PROGRAMS, out_name=WSC_OUT)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        wsc_notes = ["Wrapped-call boot: %s" % n for n in wsc_notes]
        header = header or wsc_results
    if "wsccache" in parts:
        import bench_wsc_cache  # noqa: E402  (tools/bench_wsc_cache.py)
        try:
            cache_notes, cache_failed = bench_wsc_cache.run_part(args)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        wsc_notes += cache_notes
        wsc_failed = wsc_failed or cache_failed
    elif args.cachesim:
        wsc_notes.append("The wsc-cache boot was not run (%s=%s): its rows are those "
                         "of its last run." % (ONLY_ENV, parts[0]))
    fsconf_failed = False
    if "fsconf" in parts:
        import bench_fsconf  # noqa: E402  (tools/bench_fsconf.py; it imports us)
        try:
            fsconf_results, fsconf_notes, fsconf_failed = bench_fsconf.run_part(args)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        header = header or fsconf_results
        wsc_notes += fsconf_notes
    elif args.posix_init:
        wsc_notes.append("The fsconf boots were not run (%s=%s): their rows are those "
                         "of their last run." % (ONLY_ENV, parts[0]))
    shell_failed = False
    if "shell" in parts:
        import bench_shell  # noqa: E402  (tools/bench_shell.py; it imports us)
        try:
            shell_notes, shell_failed = bench_shell.run_part(args)
        except KeyboardInterrupt:
            warn("interrupted")
            return 130
        wsc_notes += shell_notes
    elif args.posix_init:
        wsc_notes.append("The shell boots were not run (%s=%s): their rows are those "
                         "of their last run." % (ONLY_ENV, parts[0]))
    posix_notes += fmap_notes + wsc_notes
    publish(args, records, header, linux_notes + posix_notes, show=False)
    posix_notes += draw_plots(args.out)
    publish(args, records, header, linux_notes + posix_notes, show=True)
    failed = posix_failed or fmap_failed or wsc_failed or fsconf_failed or shell_failed
    for note in posix_notes:
        warn(note.replace("**", ""))
    for r in results:
        for note in r.notes:
            warn("%s: %s" % (r.mode, note))
        if r.error:
            warn("mode %s failed: %s" % (r.mode, r.error))
            failed = True
    if linux_failed:
        for note in linux_notes:
            warn(note.replace("**", ""))
        warn("the Linux comparison failed%s (set %s=0 to skip Linux)" % (
            "" if failed else "; the Myrmex results above are complete", LINUX_ENV))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
