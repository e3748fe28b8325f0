#!/usr/bin/env python3
"""plot_wsc.py - the wrapped-call figures of `make bench` drawn with matplotlib
(issue 18; Debian's python3-matplotlib).

Reads <out>/results.jsonl (bench.py's merged records) and writes:
  <out>/wsc-getpid.svg  paper 001's figure 11: getpid per call against N, wrapped
                        through syscall and through int $0x81, with the
                        conventional calls as lines (suite wsc, bench_wsc, a
                        native process); instructions and cycles side by side
  <out>/wsc-fwd.svg     lseek, fstat and read128 per call against N in a POSIX
                        process: wrapped and grouped into one file-manager
                        request, wrapped alone (one request each), plain, and
                        Linux's plain call and io_uring batches (suite wsc-fwd,
                        bench/posix/wsc_fwd); and the real work of
                        bench/posix/wsc_files with fine-grained threads
A figure whose records are missing is left out (its part was never run).

    python3 tools/plot_wsc.py build/bench
Exit status 0, or 2 when matplotlib cannot be imported (bench.py then notes it).
"""

import json
import os
import sys

NS = (1, 2, 4, 8, 16, 32, 64)
METRICS = (("instructions", "instructions per call"), ("cycles", "cycles per call (TCG)"))


def load(path):
    """{(os, name, metric): value} of the records in path."""
    values = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            values[(r.get("os"), r.get("name"), r.get("metric"))] = r.get("value")
    return values


def series(values, os_name, names, metric):
    """The points (N, value) of names (one per N) that have a value."""
    pts = [(n, values.get((os_name, name, metric))) for n, name in zip(NS, names)]
    return [(n, v) for n, v in pts if v is not None]


def draw_getpid(plt, values, out):
    """Figure 11: True when drawn."""
    if ("myrmex", "wsc.getpid.syscall.n1", "instructions") not in values:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (metric, label) in zip(axes, METRICS):
        for entry, style in (("syscall", "o-"), ("trap", "s-")):
            pts = series(values, "myrmex", ["wsc.getpid.%s.n%d" % (entry, n) for n in NS],
                         metric)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        color="tab:blue" if entry == "syscall" else "tab:orange",
                        label="wrapped, %s" % entry)
            plain = values.get(("myrmex", "wsc.getpid.%s.n0" % entry, metric))
            if plain is not None:
                ax.axhline(plain, linestyle="--",
                           color="tab:blue" if entry == "syscall" else "tab:orange",
                           label="conventional, %s" % entry)
        linux = values.get(("linux", "wsc.getpid.syscall.n0", metric))
        if linux is not None:
            ax.axhline(linux, linestyle=":", color="grey", label="Linux, syscall")
        ax.set_xscale("log", base=2)
        ax.set_xticks(NS, [str(n) for n in NS])
        ax.set_xlabel("calls per batch N")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("getpid x 512, native process (paper 001, figure 11)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "wsc-getpid.svg"), metadata={"Date": None})
    plt.close(fig)
    return True


def draw_fwd(plt, values, out):
    """lseek and fstat, grouped and alone: True when drawn."""
    calls = [c for c in ("lseek", "fstat", "read128", "files")
             if ("myrmex", "wsc.%s.wrapped.n1" % c, "instructions") in values or
             ("myrmex", "wsc.%s.fthread.n1" % c, "instructions") in values]
    if not calls:
        return False
    fig, axes = plt.subplots(len(calls), 2, figsize=(10, 4 * len(calls)), squeeze=False)
    for row, call in enumerate(calls):
        for ax, (metric, label) in zip(axes[row], METRICS):
            for os_name, how, style, text in (
                    ("myrmex", "wrapped", "o-", "Myrmex, wrapped, grouped (one IPC)"),
                    ("myrmex", "alone", "s-", "Myrmex, wrapped, alone (one IPC each)"),
                    ("linux", "io_uring", "^-", "Linux, io_uring (one enter)"),
                    ("myrmex", "fthread", "D-", "Myrmex, fine-grained threads, grouped")):
                pts = series(values, os_name,
                             ["wsc.%s.%s.n%d" % (call, how, n) for n in NS], metric)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=text)
            for os_name, name, style, color, text in (
                    ("myrmex", "plain", "--", "black", "Myrmex, plain syscall"),
                    ("myrmex", "trap", "-.", "tab:red", "Myrmex, plain int $0x81"),
                    ("linux", "plain", ":", "grey", "Linux, plain syscall")):
                v = values.get((os_name, "wsc.%s.%s" % (call, name), metric))
                if v is not None:
                    ax.axhline(v, linestyle=style, color=color, label=text)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xticks(NS, [str(n) for n in NS])
            ax.set_xlabel("calls per batch N")
            ax.set_ylabel(label)
            ax.set_title("%s, POSIX process" % ("16 files, 512-byte preads"
                                                 if call == "files" else "%s x 512" % call))
            ax.grid(True, which="both", alpha=0.3)
        axes[row][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "wsc-fwd.svg"), metadata={"Date": None})
    plt.close(fig)
    return True


def main(argv):
    if len(argv) != 2:
        print("usage: plot_wsc.py <bench output folder>", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        # Text as text (small files), and the same bytes for the same figures.
        matplotlib.rcParams["svg.fonttype"] = "none"
        matplotlib.rcParams["svg.hashsalt"] = "myrmex"
    except ImportError:
        print("plot_wsc: no matplotlib (Debian: python3-matplotlib)", file=sys.stderr)
        return 2
    out = argv[1]
    values = load(os.path.join(out, "results.jsonl"))
    drawn = [name for name, ok in (("wsc-getpid.svg", draw_getpid(plt, values, out)),
                                   ("wsc-fwd.svg", draw_fwd(plt, values, out))) if ok]
    print("plot_wsc: %s" % (", ".join(os.path.join(out, d) for d in drawn) or "nothing to draw"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
