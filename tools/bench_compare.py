#!/usr/bin/env python3
"""Compares two `make bench` runs: a Markdown table of the instruction
figures whose names start with the given prefixes, before and after, with
Linux's figure from the after run (its own file, plus --linux for the
harness's results.linux.jsonl) and the after run's counts per operation.

Usage: tools/bench_compare.py BEFORE/results.jsonl AFTER/results.jsonl
           [--linux AFTER/results.linux.jsonl] [--prefix ipc. posix. ...]
A run's results.jsonl is build/bench/results.jsonl (docs/testing.md,
"Benchmarks"); copy it away before the next run overwrites it.
"""
import argparse
import json
import sys

DEFAULT_PREFIXES = ["ipc.", "posix.", "linux.", "fs.", "pmark.", "bonnie.", "postmark."]
COUNT_KEYS = ["syscalls", "ipc", "ctxsw", "asswitch", "attach", "detach", "copies"]


def load(path, os_name):
    """{name: record} of the instruction figures of one OS in a results file."""
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("metric") == "instructions" and r.get("os") == os_name:
                out[r["name"]] = r
    return out


def number(v):
    if v is None:
        return "—"
    return "{:,.0f}".format(v)


def counts(r):
    c = r.get("counts") or {}
    parts = ["%s=%g" % (k, round(c[k], 2)) for k in COUNT_KEYS if k in c]
    return " ".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--linux")
    ap.add_argument("--prefix", nargs="*", default=DEFAULT_PREFIXES)
    args = ap.parse_args(argv)
    before = load(args.before, "myrmex")
    after = load(args.after, "myrmex")
    linux = load(args.after, "linux")
    if args.linux:
        linux.update(load(args.linux, "linux"))
    names = sorted(n for n in set(before) | set(after) if n.startswith(tuple(args.prefix)))
    print("| figure | before | after | change | Linux | counts per operation (after) |")
    print("|---|---:|---:|---:|---:|---|")
    for n in names:
        b = before.get(n, {}).get("value")
        a = after.get(n, {}).get("value")
        change = "—" if not b or a is None else "%+.1f %%" % (100.0 * (a - b) / b)
        lx = linux.get(n, {}).get("value")
        print("| `%s` | %s | %s | %s | %s | %s |" % (n, number(b), number(a), change, number(lx),
                                                    counts(after.get(n, {}))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
