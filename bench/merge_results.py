#!/usr/bin/env python3
"""Join benchmark JSON files by name into one markdown table (for bench/RESULTS.md).

Inputs: Google Benchmark JSON (bench_<area> --benchmark_out=X.json, with or without
--benchmark_repetitions) and the CuPy scripts' JSON (bench/cupy/cupy_<area>.py), whose names are
<op>/<impl>/<arg> (arg: bytes, or elements where the op's name says so). Rows: one per (op, arg);
columns: the median time of each implementation, cunp's rate (GB/s, or TFLOP/s for rows that
count flops: gemm) and its fraction of the ceiling measured in its own run (where a row has no
cunp entry, the raw call's, else CuPy's, marked so), the time ratios cunp/raw and cunp/CuPy (below
1: cunp is faster), and the host time of one call (host_us, where the suite measured it beside the
GPU time).

usage: merge_results.py FILE.json [FILE.json ...] [--out merged.md]
"""
import argparse
import json
import statistics
import sys

UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
ELEMENT_ARGS = {"zeros_small"}  # ops whose arg counts elements, not bytes
MAIN = ("cunp", "raw", "cupy")
RATES = ("TFLOP/s", "GB/s")  # a row's rate counter: flops per second where it counts flops


def key_of(run_name):
    """(op, impl, arg) from 'op/impl[/dtype]/arg[/min_time:0.050][/manual_time]'; a dtype part
    stays with the op ('add/float32'), so that implementations of one dtype share a row."""
    parts = [p for p in run_name.split("/")
             if p not in ("manual_time", "real_time", "process_time") and ":" not in p]
    if len(parts) < 3:
        return None
    return "/".join([parts[0]] + parts[2:-1]), parts[1], int(parts[-1])


def metrics(b):
    t = b.get("median_us")
    if t is None:
        t = b["real_time"] * UNIT_TO_US[b.get("time_unit", "ns")]
    frac = next((v for k, v in b.items() if k.startswith("frac_")), None)
    unit = next((u for u in RATES if b.get(u) is not None), None)
    return {"us": t, "rate": b.get(unit), "unit": unit, "frac": frac, "host": b.get("host_us"),
            "label": b.get("label", "")}


def load(paths):
    """{(op, impl, arg): metrics}, the median over repetitions; and each file's context."""
    runs, medians, contexts = {}, {}, []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        contexts.append((path, data.get("context", {})))
        for b in data.get("benchmarks", []):
            if b.get("error_occurred"):
                continue
            key = key_of(b.get("run_name", b["name"]))
            if key is None:
                continue
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[key] = metrics(b)
            else:
                runs.setdefault(key, []).append(metrics(b))
    out = dict(medians)
    for key, ms in runs.items():
        if key in out:
            continue
        def med(field):
            vals = [m[field] for m in ms if m[field] is not None]
            return statistics.median(vals) if vals else None
        out[key] = {"us": med("us"), "rate": med("rate"), "unit": ms[0]["unit"],
                    "frac": med("frac"), "host": med("host"), "label": ms[0]["label"]}
    return out, contexts


def size_str(op, arg):
    if op in ELEMENT_ARGS or "/" in op:  # op/dtype names count elements
        return f"n=2^{arg.bit_length() - 1}" if arg > 1 and arg & (arg - 1) == 0 else f"n={arg}"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if arg >= scale and arg % scale == 0:
            return f"{arg // scale} {unit}"
    return f"{arg} B"


def num(v, f="{:.2f}"):
    return "-" if v is None else f.format(v)


def rate_cells(row):
    """The rate and fraction-of-ceiling cells of a table row: cunp's; where the row has no cunp
    entry (a reference row such as gemm/raw), the first of raw and CuPy, marked with its name."""
    impl = next((i for i in MAIN if i in row), None)
    if impl is None:
        return "-", "-"
    m, mark = row[impl], "" if impl == "cunp" else f" ({impl})"
    rate = "-" if m["rate"] is None else f"{m['rate']:.1f} {m['unit']}{mark}"
    frac = "-" if m["frac"] is None else f"{m['frac']:.2f}{mark}"
    return rate, frac


def table(results):
    ops = []
    for op, _, _ in results:
        if op not in ops:
            ops.append(op)
    lines = ["| op | size | cunp µs | raw µs | CuPy µs | cunp rate | cunp frac | cunp/raw "
             "| cunp/CuPy | host µs cunp / CuPy | other |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for op in ops:
        args = sorted({a for o, _, a in results if o == op})
        for arg in args:
            row = {impl: m for (o, impl, a), m in results.items() if o == op and a == arg}
            c, r, p = (row.get(i) for i in MAIN)
            ratio = lambda x, y: x["us"] / y["us"] if x and y and y["us"] else None  # noqa: E731
            other = "; ".join(f"{impl} {m['us']:.2f} µs" for impl, m in sorted(row.items())
                              if impl not in MAIN)
            rate, frac = rate_cells(row)
            size = size_str(op, arg)
            label = next((m["label"] for m in row.values() if m["label"]), "")
            if label:
                size += f" ({label})"
            lines.append(
                f"| {op} | {size} | {num(c and c['us'])} | {num(r and r['us'])} "
                f"| {num(p and p['us'])} | {rate} | {frac} | {num(ratio(c, r))} "
                f"| {num(ratio(c, p))} "
                f"| {num(c and c['host'], '{:.1f}')} / {num(p and p['host'], '{:.1f}')} "
                f"| {other} |")
    return "\n".join(lines)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", help="write the markdown here instead of stdout")
    args = ap.parse_args(argv[1:])
    results, contexts = load(args.files)
    text = []
    for path, ctx in contexts:
        keys = ("date", "gpu", "cuda_driver", "cuda_runtime", "cupy_version", "numpy_version",
                "library_build_type",
                "copy_ceiling_GBps", "h2d_pinned_ceiling_GBps", "d2h_pinned_ceiling_GBps",
                "gemm_f32_ceiling_TFLOPs", "gemm_f64_ceiling_TFLOPs", "timing")
        facts = ", ".join(f"{k}: {ctx[k]}" for k in keys if k in ctx)
        text.append(f"- `{path}`: {facts}")
    text.append("")
    text.append(table(results))
    out = "\n".join(text) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
