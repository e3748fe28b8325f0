#!/usr/bin/env python3
"""bench_shell.py - the shell part of `make bench` (issue 20): a pipeline
typed at the interactive prompt against the same pipeline under `sh -c`.

Boots what `make run` boots (sysinit, the servers, busybox ash on the
serial console; tools/shell_jobctl.py's machinery) under -icount shift=0
with the POSIX bench disk (bench_posix.make_image: make run's root plus
/bench/posix), and types at the prompt, RUNS times each:

    /bench/posix/shell_mark a; yes | head -c N | wc -c; /bench/posix/shell_mark b
    /bench/posix/shell_mark a; sh -c 'yes | head -c N | wc -c'; /bench/posix/shell_mark b

shell_mark (bench/posix/shell_mark.c) prints the TSC and the kernel's
counts; the difference between the two marks is the figure (instructions:
the pipeline with the shell's forks and waits, and one shell_mark's exit
and the other's start), the counts' differences explain it. The same disk
and the same lines are typed at Linux's busybox sh in the same QEMU
machine (shell_jobctl.linux_argv). Figures:

    shell.pipeline.interactive   the line typed at the prompt (job control:
                                 the pipeline is the terminal's foreground
                                 process group; `yes` runs as an applet in
                                 the forked shell, its stdout line-buffered)
    shell.pipeline.sh_c          the same pipeline under sh -c

Writes <out>/shell-boot/results.jsonl (bench.py merges it into the report).

    python3 tools/bench_shell.py [--build build] [--out build/bench]
                                       (or MYRMEX_BENCH_ONLY=shell make bench)
"""

import argparse
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py)
import bench_posix  # noqa: E402
import shell_jobctl  # noqa: E402

OUT_DIR = "shell-boot"
RESULTS = "results.jsonl"
SUITE = "shell"
BYTES = 100000      # bytes through the pipeline (the 1,000,000 takes minutes here)
RUNS = 3
MARK = "/bench/posix/shell_mark"
PIPELINE = "yes | head -c %d | wc -c" % BYTES
LINES = (("pipeline.interactive", PIPELINE),
         ("pipeline.sh_c", "sh -c '%s'" % PIPELINE))
LINE_SECONDS = 600   # one typed line at most (Myrmex's interactive run takes ~10 s)
MARK_RE = re.compile(rb"MARK (a|b) tsc=(\d+)((?: \w+=-?\d+)*)")


def marks(text):
    """{label: (tsc, {count: value})} of the MARK lines in text."""
    found = {}
    for m in MARK_RE.finditer(text):
        counts = {}
        for pair in m.group(3).split():
            key, value = pair.split(b"=")
            counts[key.decode()] = int(value)
        found[m.group(1).decode()] = (int(m.group(2)), counts)
    return found


def measure(guest, line):
    """Types line between two marks; returns (ticks, count differences).
    Raises RuntimeError when the marks or the byte count do not come back."""
    typed = "%s a; %s; %s b\r" % (MARK, line, MARK)
    start = len(guest.out)
    began = time.time()
    guest.type(typed.encode(), until=b"MARK b", seconds=LINE_SECONDS)
    seconds = time.time() - began
    # The whole "MARK b" line and the prompt after it, before the next line.
    guest.read_until(shell_jobctl.PROMPT, 30, max(start, guest.out.rfind(b"MARK b")))
    out = guest.out[start:]
    got = marks(out)
    if "a" not in got or "b" not in got:
        raise RuntimeError("no marks after typing %r (see the log)" % typed)
    if not re.search(rb"\n\s*%d\s*\r?\n" % BYTES, out):
        raise RuntimeError("wc did not count %d bytes after %r" % (BYTES, typed))
    (t0, c0), (t1, c1) = got["a"], got["b"]
    return t1 - t0, seconds, {k: c1[k] - c0[k] for k in c0 if k in c1}


def session(guest, timeout, os_name, accel):
    """RUNS measurements of each line; returns records."""
    if not guest.read_until(shell_jobctl.PROMPT, timeout):
        raise RuntimeError("no prompt within %d s" % timeout)
    records = []
    for name, line in LINES:
        runs = [measure(guest, line) for _ in range(RUNS)]
        ticks = sorted(t for t, _, _ in runs)
        _, wall, middle = sorted(runs, key=lambda r: r[0])[RUNS // 2]
        counts = {k: v for k, v in middle.items() if k != "idle"}
        busy = ticks[RUNS // 2] - middle.get("idle", 0)
        if "idle" in middle:
            counts["busy"] = busy
        counts["bytes"] = BYTES
        records.append({"suite": SUITE, "name": "%s.%s" % (SUITE, name), "os": os_name,
                        "metric": "instructions", "value": int(statistics.median(ticks)),
                        "unit": "instructions", "min": ticks[0], "runs": RUNS,
                        "accel": accel, "counts": counts, "line": line,
                        "wall_s": round(wall, 2)})
        print("BENCH %s %s.%s median=%d min=%d runs=%d wall_s=%.2f %s" % (
            SUITE, SUITE, name, statistics.median(ticks), ticks[0], RUNS, wall,
            " ".join("%s=%s" % kv for kv in sorted(counts.items()))), flush=True)
    return records


def boot(argv, log, timeout, os_name, end):
    guest = shell_jobctl.Guest(argv)
    try:
        records = session(guest, timeout, os_name, "tcg")
        guest.type(b"exit\r", until=end, seconds=30)
        return records
    finally:
        guest.stop()
        with open(log, "wb") as f:
            f.write(guest.out)


def run_part(args):
    """Writes <out>/shell-boot/results.jsonl; returns (report notes, failed)."""
    out = os.path.join(args.out, OUT_DIR)
    os.makedirs(out, exist_ok=True)
    build = os.path.dirname(os.path.abspath(args.out))
    notes, records, failed = [], [], False
    try:
        image = bench_posix.make_image(args.posix_dir, out)
        print("== shell boot on Myrmex: `%s` typed at the prompt and under sh -c" % PIPELINE,
              flush=True)
        records += boot(shell_jobctl.qemu_argv(build, disk=image, icount=True),
                        os.path.join(out, "myrmex.log"), args.timeout, "myrmex", b"sysinit:")
    except (OSError, RuntimeError, ValueError) as e:
        notes.append("**shell boot on Myrmex failed:** %s" % e)
        failed = True
    if bench.linux_wanted() and not failed:
        try:
            print("== shell boot on Linux: the same lines at Linux's busybox sh", flush=True)
            argv = shell_jobctl.linux_argv(build, out, os.path.join(build, "linux"),
                                           disk=image, icount=True)
            records += boot(argv, os.path.join(out, "linux.log"), args.timeout, "linux",
                            b"LINUX-INIT exit")
        except Exception as e:  # noqa: BLE001 (keep the Myrmex rows)
            notes.append("**shell boot on Linux failed:** %s: %s" % (type(e).__name__, e))
    path = os.path.join(out, RESULTS)
    ran = {r["os"] for r in records}
    kept = [r for r in bench.read_other_os(path) if r.get("os") not in ran]
    bench.write_jsonl(path, records + kept)
    return notes, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", help="results folder (default <build>/bench)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds for a boot's prompt")
    args = ap.parse_args()
    args.out = args.out or os.path.join(args.build, "bench")
    args.posix_dir = os.path.join(args.build, "bench", "posix")
    notes, failed = run_part(args)
    for note in notes:
        print(note.replace("**", ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
