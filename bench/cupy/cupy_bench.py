"""Shared machinery of the CuPy benchmark scripts (bench/cupy/cupy_<area>.py), the Python side of
bench/bench_util.hpp: command-line options, the hold kernel, GPU and host timing, the L2 flush,
the ceilings measured in the same run, Google-Benchmark-shaped JSON entries and the JSON file.

Timing matches the C++ suites: CUDA events on the current stream around each call, 3 untimed
warm-up calls, repeats until --min-time seconds of GPU time and at least 20 repeats, median;
device-only ops behind a hold kernel so that Python's launch latency stays out of the GPU time
and goes to host_us.

CuPy and NumPy are imported when a Bench is made, so that the scripts' --help works without them.
"""
import argparse
import datetime
import json
import platform
import re
import statistics
import sys
import time

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
H2D, D2H, D2D = 1, 2, 3  # cudaMemcpyKind

# Keeps the stream busy for `ns` nanoseconds (bench_util.hpp's kernels::hold).
HOLD_SOURCE = r"""
    extern "C" __global__ void hold(unsigned long long ns) {
      unsigned long long t0, t;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
      do {
        __nanosleep(500);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
      } while (t - t0 < ns);
    }"""

# The ceilings a script can measure: (cudaMemcpyKind, bytes per copy, bytes counted per copy).
CEILINGS = {
    "copy": (D2D, GIB, 2 * GIB),  # 1 GiB device to device, read + written bytes
    "h2d_pinned": (H2D, 256 * MIB, 256 * MIB),
    "d2h_pinned": (D2H, 256 * MIB, 256 * MIB),
}


def arg_parser(doc, default_out, suite):
    """The options every script takes: --out, --filter, --min-time (`suite`: the C++ suite)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--out", default=default_out, help="JSON file to write")
    ap.add_argument("--filter", default="", help="only names matching this regular expression")
    ap.add_argument("--min-time", type=float, default=0.05,
                    help=f"seconds of GPU time per benchmark ({suite}: CUNP_BENCH_MIN_TIME)")
    return ap


def accelerators():
    """The back-ends that CuPy's reductions and its routines (cumsum among them) use, as set by
    CUPY_ACCELERATORS: "cub", "cutensor", or "none" for CuPy's own kernels."""
    try:
        from cupy._core import _accelerator as acc
    except ImportError:
        return {"reduction": "unknown", "routine": "unknown"}
    names = {1: "cub", 2: "cutensor", 3: "cutensornet"}  # _accelerator.pxd's accelerator_type

    def listed(ids):
        return ",".join(names.get(int(a), str(a)) for a in ids) or "none"
    return {"reduction": listed(acc.get_reduction_accelerators()),
            "routine": listed(acc.get_routine_accelerators())}


def hold_for(host_us):
    """Microseconds of stream hold that hide a call whose host part takes `host_us`."""
    return min(2000.0, 1.5 * host_us + 10)


class Bench:
    """One run of a script: its options, the results so far and the ceilings it measured."""

    def __init__(self, args, executable):
        import cupy
        import cupyx
        import numpy

        self.cp, self.cupyx, self.np = cupy, cupyx, numpy
        self.executable = executable
        self.min_time = args.min_time
        self.out = args.out
        self.keep = re.compile(args.filter)
        self.results = []
        self.ceilings = {}  # name -> GB/s, in the order measured
        self._hold = cupy.RawKernel(HOLD_SOURCE, "hold")
        self._flush_buf = None

    def stream(self):
        return self.cp.cuda.get_current_stream()

    # ---- timing --------------------------------------------------------------------------------
    def gpu_times(self, fn, flush=None, hide_launch=False, warmup=3, min_repeats=20,
                  max_repeats=100000):
        """Milliseconds of fn() between two events on the current stream, one pair per call,
        and the host time of each call. With hide_launch, a hold kernel queued before the start
        event keeps the GPU busy while Python enqueues fn(), so the events time the device work
        alone (bench_util.hpp's time_gpu does the same for cunp); only for calls that just
        enqueue work."""
        cp = self.cp
        warm = []
        for _ in range(warmup):
            t0 = time.perf_counter()
            fn()
            warm.append((time.perf_counter() - t0) * 1e6)
            self.stream().synchronize()
        hold_us = hold_for(statistics.median(warm)) if hide_launch else 0
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        ms, host, total = [], [], 0.0
        while len(ms) < max_repeats and (len(ms) < min_repeats or total < self.min_time):
            if flush is not None:
                flush()
            if hold_us:
                self._hold((1,), (1,), (self.np.uint64(hold_us * 1e3),))
            t0 = time.perf_counter()
            start.record()
            fn()
            t1 = time.perf_counter()
            stop.record()
            stop.synchronize()
            t = cp.cuda.get_elapsed_time(start, stop)
            ms.append(t)
            host.append((t1 - t0) * 1e3)
            if hold_us and (t1 - t0) * 1e6 > 0.8 * hold_us:
                hold_us = hold_for((t1 - t0) * 1e6)
            total += t * 1e-3
        return ms, host

    def host_times(self, fn, warmup=3, min_repeats=20, batch=64):
        """Milliseconds of host time per call (what a launch-bound caller pays). The stream is
        drained, untimed, every `batch` calls so that the launch queue never fills (a full queue
        makes each call wait for the GPU), as bench_util.hpp's host_per_call."""
        for _ in range(warmup):
            fn()
        self.stream().synchronize()
        ms, begin = [], time.perf_counter()
        while len(ms) < min_repeats or time.perf_counter() - begin < self.min_time:
            t0 = time.perf_counter()
            fn()
            ms.append((time.perf_counter() - t0) * 1e3)
            if len(ms) % batch == 0:
                self.stream().synchronize()
        self.stream().synchronize()
        return ms

    def flusher(self):
        """Writes four times the L2 size (at least 256 MiB) before a cold-cache repeat."""
        cp = self.cp
        if self._flush_buf is None:
            l2 = cp.cuda.runtime.getDeviceProperties(0)["l2CacheSize"]
            self._flush_buf = cp.empty(max(4 * l2, 256 * MIB), dtype=cp.uint8)
        buf = self._flush_buf
        counter = [0]

        def flush():
            counter[0] = (counter[0] + 1) & 0xFF
            cp.cuda.runtime.memsetAsync(buf.data.ptr, counter[0], buf.nbytes, self.stream().ptr)
        return flush

    # ---- ceilings, measured in this process ----------------------------------------------------
    def ceiling_ms(self, kind, nbytes):
        """Median milliseconds of one cudaMemcpyAsync of `nbytes` (D2D, or pinned H2D / D2H)."""
        cp, np = self.cp, self.np
        if kind == D2D:
            src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
            src.fill(0x3F)
            a, b = dst.data.ptr, src.data.ptr
        else:
            dev = cp.empty(nbytes, cp.uint8)
            host = self.cupyx.empty_pinned((nbytes,), dtype=np.uint8)
            host[...] = 0x3F
            a, b = dev.data.ptr, host.ctypes.data
            if kind == D2H:
                a, b = b, a
        ms, _ = self.gpu_times(
            lambda: cp.cuda.runtime.memcpyAsync(a, b, nbytes, kind, self.stream().ptr))
        return statistics.median(ms)

    def measure_ceilings(self, *names):
        """Measures the named CEILINGS (before any benchmark, never inside one) and prints the
        copy ceiling."""
        for name in names:
            kind, nbytes, counted = CEILINGS[name]
            self.ceilings[name] = counted / 1e9 / (self.ceiling_ms(kind, nbytes) * 1e-3)
        self.cp.get_default_memory_pool().free_all_blocks()
        if "copy" in self.ceilings:
            print(f"{self.gpu_name()}: copy ceiling {self.ceilings['copy']:.0f} GB/s "
                  "(1 GiB D2D, read + write)", file=sys.stderr)

    # ---- results -------------------------------------------------------------------------------
    def record(self, name, ms, host=None, nbytes=0, ceiling=None, label=""):
        """Appends a Google-Benchmark-shaped entry (times in microseconds, counters of the
        median repeat); `ceiling` names a measured ceiling for the frac_<ceiling> counter."""
        med = statistics.median(ms)
        e = {"name": name, "run_name": name, "run_type": "iteration", "iterations": len(ms),
             "real_time": med * 1e3, "cpu_time": med * 1e3, "time_unit": "us",
             "median_us": med * 1e3, "min_us": min(ms) * 1e3, "max_us": max(ms) * 1e3}
        if host:
            e["host_us"] = statistics.median(host) * 1e3
        if label:
            e["label"] = label
        if nbytes:
            e["bytes"] = nbytes
            e["GB/s"] = nbytes / 1e9 / (med * 1e-3)
            if ceiling is not None:
                e["frac_" + ceiling] = e["GB/s"] / self.ceilings[ceiling]
        self.results.append(e)
        print(f"{name:45s} {med * 1e3:12.2f} us" + (f"  {e['GB/s']:9.1f} GB/s" if nbytes else ""),
              file=sys.stderr, flush=True)

    def run(self, name, fn_maker, args, kind="gpu", nbytes=lambda b: b, ceiling=None, cold=False,
            hide_launch=False, warmup=3, min_repeats=20):
        """Times `name/<arg>` for each arg that --filter keeps. fn_maker(arg) returns (fn,
        label); kind "gpu" times fn() with events (nbytes(arg) bytes, against `ceiling`), at
        least min_repeats calls, "host" its host time per call."""
        for b in args:
            full = f"{name}/{b}"
            if not self.keep.search(full):
                continue
            fn, label = fn_maker(b)
            if kind == "gpu":
                ms, host = self.gpu_times(fn, flush=self.flusher() if cold else None,
                                          hide_launch=hide_launch, warmup=warmup,
                                          min_repeats=min_repeats)
                self.record(full, ms, host, nbytes(b), ceiling, label)
            else:
                self.record(full, self.host_times(fn, warmup=warmup), label=label)

    def gpu_name(self):
        name = self.cp.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else name

    def context(self):
        """The JSON context: date, machine, GPU, versions, the ceilings and the timing policy."""
        cp, np = self.cp, self.np
        ctx = {
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "host_name": platform.node(),
            "executable": self.executable,
            "gpu": self.gpu_name(),
            "cuda_driver": "%d.%d" % divmod(cp.cuda.runtime.driverGetVersion() // 10, 100),
            "cuda_runtime": "%d.%d" % divmod(cp.cuda.runtime.runtimeGetVersion() // 10, 100),
            "cupy_version": cp.__version__,
            "numpy_version": np.__version__,
            "python_version": platform.python_version(),
        }
        for name, gbps in self.ceilings.items():
            ctx[f"{name}_ceiling_GBps"] = f"{gbps:.4g}"
        ctx["timing"] = ("CUDA events on the current stream around each call after 3 untimed "
                         "calls (device-only ops: launch hidden behind a hold kernel); median; "
                         f"min_time {self.min_time} s (host-time rows: perf_counter per call)")
        return ctx

    def write(self):
        """Writes {"context", "benchmarks"} to --out, as Google Benchmark's JSON is shaped."""
        with open(self.out, "w") as f:
            json.dump({"context": self.context(), "benchmarks": self.results}, f, indent=1)
        print(f"wrote {self.out} ({len(self.results)} benchmarks)", file=sys.stderr)
