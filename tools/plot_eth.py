#!/usr/bin/env python3
"""plot_eth.py - paper 004's figure 10 from `make bench`'s records, drawn with
matplotlib (issue 16; Debian's python3-matplotlib).

Reads <out>/results.jsonl (bench.py's merged records: bench_eth's figures
eth.<nic>.<L>, Myrmex through the Ethernet server and the NIC driver, Linux
through an AF_PACKET socket, the same binary) and writes <out>/eth-fig10.svg:
for each frame data length L, the instructions the guest executed per
exchange (idle excluded, under -icount), exchanges per second and megabytes
per second (plain TCG, host peer round trip included), one line per OS and
NIC model that has figures.

    python3 tools/plot_eth.py build/bench [--out docs/img]
Exit status 0, or 2 when matplotlib cannot be imported.
"""

import argparse
import json
import os
import re
import sys

NAME_RE = re.compile(r"^eth\.(virtio|rtl8139)\.(\d+)$")
STYLES = {("myrmex", "virtio"): ("o-", "tab:blue"), ("myrmex", "rtl8139"): ("s-", "tab:orange"),
          ("linux", "virtio"): ("o--", "tab:green"), ("linux", "rtl8139"): ("s--", "tab:red")}
LABELS = {"myrmex": "Myrmex (program, Ethernet server, driver)", "linux": "Linux AF_PACKET"}


def load(path):
    """{(os, nic): {L: {metric: record}}} of bench_eth's records in path."""
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            m = NAME_RE.match(r.get("name", ""))
            if not m or r.get("suite") != "eth":
                continue
            key = (r.get("os"), m.group(1))
            found.setdefault(key, {}).setdefault(int(m.group(2)), {})[r.get("metric")] = r
    return found


def panel_values(recs, panel):
    """(L, value) points of one panel from {L: {metric: record}}."""
    pts = []
    for length in sorted(recs):
        by = recs[length]
        if panel == "instructions" and "instructions" in by:
            pts.append((length, by["instructions"]["value"]))
        elif panel == "exchanges" and by.get("cycles", {}).get("us"):
            pts.append((length, 1e6 / by["cycles"]["us"]))
        elif panel == "mb_s" and by.get("cycles", {}).get("mb_s") is not None:
            pts.append((length, by["cycles"]["mb_s"]))
    return pts


def draw(plt, found, dest):
    panels = (("instructions", "instructions per exchange (-icount, idle excluded)"),
              ("exchanges", "exchanges per second (TCG)"),
              ("mb_s", "MB/s of frame data (TCG)"))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, (panel, label) in zip(axes, panels):
        for key in sorted(found, key=lambda k: (k[0] != "myrmex", k[1])):
            pts = panel_values(found[key], panel)
            if not pts:
                continue
            style, color = STYLES.get(key, ("x-", "grey"))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color,
                    markersize=4, label="%s, %s" % (LABELS.get(key[0], key[0]), key[1]))
        ax.axvline(750, linestyle=":", color="grey")
        ax.set_xlabel("frame data length L (bytes)")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("A frame out and its 1-byte ACK back (paper 004, figure 10); "
                 "dotted: the paper's 750-byte crossover")
    fig.tight_layout()
    fig.savefig(dest, metadata={"Date": None})
    plt.close(fig)


def main(argv):
    p = argparse.ArgumentParser(description="paper 004's figure 10 from bench records")
    p.add_argument("bench_out", help="bench.py's output folder (results.jsonl)")
    p.add_argument("--out", help="folder of the SVG (default: bench_out)")
    args = p.parse_args(argv[1:])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        # Text as text (small files), and the same bytes for the same figures.
        matplotlib.rcParams["svg.fonttype"] = "none"
        matplotlib.rcParams["svg.hashsalt"] = "myrmex"
    except ImportError:
        print("plot_eth: no matplotlib (Debian: python3-matplotlib)", file=sys.stderr)
        return 2
    found = load(os.path.join(args.bench_out, "results.jsonl"))
    if not found:
        print("plot_eth: nothing to draw (no eth.<nic>.<L> figures)")
        return 0
    dest = os.path.join(args.out or args.bench_out, "eth-fig10.svg")
    draw(plt, found, dest)
    print("plot_eth: %s" % dest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
