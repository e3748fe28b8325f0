#!/usr/bin/env python3
"""wsc_profile.py - where a wrapped getpid's instructions go (issue 18;
docs/benchmarks.md, "Wrapped calls and the trap gate").

Boots benchinit with bench/bench_wsc_profile alone under TCG -icount with the
cachesim plugin's instruction profile (profile=1), names each executed
instruction's function from the kernel's and the program's symbols (nm) and
prints, per measured loop (512 getpids plain, then wrapped in batches of 32),
the instructions per getpid of every function, largest first.

    python3 tools/wsc_profile.py [--build build] [--out build/bench/wsc-profile]
"""

import argparse
import bisect
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py)

CALLS = 512
PROGRAM = "bench_wsc_profile"


def symbols(elf):
    """Sorted [(address, name)] of the text symbols of elf."""
    out = subprocess.run(["nm", "-n", elf], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def namer(tables):
    addrs = [[a for a, _ in t] for t in tables]

    def name(pc):
        for t, a in zip(tables, addrs):
            i = bisect.bisect_right(a, pc) - 1
            if i >= 0 and pc - t[i][0] < 0x4000:
                return t[i][1]
        return "?%x" % pc
    return name


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--out", default="build/bench/wsc-profile")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    kernel_elf = os.path.join(args.build, "kernel", "myrmex.elf")
    program = os.path.join(args.build, "bench", PROGRAM)
    plugin = os.path.join(args.build, "tools", "cachesim.so")
    counts_path = os.path.abspath(os.path.join(args.out, "profile.txt"))
    log = os.path.join(args.out, "icount.log")
    cmd = qemu.qemu_command(os.path.join(args.build, "kernel", "myrmex.bin"),
                            [os.path.join(args.build, "bench", "benchinit") + " " + PROGRAM,
                             program], "tcg", icount=True,
                            extra=["-plugin", "%s,out=%s,profile=1" % (
                                os.path.abspath(plugin), counts_path)])
    run = qemu.run_guest(cmd, log, 600, lambda line: 20 if line.startswith("BENCH-DONE")
                         else None, echo=None)
    with open(log, encoding="utf-8", errors="replace") as f:
        loops = [line.split() for line in f if line.startswith("WSCPROFILE ")]
    if not loops:
        print("wsc_profile: no measured loop (%s; see %s)" % (qemu.describe_run(run), log),
              file=sys.stderr)
        return 1
    name = namer([symbols(kernel_elf), symbols(program)])
    per = {}
    with open(counts_path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if parts[0] == "PROFILE":
                seq, fn = int(parts[1]), name(int(parts[2], 16))
                per.setdefault(seq, {})
                per[seq][fn] = per[seq].get(fn, 0) + int(parts[3])
    for loop in loops:
        seq, what, ticks = int(loop[1]), loop[2], int(loop[3].split("=")[1])
        funcs = per.get(seq, {})
        total = sum(funcs.values())
        print("== %s: %.1f instructions per getpid (rdtsc %.1f)" % (
            what, total / CALLS, ticks / CALLS))
        for fn, n in sorted(funcs.items(), key=lambda kv: -kv[1]):
            if n / CALLS >= 0.05:
                print("  %7.2f  %s" % (n / CALLS, fn))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
