// cunp/scan.hpp: cumulative sums and products (numpy.cumsum, cumprod, nancumsum, nancumprod) and
// numpy.diff. The backends: detail/cpu/scan/scan.hpp and, under nvcc, detail/cuda/scan/scan.cuh.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/scan/scan.hpp"
#include "cunp/detail/expr/expr.hpp"
#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/detail/reduce/accumulate.hpp"
#include "cunp/detail/scan/scan_ops.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

namespace detail {

/// cumsum/cumprod/nancumsum/nancumprod into a new C-ordered array of dtype R; axis: normalised
/// against a 0-d input as if it were 1-d (NumPy's rule), or none to scan the flattened array.
template <class R, class Fn, bool Nan, class Backend, class A>
ndarray<R> scan(const A& a, std::optional<index_t> axis) {
  using X = std::remove_cvref_t<A>;
  using T = typename operand_traits<X>::value_type;
  if constexpr (!std::is_same_v<X, ndarray<T>>) {
    if (!axis) {  // a GPU scan can read a contiguous expression as it goes (no temporary)
      ndarray<R> out({a.size()}, a.device());
      if (out.size() == 0 || dispatch<Backend>(out.device(), [&](auto be) {
            return scan_expression(be, out, a, scan_kind<Fn, Nan>{});
          }))
        return out;
    }
    return scan<R, Fn, Nan, Backend>(eval<Backend>(a), axis);
  } else {
    const ndarray<T> x = a.ndim() == 0 ? ndarray<T>(a.storage(), a.offset(), {1}, {1}) : a;
    std::optional<int> ax;
    if (axis) ax = normalize_axis(*axis, x.ndim());
    ndarray<R> out(axis ? x.shape() : shape_t{x.size()}, x.device());
    if (out.size() > 0)
      dispatch<Backend>(out.device(),
                        [&](auto be) { scan_into(be, out, x, ax, scan_kind<Fn, Nan>{}); });
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
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::add_op, false, Backend>(a, axis);
}
/// numpy.cumsum(a) (axis=None): running sums of the flattened array, in C order.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumsum(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::add_op, false, Backend>(a, std::nullopt);
}

/// numpy.cumprod(a, axis): running products along `axis`; dtypes as cumsum.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumprod(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::multiply_op, false, Backend>(a, axis);
}
/// numpy.cumprod(a) (axis=None): running products of the flattened array, in C order.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto cumprod(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::multiply_op, false, Backend>(a, std::nullopt);
}

/// numpy.nancumsum(a, axis): cumsum with NaN counted as 0 (complex: NaN in either part).
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumsum(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::add_op, true, Backend>(a, axis);
}
/// numpy.nancumsum(a) (axis=None): of the flattened array.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumsum(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::add_op, true, Backend>(a, std::nullopt);
}

/// numpy.nancumprod(a, axis): cumprod with NaN counted as 1.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumprod(const A& a, index_t axis) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::multiply_op, true, Backend>(a, axis);
}
/// numpy.nancumprod(a) (axis=None): of the flattened array.
template <class Dtype = void, class Backend = detail::compiled_backend, array_like A>
  requires detail::valid_scan_dtype_v<Dtype>
[[nodiscard]] auto nancumprod(const A& a) {
  return detail::scan<detail::scan_result_t<Dtype, A>, detail::multiply_op, true, Backend>(a, std::nullopt);
}

/// numpy.diff(a, n, axis): the n-th difference a[1:] - a[:-1] along `axis`, applied n times,
/// one element-wise kernel per order; bool uses not_equal and integers wrap, as in NumPy. An
/// order beyond the axis's length leaves it empty; n = 0 returns `a` itself (an expression:
/// materialised).
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] auto diff(const A& a, index_t n = 1, index_t axis = -1) {
  using T = detail::scan_input_t<A>;
  ndarray<T> x = eval<Backend>(a);
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
