// cunp/reduce.hpp: reductions (sum, prod, mean, var, std, min, max, argmin, argmax, any, all,
// count_nonzero, ptp, average and the nan- variants) over all axes, one or several.
//
// Every reduction takes an array or a lazy element-wise expression: cunp::sum(a * b) reads a and
// b once, with no temporary. `axis` is an int, a list `{0, 2}`, or left out (all axes: the result
// is a 0-d array, `.item()` reads it). Result dtypes are NumPy's (detail/reduce/accumulate.hpp).
#pragma once
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/reduce/reduction.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

namespace detail {
template <class X> using input_t = typename operand_traits<std::remove_cvref_t<X>>::value_type;

/// nanargmax/nanargmin leave -1 for an all-NaN slice, which NumPy reports as an error.
inline void check_all_nan(const ndarray<std::int64_t>& idx) {
  for (const auto i : idx.to(cunp::cpu).to_vector())
    if (i < 0) throw value_error("All-NaN slice encountered");
}
}  // namespace detail

// One line per reduction: name, reducer. Each takes (x, axis = all, keepdims = false).
#define CUNP_REDUCTION(NAME, ...)                                                                \
  template <class Backend = detail::compiled_backend, array_like X>                               \
  [[nodiscard]] auto NAME(const X& x, const axis_arg& axis = {}, bool keepdims = false) {         \
    return detail::reduce<Backend>(x, axis, keepdims, detail::__VA_ARGS__{});                     \
  }

/// numpy.sum: bool and signed integers sum in int64, unsigned in uint64, float16 in float32.
CUNP_REDUCTION(sum, sum_reducer<detail::input_t<X>, false, false>)
/// numpy.prod
CUNP_REDUCTION(prod, prod_reducer<detail::input_t<X>, false>)
/// numpy.nansum: NaNs count as zero.
CUNP_REDUCTION(nansum, sum_reducer<detail::input_t<X>, false, true>)
/// numpy.nanprod: NaNs count as one.
CUNP_REDUCTION(nanprod, prod_reducer<detail::input_t<X>, true>)
/// numpy.mean: integers give float64; float16 sums in float32. Empty: NaN.
CUNP_REDUCTION(mean, mean_reducer<detail::input_t<X>, false>)
/// numpy.nanmean: the mean of the non-NaN elements (all NaN: NaN).
CUNP_REDUCTION(nanmean, mean_reducer<detail::input_t<X>, true>)
/// numpy.max (NaN propagates; empty: value_error).
CUNP_REDUCTION(max, extreme_reducer<detail::input_t<X>, true, false>)
/// numpy.min
CUNP_REDUCTION(min, extreme_reducer<detail::input_t<X>, false, false>)
/// numpy.amax
CUNP_REDUCTION(amax, extreme_reducer<detail::input_t<X>, true, false>)
/// numpy.amin
CUNP_REDUCTION(amin, extreme_reducer<detail::input_t<X>, false, false>)
/// numpy.nanmax: NaNs ignored; an all-NaN slice gives NaN.
CUNP_REDUCTION(nanmax, extreme_reducer<detail::input_t<X>, true, true>)
/// numpy.nanmin
CUNP_REDUCTION(nanmin, extreme_reducer<detail::input_t<X>, false, true>)
/// numpy.any
CUNP_REDUCTION(any, logical_reducer<detail::input_t<X>, false>)
/// numpy.count_nonzero: int64 counts.
CUNP_REDUCTION(count_nonzero, count_nonzero_reducer<detail::input_t<X>>)
#undef CUNP_REDUCTION

/// numpy.ptp: max - min, computed in the input's dtype (integers wrap as NumPy's).
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto ptp(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  static_assert(!std::is_same_v<detail::input_t<X>, bool>,
                "numpy boolean subtract, the `-` operator, is not supported: ptp of bool");
  return detail::reduce<Backend>(x, axis, keepdims, detail::ptp_reducer<detail::input_t<X>>{});
}

/// numpy.all (also reachable as cunp::all(x, axis, keepdims)).
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto all_of(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  return detail::reduce<Backend>(x, axis, keepdims, detail::logical_reducer<detail::input_t<X>, true>{});
}
/// cunp::all(x, axis, keepdims): cunp::all names both the whole-axis index and numpy.all.
template <class Backend, class X>
auto all_t::operator()(const X& x, const axis_arg& axis, bool keepdims) const {
  return all_of<Backend>(x, axis, keepdims);
}
template <class Backend, class X>
auto all_t::operator()(const X& x) const {
  return all_of<Backend>(x);
}

namespace detail {
template <class Backend, bool Max, bool SkipNaN, class X>
auto arg_extreme(const X& x, std::optional<index_t> axis, bool keepdims) {
  const axis_arg ax = axis ? axis_arg(*axis) : axis_arg();
  if (!axis && keepdims) {  // NumPy: the flat index, in an array of x's ndim
    auto flat = reduce<Backend>(x, ax, false, arg_reducer<input_t<X>, Max, SkipNaN>{});
    if constexpr (SkipNaN) check_all_nan(flat);
    return flat.reshape(shape_t(operand_shape(x).size(), 1));
  }
  auto idx = reduce<Backend>(x, ax, keepdims, arg_reducer<input_t<X>, Max, SkipNaN>{});
  if constexpr (SkipNaN) check_all_nan(idx);
  return idx;
}

template <class Backend, bool Sqrt, bool SkipNaN, class X>
auto variance(const X& x, const axis_arg& axis, double ddof, bool keepdims) {
  if (ddof < 0) throw value_error("ddof must be non-negative, got " + std::to_string(ddof));
  var_reducer<input_t<X>, Sqrt, SkipNaN> r;
  r.ddof = ddof;
  return reduce<Backend>(x, axis, keepdims, r);
}
}  // namespace detail

/// numpy.argmax: int64 indices; the first of equal maxima; the first NaN if any. No axis: the
/// index into the flattened array.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] ndarray<std::int64_t> argmax(const X& x, std::optional<index_t> axis = {},
                                           bool keepdims = false) {
  return detail::arg_extreme<Backend, true, false>(x, axis, keepdims);
}
/// numpy.argmin
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] ndarray<std::int64_t> argmin(const X& x, std::optional<index_t> axis = {},
                                           bool keepdims = false) {
  return detail::arg_extreme<Backend, false, false>(x, axis, keepdims);
}
/// numpy.nanargmax: NaNs ignored; an all-NaN slice throws value_error as NumPy.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] ndarray<std::int64_t> nanargmax(const X& x, std::optional<index_t> axis = {},
                                              bool keepdims = false) {
  return detail::arg_extreme<Backend, true, true>(x, axis, keepdims);
}
/// numpy.nanargmin
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] ndarray<std::int64_t> nanargmin(const X& x, std::optional<index_t> axis = {},
                                              bool keepdims = false) {
  return detail::arg_extreme<Backend, false, true>(x, axis, keepdims);
}

/// numpy.var(a, axis, ddof, keepdims): complex input gives its real dtype, integers float64.
/// ddof >= the count gives inf or NaN as NumPy; a negative ddof is a value_error.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto var(const X& x, const axis_arg& axis = {}, double ddof = 0, bool keepdims = false) {
  return detail::variance<Backend, false, false>(x, axis, ddof, keepdims);
}
/// numpy.std
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto std(const X& x, const axis_arg& axis = {}, double ddof = 0, bool keepdims = false) {
  return detail::variance<Backend, true, false>(x, axis, ddof, keepdims);
}
/// numpy.nanvar
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto nanvar(const X& x, const axis_arg& axis = {}, double ddof = 0,
                          bool keepdims = false) {
  return detail::variance<Backend, false, true>(x, axis, ddof, keepdims);
}
/// numpy.nanstd
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto nanstd(const X& x, const axis_arg& axis = {}, double ddof = 0,
                          bool keepdims = false) {
  return detail::variance<Backend, true, true>(x, axis, ddof, keepdims);
}

/// numpy.average without weights: the mean.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto average(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  return mean<Backend>(x, axis, keepdims);
}
/// numpy.average(a, axis, weights): sum(a * w) / sum(w), in a * w's dtype (integers: float64).
/// weights of a's shape, or of the shape of a's axes `axis` (in that order), as NumPy 2.
/// Weights summing to zero: value_error (NumPy: ZeroDivisionError).
template <class Backend = detail::compiled_backend, array_like X, array_like W>
[[nodiscard]] auto average(const X& x, const axis_arg& axis, const W& weights,
                           bool keepdims = false) {
  const shape_t xs = detail::operand_shape(x);
  const shape_t ws = detail::operand_shape(weights);
  using P = std::conditional_t<detail::is_integer_v<detail::input_t<X>> ||
                                   std::is_same_v<detail::input_t<X>, bool>,
                               double, detail::input_t<X>>;
  using Q = result_type_t<P, detail::input_t<W>>;
  std::vector<int> axes;
  if (!axis.all()) axes = detail::normalize_axis_tuple(axis.axes(), xs.size(), "axis");
  auto wv = eval<Backend>(astype<Q>(weights));
  if (ws != xs) {
    if (axis.all())
      throw shape_error("Axis must be specified when shapes of a and weights differ.");
    shape_t along;
    for (const int d : axes) along.push_back(xs[d]);
    if (ws != along)
      throw shape_error(
          "Shape of weights must be consistent with shape of a along specified axis.");
    // Weight axis i runs along a's axis axes[i]; a's other axes see it through stride 0.
    shape_t bs(xs.size(), 1);
    strides_t st(xs.size(), 0);
    for (std::size_t i = 0; i < axes.size(); ++i) {
      bs[axes[i]] = ws[i];
      st[axes[i]] = wv.strides()[i];
    }
    wv = ndarray<Q>(wv.storage(), wv.offset(), bs, st);
  }
  const auto num = sum<Backend>(astype<Q>(x) * wv, axis, keepdims);
  const auto den = sum<Backend>(broadcast_to(wv, xs), axis, keepdims);
  if (any<Backend>(den == 0).item())
    throw value_error("Weights sum to zero, can't be normalized");
  return ndarray<Q>(num / den);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/reduce/reduce.cuh"
#endif
