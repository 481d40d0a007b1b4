#!/usr/bin/env bash
# Wall time of nvcc compiling bench/compile/one_expression.cu (<cunp/cunp.hpp> and one fused
# expression) with the flags the cunp::cunp target gives, -O3, sm_90, on two cores (taskset), as
# shared/PERFORMANCE.md's compile-time target asks. Prints the median of three runs and each
# phase of the last one (nvcc --time).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
pin=()
command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]] && pin=(taskset -c 0,1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 --expt-relaxed-constexpr --extended-lambda -O3 -arch=sm_90 -I"$root/include")
times=()
for i in 1 2 3; do
  rm -f "$tmp/phases.csv"
  start=$(date +%s%N)
  "${pin[@]}" "$nvcc" "${flags[@]}" --time "$tmp/phases.csv" -c "$root/bench/compile/one_expression.cu" -o "$tmp/one.o"
  times+=("$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
echo "compile one fused expression with <cunp/cunp.hpp>: median $median s of ${times[*]} (${#pin[@]} pinned: ${pin[*]:-no taskset})"
awk -F, 'NR > 1 && $2 != "" { printf "  %-24s %8.0f ms\n", $2, $(NF-1) }' "$tmp/phases.csv"
