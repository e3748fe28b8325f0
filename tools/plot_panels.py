#!/usr/bin/env python3
"""plot_panels.py - line-chart panels drawn with matplotlib (Debian's
python3-matplotlib), the one way the benchmark tools draw (issue 18).

A panel is {"title", "xlabel", "series": [[label, color, dash, [[x, y], ...]], ...],
"categorical": bool}; dash is "" (solid) or an SVG dash list such as "6,4". The
first series of a panel is drawn last and thicker, so that a series it equals
does not hide it. One legend for the whole figure, below the panels.

    render(panels, cols, path)       from any python3 (bench_fmap.py): draws here if
                                     this interpreter has matplotlib, else runs this
                                     file with python_with_matplotlib(); returns
                                     None, or why nothing was drawn
    python3 plot_panels.py <panels.json> <out.svg> <cols>
    python_with_matplotlib()         this interpreter, /usr/bin/python3 (where Debian
                                     puts the package) or None
"""

import json
import os
import subprocess
import sys
import tempfile


def has_matplotlib(python):
    """Can python import matplotlib?"""
    if os.path.realpath(python) == os.path.realpath(sys.executable):
        try:
            import matplotlib  # noqa: F401
            return True
        except ImportError:
            return False
    proc = subprocess.run([python, "-c", "import matplotlib"], capture_output=True)
    return proc.returncode == 0


def python_with_matplotlib():
    """An interpreter that imports matplotlib: this one or Debian's; None."""
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and has_matplotlib(python):
            return python
    return None


def dash_style(dash):
    """An SVG dash list ("6,4") as a matplotlib line style."""
    if not dash:
        return "-"
    return (0, tuple(float(v) for v in dash.split(",")))


def draw(panels, cols, path):
    """Draws panels into path (SVG); needs matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "myrmex"
    shown = [p for p in panels if any(s[3] for s in p["series"])]
    rows = max(1, (len(shown) + cols - 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows + 0.8), squeeze=False)
    legend = {}
    for n, ax in enumerate(axes.flat):
        if n >= len(shown):
            ax.set_visible(False)
            continue
        panel = shown[n]
        xs = sorted({p[0] for s in panel["series"] for p in s[3]})
        pos = {x: i for i, x in enumerate(xs)} if panel.get("categorical") else \
            {x: x for x in xs}
        for k, (label, color, dash, data) in reversed(list(enumerate(panel["series"]))):
            if not data:
                continue
            line, = ax.plot([pos[x] for x, _ in data], [y for _, y in data], color=color,
                            linestyle=dash_style(dash), linewidth=2.4 if k == 0 else 1.6,
                            marker="o" if len(data) <= 12 else None, markersize=3)
            legend.setdefault(label, line)
        if panel.get("categorical"):
            ax.set_xticks(range(len(xs)), ["%g" % x for x in xs])
        ax.set_title(panel["title"], fontsize=10)
        ax.set_xlabel(panel["xlabel"])
        ax.grid(True, alpha=0.3)
        if all(y >= 0 for s in panel["series"] for _, y in s[3]):
            ax.set_ylim(bottom=0)
    fig.legend(list(legend.values()), list(legend.keys()), loc="lower center",
               ncol=min(len(legend), 5), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.8 / (3.2 * rows + 0.8) + 0.02, 1, 1))
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def render(panels, cols, path):
    """Draws panels into path with whichever python3 has matplotlib; returns
    None, or a sentence saying why nothing was drawn."""
    try:
        import matplotlib  # noqa: F401
        draw(panels, cols, path)
        return None
    except ImportError:
        pass
    python = python_with_matplotlib()
    if python is None:
        return "no python3 with matplotlib (Debian: python3-matplotlib)"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(panels, f)
        spec = f.name
    try:
        proc = subprocess.run([python, os.path.abspath(__file__), spec, path, str(cols)],
                              capture_output=True, text=True)
    finally:
        os.unlink(spec)
    if proc.returncode != 0:
        return "plot_panels.py failed: %s" % (proc.stderr or proc.stdout).strip()[-300:]
    return None


def main(argv):
    if len(argv) != 4:
        print("usage: plot_panels.py <panels.json> <out.svg> <cols>", file=sys.stderr)
        return 1
    with open(argv[1], encoding="utf-8") as f:
        panels = json.load(f)
    draw(panels, int(argv[3]), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
