#!/usr/bin/env python3
"""bench_wsc_cache.py - paper 001's cache and TLB experiment (figures 5-10), the
part `wsccache` of `make bench` (issue 18; docs/benchmarks.md, "Caches and the TLB").

Boots benchinit with bench/bench_wsc_cache alone under TCG -icount with the
cachesim plugin (tools/cachesim: a model of the paper's Pentium 4 data TLB and
of an 8-way L2 of 256 KiB and of 512 KiB, driven by every guest data access),
pairs the program's `WSCCACHE <uw> <kw> <mode> ticks=<n>` lines with the
plugin's `CACHESIM` lines (one per measured loop, same order) and writes, in
<out>/wsccache-boot/: results.jsonl (suite wsc-cache, figures
wsc.cache.<uw>.<kw>.<metric>, metric "ratio", value wrapped / conventional,
None where the conventional count is 0, the two counts under "counts"),
summary.md (one grid per metric) and, through tools/plot_wsc_cache.py,
the heat maps wsc-cache-<metric>.svg. Metrics: instructions (exact under
-icount), dtlb, l2_256k, l2_512k, and cycles_256k / cycles_512k, cycles
estimated from the model (instructions + DTLB_PENALTY per DTLB miss +
L2_PENALTY per L2 miss): the guests have no performance counters, and TCG's
own cycles know nothing of caches.

MYRMEX_WSC_CACHE_STEP=4 runs the paper's 4 KiB grid (bench_wsc_cache4,
65 x 65 points, about 50 times longer) instead of the 32 KiB one (9 x 9).
Linux is not run: the paper compares conventional and wrapped calls on one
kernel, and Linux has no batch call.

    python3 tools/bench_wsc_cache.py --kernel K --init build/bench/benchinit \\
        --plugin build/tools/cachesim.so [--out build/bench]
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py)

SUITE = "wsc-cache"
OUT_DIR = "wsccache-boot"
RESULTS = "results.jsonl"
STEP_ENV = "MYRMEX_WSC_CACHE_STEP"
PROGRAMS = {32: "bench_wsc_cache", 4: "bench_wsc_cache4"}
DTLB_PENALTY = 30     # cycles per data-TLB miss (a page walk that hits the caches)
L2_PENALTY = 300      # cycles per L2 miss (memory, about 170 ns at 1.8 GHz)
METRICS = ("cycles_256k", "cycles_512k", "dtlb", "l2_256k", "l2_512k", "instructions")
TIMEOUT = {32: 900, 4: 6 * 3600}


class CacheError(Exception):
    pass


def step_wanted():
    text = os.environ.get(STEP_ENV, "32").strip()
    try:
        step = int(text)
    except ValueError:
        step = -1
    if step not in PROGRAMS:
        raise CacheError("%s=%s: must be 32 or 4" % (STEP_ENV, text))
    return step


def parse(console_path, plugin_path):
    """[(uw, kw, mode, {counts})] from the console log and the plugin's file."""
    with open(console_path, encoding="utf-8", errors="replace") as f:
        loops = [line.split() for line in f if line.startswith("WSCCACHE ")]
    with open(plugin_path, encoding="utf-8") as f:
        marks = [line.split() for line in f if line.startswith("CACHESIM ")]
    if not loops or len(loops) != len(marks):
        raise CacheError("%d measured loops on the console, %d plugin records" %
                         (len(loops), len(marks)))
    rows = []
    for loop, mark in zip(loops, marks):
        counts = dict(kv.split("=", 1) for kv in mark[2:] + loop[4:])
        counts = {k: int(v) for k, v in counts.items()}
        counts["instructions"] = counts.pop("ticks")
        for size in ("256k", "512k"):
            counts["cycles_" + size] = (counts["instructions"] + DTLB_PENALTY * counts["dtlb"] +
                                        L2_PENALTY * counts["l2_" + size])
        rows.append((int(loop[1]), int(loop[2]), loop[3], counts))
    return rows


def make_records(rows, step):
    """The wsc-cache records: one per (uw, kw, metric)."""
    points = {}
    for uw, kw, mode, counts in rows:
        points.setdefault((uw, kw), {})[mode] = counts
    records = []
    for (uw, kw), modes in sorted(points.items()):
        if set(modes) != {"conv", "wrapped"}:
            raise CacheError("point %d/%d lacks a mode" % (uw, kw))
        for metric in METRICS:
            conv, wrapped = modes["conv"][metric], modes["wrapped"][metric]
            records.append({
                "suite": SUITE, "name": "wsc.cache.%d.%d.%s" % (uw, kw, metric),
                "os": "myrmex", "metric": "ratio",
                "value": round(wrapped / conv, 4) if conv else None,
                "unit": "wrapped/conventional", "accel": "tcg", "step_kib": step,
                "counts": {"conventional": conv, "wrapped": wrapped,
                           "cr3": modes["conv"]["cr3"] + modes["wrapped"]["cr3"]}})
    return records


def grid(records, metric):
    """({(uw, kw): record}, sorted widths) of one metric."""
    cells = {}
    for r in records:
        parts = r["name"].split(".")
        if r.get("suite") == SUITE and parts[-1] == metric:
            cells[(int(parts[2]), int(parts[3]))] = r
    widths = sorted({w for key in cells for w in key})
    return cells, widths


def cell_text(rec):
    if rec is None:
        return "–"
    if rec.get("value") is None:
        return "0/0" if rec["counts"]["wrapped"] == 0 else "%d/0" % rec["counts"]["wrapped"]
    return "%.2f" % rec["value"]


def report_lines(records):
    """Markdown grids (rows user width, columns kernel width, KiB) per metric."""
    out = []
    for metric in METRICS:
        cells, widths = grid(records, metric)
        if not cells:
            continue
        out += ["**%s**, wrapped / conventional (rows: user width, columns: kernel width, "
                "KiB; n/0: no conventional miss)" % metric, "",
                "| uw \\ kw | %s |" % " | ".join(str(w) for w in widths),
                "|---:|%s" % ("---:|" * len(widths))]
        for uw in widths:
            out.append("| %d | %s |" % (uw, " | ".join(cell_text(cells.get((uw, kw)))
                                                       for kw in widths)))
        out.append("")
    return out


def plot(out_dir, img_dir=None):
    """The heat maps (tools/plot_wsc_cache.py); returns notes."""
    import subprocess
    import plot_panels  # noqa: E402  (tools/plot_panels.py)
    python = plot_panels.python_with_matplotlib()
    if python is None:
        return ["wsc-cache heat maps not drawn: no python3 with matplotlib."]
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot_wsc_cache.py")
    cmd = [python, script, os.path.join(out_dir, RESULTS), out_dir]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return ["wsc-cache heat maps failed: %s" % (proc.stderr or proc.stdout).strip()[-300:]]
    print(proc.stdout.strip(), flush=True)
    return []


def run(kernel, init, plugin, out, quiet=False):
    """Boots the experiment; returns (records, notes). Raises CacheError."""
    step = step_wanted()
    program = PROGRAMS[step]
    out_dir = os.path.join(out, OUT_DIR)
    os.makedirs(out_dir, exist_ok=True)
    module = os.path.join(os.path.dirname(os.path.abspath(init.split()[0])), program)
    for path in (plugin, module):
        if not os.path.isfile(path):
            raise CacheError("%s missing (make benchmarks)" % path)
    plugin_out = os.path.join(out_dir, "cachesim.txt")
    if os.path.exists(plugin_out):
        os.unlink(plugin_out)
    log = os.path.join(out_dir, "icount.log")
    extra = ["-plugin", "%s,out=%s" % (os.path.abspath(plugin), os.path.abspath(plugin_out))]
    cmd = qemu.qemu_command(kernel, ["%s %s" % (init.split()[0], program), module], "tcg",
                            icount=True, extra=extra)
    print("== wsc-cache: %s, %d KiB grid, under the cachesim plugin" % (program, step),
          flush=True)
    done = []

    def feed(line):
        if line.startswith("BENCH-DONE"):
            done.append(line)
            return 20
        return None
    run_ = qemu.run_guest(cmd, log, TIMEOUT[step], feed, echo=None if quiet else sys.stdout)
    if not done:
        raise CacheError("no BENCH-DONE: %s (see %s)" % (qemu.describe_run(run_), log))
    records = make_records(parse(log, plugin_out), step)
    with open(os.path.join(out_dir, RESULTS), "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    with open(os.path.join(out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(["# wsc-cache (%d KiB grid)" % step, ""] + report_lines(records)))
    return records, plot(out_dir)


def run_part(args):
    """The wsccache part of tools/bench.py: (notes, failed)."""
    try:
        _, notes = run(args.kernel, args.init, args.cachesim, args.out, args.quiet)
        return notes, False
    except (CacheError, OSError, qemu.QemuError) as e:
        return ["**wsc-cache boot failed:** %s" % e], True


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--init", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--out", default="build/bench")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    try:
        _, notes = run(args.kernel, args.init, args.plugin, args.out, args.quiet)
    except CacheError as e:
        print("bench_wsc_cache: %s" % e, file=sys.stderr)
        return 1
    for note in notes:
        print(note, file=sys.stderr)
    print("\n".join(report_lines([json.loads(line) for line in open(
        os.path.join(args.out, OUT_DIR, RESULTS), encoding="utf-8")])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
