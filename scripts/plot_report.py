#!/usr/bin/env python3
"""Plot cunp's CPU-vs-GPU report (bench/report's JSON) as a PNG.

With GPU results: speed-up (CPU time / GPU end-to-end time) against the number of elements, one
line per operation, log-log, and beside it the GPU's fraction of the measured bandwidth ceiling;
when bench/cupy/cupy_report.py has added CuPy's times, a third panel: cunp's GPU time / CuPy's.
Without them (a CPU-only run): the CPU time against the number of elements.

usage: plot_report.py [REPORT_JSON [OUT_PNG]]   (defaults: out/report.json, out/report.png)
"""
import json
import math
import pathlib
import sys


def series(results, value):
    """{label: ([n], [y])} for the results where value(r) is a positive number."""
    out = {}
    for r in results:
        y = value(r)
        if y is None or y <= 0:
            continue
        label = f"{r['op']} {r['dtype']}"
        xs, ys = out.setdefault(label, ([], []))
        xs.append(r["n"])
        ys.append(y)
    return out


def styles(results, colors):
    """One colour and marker per operation, the same in every panel."""
    labels = sorted({f"{r['op']} {r['dtype']}" for r in results})
    markers = "os^vD<>pXh*"
    return {label: (colors[i % len(colors)], markers[i % len(markers)])
            for i, label in enumerate(labels)}


def draw(ax, lines, style, ylabel, title):
    for label, (xs, ys) in sorted(lines.items()):
        color, marker = style[label]
        ax.plot(xs, ys, color=color, marker=marker, markersize=4, linewidth=1.2, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("elements (n)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", linewidth=0.3, alpha=0.6)


def main(argv):
    src = pathlib.Path(argv[1] if len(argv) > 1 else "out/report.json")
    dst = pathlib.Path(argv[2] if len(argv) > 2 else src.with_suffix(".png"))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_report.py: matplotlib is not installed, so no plot was drawn "
              f"(the numbers are in {src}). To get the plot, install it with\n"
              "  sudo apt-get install python3-matplotlib\n"
              "or\n"
              "  python3 -m pip install --user matplotlib\n"
              "and run: python3 scripts/plot_report.py " + f"{src} {dst}")
        return 0

    report = json.loads(src.read_text())
    ctx, results = report["context"], report["results"]
    when = ctx.get("date", "")[:10]
    style = styles(results, plt.get_cmap("tab20").colors[::2] + plt.get_cmap("tab20").colors[1::2])
    if ctx.get("has_gpu"):
        speedups = series([r for r in results if not r["transfer"]], lambda r: r["speedup"])
        fractions = series(results, lambda r: r["fraction_of_ceiling"])
        ratios = series(results, lambda r: r.get("cunp_over_cupy"))
        panels = 3 if ratios else 2
        fig, axes = plt.subplots(1, panels, figsize=(7.5 * panels, 7.5))
        left, right = axes[0], axes[1]
        draw(left, speedups, style, "speed-up (CPU time / GPU end-to-end time)",
             "cunp GPU vs cunp CPU (above 1: the GPU wins)")
        left.axhline(1.0, color="black", linewidth=1, linestyle="--")
        draw(right, fractions, style, "fraction of the measured ceiling",
             f"GPU bandwidth / ceiling (copy: {ctx['copy_ceiling_GBps']:.0f} GB/s; "
             f"transfers: pinned h2d {ctx['h2d_pinned_ceiling_GBps']:.0f} / "
             f"d2h {ctx['d2h_pinned_ceiling_GBps']:.0f} GB/s)")
        right.axhline(1.0, color="black", linewidth=1, linestyle="--")
        title = (f"cunp {ctx['cunp_version']}: {ctx['gpu']} (CUDA {ctx['cuda_runtime']}, "
                 f"driver {ctx['cuda_driver']}) vs its host's CPU")
        if ratios:
            draw(axes[2], ratios, style, "time ratio (cunp GPU time / CuPy GPU time)",
                 f"cunp vs CuPy {ctx['cupy_version']} (below 1: cunp is faster)")
            axes[2].axhline(1.0, color="black", linewidth=1, linestyle="--")
            title += f" and CuPy {ctx['cupy_version']}"
        fig.suptitle(f"{title}, {when}")
    else:
        times = series(results, lambda r: (r["cpu_ms"] or {}).get("median"))
        fig, ax = plt.subplots(figsize=(9, 7.5))
        draw(ax, times, style, "CPU time (ms, median)", "No CUDA GPU found: CPU timings only")
        fig.suptitle(f"cunp {ctx['cunp_version']}: cpu backend on {ctx['host']}, {when}")
    handles = [plt.Line2D([], [], color=c, marker=m, markersize=4, linewidth=1.2)
               for c, m in style.values()]
    # One legend column per 2.2 inches of figure; the panels end above the legend's rows.
    ncol = max(3, int(fig.get_figwidth() / 2.2))
    fig.legend(handles, list(style), loc="lower center", ncol=ncol, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.02 + 0.03 * math.ceil(len(style) / ncol), 1, 1))
    dst.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
