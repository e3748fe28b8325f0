#!/usr/bin/env python3
"""bench_fmap.py - the On-Memory File boot of `make bench` (issue 6, paper 000).

Role: measures readblock, readbyte and mmap of files against Linux with the
paper's three experiments, the same static binaries (bench/fmap/) on both:

- figure 4 (suite fmap): map / reference / total time of the first 4..128 KB
  of a cached 1,024 KB file, omf (readblock), mmap-odp, mmap-pre; the figure
  is the mean of repetitions 6..45 of 50 (the paper's method);
- figure 5 (suite fmap-postmark): PostMark's read transactions (25 files of
  500..10,000 bytes, 25 transactions) in block units (readblock, read) and
  byte units (readbyte, fread, read); and Debian's PostMark itself (built
  here from Debian's source with musl, `postmark` below), buffered and not;
- figure 6 (suite fmap-bonnie): Bonnie's random 4 KB reads and updates, 1 and
  5 processes, 4,000 operations, update probability 0..100 %.

The disk: tools/mkrootfs.py's root (busybox, /tmp) plus the programs of
--fmap-dir in /bench/fmap, written afresh to <out>/fmap-boot/root.img; each
boot gets its own copy (the programs write their files in /tmp). Myrmex,
once per mode (bench.py's run_mode): `sysinit /bench/fmap/run` with the
POSIX boot's modules. Linux, once per mode in the same QEMU machine: an
initramfs whose /init mounts the same disk read-write and runs
`chroot /mnt/root /bench/fmap/run`. MYRMEX_BENCH_LINUX=0 skips Linux (its
earlier rows are kept). $MYRMEX_FMAP_PARTS (e.g. "fig4:4,32 fig6") and
$MYRMEX_FMAP_ICOUNT_PARTS (the instruction-count run only) narrow what runs.

Everything goes to <out>/fmap-boot/: logs, disks, results.jsonl (merged by
bench.py into <out>/results.jsonl), summary.md (the tables and the aims of
docs/benchmarks.md) and the plots <out>/fmap-fig{4,5,6}.svg (matplotlib,
tools/plot_panels.py, through Debian's python3 when this one lacks it).

    python3 tools/bench_fmap.py postmark --dest build/bench/fmap/postmark
    python3 tools/bench_fmap.py summary [--out build/bench]
    MYRMEX_BENCH_ONLY=fmap make bench        (the boots, through bench.py)
"""

import argparse
import datetime
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench        # noqa: E402  (tools/bench.py: boots, parser, records)
import bench_posix  # noqa: E402  (its parser: BENCH-ERROR and sysinit lines)
import debsrc       # noqa: E402  (Debian source packages from apt's mirror)
import plot_panels  # noqa: E402  (matplotlib, the one way the tools draw)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = "fmap-boot"               # under bench.py's --out
RESULTS = "results.jsonl"
FMAP_DIR = "/bench/fmap"            # where the disk holds the programs
RUNNER = FMAP_DIR + "/run"
ROOT_MIB = 64
MOUNT = "/mnt/root"
LINUX_APPLETS = ["sh", "mount", "poweroff", "cat", "cut", "uname", "insmod",
                 "mkdir", "sleep", "chroot"]
SUITES = ("fmap", "fmap-postmark", "fmap-bonnie")
PARTS_ENV = "MYRMEX_FMAP_PARTS"
ICOUNT_PARTS_ENV = "MYRMEX_FMAP_ICOUNT_PARTS"
POSTMARK_PKG = "postmark"
POSTMARK_SHIM = os.path.join(ROOT, "bench", "fmap", "postmark_shim.c")
# BENCH keys that are not events per operation.
PARAM_KEYS = ("calls", "files", "bytes_read", "per_op", "ops", "procs", "transactions")
TABLE_SIZES = (4, 8, 16, 32, 64, 128)
PAPER = {"omf.32": 3.93, "odp.32": 4.98, "pre.32": 4.92,
         "omf.4": 2.58, "odp.4": 1.05, "pre.4": 1.11}


def say(text):
    print("bench_fmap: %s" % text, flush=True)


class FmapError(Exception):
    """The boot cannot be prepared (no programs, no PostMark source...)."""


# ---------------------------------------------------------------- PostMark

def run(cmd, cwd=None):
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if res.returncode != 0:
        raise FmapError("%s: %s" % (" ".join(cmd), (res.stderr or res.stdout).strip()[-800:]))
    return res.stdout


def postmark_tree(cache):
    """Debian's postmark source unpacked under cache (tools/debsrc.py: fetched
    once from apt's mirror, checked against the .dsc)."""
    try:
        return os.path.dirname(debsrc.source_tree(POSTMARK_PKG, cache, "postmark-*.c"))
    except debsrc.DebSrcError as e:
        raise FmapError(str(e))


def build_postmark(dest, cache):
    """dest: Debian's PostMark, static with musl (getwd from postmark_shim.c)."""
    tree = postmark_tree(cache)
    source = sorted(glob.glob(os.path.join(tree, "postmark-*.c")))[-1]
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    run(["musl-gcc", "-O2", "-static", "-w", "-Dgetwd=postmark_getwd", source,
         POSTMARK_SHIM, "-o", dest + ".part"])
    os.replace(dest + ".part", dest)
    say("built %s from %s" % (dest, os.path.relpath(source, ROOT)))
    return dest


def ensure_postmark(fmap_dir, out):
    """Builds fmap_dir/postmark when missing; returns a note on failure."""
    dest = os.path.join(fmap_dir, "postmark")
    if os.path.isfile(dest) and os.path.getmtime(dest) >= os.path.getmtime(POSTMARK_SHIM):
        return None
    try:
        build_postmark(dest, os.path.join(out, "postmark-src"))
        return None
    except (FmapError, OSError) as e:
        return "Debian's PostMark not built (its rows are skipped): %s" % e


# ---------------------------------------------------------------- the disk

def programs(fmap_dir):
    found = [os.path.join(fmap_dir, n) for n in sorted(os.listdir(fmap_dir))
             if os.path.isfile(os.path.join(fmap_dir, n)) and
             os.access(os.path.join(fmap_dir, n), os.X_OK)]
    if not any(os.path.basename(p) == "run" for p in found):
        raise FmapError("no runner %s/run (make benchmarks)" % fmap_dir)
    return found


def make_image(fmap_dir, out):
    image = os.path.join(out, "root.img")
    cmd = [sys.executable, os.path.join(ROOT, "tools", "mkrootfs.py"), image, str(ROOT_MIB)]
    for path in programs(fmap_dir):
        cmd += ["--add", "%s:%s/%s" % (os.path.abspath(path), FMAP_DIR, os.path.basename(path))]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        raise FmapError("mkrootfs.py failed: %s" % (res.stderr or res.stdout).strip())
    return image


# ---------------------------------------------------------------- records

def parts_for(mode):
    """The runner's arguments for a mode (none: everything)."""
    text = os.environ.get(PARTS_ENV, "")
    if mode == "icount" and os.environ.get(ICOUNT_PARTS_ENV):
        text = os.environ[ICOUNT_PARTS_ENV]
    return text.split()


def postmark_reports(log_path):
    """{variant: [report lines]} from a console log's FMAP-POSTMARK lines."""
    reports = {}
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                words = line.strip().split(None, 2)
                if words[:1] == ["FMAP-POSTMARK"] and len(words) == 3:
                    reports.setdefault(words[1], []).append(words[2].strip())
    except OSError:
        pass
    return reports


def report_numbers(lines):
    """PostMark's whole-second report, as numbers."""
    nums = {}
    for line in lines:
        m = re.match(r"(\d+) seconds total", line)
        if m:
            nums["seconds_total"] = int(m.group(1))
        m = re.match(r"\d+ seconds of transactions \((\d+) per second\)", line)
        if m:
            nums["transactions_per_second"] = int(m.group(1))
    return nums


def fix_record(rec, reports):
    """bench.make_records' record, made this suite's: mean and max (figure 4's
    mean is over repetitions 6..45, the paper's figure; value stays the median,
    as in every other suite), the parameters and the whole-repetition counts
    apart from the events, µs of the mean and per operation."""
    counts = rec.get("counts", {})
    rec["median"] = rec["value"]
    for key in ("mean", "max"):
        if key in counts:
            rec[key] = counts.pop(key)
    params = {k: counts.pop(k) for k in PARAM_KEYS if k in counts}
    rep = {k[4:]: counts.pop(k) for k in list(counts) if k.startswith("rep_")}
    if params:
        rec["params"] = params
    if rep:
        rec["rep_counts"] = rep
    if rec["suite"] == "fmap":
        rec["stat"] = "value: median, mean: mean of repetitions 6..45 of 50 (the paper's)"
    else:
        rec["stat"] = "value: median of %d runs" % rec.get("runs", 0)
    khz = rec.get("tsc_khz")
    if rec["metric"] == "cycles" and khz:
        if "mean" in rec:
            rec["us_mean"] = round(rec["mean"] / khz * 1000, 3)
        if "per_op" in params:
            rec["us_per_op"] = round(params["per_op"] / khz * 1000, 4)
    name = rec["name"]
    if name.startswith("postmark.real."):
        lines = reports.get(name.split(".", 2)[2], [])
        rec["postmark_report"] = dict(report_numbers(lines), lines=lines)
    return rec


def mode_records(res, log_path, os_name, extra=None):
    reports = postmark_reports(log_path)
    return [fix_record(r, reports) for r in bench.make_records(res, os_name, extra)]


def summarise_notes(notes, os_name):
    """The notes, with the skipped figures grouped into one line per reason
    (Linux's missing readblock is expected and dropped)."""
    kept, skips = [], {}
    for note in notes:
        m = re.match(r"skipped: (\S+) (\S+) (-?\d+)$", note)
        if not m:
            kept.append(note)
            continue
        omf = "omf" in m.group(2) or ".omf." in m.group(1) + "."
        if os_name == "linux" and omf and m.group(3) == "-38":
            continue
        skips.setdefault((m.group(2), m.group(3)), []).append(m.group(1))
    for (why, err), names in skips.items():
        kept.append("%d figures skipped (%s, %s): %s%s" % (
            len(names), why, err, ", ".join(names[:4]), ", ..." if len(names) > 4 else ""))
    return kept


# ---------------------------------------------------------------- boots

def run_myrmex(args, image, out):
    results = []
    for mode in args.modes:
        init = " ".join([args.posix_init, RUNNER] + parts_for(mode))
        boot = argparse.Namespace(kernel=args.kernel, init=init,
                                  modules=list(args.posix_modules), out=out, disk=image,
                                  timeout=args.timeout, quiet=args.quiet)
        print("== OMF boot on Myrmex (%s): %s" % (mode, init), flush=True)
        # The runner's lines are those of the POSIX boot's runner.
        results.append(bench.run_mode(mode, boot, bench_posix.PosixParser()))
    return results


def linux_init(modules, parts):
    from linux_initramfs import INIT_MARK, disk_script
    return """#!/bin/sh
# /init of the OMF benchmark initramfs (written by tools/bench_fmap.py).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "{mark} start uptime=$(cut -d' ' -f1 /proc/uptime) $(uname -r)"
{disk}mount -t devtmpfs devtmpfs {mount}/dev
chroot {mount} {runner} {parts} </dev/null >/dev/console 2>&1
echo "{mark} exit $?"
poweroff -f
""".format(mark=INIT_MARK, disk=disk_script(modules, MOUNT, "rw"), mount=MOUNT,
           runner=RUNNER, parts=" ".join(parts))


def run_linux(args, image, out):
    """One Linux boot per mode; returns (records, notes)."""
    import linux_guest
    import linux_initramfs as initramfs
    import linux_kernel as lk
    kernel = lk.get_kernel(lk.LINUX_DIR)
    busybox = lk.get_busybox(lk.LINUX_DIR)
    mods = lk.get_modules(lk.LINUX_DIR, kernel)
    version = (lk.bzimage_version(kernel) or "unknown").split()[0]
    append = lk.kernel_append()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    records, notes = [], []
    for mode in args.modes:
        cpio = initramfs.base_archive(busybox, LINUX_APPLETS)
        initramfs.add_modules(cpio, mods)
        cpio.file("init", linux_init([n for n, _ in mods], parts_for(mode)).encode())
        initrd = os.path.join(out, "linux-initramfs-%s.cpio.gz" % mode)
        initramfs.write_archive(cpio, initrd)
        print("== OMF boot on Linux (%s): chroot %s %s" % (mode, MOUNT, RUNNER), flush=True)
        res = linux_guest.run_linux_mode(mode, kernel, initrd, append, out,
                                         args.linux_timeout, args.quiet, image)
        records += mode_records(res, os.path.join(out, "linux-%s.log" % mode), "linux",
                                {"kernel": version, "cmdline": append, "date": date})
        notes += ["OMF boot, Linux %s: %s" % (mode, n)
                  for n in summarise_notes(res.notes, "linux")]
        if res.error:
            notes.append("**OMF boot, Linux mode %s failed:** %s" % (mode, res.error))
    return records, notes


def keep_earlier(path, records):
    """This run's records plus the earlier ones of (os, metric) pairs not run."""
    ran = {(r.get("os"), r.get("metric")) for r in records}
    kept = [r for r in bench.read_other_os(path) if (r.get("os"), r.get("metric")) not in ran]
    return records + kept


def run_part(args):
    """The OMF part of `make bench`: writes <out>/fmap-boot/results.jsonl,
    summary.md and the plots. Returns (Myrmex ModeResults, notes, failed)."""
    out = os.path.join(args.out, OUT_DIR)
    os.makedirs(out, exist_ok=True)
    notes = []
    note = ensure_postmark(args.fmap_dir, args.out)
    if note:
        notes.append(note)
    try:
        image = make_image(args.fmap_dir, out)
    except (OSError, FmapError) as e:
        return [], ["**OMF boot not run:** %s" % e], True
    results = run_myrmex(args, image, out)
    records, failed = [], False
    for r in results:
        records += mode_records(r, os.path.join(out, "%s.log" % r.mode), "myrmex")
        notes += ["OMF boot, Myrmex %s: %s" % (r.mode, n)
                  for n in summarise_notes(r.notes, "myrmex")]
        if r.error:
            notes.append("**OMF boot, Myrmex mode %s failed:** %s" % (r.mode, r.error))
            failed = True
    path = os.path.join(out, RESULTS)
    bench.write_jsonl(path, keep_earlier(path, records))
    if bench.linux_wanted():
        try:
            linux_records, linux_notes = run_linux(args, image, out)
            records += linux_records
            notes += linux_notes
        except KeyboardInterrupt:
            notes.append("**OMF boot on Linux interrupted.**")
        except Exception as e:  # noqa: BLE001 (keep the Myrmex results)
            notes.append("**OMF boot on Linux failed:** %s: %s" % (type(e).__name__, e))
    else:
        notes.append("OMF boot on Linux skipped (%s=0)." % bench.LINUX_ENV)
    merged = keep_earlier(path, records)
    bench.write_jsonl(path, merged)
    try:
        write_summary(merged, args.out)
    except Exception as e:  # noqa: BLE001 (the figures are written already)
        notes.append("OMF summary or plots failed: %s: %s" % (type(e).__name__, e))
    return results, notes, failed


# ---------------------------------------------------------------- summary

def index(records):
    """{(os, metric, name): record} of this part's suites."""
    return {(r.get("os"), r.get("metric"), r.get("name")): r for r in records
            if r.get("suite") in SUITES}


def figure(idx, os_name, metric, name, key=None):
    """A record's figure: the mean for figure 4 (the paper's statistic), else
    the median (or key); instructions as counted, cycles as µs."""
    rec = idx.get((os_name, metric, name))
    if rec is None:
        return None
    key = key or ("mean" if rec.get("suite") == "fmap" else "value")
    value = rec.get(key)
    if value is None or metric != "cycles":
        return value
    khz = rec.get("tsc_khz")
    return value / khz * 1000 if khz else None


def fmt(v, digits=0):
    if v is None:
        return "–"
    return "{:,.{}f}".format(v, digits)


FIG4_COLUMNS = [("myrmex", "omf", "OMF"), ("myrmex", "mmap-odp", "Myrmex ODP"),
                ("myrmex", "mmap-pre", "Myrmex pre-get"), ("linux", "mmap-odp", "Linux ODP"),
                ("linux", "mmap-pre", "Linux pre-get")]


def fig4_cell(idx, os_name, metric, name):
    """Instructions: the mean; µs: mean / median (TCG's outliers move the mean)."""
    mean = figure(idx, os_name, metric, name)
    if metric != "cycles" or mean is None:
        return fmt(mean)
    return "%s / %s" % (fmt(mean, 1), fmt(figure(idx, os_name, metric, name, "value"), 1))


def fig4_tables(idx):
    out = []
    for metric, unit in (("instructions", "instructions, mean of repetitions 6..45"),
                         ("cycles", "µs under TCG, mean of repetitions 6..45 / median")):
        for phase in ("total", "map", "ref"):
            out += ["", "Figure 4, %s (%s):" % (phase, unit), "",
                    "| KB | " + " | ".join(c[2] for c in FIG4_COLUMNS) + " |",
                    "|---:|" + "---:|" * len(FIG4_COLUMNS)]
            for kb in TABLE_SIZES:
                cells = [fig4_cell(idx, o, metric, "fmap.%s.%s.%d" % (i, phase, kb))
                         for o, i, _ in FIG4_COLUMNS]
                out.append("| %d | %s |" % (kb, " | ".join(cells)))
    out += ["", "Counts per repetition at 32 KB (map phase / ref phase; Myrmex: "
            "system-wide, Linux: the process's page faults):", "",
            "| implementation | IPCs | page faults | pager calls | TLB invalidations "
            "| TLB flushes |", "|---|---:|---:|---:|---:|---:|"]
    for os_name, impl, label in FIG4_COLUMNS:
        recs = [idx.get((os_name, m, "fmap.%s.%s.32" % (impl, ph)))
                for ph in ("map", "ref") for m in ("instructions", "cycles")]
        rm = recs[0] or recs[1]
        rr = recs[2] or recs[3]
        if not rm or not rr:
            continue

        def pair(key, rm=rm, rr=rr):
            a, b = rm["counts"].get(key), rr["counts"].get(key)
            return "–" if a is None else "%g / %g" % (a, b)
        out.append("| %s (%s) | %s | %s | %s | %s | %s |" % (
            label, os_name, pair("ipc"), pair("pgfault"), pair("pagein"), pair("tlbinval"),
            pair("tlbflush")))
    return out


def kb_ranges(sizes):
    """[4, 8, 12, 20] -> "4–12, 20" (steps of 4 KB)."""
    runs = []
    for kb in sorted(sizes):
        if runs and kb == runs[-1][1] + 4:
            runs[-1][1] = kb
        else:
            runs.append([kb, kb])
    return ", ".join("%d" % a if a == b else "%d–%d" % (a, b) for a, b in runs)


AIM_STATS = (("instructions", None, "instructions"), ("cycles", None, "cycles, mean"),
             ("cycles", "value", "cycles, median"))


def fig4_aims(idx):
    sizes = sorted({int(k[2].rsplit(".", 1)[1]) for k in idx
                    if k[2].startswith("fmap.omf.total.")})
    out = []
    for metric, key, label in AIM_STATS:
        good, bad = [], []
        for kb in sizes:
            omf = figure(idx, "myrmex", metric, "fmap.omf.total.%d" % kb, key)
            lin = [figure(idx, "linux", metric, "fmap.%s.total.%d" % (i, kb), key)
                   for i in ("mmap-odp", "mmap-pre")]
            lin = [v for v in lin if v is not None]
            if omf is None or not lin:
                continue
            (good if omf < min(lin) else bad).append(kb)
        if not good and not bad:
            out.append("- OMF total below Linux's best mmap (%s): not measured." % label)
        else:
            out.append("- OMF total below Linux's best mmap (%s): %s (below at %d of %d "
                       "sizes%s)." % (label, "met" if not bad else "not met", len(good),
                                      len(good) + len(bad),
                                      "; not at %s KB" % kb_ranges(bad) if bad else ""))
    for impl in ("mmap-odp", "mmap-pre"):
        for metric, key, label in AIM_STATS:
            ratios = []
            for kb in sizes:
                m = figure(idx, "myrmex", metric, "fmap.%s.total.%d" % (impl, kb), key)
                lin = figure(idx, "linux", metric, "fmap.%s.total.%d" % (impl, kb), key)
                if m is not None and lin:
                    ratios.append((m / lin, kb))
            if not ratios:
                out.append("- Myrmex %s within 1.5× of Linux's (%s): not measured." % (
                    impl, label))
                continue
            over = [kb for r, kb in ratios if r > 1.5]
            out.append("- Myrmex %s within 1.5× of Linux's (%s): %s (ratio %.2f..%.2f%s)." % (
                impl, label, "met" if not over else "not met", min(ratios)[0],
                max(ratios)[0], "; over 1.5 at %d of %d sizes, from %d KB" % (
                    len(over), len(ratios), min(over)) if over else ""))
    return out


def fig5_tables(idx):
    out = []
    for metric, unit, digits in (("instructions", "instructions", 0), ("cycles", "µs", 1)):
        out += ["", "Figure 5, 25 transactions (%s per run, median):" % unit, "",
                "| unit | Myrmex readblock | Myrmex read | Linux read |",
                "|---|---:|---:|---:|"]
        for n in (1, 2, 3):
            cells = [fmt(figure(idx, o, metric, "pmark.block.%s.%d" % (a, n)), digits)
                     for o, a in (("myrmex", "readblock"), ("myrmex", "read"),
                                  ("linux", "read"))]
            out.append("| %d block%s | %s |" % (n, "s" if n > 1 else "", " | ".join(cells)))
        out += ["", "| unit | Myrmex readbyte | Myrmex fread | Myrmex read | Linux fread "
                "| Linux read |", "|---|---:|---:|---:|---:|---:|"]
        for n in (128, 256, 512, 1024, 2048, 4096):
            cells = [fmt(figure(idx, o, metric, "pmark.byte.%s.%d" % (a, n)), digits)
                     for o, a in (("myrmex", "readbyte"), ("myrmex", "fread"),
                                  ("myrmex", "read"), ("linux", "fread"), ("linux", "read"))]
            out.append("| %d B | %s |" % (n, " | ".join(cells)))
    out += ["", "Debian's PostMark 1.53 (25 files, 25 transactions, 500..10,000 bytes; "
            "whole run, fork to exit, median of 5):", "",
            "| variant | OS | instructions | µs | PostMark's report |", "|---|---|---:|---:|---|"]
    for variant in ("buffered", "unbuffered"):
        for os_name in ("myrmex", "linux"):
            name = "postmark.real.%s" % variant
            ins = figure(idx, os_name, "instructions", name)
            us = figure(idx, os_name, "cycles", name)
            rec = idx.get((os_name, "cycles", name)) or idx.get((os_name, "instructions", name))
            if rec is None:
                continue
            rep = rec.get("postmark_report", {})
            text = "%s s total, %s transactions/s" % (rep.get("seconds_total", "?"),
                                                     rep.get("transactions_per_second", "?"))
            out.append("| %s | %s | %s | %s | %s |" % (variant, os_name, fmt(ins), fmt(us, 0),
                                                      text))
    return out


def fig6_tables(idx):
    out = []
    series = (("myrmex", "omf", "Myrmex OMF"), ("myrmex", "rw", "Myrmex pread/pwrite"),
              ("linux", "rw", "Linux pread/pwrite"))
    for metric, unit, digits in (("instructions", "instructions", 0), ("cycles", "µs", 2)):
        key = "per_op"
        out += ["", "Figure 6, per operation (%s, median of 3 runs of 4,000):" % unit, "",
                "| update % | " + " | ".join("%s, %d proc" % (s[2], p) for s in series
                                              for p in (1, 5)) + " |",
                "|---:|" + "---:|" * (2 * len(series))]
        for pct in range(0, 101, 10):
            cells = []
            for o, impl, _ in series:
                for p in (1, 5):
                    rec = idx.get((o, metric, "bonnie.%s.%dp.%d" % (impl, p, pct)))
                    v = None
                    if rec:
                        v = rec.get("us_per_op") if metric == "cycles" else \
                            rec.get("params", {}).get(key)
                    cells.append(fmt(v, digits))
            out.append("| %d | %s |" % (pct, " | ".join(cells)))
    return out


def per_op_range(idx, os_name, metric, impl, p):
    """(per operation at 0 %, at 100 %, spread over all percentages), or None."""
    recs = [idx.get((os_name, metric, "bonnie.%s.%dp.%d" % (impl, p, pct)))
            for pct in range(0, 101, 10)]
    vals = [r["params"]["per_op"] for r in recs if r and "per_op" in r.get("params", {})]
    if len(vals) < 2 or not min(vals):
        return None
    return vals[0], vals[-1], (max(vals) - min(vals)) / min(vals)


def fig6_aim(idx):
    out = []
    for p in (1, 5):
        for metric in ("instructions", "cycles"):
            omf = per_op_range(idx, "myrmex", metric, "omf", p)
            who = "%d process%s, %s per operation" % (p, "es" if p > 1 else "", metric)
            if omf is None:
                out.append("- OMF flat in the update probability (%s): not measured." % who)
                continue
            rise = (omf[1] - omf[0]) / omf[0]
            text = ("- OMF flat in the update probability (%s): %s (%.1f at 0 %% and %.1f "
                    "at 100 %% updates, %+.1f %%; the criterion: under 10 %%; largest "
                    "spread %.1f %%)" % (who, "met" if abs(rise) < 0.10 else "not met",
                                         omf[0], omf[1], 100 * rise, 100 * omf[2]))
            for os_name in ("myrmex", "linux"):
                rw = per_op_range(idx, os_name, metric, "rw", p)
                if rw:
                    text += "; %s pread/pwrite %.0f to %.0f" % (
                        "Myrmex" if os_name == "myrmex" else "Linux", rw[0], rw[1])
            out.append(text + ".")
    return out


def write_summary(records, out_dir):
    """<out>/fmap-boot/summary.md and the plots (tools/plot_panels.py)."""
    idx = index(records)
    lines = ["# On-Memory File and mapped files (issue 6, paper 000)", "",
             "Paper (AnT, Core i7-2600 3.4 GHz): 32 KB total OMF %.2f µs, Linux ODP %.2f, "
             "pre-get %.2f; 4 KB OMF %.2f, Linux ODP %.2f, pre-get %.2f." % (
                 PAPER["omf.32"], PAPER["odp.32"], PAPER["pre.32"], PAPER["omf.4"],
                 PAPER["odp.4"], PAPER["pre.4"])]
    lines += fig4_tables(idx) + fig5_tables(idx) + fig6_tables(idx)
    lines += ["", "Aims of issue 6:", ""] + fig4_aims(idx) + fig6_aim(idx)
    path = os.path.join(out_dir, OUT_DIR, "summary.md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    for name, panels, cols in (("fmap-fig4", fig4_panels(idx), 3),
                               ("fmap-fig5", fig5_panels(idx), 2),
                               ("fmap-fig6", fig6_panels(idx), 3)):
        if any(s[3] for p in panels for s in p["series"]):
            why = plot_panels.render(panels, cols, os.path.join(out_dir, name + ".svg"))
            if why:
                print("bench_fmap: %s not drawn: %s" % (name, why), flush=True)
    return path


# ---------------------------------------------------------------- plots

STYLES = {("myrmex", "omf"): ("#d62728", ""), ("myrmex", "mmap-odp"): ("#1f77b4", ""),
          ("myrmex", "mmap-pre"): ("#2ca02c", ""), ("linux", "mmap-odp"): ("#1f77b4", "6,4"),
          ("linux", "mmap-pre"): ("#2ca02c", "6,4"), ("myrmex", "readblock"): ("#d62728", ""),
          ("myrmex", "readbyte"): ("#d62728", ""), ("myrmex", "read"): ("#1f77b4", ""),
          ("linux", "read"): ("#1f77b4", "6,4"), ("myrmex", "fread"): ("#9467bd", ""),
          ("linux", "fread"): ("#9467bd", "6,4"), ("myrmex", "rw"): ("#1f77b4", ""),
          ("linux", "rw"): ("#1f77b4", "6,4")}


def series(idx, os_name, impl, label, metric, names, key=None):
    """(label, color, dash, [(x, y)]) for [(x, record name)]."""
    color, dash = STYLES[(os_name, impl)]
    pts = [(x, figure(idx, os_name, metric, n, key)) for x, n in names]
    return (label, color, dash, [(x, y) for x, y in pts if y is not None])


def fig4_panels(idx):
    """Figure 4: map, ref, total; instructions (mean of repetitions 6..45) and
    µs (the median: under TCG on a shared host the mean follows outliers)."""
    panels = []
    for metric, unit, key in (("instructions", "instructions", None),
                              ("cycles", "µs (TCG), median", "value")):
        for phase in ("map", "ref", "total"):
            ss = [series(idx, o, i, "%s (%s)" % (i, o), metric,
                         [(kb, "fmap.%s.%s.%d" % (i, phase, kb)) for kb in range(4, 132, 4)],
                         key)
                  for o, i, _ in FIG4_COLUMNS]
            panels.append({"title": "%s, %s" % (phase, unit), "xlabel": "mapping size (KB)",
                           "series": ss})
    return panels


def fig5_panels(idx):
    panels = []
    for metric, unit in (("instructions", "instructions"), ("cycles", "µs (TCG)")):
        ss = [series(idx, o, a, "%s (%s)" % (a, o), metric,
                     [(n, "pmark.block.%s.%d" % (a, n)) for n in (1, 2, 3)])
              for o, a in (("myrmex", "readblock"), ("myrmex", "read"), ("linux", "read"))]
        panels.append({"title": "(A) block units, %s" % unit, "xlabel": "blocks per call",
                       "series": ss, "categorical": True})
        ss = [series(idx, o, a, "%s (%s)" % (a, o), metric,
                     [(n, "pmark.byte.%s.%d" % (a, n)) for n in (128, 256, 512, 1024, 2048,
                                                                4096)])
              for o, a in (("myrmex", "readbyte"), ("myrmex", "fread"), ("myrmex", "read"),
                           ("linux", "fread"), ("linux", "read"))]
        panels.append({"title": "(B) byte units, %s" % unit, "xlabel": "bytes per call",
                       "series": ss, "categorical": True})
    return panels


def fig6_panels(idx):
    """Figure 6: (A) 1 process, (B) 5 processes, (C) their difference, per
    4,000 operations."""
    panels = []
    impls = (("myrmex", "omf"), ("myrmex", "rw"), ("linux", "rw"))
    for metric, unit in (("instructions", "instructions"), ("cycles", "µs (TCG)")):
        by_p = {}
        for p in (1, 5):
            by_p[p] = [series(idx, o, i, "%s (%s)" % (i, o), metric,
                              [(pct, "bonnie.%s.%dp.%d" % (i, p, pct))
                               for pct in range(0, 101, 10)])
                       for o, i in impls]
            panels.append({"title": "(%s) %d process%s, %s" % (
                "A" if p == 1 else "B", p, "es" if p > 1 else "", unit),
                "xlabel": "update probability (%)", "series": by_p[p]})
        diff = []
        for one, five in zip(by_p[1], by_p[5]):
            ys = dict(one[3])
            diff.append(one[:3] + ([(x, y - ys[x]) for x, y in five[3] if x in ys],))
        panels.append({"title": "(C) 5 − 1 processes, %s" % unit,
                       "xlabel": "update probability (%)", "series": diff})
    return panels


# ---------------------------------------------------------------- CLI

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pm = sub.add_parser("postmark", help="fetch Debian's source once and build PostMark")
    pm.add_argument("--dest", default="build/bench/fmap/postmark")
    pm.add_argument("--cache", default="build/bench/postmark-src")
    sm = sub.add_parser("summary", help="summary.md and plots from results.jsonl")
    sm.add_argument("--out", default="build/bench")
    args = p.parse_args(argv)
    try:
        if args.cmd == "postmark":
            build_postmark(args.dest, args.cache)
        else:
            records = bench.read_other_os(os.path.join(args.out, OUT_DIR, RESULTS))
            print(open(write_summary(records, args.out), encoding="utf-8").read(), end="")
    except (FmapError, OSError) as e:
        say(str(e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
