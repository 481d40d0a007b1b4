// cunp/scan.hpp: cumulative sums and products (numpy.cumsum, cumprod, nancumsum, nancumprod) and
// numpy.diff, with the cpu backend's loops. The CUDA scans live in detail/cuda/scan/scan.cuh.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/reduce/accumulate.hpp"
#include "cunp/detail/expr/expr.hpp"
#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

namespace detail {

/// Which scan: products or sums, and whether NaN counts as the identity (the nan- variants).
template <bool Prod, bool Nan> struct scan_kind {};

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
template <class R, bool Prod, bool Nan, class L> CUNP_HD R scan_load(const L& x) {
  if constexpr (Nan) {
    if (scan_isnan(x)) return convert<R>(Prod ? 1 : 0);
  }
  return convert<R>(x);
}

/// One step of the scan in the accumulator type V: NumPy's add or multiply loop on V (integers
/// wrap, float16 rounds every partial result to float16, as numpy.add.accumulate does).
template <class V, bool Prod> struct scan_combine {
  CUNP_HD V operator()(const V& a, const V& b) const {
    using M = math_t<V>;
    if constexpr (Prod) return convert<V>(multiply_op{}(convert<M>(a), convert<M>(b)));
    else return convert<V>(add_op{}(convert<M>(a), convert<M>(b)));
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

/// The cpu backend's scan of x into out (C-ordered, x's shape, or x's size when flattened):
/// one pass in C order, each element combined with the output element one step back along the
/// axis, so the additions happen in NumPy's order.
template <class R, class L, bool Prod, bool Nan>
void scan_into(host_backend, const ndarray<R>& out, const ndarray<L>& x, std::optional<int> axis,
               scan_kind<Prod, Nan>) {
  check_same_device(out.device(), x.device(), "scan");
  require_cpu_for(out.device(), "cumulative sums and products");
  if (x.size() == 0) return;
  const scan_combine<R, Prod> op;
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
      const R v = scan_load<R, Prod, Nan>(in[off + j * last_stride]);
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
template <class R, class E, bool Prod, bool Nan>
bool scan_expression(host_backend, const ndarray<R>&, const E&, scan_kind<Prod, Nan>) {
  return false;
}

/// An array, or an expression materialised into a new array on its device.
template <class Backend, class A> auto as_array(const A& a) {
  using T = typename operand_traits<std::remove_cvref_t<A>>::value_type;
  if constexpr (std::is_same_v<std::remove_cvref_t<A>, ndarray<T>>) {
    return a;
  } else {
    ndarray<T> x(a.shape(), a.device());
    dispatch<Backend>(x.device(), [&](auto be) { evaluate(be, x, a); });
    return x;
  }
}

/// cumsum/cumprod/nancumsum/nancumprod into a new C-ordered array of dtype R; axis: normalised
/// against a 0-d input as if it were 1-d (NumPy's rule), or none to scan the flattened array.
template <class R, bool Prod, bool Nan, class Backend, class A>
ndarray<R> scan(const A& a, std::optional<index_t> axis) {
  using X = std::remove_cvref_t<A>;
  using T = typename operand_traits<X>::value_type;
  if constexpr (!std::is_same_v<X, ndarray<T>>) {
    if (!axis) {  // a GPU scan can read a contiguous expression as it goes (no temporary)
      ndarray<R> out({a.size()}, a.device());
      if (out.size() == 0 || dispatch<Backend>(out.device(), [&](auto be) {
            return scan_expression(be, out, a, scan_kind<Prod, Nan>{});
          }))
        return out;
    }
    return scan<R, Prod, Nan, Backend>(as_array<Backend>(a), axis);
  } else {
    const ndarray<T> x = a.ndim() == 0 ? ndarray<T>(a.storage(), a.offset(), {1}, {1}) : a;
    std::optional<int> ax;
    if (axis) ax = normalize_axis(*axis, x.ndim());
    ndarray<R> out(axis ? x.shape() : shape_t{x.size()}, x.device());
    if (out.size() > 0)
      dispatch<Backend>(out.device(),
                        [&](auto be) { scan_into(be, out, x, ax, scan_kind<Prod, Nan>{}); });
    return out;
  }
}

template <class A> using scan_input_t = typename operand_traits<std::remove_cvref_t<A>>::value_type;
/// The result dtype: NumPy's dtype= argument when given, else sum_result_t of the input.
template <class Dtype, class A>
using scan_result_t =
    std::conditional_t<std::is_void_v<Dtype>, sum_result_t<scan_input_t<A>>, Dtype>;
template <class Dtype>
inline constexpr bool valid_scan_dtype_v = std::is_void_v<Dtype> || is_dtype_v<Dtype>;

}  // namespace detail

/// numpy.cumsum(a, axis): running sums along `axis`, in a new C-ordered array. bool and signed
/// integers sum in int64, unsigned integers in uint64 (both wrap on overflow), other dtypes in
/// their own (float16 rounds each partial sum, as NumPy); cumsum<D>(a, axis) is NumPy's dtype=D.
/// On a GPU floating-point partial sums are added in another order than NumPy's.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumsum(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, false, false, Backend>(a, axis);
}
/// numpy.cumsum(a) (axis=None): running sums of the flattened array, in C order.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumsum(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, false, false, Backend>(a, std::nullopt);
}

/// numpy.cumprod(a, axis): running products along `axis`; dtypes as cumsum.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumprod(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, true, false, Backend>(a, axis);
}
/// numpy.cumprod(a) (axis=None): running products of the flattened array, in C order.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumprod(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, true, false, Backend>(a, std::nullopt);
}

/// numpy.nancumsum(a, axis): cumsum with NaN counted as 0 (complex: NaN in either part).
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumsum(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, false, true, Backend>(a, axis);
}
/// numpy.nancumsum(a) (axis=None): of the flattened array.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumsum(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, false, true, Backend>(a, std::nullopt);
}

/// numpy.nancumprod(a, axis): cumprod with NaN counted as 1.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumprod(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, true, true, Backend>(a, axis);
}
/// numpy.nancumprod(a) (axis=None): of the flattened array.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumprod(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, true, true, Backend>(a, std::nullopt);
}

/// numpy.diff(a, n, axis): the n-th difference a[1:] - a[:-1] along `axis`, applied n times,
/// one element-wise kernel per order; bool uses not_equal and integers wrap, as in NumPy. An
/// order beyond the axis's length leaves it empty; n = 0 returns `a` itself (an expression:
/// materialised).
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] auto diff(const A& a, index_t n = 1, index_t axis = -1) {
  using T = detail::scan_input_t<A>;
  ndarray<T> x = detail::as_array<Backend>(a);
  if (n == 0) return x;
  if (n < 0) throw value_error("order must be non-negative but got " + std::to_string(n));
  if (x.ndim() == 0) throw value_error("diff requires input that is at least one dimensional");
  const int ax = normalize_axis(axis, x.ndim());
  for (index_t k = 0; k < n; ++k) {
    const index_t len = x.shape()[ax];
    shape_t shape = x.shape();
    shape[ax] = std::max<index_t>(len - 1, 0);
    const index_t step = len > 1 ? x.strides()[ax] : 0;
    const ndarray<T> hi(x.storage(), x.offset() + step, shape, x.strides());
    const ndarray<T> lo(x.storage(), x.offset(), shape, x.strides());
    ndarray<T> out(shape, x.device());
    detail::dispatch<Backend>(out.device(), [&](auto be) {
      if constexpr (std::is_same_v<T, bool>) evaluate(be, out, not_equal(hi, lo));
      else evaluate(be, out, hi - lo);
    });
    x = out;
  }
  return x;
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/scan/scan.cuh"
#endif
