// cunp/detail/cpu/expr/evaluate.hpp: the cpu backend of element-wise expressions: one loop over the
// output, threads over ranges of it (the reference detail/cuda/expr/elementwise.cuh matches).
#pragma once
#include <array>
#include <cstdint>

#include "cunp/detail/core/copy.hpp"
#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/detail/expr/expr.hpp"

namespace cunp::detail {

/// The cpu backend's evaluation of a bound expression: one loop over the output.
template <class OutT, class E> void run_host(const bound_expr<E>& b) {
  constexpr int N = bound_expr<E>::N;
  OutT* out = static_cast<OutT*>(const_cast<void*>(b.ctx.ptrs[0]));
  host::for_each_row_parallel(b.layout, [&](const std::array<std::int64_t, N>& row, std::int64_t n,
                                            const std::array<std::int64_t, N>& inner) {
    std::int64_t offs[N];
    const offset_indexer<N> ix{b.ctx.ptrs, offs};
    for (std::int64_t j = 0; j < n; ++j) {
      for (int k = 0; k < N; ++k) offs[k] = row[k] + j * inner[k];
      out[offs[0]] = convert<OutT>(b.tree.eval(ix));
    }
  });
}

/// Evaluates e into out (same device, out of e's shape): the cpu backend. A GPU output here
/// means a host-compiled translation unit: it has no kernel for this expression.
template <class OutT, class E> void evaluate(host_backend, const ndarray<OutT>& out, const E& e) {
  check_same_device(out.device(), e.device(), "evaluate");
  require_cpu_for(out.device(), "element-wise operations");
  if (out.size() == 0) return;
  const bound_expr<E> b(out, e);
  if (b.output_overlaps_input()) {
    const ndarray<OutT> tmp(out.shape(), out.device());
    evaluate(host_backend{}, tmp, e);
    copy_same(out, tmp);
    return;
  }
  run_host<OutT>(b);
}

}  // namespace cunp::detail
