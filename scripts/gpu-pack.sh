#!/usr/bin/env bash
# Build the GPU executables on this machine (nvcc, no GPU needed) and pack them for the GPU
# machine, where `scripts/gpu-check.sh unpack test ...` runs them: the device time then goes to
# running, not to nvcc (the tree's full build is over 15 minutes on the H200 host's 16 cores).
#
#   scripts/gpu-pack.sh [TARGET...]   default: every target of preset gpu (and only the named
#                                     targets' executables are packed)
#
# Writes .gpubin/build-gpu.tgz (executables, the CTest files, Google Benchmark's shared library),
# .gpubin/root.txt (this checkout's path: CTest files hold absolute paths, so `unpack` links this
# path to the GPU machine's checkout) and .gpubin/python.txt (the python3 that CTest files name,
# which `unpack` replaces with the GPU machine's). Carry .gpubin (and .deps) in the device call.
# Environment: JOBS (default: all cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

args=(--preset gpu)
[[ -d .deps/catch2/lib/cmake/Catch2 ]] && args+=(-DCatch2_DIR="$root/.deps/catch2/lib/cmake/Catch2")
# Ninja builds several named targets at once (a Makefile build takes them one after another).
if [[ ! -f build-gpu/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
  export CMAKE_GENERATOR=Ninja
fi
cmake "${args[@]}" >/dev/null
targets=()
[[ $# -gt 0 ]] && targets=(--target "$@")
cmake --build --preset gpu -j "${JOBS:-$(nproc)}" "${targets[@]}"

mkdir -p .gpubin build-gpu/lib
# The GPU machine's Google Benchmark may have another soname: ship the one linked here.
for exe in build-gpu/bench/bench_*; do
  [[ -x "$exe" ]] || continue  # (none when only tests were named)
  ldd "$exe" | awk '/libbenchmark/ { print $3 }'
done | sort -u | xargs -r -I{} cp -L {} build-gpu/lib/
(
  cd build-gpu
  # (examples/run_*: the folders the example tests run in)
  find . \( -name CTestTestfile.cmake -o -path ./lib/\* -o -path './examples/run_*' \
            -o \( -type f -perm -u+x \( -name 'test_*' -o -name 'bench_*' -o -name report \
                  -o -name 'example_*' \) \) \) -print
) | {
  # Named targets: only their executables (a pack of all of them nears the device's 64 MiB).
  if [[ $# -gt 0 ]]; then
    grep -E "CTestTestfile.cmake$|^./lib/|^./examples/run_|/($(IFS='|'; echo "$*"))\$"
  else
    cat
  fi
} | tar -czf .gpubin/build-gpu.tgz -C build-gpu -T -
echo "$root" >.gpubin/root.txt
sed -n 's/^_*Python3_EXECUTABLE:[A-Z]*=//p' build-gpu/CMakeCache.txt | head -n1 >.gpubin/python.txt
echo "packed $(tar -tzf .gpubin/build-gpu.tgz | wc -l) files," \
     "$(du -h .gpubin/build-gpu.tgz | cut -f1): carry .gpubin and .deps in the device call"
