#!/usr/bin/env python3
"""CuPy's column of cunp's CPU-vs-GPU report: times every row of bench/report's JSON in CuPy
(the same op, shape, dtype and input values) and adds, per row, cupy_us (CuPy's median GPU time)
and cunp_over_cupy (cunp's median GPU time / CuPy's: below 1, cunp is faster) to that JSON, with
CuPy's and NumPy's versions in its context; then prints the report's table with the columns CuPy
and cunp/CuPy and writes it to the text file (scripts/report.sh runs it after the report).

Timing is the report GPU column's: cupy_bench.Bench.gpu_times with the JSON's gpu_policy (warm-up
calls, at least min_repeats and min_seconds of GPU time, at most max_repeats), CUDA events on the
current stream around each call, the launch hidden behind a hold kernel except for transfers
(which wait for the host, as cunp's do). Inputs are bench_util.hpp's random_values, remade here,
so both sides work on the same numbers. Up to 2^20 elements each CuPy result is first checked
against NumPy on the same inputs (output poisoned first); a row that differs gets no time, a note.

usage: python3 bench/cupy/cupy_report.py [REPORT_JSON] [--txt REPORT_TXT] [--ops a,b,...]
       (defaults: out/report.json, and REPORT_JSON with the suffix .txt)
"""
import argparse
import ast
import json
import math
import pathlib
import statistics
import sys
from typing import Callable, NamedTuple

from cupy_bench import Bench, accelerators

CHECKED = 1 << 20  # rows up to this many elements are checked against NumPy before timing


# ---- the report's inputs, remade for xp = numpy or cupy -----------------------------------------
def splitmix(xp, n, seed):
    """bench_util.hpp's splitmix64 stream: n uint64 words from `seed`."""
    u = xp.uint64
    z = xp.arange(1, n + 1, dtype=u) * u(0x9E3779B97F4A7C15) + u(seed)
    z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
    return z ^ (z >> u(31))


def random_values(xp, dims, dtype, seed=42):
    """random_array<T>(dims, dev, seed): values in [-1, 1), made in float64, then rounded."""
    z = splitmix(xp, math.prod(dims), seed)
    v = (z >> xp.uint64(11)).astype(xp.float64) * 2.0**-52 - 1.0
    return v.astype(dtype).reshape(dims)


def dims_of(row):
    """The row's shape as a tuple (JSONs from before "dims" have only the shape's text)."""
    return tuple(row["dims"]) if "dims" in row else ast.literal_eval(row["shape"])


def no_inputs(xp, row):
    return []


def random_inputs(count, positive=False):
    """report.cpp's float32_op inputs: `count` arrays of the row's shape, seeds 42, 43, ...; in
    [0, 1) where report.cpp's agreement is positive or reduction."""
    def make(xp, row):
        arrays = [random_values(xp, dims_of(row), "float32", 42 + i) for i in range(count)]
        return [abs(a) for a in arrays] if positive else arrays
    return make


def source_input(xp, row):
    """One random array of the row's (source) dtype: copies, astype, transfers."""
    return [random_values(xp, dims_of(row), row["dtype"].split("->")[0])]


def sort_input(xp, row):
    """report.cpp's sort_input: float32 in [-1, 1), int64 over the full range."""
    if row["dtype"] == "int64":
        return [splitmix(xp, row["n"], 42).view(xp.int64)]
    return [random_values(xp, dims_of(row), row["dtype"])]


def scan_input(xp, row):
    """report.cpp's cumsum input: random multiples of 1/64 (std::round: halves away from 0)."""
    y = random_values(xp, dims_of(row), row["dtype"]) * 64
    return [xp.sign(y) * xp.floor(abs(y) + 0.5) / 64]


# ---- the CuPy side of each report op ------------------------------------------------------------
class CupyOp(NamedTuple):
    """inputs(xp, row): the op's input arrays, made with xp (cupy, or numpy for host inputs and
    for the check); call(xp, inputs, row): the zero-argument callable that is timed (with numpy:
    NumPy's reference result)."""
    inputs: Callable
    call: Callable
    host_inputs: bool = False  # the inputs stay in host memory (h2d)
    hide_launch: bool = True  # False for calls that wait for the host (transfers)
    rtol: float = 0.0  # CuPy against NumPy at 2^20: 0 = equal
    atol: float = 0.0


F32_EPS = 2.0**-23
REDUCTION_RTOL = 1e-5  # report.cpp's rtol of its reduction rows: sums in another order


def d2h_call(xp, a, row):
    return (lambda: a[0].get()) if xp.__name__ == "cupy" else (lambda: a[0].copy())


OPS = {
    "zeros": CupyOp(no_inputs, lambda xp, a, r: lambda: xp.zeros(dims_of(r), r["dtype"])),
    "arange": CupyOp(no_inputs, lambda xp, a, r: lambda: xp.arange(0, r["n"], 1, r["dtype"])),
    "linspace": CupyOp(no_inputs,
                       lambda xp, a, r: lambda: xp.linspace(0, 1, r["n"], dtype=r["dtype"]),
                       rtol=4 * F32_EPS),
    "eye": CupyOp(no_inputs, lambda xp, a, r: lambda: xp.eye(*dims_of(r), dtype=r["dtype"])),
    "copy": CupyOp(source_input, lambda xp, a, r: lambda: a[0].copy()),
    "copy_reversed": CupyOp(source_input, lambda xp, a, r: lambda: a[0][::-1].copy()),
    "transpose_copy": CupyOp(source_input, lambda xp, a, r: lambda: a[0].T.copy()),
    "astype": CupyOp(source_input,
                     lambda xp, a, r: lambda: a[0].astype(r["dtype"].split("->")[1])),
    "h2d": CupyOp(source_input, lambda xp, a, r: lambda: xp.asarray(a[0]), host_inputs=True,
                  hide_launch=False),
    "d2h": CupyOp(source_input, d2h_call, hide_launch=False),
    "add": CupyOp(random_inputs(2), lambda xp, a, r: lambda: a[0] + a[1]),
    # CuPy runs the expression as three kernels (cunp as one): what a CuPy user writes.
    "fused": CupyOp(random_inputs(3, True), lambda xp, a, r: lambda: a[0] * a[1] + xp.sin(a[2]),
                    rtol=4 * F32_EPS, atol=8 * F32_EPS),
    "sum": CupyOp(random_inputs(1, True), lambda xp, a, r: lambda: a[0].sum(),
                  rtol=REDUCTION_RTOL),
    "sum_product": CupyOp(random_inputs(2, True), lambda xp, a, r: lambda: (a[0] * a[1]).sum(),
                          rtol=REDUCTION_RTOL),
    "argmax": CupyOp(random_inputs(1), lambda xp, a, r: lambda: a[0].argmax()),
    "sum_axis0": CupyOp(random_inputs(1, True), lambda xp, a, r: lambda: a[0].sum(axis=0),
                        rtol=REDUCTION_RTOL),
    "sum_axis1": CupyOp(random_inputs(1, True), lambda xp, a, r: lambda: a[0].sum(axis=1),
                        rtol=REDUCTION_RTOL),
    "var_axis1": CupyOp(random_inputs(1, True), lambda xp, a, r: lambda: a[0].var(axis=1),
                        rtol=REDUCTION_RTOL),
    "sort": CupyOp(sort_input, lambda xp, a, r: lambda: xp.sort(a[0], kind="stable")),
    "argsort": CupyOp(sort_input, lambda xp, a, r: lambda: xp.argsort(a[0], kind="stable")),
    "cumsum": CupyOp(scan_input, lambda xp, a, r: lambda: xp.cumsum(a[0])),
}


# ---- reading, timing, merging, printing ---------------------------------------------------------
def read_report(path):
    """bench/report's JSON; exits when it has no GPU results to set CuPy beside."""
    report = json.loads(pathlib.Path(path).read_text())
    if not str(report.get("schema", "")).startswith("cunp-report-"):
        sys.exit(f"cupy_report.py: {path} is not bench/report's JSON")
    if not report["context"].get("has_gpu"):
        sys.exit(f"cupy_report.py: {path} has CPU timings only (the report ran without a GPU): "
                 "no CuPy column")
    return report


def summarize(ms):
    """bench_util.hpp's summarize: median, min, max and repeats of milliseconds."""
    return {"median": statistics.median(ms), "min": min(ms), "max": max(ms), "repeats": len(ms)}


def check(cp, np, op, row, inputs):
    """None when CuPy's result equals NumPy's on the same inputs (within the op's tolerance),
    else what differs."""
    host = [a if isinstance(a, np.ndarray) else a.get() for a in inputs]
    want = np.asarray(op.call(np, host, row)())
    poison = cp.full(max(want.nbytes, 1), 0xFF, dtype=cp.uint8)  # NaN / -1 in a pool block
    del poison
    got = op.call(cp, inputs, row)()
    got = got if isinstance(got, np.ndarray) else cp.asnumpy(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"CuPy gives {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    if not np.allclose(got, want, rtol=op.rtol, atol=op.atol):
        return f"CuPy's values differ from NumPy's (rtol {op.rtol:g}, atol {op.atol:g})"
    return None


def time_rows(report, ops=None):
    """Times each GPU row (of the ops named in `ops`, or all) in CuPy. Returns CuPy's context
    and {row index: {"ms": [...]} or {"note": why there is no time}}."""
    try:
        import cupy as cp
    except ImportError:
        sys.exit("cupy_report.py: CuPy is not installed (python3 -m pip install cupy-cuda13x)")
    import numpy as np

    pol = report["context"]["gpu_policy"]
    bench = Bench(argparse.Namespace(min_time=pol["min_seconds"], out="", filter=""),
                  "cupy_report.py")
    if bench.gpu_name() != report["context"]["gpu"]:
        sys.exit(f"cupy_report.py: the report ran on {report['context']['gpu']}, CuPy sees "
                 f"{bench.gpu_name()}: the ratios would compare two GPUs")
    timings = {}
    for i, row in enumerate(report["results"]):
        if row.get("gpu_ms") is None or (ops and row["op"] not in ops):
            continue
        label = f"{row['op']} {row['dtype']} {row['shape']}"
        op = OPS.get(row["op"])
        if op is None:
            timings[i] = {"note": "no CuPy equivalent in cupy_report.py's OPS"}
            print(f"{label}: {timings[i]['note']}", file=sys.stderr)
            continue
        inputs = op.inputs(np if op.host_inputs else cp, row)
        why = check(cp, np, op, row, inputs) if row["n"] <= CHECKED else None
        if why:
            timings[i] = {"note": why + "; not timed"}
            print(f"{label}: {timings[i]['note']}", file=sys.stderr)
            continue
        ms, _ = bench.gpu_times(op.call(cp, inputs, row), hide_launch=op.hide_launch,
                                warmup=pol["warmup"], min_repeats=pol["min_repeats"],
                                max_repeats=pol["max_repeats"])
        timings[i] = {"ms": ms}
        print(f"{label:50s} cupy {statistics.median(ms) * 1e3:12.2f} us", file=sys.stderr,
              flush=True)
    context = bench.context()
    context["timing"] = (
        f"CUDA events on the current stream around each call after {pol['warmup']} untimed "
        f"calls, at least {pol['min_repeats']} repeats and {pol['min_seconds']} s of GPU time, "
        f"at most {pol['max_repeats']}; launch hidden behind a hold kernel except for h2d/d2h; "
        "median")
    context["cupy_accelerators"] = accelerators()
    return context, timings


def merge(report, cupy_context, timings):
    """Writes CuPy's results into the report: per timed row cupy_ms (stats), cupy_us (median)
    and cunp_over_cupy (cunp's GPU median / CuPy's), or cupy_note; the versions in the
    context."""
    ctx = report["context"]
    ctx["cupy_version"] = cupy_context["cupy_version"]
    ctx["numpy_version"] = cupy_context["numpy_version"]
    ctx["cupy"] = cupy_context
    for i, t in timings.items():
        row = report["results"][i]
        for key in ("cupy_ms", "cupy_us", "cunp_over_cupy", "cupy_note"):
            row.pop(key, None)
        if "note" in t:
            row["cupy_note"] = t["note"]
            continue
        row["cupy_ms"] = summarize(t["ms"])
        row["cupy_us"] = row["cupy_ms"]["median"] * 1e3
        row["cunp_over_cupy"] = row["gpu_ms"]["median"] / row["cupy_ms"]["median"]
    return report


def fmt_time(ms):
    """report.cpp's fmt_time: µs below 1 ms, ms below 1 s, else s; '-' for none."""
    if ms is None or ms != ms:
        return "-"
    if ms < 1:
        return f"{ms * 1e3:.2f} us"
    return f"{ms:.3f} ms" if ms < 1e3 else f"{ms * 1e-3:.3f} s"


def fmt(spec, v):
    return "-" if v is None or v != v else spec % v


def fmt_err(e):
    return "-" if e is None or e != e else "0" if e == 0 else f"{e:.1e}"


def median(stats):
    return stats["median"] if stats else None


TABLE = "%-15s %-17s %-5s %-14s %11s %11s %11s %9s %9s %9s %7s %11s %9s  %s"


def format_table(report):
    """report.cpp's GPU table with the columns CuPy (median GPU time) and cunp/CuPy."""
    head = TABLE % ("op", "dtype", "n", "shape", "CPU", "GPU", "GPU e2e", "speed-up",
                    "rel err", "GB/s", "of ceil", "CuPy", "cunp/CuPy", "verdict")
    lines, last = [head, "-" * len(head)], None
    for r in report["results"]:
        if last is not None and last != (r["op"], r["dtype"]):
            lines.append("")
        last = (r["op"], r["dtype"])
        lines.append(TABLE % (
            r["op"], r["dtype"], f"2^{r['log2_n']}", r["shape"], fmt_time(median(r["cpu_ms"])),
            fmt_time(median(r["gpu_ms"])), fmt_time(median(r["gpu_end_to_end_ms"])),
            "-" if r["transfer"] else fmt("%.2fx", r["speedup"]), fmt_err(r["max_rel_err"]),
            fmt("%.1f", r["gpu_GBps"]), fmt("%.2f", r["fraction_of_ceiling"]),
            fmt_time(median(r.get("cupy_ms"))), fmt("%.2f", r.get("cunp_over_cupy")),
            r["verdict"] or "-"))
    return "\n".join(lines)


def format_report(report):
    """The text of report.txt: the GPU and versions, the table, what the columns mean, the ops."""
    c = report["context"]
    out = [f"{c['gpu']} (compute capability {c['compute_capability']}, {c['sms']} SMs, CUDA "
           f"driver {c['cuda_driver']}, runtime {c['cuda_runtime']}): copy ceiling "
           f"{c['copy_ceiling_GBps']:.0f} GB/s (1 GiB device-to-device, read + write), pinned "
           f"h2d {c['h2d_pinned_ceiling_GBps']:.1f} GB/s, d2h {c['d2h_pinned_ceiling_GBps']:.1f} "
           "GB/s"]
    if "cupy" in c:
        acc = c["cupy"]["cupy_accelerators"]
        out.append(f"CuPy {c['cupy_version']} (NumPy {c['numpy_version']}, CUDA runtime "
                   f"{c['cupy']['cuda_runtime']}; accelerators: reductions {acc['reduction']}, "
                   f"routines {acc['routine']}), {c['cupy']['date']}")
    if not c.get("optimised_build"):
        out.append("warning: this report was built without optimisation (a Debug build); its "
                   "timings do not mean much")
    out += ["", format_table(report), "",
            "n: elements; times: medians. CPU: host clock. GPU and CuPy: CUDA events (for ops "
            "that only enqueue GPU work,\na hold kernel keeps the launch latency out: device "
            "time alone). GPU e2e: host clock from the call until\nthe GPU is done (what the "
            "caller waits for)",
            "speed-up = CPU / GPU e2e; rel err = max |GPU - CPU| / |CPU|; GB/s = fewest bytes "
            "moved / GPU time;\nof ceil = GB/s over the copy ceiling (transfers: over the "
            "pinned-transfer ceiling);\n\"keep GPU\" only when the results agree and the GPU is "
            "faster end to end.\ncunp/CuPy = GPU / CuPy: below 1, cunp is faster.",
            "ops:"]
    out += [f"  {name}: {numpy}" for name, numpy in c["ops"].items()]
    notes = [f"  {r['op']} {r['dtype']} {r['shape']}: {r['cupy_note']}"
             for r in report["results"] if r.get("cupy_note")]
    if notes:
        out += ["rows without a CuPy time:"] + notes
    return "\n".join(out) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", nargs="?", default="out/report.json", help="bench/report's JSON")
    ap.add_argument("--txt", help="the table's text file (default: REPORT with suffix .txt)")
    ap.add_argument("--ops", default="", help="time only these ops (comma-separated); the "
                    "other rows keep what they have")
    args = ap.parse_args(argv[1:])
    src = pathlib.Path(args.report)
    txt = pathlib.Path(args.txt) if args.txt else src.with_suffix(".txt")
    ops = {o for o in args.ops.split(",") if o}
    unknown = ops - set(OPS)
    if unknown:
        sys.exit(f"cupy_report.py: no such ops: {', '.join(sorted(unknown))} "
                 f"(known: {', '.join(OPS)})")

    report = read_report(src)
    merge(report, *time_rows(report, ops))
    src.write_text(json.dumps(report, indent=1) + "\n")
    text = format_report(report)
    txt.write_text(text)
    print(text, end="")
    print(f"wrote {src} and {txt}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
