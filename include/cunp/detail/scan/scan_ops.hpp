// cunp/detail/scan/scan_ops.hpp: what both backends of cumsum/cumprod share: the scan kinds,
// NumPy's NaN rule and combine step, and the (outer, n, inner) geometry of a scan over a strided
// array.
#pragma once
#include <optional>
#include <type_traits>

#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// Which scan: the ufunc functor Fn that combines (add_op: cumsum, multiply_op: cumprod, any
/// associative one for ufunc.accumulate), and whether NaN counts as the identity (nancumsum,
/// nancumprod).
template <class Fn, bool Nan> struct scan_kind {};

/// numpy.isnan of one element (complex: either part); false for exact types.
template <class L> CUNP_HD bool scan_isnan(const L& x) {
  if constexpr (is_complex_v<L>) {
    const auto* parts = reinterpret_cast<const typename complex_parts<L>::type*>(&x);
    return parts[0] != parts[0] || parts[1] != parts[1];
  } else if constexpr (std::is_same_v<L, float16> || std::is_same_v<L, bfloat16>) {
    const float f = x;
    return f != f;
  } else if constexpr (std::is_floating_point_v<L>) {
    return x != x;
  } else {
    return false;
  }
}

/// An input element in the result dtype R. The nan- variants replace NaN by the identity (0 for
/// sums, 1 for products) before the conversion, as NumPy replaces it in the input's dtype.
template <class R, class Fn, bool Nan, class L> CUNP_HD R scan_load(const L& x) {
  if constexpr (Nan) {
    if (scan_isnan(x)) return convert<R>(std::is_same_v<Fn, multiply_op> ? 1 : 0);
  }
  return convert<R>(x);
}

/// One step of the scan in the accumulator type V: NumPy's loop of Fn on V (integers wrap,
/// float16 rounds every partial result to float16, as numpy.add.accumulate does).
template <class V, class Fn> struct scan_combine {
  CUNP_HD V operator()(const V& a, const V& b) const {
    using M = math_t<V>;
    return convert<V>(Fn{}(convert<M>(a), convert<M>(b)));
  }
};

/// A scan seen as three extents: the output, C-ordered, is (outer, n, inner) and the scan runs
/// along n; with the input's element strides for the same three extents when the input's axes
/// merge that way (merged == false otherwise). A flattened scan has outer = inner = 1.
struct scan_geometry {
  index_t outer = 1, n = 1, inner = 1;
  index_t in_outer = 0, in_step = 1, in_inner = 0;
  bool merged = true;
};

/// Merges axes [lo, hi) of a strided array into one extent and stride, if they step as one.
inline bool merge_axes(const shape_t& shape, const strides_t& strides, std::size_t lo,
                       std::size_t hi, index_t& extent, index_t& stride) {
  extent = 1;
  stride = 0;
  bool ok = true;
  for (std::size_t d = lo; d < hi; ++d) {
    if (shape[d] == 1) continue;
    if (extent > 1 && stride != strides[d] * shape[d]) ok = false;
    extent *= shape[d];
    stride = strides[d];
  }
  return ok;
}

/// The scan geometry of an array of at least one dimension, along `axis` (normalised), or of
/// its flattened elements.
inline scan_geometry scan_geometry_of(const shape_t& shape, const strides_t& strides,
                                      std::optional<int> axis) {
  scan_geometry g;
  if (!axis) {
    g.merged = merge_axes(shape, strides, 0, shape.size(), g.n, g.in_step);
  } else {
    const auto ax = static_cast<std::size_t>(*axis);
    const bool lo = merge_axes(shape, strides, 0, ax, g.outer, g.in_outer);
    const bool hi = merge_axes(shape, strides, ax + 1, shape.size(), g.inner, g.in_inner);
    g.n = shape[ax];
    g.in_step = strides[ax];
    g.merged = lo && hi;
  }
  if (g.n <= 1) g.in_step = 1;  // never stepped along: any stride will do
  return g;
}

}  // namespace cunp::detail
