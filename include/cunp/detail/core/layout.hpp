// cunp/detail/core/layout.hpp: turning shapes and strides into the compact form loops and kernels use.
#pragma once
#include <algorithm>
#include <array>
#include <string>

#include "cunp/config.hpp"
#include "cunp/detail/core/runtime.hpp"
#include "cunp/errors.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// A shape shared by N operands with their element strides, simplified: dimensions of extent 1
/// dropped and neighbours merged wherever every operand steps through them as one dimension.
/// The element order is C order of the original shape, so outputs and inputs stay matched.
template <std::size_t N> struct loop_layout {
  strided_shape shape{};
  std::array<std::array<std::int64_t, max_dims>, N> strides{};
  std::int64_t size = 1;
};

template <std::size_t N>
loop_layout<N> make_loop_layout(const shape_t& shape, const std::array<const strides_t*, N>& ops) {
  loop_layout<N> out;
  int nd = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    out.size *= shape[d];
    if (shape[d] == 1) continue;
    bool merge = nd > 0;
    for (std::size_t k = 0; k < N && merge; ++k)
      merge = out.strides[k][nd - 1] == (*ops[k])[d] * shape[d];
    if (merge) {
      out.shape.extent[nd - 1] *= shape[d];
      for (std::size_t k = 0; k < N; ++k) out.strides[k][nd - 1] = (*ops[k])[d];
      continue;
    }
    if (nd == max_dims)
      throw value_error("cunp supports at most " + std::to_string(max_dims) +
                        " dimensions that cannot be merged; this array has more");
    out.shape.extent[nd] = shape[d];
    for (std::size_t k = 0; k < N; ++k) out.strides[k][nd] = (*ops[k])[d];
    ++nd;
  }
  out.shape.ndim = nd;
  return out;
}

/// Adds the offsets of linear C-order index i of layout l to offs (host and device); no
/// division when the layout merged into one axis (a 64-bit division is tens of instructions).
template <std::size_t N>
CUNP_HD void add_offsets(std::int64_t i, const loop_layout<N>& l, std::int64_t* offs) {
  if (l.shape.ndim == 1) {
    for (std::size_t k = 0; k < N; ++k) offs[k] += i * l.strides[k][0];
    return;
  }
  for (int d = l.shape.ndim - 1; d >= 0; --d) {
    const std::int64_t e = l.shape.extent[d];
    const std::int64_t q = i / e, r = i - q * e;
    i = q;
    for (std::size_t k = 0; k < N; ++k) offs[k] += r * l.strides[k][d];
  }
}

/// Element range [lo, hi] (inclusive, relative to the first element) that a view touches.
inline std::pair<std::int64_t, std::int64_t> element_span(const shape_t& shape,
                                                          const strides_t& strides) {
  std::int64_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return {0, -1};
    const std::int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

/// The addresses [first, end) that a view's elements lie in. Overlap checks compare these rather
/// than element positions in a storage: positions of a complex array and of its real view count
/// different units, and two handles over one block of memory (adapt) have different storages.
struct byte_range {
  std::uintptr_t first = 0, end = 0;
  [[nodiscard]] bool overlaps(const byte_range& o) const {
    return first < end && o.first < o.end && first < o.end && o.first < end;
  }
};
template <class Array> byte_range bytes_of(const Array& a) {
  const auto [lo, hi] = element_span(a.shape(), a.strides());
  const auto p = reinterpret_cast<std::uintptr_t>(a.data());
  const auto size = static_cast<std::intptr_t>(sizeof(*a.data()));
  return {p + lo * size, p + (hi + 1) * size};
}

}  // namespace cunp::detail
