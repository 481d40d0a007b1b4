#!/usr/bin/env bash
# The whole check on the GPU machine (H200, sm_90). Carry .deps there (scripts/prepare-gpu-deps.sh
# makes it on this machine; the GPU machine has no Catch2).
#
#   scripts/gpu-check.sh [STEP...]   steps: unpack build test sanitize bench report
#                                    (default: build test sanitize bench report)
#
#   unpack    use the executables scripts/gpu-pack.sh built on another machine (.gpubin, carried)
#             instead of building here: the cheaper way to spend device time
#   build     configure preset gpu (Catch2 2 or 3 from .deps when present), build with every core
#   test      ctest, label cpu then label gpu, --output-on-failure
#   sanitize  each GPU test executable (and the mixed-TU test, the CUDA example) under
#             compute-sanitizer --tool memcheck
#   bench     every bench/bench_<area> (Google Benchmark, JSON) and bench/cupy/cupy_<area>.py
#             script, joined into one table by bench/merge_results.py
#   report    scripts/report.sh (the README's first command) on the report built by the build or
#             unpack step
#
# One call of the device tool may run 10 minutes, and a full build here takes longer than that
# (each test_<area>_gpu is 5-9 CPU-minutes of nvcc): build on another machine with
# scripts/gpu-pack.sh and run `scripts/gpu-check.sh unpack test bench`, then `unpack report`,
# carrying .gpubin. Files, at most 8, go to $OUT (else build-gpu/out): summary.txt, build.log,
# tests.log, sanitizer.log, bench.log, bench.md, json.tar.gz (bench_*.json, cupy_*.json,
# report.json), report.png.
# Environment: GPU_CHECK_BENCH_ARGS (extra Google Benchmark flags), GPU_CHECK_TIMEOUT (seconds
# for each benchmark, CuPy script or sanitizer run; default 480), GPU_CHECK_TARGETS (build only
# these targets, space-separated), GPU_CHECK_TESTS (ctest -R regex; also picks the executables
# that sanitize runs), GPU_CHECK_BENCH (regex on
# the names of the bench executables and CuPy scripts to run), GPU_CHECK_REPORT_ARGS (options for
# bench/report, e.g. --max-log2 24) and GPU_CHECK_MIN_TIME (seconds of GPU time per benchmark
# measurement, cunp's and CuPy's alike; default 0.05).
# Exits non-zero when the build, a test or memcheck fails.
set -uo pipefail
shopt -s nullglob
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(build test sanitize bench report)
for s in "${steps[@]}"; do
  case $s in build | test | sanitize | bench | report) ;;
    unpack) ;;
    *) echo "usage: scripts/gpu-check.sh [unpack|build|test|sanitize|bench|report]..." >&2
       exit 2 ;;
  esac
done

build=$root/build-gpu
out=${OUT:-$build/out}
mkdir -p "$out"
json=$build/json  # the JSON files, packed into one archive at the end
jobs=$(nproc)
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # unpack's libbenchmark
limit=${GPU_CHECK_TIMEOUT:-480}
py=$(command -v python3 || true)
export PYTHONUNBUFFERED=1
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

sanitizer=$(command -v compute-sanitizer || true)
for c in /usr/local/cuda/{bin,compute-sanitizer}/compute-sanitizer; do
  [[ -z $sanitizer && -x $c ]] && sanitizer=$c
done
# Each step starts its own log afresh (without $OUT, build-gpu/out outlives a run).
for s in "${steps[@]}"; do
  case $s in
    build) rm -f "$out/build.log" ;;
    test) rm -f "$out/tests.log" ;;
    sanitize) rm -f "$out/sanitizer.log" ;;
    bench) rm -f "$out/bench.log" "$out/bench.md" ;;
    report) rm -f "$out/bench.log" "$out/report.png" ;;
  esac
done

status=0
summary=()  # lines of the final table
say() { printf '\n== %s\n' "$*"; }
row() { summary+=("$(printf '%-10s %-8s %s' "$1" "$2" "$3")"); }
# "F T" from the last ctest summary line of a log.
ctest_counts() {
  sed -n -e 's/.*tests passed, \([0-9]*\) tests* failed out of \([0-9]*\).*/\1 \2/p' \
         -e 's/^100% tests passed out of \([0-9]*\).*/0 \1/p' "$1" | tail -n1
}

step_build() {
  say "build: configure preset gpu, build with $jobs jobs (log: build.log)"
  local args=(--preset gpu)
  [[ -n $py ]] && args+=(-DPython3_EXECUTABLE="$py")
  # Catch2 2 or 3: $Catch2_DIR, else prepare-gpu-deps.sh's .deps/catch2, else another unpacked
  # package in .deps (e.g. .deps/catch2-3-noble/usr from Ubuntu 24.04's catch2 .deb).
  local catch2=${Catch2_DIR:-} d
  for d in .deps/catch2/lib/cmake/Catch2 .deps/catch2/lib/*/cmake/Catch2 \
           .deps/*/usr/lib/cmake/Catch2 .deps/*/usr/lib/*/cmake/Catch2; do
    [[ -z $catch2 && -f $d/Catch2Config.cmake ]] && catch2=$root/$d
  done
  [[ -n $catch2 ]] && args+=(-DCatch2_DIR="$catch2")
  if [[ ! -f $build/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
    export CMAKE_GENERATOR=Ninja
  fi
  local start=$SECONDS
  if cmake "${args[@]}" >>"$out/build.log" 2>&1 &&
     cmake --build --preset gpu -j "$jobs" ${GPU_CHECK_TARGETS:+--target $GPU_CHECK_TARGETS} \
       >>"$out/build.log" 2>&1; then
    row build ok "$((SECONDS - start)) s"
  else
    tail -n 40 "$out/build.log"
    row build FAILED "see build.log"
    status=1
    return 1
  fi
}

step_unpack() {
  local pack=$root/.gpubin/build-gpu.tgz where
  if [[ ! -f $pack ]]; then
    row unpack FAILED "no $pack: run scripts/gpu-pack.sh on the building machine, carry .gpubin"
    status=1
    return 1
  fi
  # The CTest files name the packing checkout's absolute paths: make that path lead here.
  where=$(cat "$root/.gpubin/root.txt")
  if [[ $where != "$root" && ! -e $where ]]; then
    mkdir -p "$(dirname "$where")" && ln -s "$root" "$where"
  fi
  mkdir -p "$build" && tar -xzf "$pack" -C "$build"
  # ... and the packing machine's python3 (golden_generate): this machine's, which has NumPy.
  local packed_py
  packed_py=$(cat "$root/.gpubin/python.txt")
  [[ -n $py && $packed_py != "$py" ]] &&
    find "$build" -name CTestTestfile.cmake -exec sed -i "s#\"$packed_py\"#\"$py\"#g" {} +
  row unpack ok "$(tar -tzf "$pack" | wc -l) files from $where"
}

step_test() {
  local label counts f t skipped log=$build/ctest.log
  for label in cpu gpu; do
    say "test: ctest -L $label (log: tests.log)"
    : >"$log"
    ctest --preset gpu -L "^$label\$" -j "$([[ $label == gpu ]] && echo 4 || echo "$jobs")" \
      ${GPU_CHECK_TESTS:+-R "$GPU_CHECK_TESTS"} --output-on-failure 2>&1 | tee "$log" >>"$out/tests.log"
    sed -n '/tests passed/,$p' "$log"
    counts=$(ctest_counts "$log")
    skipped=$(grep -c '(Skipped)' "$log")
    if [[ -z $counts ]]; then
      row "tests $label" FAILED "ctest did not finish; see tests.log"
      status=1
      continue
    fi
    read -r f t <<<"$counts"
    row "tests $label" "$([[ $f -eq 0 ]] && echo ok || echo FAILED)" \
      "$((t - f)) passed, $f failed, $skipped skipped (of $t)"
    [[ $f -eq 0 ]] || status=1
  done
}

step_sanitize() {
  say "sanitize: compute-sanitizer --tool memcheck (log: sanitizer.log)"
  if [[ -z $sanitizer ]]; then
    row memcheck FAILED "compute-sanitizer not found"
    status=1
    return
  fi
  export CUNP_GOLDEN_DIR=$build/tests/golden
  [[ -n $py ]] && "$py" tests/golden/generate.py "$CUNP_GOLDEN_DIR" >>"$out/sanitizer.log" 2>&1
  local exe name good=0 bad=() scratch=$build/sanitize-run
  mkdir -p "$scratch"
  for exe in "$build"/tests/test_*_gpu "$build"/tests/test_mixed_tu \
             "$build"/examples/example_*_cuda; do
    [[ -x $exe ]] || continue
    name=$(basename "$exe")
    [[ $name =~ ${GPU_CHECK_TESTS:-.} ]] || continue
    printf '\n#### %s\n' "$name" >>"$out/sanitizer.log"
    # Catch2 tests: skip [oom], whose deliberately failed allocations memcheck reports as
    # errors, and the hidden [.] cases (a filter would otherwise run them).
    local filter=()
    [[ $name == test_*_gpu ]] && filter=("~[oom]~[.]")
    # In a scratch folder: the examples write files where they run.
    if (cd "$scratch" && timeout "$limit" "$sanitizer" --tool memcheck --error-exitcode 86 \
          --print-limit 50 "$exe" "${filter[@]}") >>"$out/sanitizer.log" 2>&1; then
      good=$((good + 1))
      echo "   $name: clean"
    else
      bad+=("$name")
      echo "   $name: FAILED (see sanitizer.log)"
    fi
  done
  if [[ $((good + ${#bad[@]})) -eq 0 ]]; then
    row memcheck FAILED "no GPU executables in $build (run the build step)"
    status=1
  elif [[ ${#bad[@]} -eq 0 ]]; then
    row memcheck ok "$good executables clean"
  else
    row memcheck FAILED "$good clean; errors in ${bad[*]}"
    status=1
  fi
}

step_bench() {
  say "bench: Google Benchmark suites and CuPy scripts (log: bench.log)"
  # One minimum time per measurement for both sides (bench_util.hpp's knob, cupy_bench's flag).
  [[ -n ${GPU_CHECK_MIN_TIME:-} ]] && export CUNP_BENCH_MIN_TIME=$GPU_CHECK_MIN_TIME
  mkdir -p "$json"
  rm -f "$json"/bench_*.json "$json"/cupy_*.json
  local exe name ran=0 failed=()
  for exe in "$build"/bench/bench_*; do
    [[ -f $exe && -x $exe ]] || continue
    name=$(basename "$exe")
    [[ $name =~ ${GPU_CHECK_BENCH:-.} ]] || continue
    printf '\n#### %s\n' "$name" >>"$out/bench.log"
    echo "   $name"
    # shellcheck disable=SC2086  # GPU_CHECK_BENCH_ARGS is a list of flags
    if timeout "$limit" "$exe" --benchmark_repetitions=3 --benchmark_display_aggregates_only=true \
         --benchmark_out="$json/$name.json" --benchmark_out_format=json \
         ${GPU_CHECK_BENCH_ARGS:-} >>"$out/bench.log" 2>&1; then
      ran=$((ran + 1))
    else
      failed+=("$name")
    fi
  done
  for script in bench/cupy/cupy_*.py; do
    # The scripts run as programs; a module without a main is shared code (cupy_bench.py).
    # cupy_report.py is the report's CuPy column (the report step runs it).
    if [[ -z $py ]] || ! grep -q '__main__' "$script" || [[ $script == */cupy_report.py ]]; then
      continue
    fi
    name=$(basename "$script" .py)
    [[ $name =~ ${GPU_CHECK_BENCH:-.} ]] || continue
    printf '\n#### %s\n' "$name" >>"$out/bench.log"
    echo "   $name"
    if timeout "$limit" "$py" "$script" --out "$json/$name.json" \
         ${GPU_CHECK_MIN_TIME:+--min-time "$GPU_CHECK_MIN_TIME"} >>"$out/bench.log" 2>&1; then
      ran=$((ran + 1))
    else
      failed+=("$name")
    fi
  done
  local files=("$json"/bench_*.json "$json"/cupy_*.json)
  if [[ ${#files[@]} -gt 0 && -n $py && -f bench/merge_results.py ]]; then
    "$py" bench/merge_results.py "${files[@]}" --out "$out/bench.md" >>"$out/bench.log" 2>&1 ||
      failed+=(merge_results)
  fi
  if [[ $ran -eq 0 && ${#failed[@]} -eq 0 ]]; then
    row bench none "no bench_* executables built (Google Benchmark missing?)"
  else
    row bench "$([[ ${#failed[@]} -eq 0 ]] && echo ok || echo FAILED)" \
      "$ran ran${failed:+, failed: ${failed[*]}}; table bench.md, JSON in json.tar.gz"
  fi
}

step_report() {
  # The report built by the build or unpack step, else its own build folder.
  local tmp bin=""
  [[ -x $build/bench/report ]] && bin=$build/bench/report
  say "report: scripts/report.sh (${bin:-build folder build-gpu-report})"
  mkdir -p "$json"
  tmp=$(mktemp -d)
  if REPORT_BIN=$bin BUILD_DIR=build-gpu-report OUT_DIR=$tmp JOBS=$jobs scripts/report.sh \
       ${GPU_CHECK_REPORT_ARGS:-} >>"$out/bench.log" 2>&1; then
    [[ -f $tmp/report.json ]] && cp "$tmp/report.json" "$json/report.json"
    local plot="no plot (matplotlib missing?)"
    [[ -f $tmp/report.png ]] && cp "$tmp/report.png" "$out/report.png" && plot="plot report.png"
    REPORT_TABLE=$(cat "$tmp/report.txt" 2>/dev/null)
    row report ok "table in summary.txt, $plot, report.json in json.tar.gz"
  else
    tail -n 20 "$out/bench.log"
    row report FAILED "see bench.log"
  fi
  rm -rf "$tmp"
}

REPORT_TABLE=""
for s in "${steps[@]}"; do
  start=$SECONDS
  if [[ $s != build && $s != unpack && $s != report && ! -f $build/CTestTestfile.cmake ]]; then
    row "$s" FAILED "no build in $build: run the build or unpack step first"
    status=1
    continue
  fi
  "step_$s" || true
  echo "   ($s: $((SECONDS - start)) s)"
done

if compgen -G "$json/*.json" >/dev/null; then
  tar -czf "$out/json.tar.gz" -C "$json" .
fi
{
  echo "cunp gpu-check $(date -u '+%Y-%m-%d %H:%M UTC'), steps: ${steps[*]}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
    sed 's/^/GPU: /'
  echo "nvcc $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')," \
       "$(cmake --version | head -n1)"
  [[ -n $py ]] && "$py" -c 'import numpy; print("numpy", numpy.__version__)' 2>/dev/null
  echo
  printf '%s\n' "${summary[@]}"
  echo "files in $out: $(cd "$out" && ls | tr '\n' ' ')"
  if [[ -n $REPORT_TABLE ]]; then
    echo
    echo "$REPORT_TABLE"
  fi
} >"$out/summary.txt"
say "summary"
sed -n '1,/^files in/p' "$out/summary.txt"
exit "$status"
