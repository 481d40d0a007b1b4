// cunp/detail/cpu/scan/scan.hpp: the cpu backend of cumsum/cumprod and their nan- variants (the
// reference detail/cuda/scan/scan.cuh matches).
#pragma once
#include <optional>
#include <vector>

#include "cunp/detail/scan/scan_ops.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// The cpu backend's scan of x into out (C-ordered, x's shape, or x's size when flattened):
/// one pass in C order, each element combined with the output element one step back along the
/// axis, so the additions happen in NumPy's order.
template <class R, class L, class Fn, bool Nan>
void scan_into(host_backend, const ndarray<R>& out, const ndarray<L>& x, std::optional<int> axis,
               scan_kind<Fn, Nan>) {
  check_same_device(out.device(), x.device(), "scan");
  require_cpu_for(out.device(), "cumulative sums and products");
  if (x.size() == 0) return;
  const scan_combine<R, Fn> op;
  const shape_t& shape = x.shape();
  const strides_t& strides = x.strides();
  const int nd = x.ndim();
  const int ax = axis.value_or(-1);
  index_t inner = 1;
  for (int d = ax + 1; axis && d < nd; ++d) inner *= shape[d];
  R* o = out.data();
  const L* in = x.data();
  const index_t last = shape[nd - 1], last_stride = strides[nd - 1];
  const index_t rows = x.size() / last;
  std::vector<index_t> idx(nd, 0);
  index_t off = 0, p = 0;
  for (index_t r = 0; r < rows; ++r) {
    const bool row_head = axis && ax < nd - 1 && idx[ax] == 0;
    for (index_t j = 0; j < last; ++j, ++p) {
      const R v = scan_load<R, Fn, Nan>(in[off + j * last_stride]);
      const bool head = !axis ? p == 0 : ax == nd - 1 ? j == 0 : row_head;
      o[p] = head ? v : op(o[p - inner], v);
    }
    for (int d = nd - 2; d >= 0; --d) {
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
}

/// The cpu backend reads expressions from a materialised copy (see scan()).
template <class R, class E, class Fn, bool Nan>
bool scan_expression(host_backend, const ndarray<R>&, const E&, scan_kind<Fn, Nan>) {
  return false;
}

}  // namespace cunp::detail
