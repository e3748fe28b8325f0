#!/usr/bin/env python3
"""plot_wsc_cache.py - heat maps of paper 001's cache and TLB experiment
(figures 5-10; issue 18) with matplotlib (Debian's python3-matplotlib).

Reads the wsc-cache records (tools/bench_wsc_cache.py's results.jsonl) and
writes <out>/wsc-cache.svg: six panels over the (user width, kernel width)
plane, each the ratio wrapped / conventional: for the model with the 256 KiB
L2 (the paper's Pentium 4 1.8 GHz) estimated cycles, data-TLB misses and L2
misses (figures 5, 7, 9), then the same with the 512 KiB L2 (1.8A GHz;
figures 6, 8, 10; the TLB is the same). Below 1 the wrapped calls win. A
cell whose conventional count is 0 is grey.

    python3 tools/plot_wsc_cache.py <results.jsonl> <out dir>
"""

import json
import math
import os
import sys

PANELS = (("cycles_256k", "cycles (model), L2 256 KiB"), ("dtlb", "data-TLB misses"),
          ("l2_256k", "L2 misses, 256 KiB"), ("cycles_512k", "cycles (model), L2 512 KiB"),
          ("dtlb", "data-TLB misses"), ("l2_512k", "L2 misses, 512 KiB"))


def load(path):
    """{metric: {(uw, kw): ratio or nan}}."""
    grids = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            parts = r["name"].split(".")
            value = r.get("value")
            grids.setdefault(parts[-1], {})[(int(parts[2]), int(parts[3]))] = \
                math.nan if value is None else value
    return grids


def draw(grids, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "myrmex"
    fig, axes = plt.subplots(2, 3, figsize=(14, 9), squeeze=False)
    cmap = plt.get_cmap("RdBu_r").copy()
    cmap.set_bad("#cccccc")
    image = None
    for ax, (metric, title) in zip(axes.flat, PANELS):
        cells = grids.get(metric, {})
        widths = sorted({w for key in cells for w in key})
        data = np.array([[cells.get((uw, kw), math.nan) for kw in widths] for uw in widths])
        image = ax.imshow(np.ma.masked_invalid(data), origin="lower", cmap=cmap, vmin=0, vmax=2,
                          aspect="equal")
        step = max(1, len(widths) // 9)
        ticks = list(range(0, len(widths), step))
        ax.set_xticks(ticks, [str(widths[i]) for i in ticks], fontsize=7)
        ax.set_yticks(ticks, [str(widths[i]) for i in ticks], fontsize=7)
        ax.set_xlabel("kernel width (KiB)")
        ax.set_ylabel("user width (KiB)")
        ax.set_title(title, fontsize=10)
        if len(widths) <= 12:
            for i in range(len(widths)):
                for j in range(len(widths)):
                    v = data[i][j]
                    if not math.isnan(v):
                        ax.text(j, i, "%.2f" % v, ha="center", va="center", fontsize=6,
                                color="white" if v < 0.3 or v > 1.7 else "black")
    fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.6,
                 label="wrapped / conventional (N = 32)")
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 1
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return 2
    path = os.path.join(argv[2], "wsc-cache.svg")
    draw(load(argv[1]), path)
    print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
