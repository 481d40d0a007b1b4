#!/usr/bin/env bash
# The README's first command: build cunp's CPU-vs-GPU report, run it, plot it.
#
#   scripts/report.sh [report options, e.g. --max-log2 24 --ops copy,astype]
#
# Writes out/report.json, out/report.txt (the table) and out/report.png. Needs cmake (3.25+),
# g++ (12+) and the CUDA toolkit (nvcc 12.x/13.x); without nvcc it builds the CPU-only report.
# Neither Catch2 nor numpy is needed; the plot needs python3 with matplotlib (optional). With a
# GPU and CuPy (optional), bench/cupy/cupy_report.py adds CuPy's time of each row to the JSON
# and the table (columns CuPy and cunp/CuPy).
# Environment: BUILD_DIR (default build-report), OUT_DIR (out), JOBS (all cores),
# CUDA_ARCH (CMAKE_CUDA_ARCHITECTURES; default native when nvidia-smi sees a GPU, else 90),
# REPORT_BIN (a report executable built already, e.g. by scripts/gpu-pack.sh: no build).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build-report}"
out="${OUT_DIR:-out}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

die() {
  echo "report.sh: $*" >&2
  exit 1
}

build_report() {
  command -v cmake >/dev/null 2>&1 ||
    die "cmake not found. Install it: sudo apt-get install cmake (3.25 or newer)"
  cmake_version="$(cmake --version | head -n1 | sed 's/[^0-9.]*\([0-9.]*\).*/\1/')"
  if [ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -n1)" != "3.25" ]; then
    die "cmake $cmake_version is too old: cunp needs 3.25 or newer" \
        "(python3 -m pip install cmake, or Kitware's apt repository)"
  fi
  command -v g++ >/dev/null 2>&1 ||
    die "g++ not found. Install it: sudo apt-get install g++ (12 or newer)"

  # The CUDA toolkit often sits outside PATH.
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
  fi
  cuda=ON
  if ! command -v nvcc >/dev/null 2>&1; then
    cuda=OFF
    echo "report.sh: nvcc not found, so the report will time the CPU only. For the GPU column," >&2
    echo "  install the CUDA toolkit (sudo apt-get install nvidia-cuda-toolkit, or NVIDIA's" >&2
    echo "  cuda-toolkit package) or put it on PATH: export PATH=/usr/local/cuda/bin:\$PATH" >&2
  fi

  arch="${CUDA_ARCH:-}"
  if [ -z "$arch" ]; then
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
      arch=native
    else
      arch=90
    fi
  fi

  configure=(cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUNP_BUILD_TESTS=OFF
             -DCUNP_BUILD_EXAMPLES=OFF -DCUNP_BUILD_BENCH=ON -DCUNP_ENABLE_CUDA="$cuda")
  [ "$cuda" = ON ] && configure+=(-DCMAKE_CUDA_ARCHITECTURES="$arch")
  # A generator can only be chosen for a new build folder.
  if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    configure+=(-G Ninja)
  fi

  what="CPU only"
  [ "$cuda" = ON ] && what="CUDA architectures $arch"
  echo "==> configuring $build (Release, $what)"
  mkdir -p "$build"
  if ! "${configure[@]}" >"$build/configure.log" 2>&1; then
    cat "$build/configure.log" >&2
    if [ "$cuda" = OFF ]; then
      die "configuring failed (above): cunp's build needs the CUDA toolkit even for the" \
          "CPU-only report; install it (see above)"
    fi
    die "configuring failed (above)"
  fi
  echo "==> building bench/report with $jobs jobs"
  cmake --build "$build" --target report -j "$jobs"
}

report=${REPORT_BIN:-}
if [ -z "$report" ]; then
  build_report
  report="$build/bench/report"
fi

mkdir -p "$out"
echo "==> running the report (progress on stderr; the table also goes to $out/report.txt)"
"$report" --json "$out/report.json" "$@" | tee "$out/report.txt"

if command -v python3 >/dev/null 2>&1; then
  has_gpu='import json, sys; sys.exit(not json.load(open(sys.argv[1]))["context"]["has_gpu"])'
  if python3 -c "$has_gpu" "$out/report.json"; then
    if python3 -c 'import cupy' >/dev/null 2>&1; then
      echo "==> timing the same operations in CuPy (bench/cupy/cupy_report.py): columns CuPy and" \
           "cunp/CuPy in $out/report.json and $out/report.txt"
      python3 bench/cupy/cupy_report.py "$out/report.json" --txt "$out/report.txt" ||
        echo "report.sh: cupy_report.py failed (above); $out has the report without CuPy's column"
    else
      echo "report.sh: CuPy not found, so the CuPy column is skipped (to get it:" \
           "python3 -m pip install cupy-cuda13x, or cupy-cuda12x for CUDA 12)"
    fi
  fi
  python3 scripts/plot_report.py "$out/report.json" "$out/report.png"
else
  echo "report.sh: python3 not found, so no plot (sudo apt-get install python3 python3-matplotlib)"
fi
