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

#include "cunp/detail/reduce/reduce_keywords.hpp"
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

// One line per reduction: its name, the options struct of its keywords, whether it takes
// initial=, and its reducer (`V`: the input's dtype; `D`: the result dtype). Each takes
//   (x, axis = all, keepdims = false),
//   (x, axis, options) with the keywords: `cunp::sum(a, 1, {.initial = 1, .where = m})`,
//   (x, axis, options, out) writing into out (NumPy's out=; `{}` for no other keyword).
// CUNP_REDUCTION_DTYPE's also take NumPy's dtype= as their first template argument
// (`cunp::sum<double>(a)`), checked by CHECK; DEFAULT is the result dtype without it, or with
// out= the out's dtype where the input casts to it safely (NumPy's loop then is the out's).
// (HEAD, HEAD_OUT and TYPES come in parentheses: they hold commas.)
#define CUNP_UNPAREN(...) __VA_ARGS__
#define CUNP_REDUCTION_OVERLOADS(NAME, OPTIONS, INITIAL, HEAD, HEAD_OUT, TYPES, TYPES_OUT, ...) \
  CUNP_UNPAREN HEAD [[nodiscard]] auto NAME(const X& x, const axis_arg& axis = {}, bool keepdims = false) { \
    CUNP_UNPAREN TYPES                                                                         \
    return detail::reduce<Backend>(x, axis, keepdims, detail::__VA_ARGS__{});                  \
  }                                                                                            \
  CUNP_UNPAREN HEAD [[nodiscard]] auto NAME(const X& x, const axis_arg& axis, const OPTIONS& o) {          \
    CUNP_UNPAREN TYPES                                                                         \
    return detail::reduce_kw<Backend, V>(x, axis, o.keepdims, o.where, INITIAL,                \
                                         detail::__VA_ARGS__{});                               \
  }                                                                                            \
  CUNP_UNPAREN HEAD_OUT ndarray<T> NAME(const X& x, const axis_arg& axis, const OPTIONS& o,                 \
                           const ndarray<T>& out) {                                            \
    CUNP_UNPAREN TYPES_OUT                                                                     \
    detail::reduce_kw_out<Backend, V>(out, x, axis, o.keepdims, o.where, INITIAL,              \
                                      detail::__VA_ARGS__{});                                  \
    return out;                                                                                \
  }
#define CUNP_REDUCTION(NAME, OPTIONS, INITIAL, ...)                                             \
  CUNP_REDUCTION_OVERLOADS(                                                                    \
      NAME, OPTIONS, INITIAL,                                                                  \
      (template <class Backend = detail::compiled_backend, array_like X>),                     \
      (template <class Backend = detail::compiled_backend, array_like X, element_type T>),     \
      (using V = detail::input_t<X>;), (using V = detail::input_t<X>;), __VA_ARGS__)
#define CUNP_REDUCTION_DTYPE(NAME, OPTIONS, INITIAL, CHECK, DEFAULT, ...)                       \
  CUNP_REDUCTION_OVERLOADS(                                                                    \
      NAME, OPTIONS, INITIAL,                                                                  \
      (template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>   \
         requires detail::CHECK<Dtype>),                                                       \
      (template <class Dtype = void, class Backend = detail::compiled_backend, array_like X,    \
                 element_type T>                                                               \
         requires detail::CHECK<Dtype>),                                                       \
      (using V = detail::input_t<X>; using D = detail::dtype_or_t<Dtype, detail::DEFAULT<V>>;), \
      (using V = detail::input_t<X>;                                                           \
       using D = detail::out_loop_t<Dtype, detail::DEFAULT<V>, V, T, detail::CHECK<T>>;),      \
      __VA_ARGS__)

/// numpy.sum: bool and signed integers sum in int64, unsigned in uint64, float16 in float32.
CUNP_REDUCTION_DTYPE(sum, reduce_options, o.initial, valid_dtype_arg_v, sum_result_t,
                     sum_reducer<V, false, false, D>)
/// numpy.prod
CUNP_REDUCTION_DTYPE(prod, reduce_options, o.initial, valid_dtype_arg_v, sum_result_t,
                     prod_reducer<V, false, D>)
/// numpy.nansum: NaNs count as zero.
CUNP_REDUCTION_DTYPE(nansum, reduce_options, o.initial, valid_dtype_arg_v, sum_result_t,
                     sum_reducer<V, false, true, D>)
/// numpy.nanprod: NaNs count as one.
CUNP_REDUCTION_DTYPE(nanprod, reduce_options, o.initial, valid_dtype_arg_v, sum_result_t,
                     prod_reducer<V, true, D>)
/// numpy.mean: integers give float64; float16 sums in float32. Empty: NaN. dtype=: an inexact
/// dtype (NumPy's integer dtype= truncates the mean; cunp refuses it).
CUNP_REDUCTION_DTYPE(mean, mean_options, std::nullopt, inexact_dtype_arg_v, mean_result_t,
                     mean_reducer<V, false, D>)
/// numpy.nanmean: the mean of the non-NaN elements (all NaN: NaN).
CUNP_REDUCTION_DTYPE(nanmean, mean_options, std::nullopt, inexact_dtype_arg_v, mean_result_t,
                     mean_reducer<V, true, D>)
/// numpy.max (NaN propagates; empty without initial=: value_error).
CUNP_REDUCTION(max, reduce_options, o.initial, extreme_reducer<V, true, false>)
/// numpy.min
CUNP_REDUCTION(min, reduce_options, o.initial, extreme_reducer<V, false, false>)
/// numpy.amax
CUNP_REDUCTION(amax, reduce_options, o.initial, extreme_reducer<V, true, false>)
/// numpy.amin
CUNP_REDUCTION(amin, reduce_options, o.initial, extreme_reducer<V, false, false>)
/// numpy.nanmax: NaNs ignored; an all-NaN slice gives NaN.
CUNP_REDUCTION(nanmax, reduce_options, o.initial, extreme_reducer<V, true, true>)
/// numpy.nanmin
CUNP_REDUCTION(nanmin, reduce_options, o.initial, extreme_reducer<V, false, true>)
/// numpy.any
CUNP_REDUCTION(any, mean_options, std::nullopt, logical_reducer<V, false>)
/// numpy.all (also reachable as cunp::all(x, axis, ...)).
CUNP_REDUCTION(all_of, mean_options, std::nullopt, logical_reducer<V, true>)
#undef CUNP_REDUCTION_DTYPE
#undef CUNP_REDUCTION
#undef CUNP_REDUCTION_OVERLOADS
#undef CUNP_UNPAREN

/// numpy.count_nonzero: int64 counts.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto count_nonzero(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  return detail::reduce<Backend>(x, axis, keepdims, detail::count_nonzero_reducer<detail::input_t<X>>{});
}

/// numpy.ptp: max - min, computed in the input's dtype (integers wrap as NumPy's).
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto ptp(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  static_assert(!std::is_same_v<detail::input_t<X>, bool>,
                "numpy boolean subtract, the `-` operator, is not supported: ptp of bool");
  return detail::reduce<Backend>(x, axis, keepdims, detail::ptp_reducer<detail::input_t<X>>{});
}

/// cunp::all(x, ...): cunp::all names both the whole-axis index and numpy.all.
template <class Backend, class X>
auto all_t::operator()(const X& x, const axis_arg& axis, bool keepdims) const {
  return all_of<Backend>(x, axis, keepdims);
}
template <class Backend, class X>
auto all_t::operator()(const X& x) const {
  return all_of<Backend>(x);
}
template <class Backend, class X>
auto all_t::operator()(const X& x, const axis_arg& axis, const mean_options& o) const {
  return all_of<Backend>(x, axis, o);
}
template <class Backend, class X, class T>
auto all_t::operator()(const X& x, const axis_arg& axis, const mean_options& o,
                       const ndarray<T>& out) const {
  return all_of<Backend>(x, axis, o, out);
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

template <class Backend, class R, class X>
auto variance(const X& x, const axis_arg& axis, const var_options& o, const R& base) {
  if (o.ddof < 0) throw value_error("ddof must be non-negative, got " + std::to_string(o.ddof));
  R r = base;
  r.ddof = o.ddof;
  return reduce_kw<Backend, input_t<X>>(x, axis, o.keepdims, o.where, std::nullopt, r);
}
template <class Backend, class T, class R, class X>
void variance_out(const ndarray<T>& out, const X& x, const axis_arg& axis, const var_options& o,
                  const R& base) {
  if (o.ddof < 0) throw value_error("ddof must be non-negative, got " + std::to_string(o.ddof));
  R r = base;
  r.ddof = o.ddof;
  reduce_kw_out<Backend, input_t<X>>(out, x, axis, o.keepdims, o.where, std::nullopt, r);
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

// var, std, nanvar, nanstd: (x, axis, ddof, keepdims), (x, axis, options), (x, axis, options,
// out); dtype= (an inexact dtype, the mean's) as the first template argument.
#define CUNP_VARIANCE(NAME, SQRT, SKIPNAN)                                                      \
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>       \
    requires detail::inexact_dtype_arg_v<Dtype>                                                \
  [[nodiscard]] auto NAME(const X& x, const axis_arg& axis = {}, double ddof = 0,             \
                          bool keepdims = false) {                                             \
    return NAME<Dtype, Backend>(x, axis, var_options{.ddof = ddof, .keepdims = keepdims});    \
  }                                                                                            \
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>       \
    requires detail::inexact_dtype_arg_v<Dtype>                                                \
  [[nodiscard]] auto NAME(const X& x, const axis_arg& axis, const var_options& o) {           \
    using V = detail::input_t<X>;                                                              \
    using D = detail::dtype_or_t<Dtype, detail::mean_result_t<V>>;                             \
    return detail::variance<Backend>(x, axis, o, detail::var_reducer<V, SQRT, SKIPNAN, D>{});  \
  }                                                                                            \
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X,        \
            element_type T>                                                                    \
    requires detail::inexact_dtype_arg_v<Dtype>                                                \
  ndarray<T> NAME(const X& x, const axis_arg& axis, const var_options& o,                      \
                  const ndarray<T>& out) {                                                     \
    using V = detail::input_t<X>;                                                              \
    using D = detail::dtype_or_t<Dtype, detail::mean_result_t<V>>;                             \
    detail::variance_out<Backend>(out, x, axis, o, detail::var_reducer<V, SQRT, SKIPNAN, D>{}); \
    return out;                                                                                \
  }
/// numpy.var(a, axis, ddof, keepdims): complex input gives its real dtype, integers float64.
/// ddof >= the count gives inf or NaN as NumPy; a negative ddof is a value_error.
CUNP_VARIANCE(var, false, false)
/// numpy.std
CUNP_VARIANCE(std, true, false)
/// numpy.nanvar
CUNP_VARIANCE(nanvar, false, true)
/// numpy.nanstd
CUNP_VARIANCE(nanstd, true, true)
#undef CUNP_VARIANCE

/// numpy.average without weights: the mean.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] auto average(const X& x, const axis_arg& axis = {}, bool keepdims = false) {
  return mean<void, Backend>(x, axis, keepdims);
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
  const auto num = sum<void, Backend>(astype<Q>(x) * wv, axis, keepdims);
  const auto den = sum<void, Backend>(broadcast_to(wv, xs), axis, keepdims);
  if (any<Backend>(den == 0).item())
    throw value_error("Weights sum to zero, can't be normalized");
  return ndarray<Q>(num / den);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/reduce/reduce.cuh"
#endif
