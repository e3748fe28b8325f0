#!/usr/bin/env python3
"""cachesim_check.py - the booted check of the cachesim plugin (`make
test-cachesim`, run by `make test`; issue 18, docs/testing.md).

Boots tests/kernel/t_cachesim alone (pid 1) under TCG -icount with the plugin
(tools/cachesim) and checks the modelled misses of its three patterns against
what the model must give: 64 pages fit the 64-entry data TLB, 65 do not, a
300 KiB sweep misses the 256 KiB L2 on every line and the 512 KiB one never
(warm). The host unit test tests/unit/test_cachemodel.c checks the model
alone; this checks the plugin's wiring (every data access, physical addresses
for the L2, the markers). Prints one line per check and
`cachesim: N passed, N failed`; exit status 1 when any failed.

    python3 tools/cachesim_check.py --kernel K --program build/tests/kernel/t_cachesim \\
        --plugin build/tools/cachesim.so [--out build/test]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py)

PASSES = 10
PAGES = 64
SWEEP_LINES = 300 * 1024 // 64
SWEEP_PAGES = 300 * 1024 // 4096
TIMEOUT = 300

# (pattern, count, predicate, what it must be)
CHECKS = (
    ("tlb64", "dtlb", lambda n: n <= PAGES + 1, "at most one refill (<= 65)"),
    ("tlb65", "dtlb", lambda n: n >= (PAGES + 1) * PASSES, ">= 650: a miss per read"),
    ("l2sweep", "l2_256k", lambda n: n >= SWEEP_LINES * PASSES, ">= 48000: a miss per line"),
    ("l2sweep", "l2_512k", lambda n: n == 0, "0: 300 KiB fit"),
    ("l2sweep", "dtlb", lambda n: n >= SWEEP_PAGES * PASSES, ">= 750: 75 pages thrash"),
)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--out", default="build/test")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    log = os.path.join(args.out, "cachesim.log")
    counts_path = os.path.join(args.out, "cachesim.txt")
    if os.path.exists(counts_path):
        os.unlink(counts_path)
    extra = ["-plugin", "%s,out=%s" % (os.path.abspath(args.plugin),
                                        os.path.abspath(counts_path))]
    cmd = qemu.qemu_command(args.kernel, [args.program], "tcg", icount=True, extra=extra)
    run = qemu.run_guest(cmd, log, TIMEOUT, lambda line: None, echo=None)
    failed = []
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            names = [line.split()[1] for line in f if line.startswith("CACHESIM-CHECK ")]
        with open(counts_path, encoding="utf-8") as f:
            records = [dict(kv.split("=") for kv in line.split()[2:]) for line in f
                       if line.startswith("CACHESIM ")]
    except OSError as e:
        names, records = [], []
        failed.append(("boot", "%s (%s)" % (e, qemu.describe_run(run))))
    if not failed and len(names) != len(records):
        failed.append(("boot", "%d patterns, %d plugin records (%s)" % (
            len(names), len(records), qemu.describe_run(run))))
    got = dict(zip(names, records))
    passed = 0
    for pattern, key, ok, want in CHECKS if not failed else ():
        value = int(got.get(pattern, {}).get(key, -1))
        name = "cachesim.%s.%s" % (pattern, key)
        if pattern in got and ok(value):
            passed += 1
            print("CACHESIM-RESULT %s PASS (%d)" % (name, value))
        else:
            failed.append((name, "%d, must be %s" % (value, want)))
    for name, why in failed:
        print("CACHESIM-RESULT %s FAIL %s" % (name, why))
    print("cachesim: %d passed, %d failed" % (passed, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
