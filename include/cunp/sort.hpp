// cunp/sort.hpp: numpy's sorting, searching and counting (sort, argsort, partition,
// argpartition, searchsorted, unique and the unique_* family, bincount, histogram) and the order
// statistics (median, percentile, quantile). The cpu backend is in detail/cpu/sort/sort.hpp, the
// CUDA one in detail/cuda/sort/sort.cuh; NumPy's order in detail/sort/sort_order.hpp.
//
// NumPy's order everywhere: NaN after every number, -0.0 equal to 0.0, complex numbers by real
// part then imaginary part with NumPy's NaN classes ([R + Rj, R + nanj, nan + Rj, nan + nanj]).
// Every sort is stable (NumPy's kind='stable'), which is also a valid result of NumPy's default.
//
// Every array argument may also be a lazy element-wise expression (`cunp::sort(a * 2)`): it is
// materialised once on its device (cunp::eval), as NumPy's asarray would, then sorted as an array.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/sort/sort.hpp"
#include "cunp/detail/io/format.hpp"
#include "cunp/detail/sort/order_stats.hpp"
#include "cunp/detail/reduce/reduction.hpp"
#include "cunp/detail/sort/sort_order.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {

// ---------------------------------------------------------------------------------------------
// Shared helpers of the public functions

/// The element type of an array or expression argument.
template <class A> using sort_input_t = typename operand_traits<std::remove_cvref_t<A>>::value_type;

// Sorting, searching and counting read their input in an order that no element-wise loop
// follows, so an expression argument is stored first: eval (an array is its own handle, an
// expression is evaluated once into a new C-ordered array on its device).

/// A view of a with axis `ax` moved to the end (the lanes that sorts work along).
template <class T>
ndarray<T> lanes_along(const ndarray<T>& a, int ax) {
  std::vector<int> order;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != ax) order.push_back(d);
  order.push_back(ax);
  return permuted(a, order);
}

/// A 1-d view of a when its strides allow it, else a C-ordered copy (numpy's a.ravel()).
template <class T>
ndarray<T> flat_view_or_copy(const ndarray<T>& a) {
  return a.reshape({a.size()});
}

/// NumPy's kth check of partition: negative kth count from the end; empty arrays check nothing.
inline void check_kth(const std::vector<index_t>& kth, index_t n, index_t size) {
  if (size == 0) return;
  for (index_t k : kth) {
    const index_t at = k < 0 ? k + n : k;
    if (at < 0 || at >= n)
      throw value_error("kth(=" + std::to_string(at) + ") out of bounds (" + std::to_string(n) +
                        ")");
  }
}

/// numpy's check that an argument is a 1-d array (PyArray_ContiguousFromAny with depth 1..1).
inline void check_1d_argument(int ndim) {
  if (ndim < 1) throw value_error("object of too small depth for desired array");
  if (ndim > 1) throw value_error("object too deep for desired array");
}

/// str() of a NumPy scalar of type T (Python's float repr rules: positional between 1e-4 and
/// 1e16, else scientific), as NumPy's error messages print values.
template <class T>
std::string numpy_scalar_str(const T& v) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_same_v<T, bool>)
      return v ? "True" : "False";
    else
      return std::to_string(v);
  } else {
    using F = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
    const F x = static_cast<F>(v);
    if (x != x) return "nan";
    if (x == std::numeric_limits<F>::infinity()) return "inf";
    if (x == -std::numeric_limits<F>::infinity()) return "-inf";
    const float_parts p = decompose(x);
    const double ax = std::abs(static_cast<double>(x));
    if (ax != 0 && (ax < 1e-4 || ax >= 1e16)) {
      std::string s = format_scientific(p, -1, -1, true, false, 0, 2);
      if (const auto dot = s.find(".e"); dot != std::string::npos) s.erase(dot, 1);
      return s;
    }
    std::string s = format_positional(p, -1, -1, false, 0, 0);
    if (s.back() == '.') s += '0';
    return s;
  }
}

// ---------------------------------------------------------------------------------------------
// Implementations shared by the public functions

template <class Backend, class T>
ndarray<T> sort_impl(const ndarray<T>& a, index_t axis) {
  const int ax = normalize_axis(axis, a.shape().size());
  ndarray<T> out(a.shape(), a.device());
  dispatch<Backend>(a.device(),
                    [&](auto be) { sort_lanes(be, lanes_along(a, ax), lanes_along(out, ax)); });
  return out;
}

template <class Backend, class T>
ndarray<std::int64_t> argsort_impl(const ndarray<T>& a, index_t axis) {
  if (a.ndim() == 0) return argsort_impl<Backend>(a.reshape({1}), axis);  // NumPy: as 1-d
  const int ax = normalize_axis(axis, a.shape().size());
  ndarray<std::int64_t> out(a.shape(), a.device());
  dispatch<Backend>(a.device(), [&](auto be) {
    argsort_lanes(be, lanes_along(a, ax), lanes_along(out, ax));
  });
  return out;
}

template <element_type T>
struct unique_parts {
  ndarray<T> values;
  ndarray<std::int64_t> indices, inverse_indices, counts;
};

template <class Backend, class T>
unique_parts<T> unique_impl(const ndarray<T>& a, bool equal_nan, bool want_indices,
                            bool want_inverse, bool want_counts) {
  const device dev = a.device();
  return dispatch<Backend>(dev, [&](auto be) -> unique_parts<T> {
    const ndarray<T> flat = flat_view_or_copy(a);
    const index_t n = flat.size();
    ndarray<T> sorted({n}, dev);
    ndarray<std::int64_t> perm({want_indices || want_inverse ? n : 0}, dev);
    if (want_indices || want_inverse) {
      argsort_lanes(be, flat, perm);
      take_flat(be, flat, perm, sorted);
    } else {
      unique_sort(be, flat, sorted);
      if (!want_counts) {
        const ndarray<std::int64_t> none_wanted({0}, dev);
        return {n == 0 ? sorted : unique_sorted_values(be, sorted, equal_nan), none_wanted,
                none_wanted, none_wanted};
      }
    }
    ndarray<std::int64_t> gid({n}, dev);
    const index_t groups = n == 0 ? 0 : unique_groups(be, sorted, equal_nan, gid);
    unique_parts<T> r{ndarray<T>({groups}, dev),
                      ndarray<std::int64_t>({want_indices ? groups : 0}, dev),
                      ndarray<std::int64_t>({want_inverse ? n : 0}, dev),
                      ndarray<std::int64_t>({want_counts ? groups : 0}, dev)};
    if (n > 0)
      unique_fill(be, sorted, gid, want_indices || want_inverse ? &perm : nullptr, r.values,
                  want_counts ? &r.counts : nullptr, want_indices ? &r.indices : nullptr,
                  want_inverse ? &r.inverse_indices : nullptr);
    if (want_inverse) r.inverse_indices = r.inverse_indices.reshape(a.shape());
    return r;
  });
}

/// The axes a reduction keeps and the ones it reduces (normalized, repeats rejected).
struct order_axes {
  std::vector<int> kept, reduced;
};
inline order_axes split_order_axes(const axis_arg& axis, int ndim) {
  order_axes r;
  std::vector<bool> reduce(static_cast<std::size_t>(ndim), axis.all());
  if (!axis.all())
    for (int d : normalize_axis_tuple(axis.axes(), static_cast<std::size_t>(ndim)))
      reduce[d] = true;
  for (int d = 0; d < ndim; ++d) (reduce[d] ? r.reduced : r.kept).push_back(d);
  return r;
}

/// The order statistic over `axis`: the result has q's shape (qshape), then a's shape without the
/// reduced axes (or with them as 1 under keepdims).
template <class Backend, class R, class T>
ndarray<R> order_statistic(const ndarray<T>& a, const std::vector<double>& qs,
                           const shape_t& qshape, order_stat stat, const axis_arg& axis,
                           bool keepdims) {
  const order_axes ax = split_order_axes(axis, a.ndim());
  index_t n = 1, lanes = 1;
  shape_t kept_shape, out_shape = qshape;
  std::vector<int> order;
  for (int d : ax.kept) {
    lanes *= a.shape()[d];
    kept_shape.push_back(a.shape()[d]);
    order.push_back(d);
  }
  for (int d : ax.reduced) {
    n *= a.shape()[d];
    order.push_back(d);
  }
  for (int d = 0; d < a.ndim(); ++d) {
    const bool reduced = std::find(ax.reduced.begin(), ax.reduced.end(), d) != ax.reduced.end();
    if (!reduced)
      out_shape.push_back(a.shape()[d]);
    else if (keepdims)
      out_shape.push_back(1);
  }
  if (n == 0 && stat != order_stat::median)
    throw index_error("index -1 is out of bounds for axis 0 with size 0");
  ndarray<R> out({static_cast<index_t>(qs.size()), lanes}, a.device());
  if (lanes > 0 && n > 0) {
    const ndarray<T> lanes_view = permuted(a, order).reshape({lanes, n});
    ndarray<T> sorted({lanes, n}, a.device());
    dispatch<Backend>(a.device(), [&](auto be) {
      sort_lanes(be, lanes_view, sorted);
      quantile_lanes(be, sorted, qs, stat, out);
    });
  } else if (lanes > 0) {
    out.fill(order_nan<R>());  // the median of an empty lane (NumPy warns "Mean of empty slice")
  }
  return out.reshape(out_shape);
}

/// quantile (percent: percentile) of a at qs; a scalar q (qshape {}) interpolates in R.
template <class Backend, class R, class T>
ndarray<R> quantile_impl(const ndarray<T>& a, std::vector<double> qs, const shape_t& qshape,
                         bool percent, const axis_arg& axis, bool keepdims) {
  if constexpr (is_complex_v<T>) {
    throw dtype_error("a must be an array of real numbers");
  } else {
    for (double& q : qs) {
      if (percent) q /= 100.0;  // NumPy divides first, then checks
      if (!(q >= 0.0 && q <= 1.0))
        throw value_error(percent ? "Percentiles must be in the range [0, 100]"
                                  : "Quantiles must be in the range [0, 1]");
    }
    return order_statistic<Backend, R>(a, qs, qshape, order_stat::quantile, axis, keepdims);
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Sorting

/// numpy.sort(a, axis=-1): a sorted C-ordered copy; stable (kind='stable'), NaN last. On a GPU,
/// NaNs of different bit patterns may come out in the order of their bits.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> sort(const A& a, index_t axis = -1) {
  return detail::sort_impl<Backend>(eval<Backend>(a), axis);
}
/// numpy.sort(a, axis=None): the flattened array, sorted.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> sort(const A& a, none_t) {
  return detail::sort_impl<Backend>(detail::flat_view_or_copy(eval<Backend>(a)),
                                    -1);
}

/// numpy.argsort(a, axis=-1, kind='stable'): int64 indices that sort a along axis.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argsort(const A& a, index_t axis = -1) {
  return detail::argsort_impl<Backend>(eval<Backend>(a), axis);
}
/// numpy.argsort(a, axis=None): indices into the flattened array.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argsort(const A& a, none_t) {
  return detail::argsort_impl<Backend>(
      detail::flat_view_or_copy(eval<Backend>(a)), -1);
}

/// numpy.partition(a, kth, axis=-1): every kth element in its sorted place, smaller ones before
/// it, larger ones after. cunp returns the fully sorted array, which is one valid partition.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> partition(const A& a,
                                                         const std::vector<index_t>& kth,
                                                         index_t axis = -1) {
  const ndarray<detail::sort_input_t<A>> x = eval<Backend>(a);
  const int ax = normalize_axis(axis, x.shape().size());
  detail::check_kth(kth, x.shape()[ax], x.size());
  return detail::sort_impl<Backend>(x, ax);
}
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> partition(const A& a, index_t kth,
                                                         index_t axis = -1) {
  return partition<Backend>(a, std::vector<index_t>{kth}, axis);
}
/// numpy.partition(a, kth, axis=None): partitions the flattened array.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> partition(const A& a,
                                                         const std::vector<index_t>& kth, none_t) {
  return partition<Backend>(detail::flat_view_or_copy(eval<Backend>(a)), kth, -1);
}
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> partition(const A& a, index_t kth, none_t) {
  return partition<Backend>(a, std::vector<index_t>{kth}, none);
}

/// numpy.argpartition(a, kth, axis=-1): indices that partition a. cunp returns the stable
/// sorting indices, which is one valid answer.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argpartition(const A& a, const std::vector<index_t>& kth,
                                                 index_t axis = -1) {
  ndarray<detail::sort_input_t<A>> x = eval<Backend>(a);
  if (x.ndim() == 0) x = x.reshape({1});  // NumPy: as 1-d
  const int ax = normalize_axis(axis, x.shape().size());
  detail::check_kth(kth, x.shape()[ax], x.size());
  return detail::argsort_impl<Backend>(x, ax);
}
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argpartition(const A& a, index_t kth, index_t axis = -1) {
  return argpartition<Backend>(a, std::vector<index_t>{kth}, axis);
}
/// numpy.argpartition(a, kth, axis=None): indices into the flattened array.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argpartition(const A& a, const std::vector<index_t>& kth,
                                                 none_t) {
  return argpartition<Backend>(detail::flat_view_or_copy(eval<Backend>(a)), kth,
                               -1);
}
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argpartition(const A& a, index_t kth, none_t) {
  return argpartition<Backend>(a, std::vector<index_t>{kth}, none);
}

// ---------------------------------------------------------------------------------------------
// Searching

namespace detail {
inline void check_search_side(std::string_view side) {
  if (side != "left" && side != "right")
    throw value_error("search side must be 'left' or 'right' (got '" + std::string(side) + "')");
}

/// a[sorter] for searchsorted's sorter=, after NumPy's checks in NumPy's order: its elements
/// must be integers (bool is none) that cast safely to intp, in a 1-d array of a's size. NumPy
/// checks only the indices that its binary search reads; cunp checks them all before it gathers
/// (it cannot read out of bounds), which waits for the device.
template <class Backend, class T, class S>
ndarray<T> sorted_by(const ndarray<T>& a, const ndarray<S>& sorter) {
  if constexpr (!is_integer_v<S>) {
    throw dtype_error("sorter must only contain integers");
  } else if constexpr (std::is_same_v<S, std::uint64_t>) {
    throw value_error("could not parse sorter argument");  // NumPy: no safe cast to intp
  } else {
    check_same_device(a.device(), sorter.device(), "searchsorted");
    if (sorter.ndim() != 1) throw value_error("could not parse sorter argument");
    if (sorter.size() != a.size()) throw value_error("sorter.size must equal a.size");
    ndarray<T> out({a.size()}, a.device());
    if (a.size() == 0) return out;
    const auto [lo, hi] =
        dispatch<Backend>(a.device(), [&](auto be) { return value_range(be, sorter); });
    if (static_cast<index_t>(lo) < 0 || static_cast<index_t>(hi) >= a.size())
      throw value_error("Sorter index out of range.");
    ndarray<std::int64_t> idx;  // take_flat reads contiguous int64 indices
    if constexpr (std::is_same_v<S, std::int64_t>)
      idx = sorter.is_contiguous() ? sorter : sorter.copy();
    else
      idx = sorter.template astype<std::int64_t>();
    dispatch<Backend>(a.device(), [&](auto be) { take_flat(be, a, idx, out); });
    return out;
  }
}

template <class Backend, class T, class V>
ndarray<std::int64_t> searchsorted_impl(const ndarray<T>& a, const ndarray<V>& v, bool right) {
  ndarray<std::int64_t> out(v.shape(), v.device());
  if (out.size() > 0)
    dispatch<Backend>(a.device(), [&](auto be) { searchsorted_into(be, a, v, out, right); });
  return out;
}

/// The element type a C++ value takes in searchsorted(a, value): a floating value keeps a
/// floating or complex array's type (as a Python float does); otherwise the value's own dtype.
template <class T, class S>
using search_value_t = std::conditional_t<
    !std::is_integral_v<S> && (is_complex_v<T> || (is_floating_v<T> && !is_complex_v<S>)), T,
    std::conditional_t<
        std::is_same_v<S, bool>, bool,
        std::conditional_t<std::is_integral_v<S>,
                           std::conditional_t<std::is_unsigned_v<S> && sizeof(S) == 8,
                                              std::uint64_t, std::int64_t>,
                           std::conditional_t<is_complex_v<S>, complex128, double>>>>;

/// searchsorted's values: an array or an expression as stored, a C++ value as a 0-d array.
template <class Backend, class T, class V> auto search_values(const V& v, device dev) {
  if constexpr (array_like<V>) {
    return eval<Backend>(v);
  } else {
    using W = search_value_t<T, V>;
    return full<W>({}, convert<W>(v), dev);
  }
}
}  // namespace detail

/// numpy.searchsorted(a, v, side='left'): for each element of v, the index in the sorted 1-d a
/// where it would be inserted to keep the order (NaN sorts last). a and v are compared in their
/// common type (integers exactly). `side` is "left" or "right". v may be a C++ value: the result
/// is then a 0-d array.
template <class Backend = detail::compiled_backend, array_like A, class V>
  requires(array_like<V> || is_weak_scalar_v<V>)
[[nodiscard]] ndarray<std::int64_t> searchsorted(const A& a, const V& v,
                                                 std::string_view side = "left") {
  detail::check_search_side(side);
  const auto x = eval<Backend>(a);
  detail::check_1d_argument(x.ndim());
  const auto w = detail::search_values<Backend, detail::sort_input_t<A>>(v, x.device());
  detail::check_same_device(x.device(), w.device(), "searchsorted");
  return detail::searchsorted_impl<Backend>(x, w, side == "right");
}
/// numpy.searchsorted(a, v, side, sorter): a need not be sorted; sorter holds the integer
/// indices that sort it (argsort(a)), and the result indexes the sorted order. Waits for the
/// device: every index is checked first.
template <class Backend = detail::compiled_backend, array_like A, class V, array_like S>
  requires(array_like<V> || is_weak_scalar_v<V>)
[[nodiscard]] ndarray<std::int64_t> searchsorted(const A& a, const V& v, std::string_view side,
                                                 const S& sorter) {
  detail::check_search_side(side);
  const auto x = eval<Backend>(a);
  detail::check_1d_argument(x.ndim());
  const auto w = detail::search_values<Backend, detail::sort_input_t<A>>(v, x.device());
  detail::check_same_device(x.device(), w.device(), "searchsorted");
  return detail::searchsorted_impl<Backend>(
      detail::sorted_by<Backend>(x, eval<Backend>(sorter)), w, side == "right");
}

// ---------------------------------------------------------------------------------------------
// Unique elements

/// numpy.unique_counts's result.
template <element_type T>
struct unique_counts_result {
  ndarray<T> values;
  ndarray<std::int64_t> counts;
};
/// numpy.unique_inverse's result: inverse_indices has x's shape.
template <element_type T>
struct unique_inverse_result {
  ndarray<T> values;
  ndarray<std::int64_t> inverse_indices;
};
/// numpy.unique_all's result.
template <element_type T>
struct unique_all_result {
  ndarray<T> values;
  ndarray<std::int64_t> indices, inverse_indices, counts;
};

/// numpy.unique(a): the sorted unique elements of the flattened array; NaNs count as one
/// (equal_nan=True, NumPy's default). Waits for the device: the size depends on the data.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> unique(const A& a, bool equal_nan = true) {
  return detail::unique_impl<Backend>(eval<Backend>(a), equal_nan, false, false,
                                      false)
      .values;
}
/// numpy.unique_values(x): every NaN is its own value. NumPy leaves the order unspecified;
/// cunp's is sorted.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> unique_values(const A& x) {
  return detail::unique_impl<Backend>(eval<Backend>(x), false, false, false, false)
      .values;
}
/// numpy.unique_counts(x): the sorted unique values and how often each occurs.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] unique_counts_result<detail::sort_input_t<A>> unique_counts(const A& x) {
  auto r =
      detail::unique_impl<Backend>(eval<Backend>(x), false, false, false, true);
  return {r.values, r.counts};
}
/// numpy.unique_inverse(x): the sorted unique values and, per element of x, its value's index.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] unique_inverse_result<detail::sort_input_t<A>> unique_inverse(const A& x) {
  auto r =
      detail::unique_impl<Backend>(eval<Backend>(x), false, false, true, false);
  return {r.values, r.inverse_indices};
}
/// numpy.unique_all(x): values, the first index of each in the flattened x, the inverse indices
/// (x's shape) and the counts.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] unique_all_result<detail::sort_input_t<A>> unique_all(const A& x) {
  auto r = detail::unique_impl<Backend>(eval<Backend>(x), false, true, true, true);
  return {r.values, r.indices, r.inverse_indices, r.counts};
}

// ---------------------------------------------------------------------------------------------
// Counting

namespace detail {
/// bincount's element types: bool and the integers that cast safely to int64.
template <class T>
inline constexpr bool bincount_input_v = std::is_integral_v<T> && !std::is_same_v<T, std::uint64_t>;

template <class T>
void check_bincount_input(const ndarray<T>& x, index_t minlength) {
  check_1d_argument(x.ndim());
  if (!bincount_input_v<T>)
    throw dtype_error("Cannot cast array data from " + dtype_repr(dtype_of_v<T>) +
                      " to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw value_error("'minlength' must not be negative");
}

/// The length of bincount's result: max(x) + 1 (at least minlength); throws for negative x.
/// max(x) = INT64_MAX asks for 2^63 elements, too big for any array (NumPy wraps max + 1).
template <class Backend, class T>
index_t bincount_length(const ndarray<T>& x, index_t minlength) {
  if (x.size() == 0) return minlength;
  const auto [lo, hi] = dispatch<Backend>(x.device(), [&](auto be) { return value_range(be, x); });
  if (static_cast<index_t>(lo) < 0)
    throw value_error("'list' argument must have no negative elements");
  if (static_cast<index_t>(hi) == std::numeric_limits<index_t>::max()) throw array_too_big();
  return std::max(static_cast<index_t>(hi) + 1, minlength);
}

template <class Backend, class R, class T, class W>
ndarray<R> bincount_impl(const ndarray<T>& x, const ndarray<W>* weights, index_t minlength) {
  check_bincount_input(x, minlength);
  if constexpr (bincount_input_v<T>) {
    if (weights) {
      if constexpr (is_complex_v<W>)
        throw dtype_error("Cannot cast array data from " + dtype_repr(dtype_of_v<W>) +
                          " to dtype('float64') according to the rule 'safe'");
      check_same_device(x.device(), weights->device(), "bincount");
      check_1d_argument(weights->ndim());
      if (weights->size() != x.size())
        throw value_error("The weights and list don't have the same length.");
    }
    if constexpr (!is_complex_v<W>) {
      ndarray<R> out({bincount_length<Backend>(x, minlength)}, x.device());
      if (out.size() > 0)
        dispatch<Backend>(x.device(), [&](auto be) { bincount_count(be, x, weights, out); });
      return out;
    }
  }
  return {};  // not reached: the checks threw
}
}  // namespace detail

/// numpy.bincount(x, minlength=0): how often each value 0..max(x) occurs in the 1-d array of
/// non-negative integers x. Waits for the device: the length depends on the data.
template <class Backend = detail::compiled_backend, array_like X>
[[nodiscard]] ndarray<std::int64_t> bincount(const X& x, index_t minlength = 0) {
  return detail::bincount_impl<Backend, std::int64_t>(
      eval<Backend>(x), static_cast<const ndarray<bool>*>(nullptr), minlength);
}
/// numpy.bincount(x, weights, minlength=0): the sums of the weights (as float64) per value. On a
/// GPU the sums are accumulated in an order that varies from run to run (float rounding).
template <class Backend = detail::compiled_backend, array_like X, array_like W>
[[nodiscard]] ndarray<double> bincount(const X& x, const W& weights, index_t minlength = 0) {
  const auto w = eval<Backend>(weights);
  return detail::bincount_impl<Backend, double>(eval<Backend>(x), &w, minlength);
}

/// numpy.histogram's result: the counts per bin and the bin edges.
template <element_type E>
struct histogram_result {
  ndarray<std::int64_t> hist;
  ndarray<E> bin_edges;
};

namespace detail {
/// numpy.histogram's edge dtype: floating inputs keep theirs, integers and bool give float64.
template <class T>
using histogram_edge_t = std::conditional_t<is_floating_v<T>, T, double>;

/// numpy.linspace(first, last, bins + 1) as np.histogram calls it, computed in C (NumPy's
/// dtype of first and last; every operation rounded to C) and returned as E, on the cpu (an
/// array, so that too many edges are cunp's out_of_memory, as NumPy's MemoryError).
template <class C, class E>
ndarray<E> histogram_edges(C first, C last, index_t bins) {
  const auto op = [](double v) { return static_cast<C>(v); };  // one NumPy operation in C
  const C delta = op(static_cast<double>(last) - static_cast<double>(first));
  const C step = op(static_cast<double>(delta) / static_cast<double>(bins));
  const ndarray<E> edges({bins + 1}, cpu);
  E* e = edges.data();
  for (index_t i = 0; i <= bins; ++i) {
    const C y = op(static_cast<double>(i));
    const C scaled =
        static_cast<double>(step) == 0
            ? op(static_cast<double>(op(static_cast<double>(y) / static_cast<double>(bins))) *
                 static_cast<double>(delta))
            : op(static_cast<double>(y) * static_cast<double>(step));
    e[i] = convert<E>(op(static_cast<double>(scaled) + static_cast<double>(first)));
  }
  e[bins] = convert<E>(last);
  return edges;
}

template <class Backend, class T, class E>
histogram_result<E> histogram_with_edges(const ndarray<T>& a, ndarray<E> edges) {
  const index_t nb = std::max<index_t>(edges.size() - 1, 0);
  ndarray<std::int64_t> hist({nb}, a.device());
  if (nb > 0) dispatch<Backend>(a.device(), [&](auto be) { histogram_count(be, a, edges, hist); });
  return {hist, edges};
}

template <class Backend, class T>
histogram_result<histogram_edge_t<T>> histogram_uniform(
    const ndarray<T>& a, index_t bins, std::optional<std::pair<double, double>> range) {
  static_assert(!is_complex_v<T>, "numpy.histogram of complex values is not supported");
  using E = histogram_edge_t<T>;
  if (bins < 1) throw value_error("`bins` must be positive, when an integer");
  // The bins + 1 edges must fit an array: checked before the data is read (a kernel on a GPU).
  if (bins == std::numeric_limits<index_t>::max()) throw array_too_big();
  checked_size({bins + 1}, sizeof(E));
  ndarray<E> edges;
  if (range) {
    auto [first, last] = *range;
    if (first > last) throw value_error("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("supplied range of [" + numpy_scalar_str(first) + ", " +
                        numpy_scalar_str(last) + "] is not finite");
    if (first == last) {
      first -= 0.5;
      last += 0.5;
    }
    edges = histogram_edges<double, E>(first, last, bins);
  } else if (a.size() == 0) {
    edges = histogram_edges<double, E>(0.0, 1.0, bins);
  } else {
    const auto [lo, hi] =
        dispatch<Backend>(a.device(), [&](auto be) { return value_range(be, a); });
    if (order_isnan(lo) || order_isnan(hi) || std::isinf(static_cast<double>(lo)) ||
        std::isinf(static_cast<double>(hi)))
      throw value_error("autodetected range of [" + numpy_scalar_str(lo) + ", " +
                        numpy_scalar_str(hi) + "] is not finite");
    if constexpr (is_floating_v<T>) {
      T first = lo, last = hi;
      if (static_cast<double>(first) == static_cast<double>(last)) {
        first = T(static_cast<double>(first) - 0.5);
        last = T(static_cast<double>(last) + 0.5);
      }
      edges = histogram_edges<T, E>(first, last, bins);
    } else {
      double first = static_cast<double>(lo), last = static_cast<double>(hi);
      if (first == last) {
        first -= 0.5;
        last += 0.5;
      }
      edges = histogram_edges<double, E>(first, last, bins);
    }
  }
  return histogram_with_edges<Backend>(a, edges.to(a.device()));
}
}  // namespace detail

/// numpy.histogram(a, bins=10): counts in `bins` equal-width bins over [a.min(), a.max()]
/// (flattened a; the last bin includes its right edge). Edges are float64 for integer input,
/// else a's type. Waits for the device (the range depends on the data).
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] histogram_result<detail::histogram_edge_t<detail::sort_input_t<A>>> histogram(
    const A& a, index_t bins = 10) {
  return detail::histogram_uniform<Backend>(eval<Backend>(a), bins, std::nullopt);
}
/// numpy.histogram(a, bins, range=(lo, hi)): values outside [lo, hi] are not counted.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] histogram_result<detail::histogram_edge_t<detail::sort_input_t<A>>> histogram(
    const A& a, index_t bins, std::pair<double, double> range) {
  return detail::histogram_uniform<Backend>(eval<Backend>(a), bins, range);
}
/// numpy.histogram(a, bins=edges): counts between the given monotonically increasing edges,
/// compared in the common type of a and the edges. Waits for the device (the edges are checked).
template <class Backend = detail::compiled_backend, array_like A, array_like B>
[[nodiscard]] histogram_result<detail::sort_input_t<B>> histogram(const A& a, const B& edges) {
  using T = detail::sort_input_t<A>;
  using E = detail::sort_input_t<B>;
  static_assert(!is_complex_v<T> && !is_complex_v<E>,
                "numpy.histogram of complex values is not supported");
  const ndarray<E> bins = eval<Backend>(edges);
  detail::check_same_device(a.device(), bins.device(), "histogram");
  if (bins.ndim() != 1) throw value_error("`bins` must be 1d, when an array");
  const std::vector<E> host = bins.to_vector();
  for (std::size_t i = 1; i < host.size(); ++i)  // NumPy's any(bins[:-1] > bins[1:])
    if (detail::order_less(host[i], host[i - 1]) && !detail::order_isnan(host[i - 1]))
      throw value_error("`bins` must increase monotonically, when an array");
  return detail::histogram_with_edges<Backend>(eval<Backend>(a), bins);
}

// ---------------------------------------------------------------------------------------------
// Order statistics

/// numpy.median(a, axis=None, keepdims=False): the mean of the middle elements (float64 for
/// integer and bool input); a slice with a NaN gives NaN; an empty slice gives NaN.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::median_result_t<detail::sort_input_t<A>>> median(
    const A& a, const axis_arg& axis = {}, bool keepdims = false) {
  return detail::order_statistic<Backend, detail::median_result_t<detail::sort_input_t<A>>>(
      eval<Backend>(a), {0.5}, {}, detail::order_stat::median, axis, keepdims);
}

/// numpy.quantile(a, q, axis=None, keepdims=False), method 'linear'. A scalar q interpolates in
/// a's floating type (float64 for integers and bool); q must lie in [0, 1].
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::quantile_result_t<detail::sort_input_t<A>>> quantile(
    const A& a, double q, const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, detail::quantile_result_t<detail::sort_input_t<A>>>(
      eval<Backend>(a), {q}, {}, false, axis, keepdims);
}
/// numpy.quantile(a, [q...]): float64 results with q's extent first.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<double> quantile(const A& a, const std::vector<double>& q,
                                       const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, double>(
      eval<Backend>(a), q, {static_cast<index_t>(q.size())}, false, axis, keepdims);
}

/// numpy.percentile(a, q, axis=None, keepdims=False): quantile(a, q / 100); q in [0, 100].
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<detail::quantile_result_t<detail::sort_input_t<A>>> percentile(
    const A& a, double q, const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, detail::quantile_result_t<detail::sort_input_t<A>>>(
      eval<Backend>(a), {q}, {}, true, axis, keepdims);
}
/// numpy.percentile(a, [q...]): float64 results with q's extent first.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<double> percentile(const A& a, const std::vector<double>& q,
                                         const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, double>(
      eval<Backend>(a), q, {static_cast<index_t>(q.size())}, true, axis, keepdims);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/sort/sort.cuh"
#endif
