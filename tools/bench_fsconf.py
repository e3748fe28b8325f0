#!/usr/bin/env python3
"""bench_fsconf.py - the file service's configurations (suite fsconf, issue 19,
paper 003; docs/fs.md), a part of `make bench`.

Role: boots the POSIX benchmark disk (tools/bench_posix.py's image: the
programs of bench/posix and data16m) once per configuration and mode, with
`sysinit fsconf=<cfg> /bench/posix/run fsconf`: the runner runs
bench/posix/fsconf.c, whose figures (fsconf.pair.elapsed, fsconf.pair.system,
fsconf.readers.<k>) come back named fsconf.<cfg>.* here. Myrmex only (the
configurations are Myrmex's). Logs and disk copies go to
<out>/fsconf-boot/<cfg>/, the records to <out>/fsconf-boot/results.jsonl,
which bench.py merges into its results and report. MYRMEX_BENCH_ONLY=fsconf
runs only this part; MYRMEX_FSCONF_CONFIGS=one,klt narrows the
configurations.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (tools/bench.py: boots, parser, records)
import bench_posix  # noqa: E402  (its disk image and parser)

CONFIGS = ("one", "split", "ult", "klt")
CONFIGS_ENV = "MYRMEX_FSCONF_CONFIGS"
OUT_DIR = "fsconf-boot"
RESULTS = "results.jsonl"
SUITE = "fsconf"


def configs():
    """The configurations to run: all, or those of MYRMEX_FSCONF_CONFIGS."""
    wanted = [c.strip() for c in os.environ.get(CONFIGS_ENV, "").split(",") if c.strip()]
    bad = [c for c in wanted if c not in CONFIGS]
    if bad:
        raise ValueError("%s: unknown configuration %s" % (CONFIGS_ENV, ", ".join(bad)))
    return wanted or list(CONFIGS)


def renamed(records, conf):
    """fsconf.<figure> becomes fsconf.<conf>.<figure>."""
    for rec in records:
        if rec["name"].startswith(SUITE + "."):
            rec["name"] = "%s.%s.%s" % (SUITE, conf, rec["name"][len(SUITE) + 1:])
        rec["fsconf"] = conf
    return records


def run_part(args):
    """Writes <out>/fsconf-boot/results.jsonl. Returns (ModeResults, report
    notes, failed)."""
    out = os.path.join(args.out, OUT_DIR)
    os.makedirs(out, exist_ok=True)
    try:
        confs = configs()
        image = bench_posix.make_image(args.posix_dir, out)
    except (OSError, RuntimeError, ValueError) as e:
        return [], ["**fsconf boot not run:** %s" % e], True
    results, records, notes, failed = [], [], [], False
    for conf in confs:
        conf_out = os.path.join(out, conf)
        os.makedirs(conf_out, exist_ok=True)
        boot = argparse.Namespace(
            kernel=args.kernel,
            init="%s fsconf=%s %s fsconf" % (args.posix_init, conf, bench_posix.RUNNER),
            modules=list(args.posix_modules), out=conf_out, disk=image,
            timeout=args.timeout, quiet=args.quiet)
        for mode in args.modes:
            print("== fsconf boot on Myrmex, configuration %s: %s" % (conf, boot.init),
                  flush=True)
            res = bench.run_mode(mode, boot, bench_posix.PosixParser())
            results.append(res)
            records += renamed(bench.make_records(res), conf)
            notes += ["fsconf %s, %s: %s" % (conf, mode, n) for n in res.notes]
            if res.error:
                notes.append("**fsconf boot, %s, mode %s failed:** %s" % (conf, mode, res.error))
                failed = True
    path = os.path.join(out, RESULTS)
    kept = [r for r in bench.read_other_os(path) if r.get("fsconf") not in confs]
    bench.write_jsonl(path, records + kept)
    return results, notes, failed
