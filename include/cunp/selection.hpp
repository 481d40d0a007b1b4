// cunp/selection.hpp: NumPy's boolean selection and the functions built on it: mask (a[m]),
// put_mask (np.putmask), assign_mask (a[m] = v), nonzero, argwhere, flatnonzero, where(c),
// compress, extract, select, isin and digitize. The cpu backend is in
// detail/cpu/indexing/select.hpp, the CUDA one in detail/cuda/indexing/select.cuh.
//
// A selection runs in two passes over the mask: one counts the selected elements (evaluating a
// lazy mask expression once, into flags), the second writes them. Where the result's size
// depends on the values (mask, nonzero, argwhere, flatnonzero, compress, extract, and
// assign_mask when v holds one value per selected element), a GPU call waits for the device once
// between the passes, to read the count; cunp::allow_synchronize(false) makes that wait throw.
//
// put_mask and assign_mask differ as NumPy's putmask and a[m] = v do:
//   put_mask(a, m, v):    a.flat[n] = v.flat[n % v.size] wherever m.flat[n]: v is cycled over
//                         a's flat positions, whatever m selects.
//   assign_mask(a, m, v): the k-th selected element (or row) gets the k-th value of v, v
//                         broadcast to the selection's shape (count,) + a.shape[m.ndim:].
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/sort/sort_order.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail {

/// What the counting pass of a selection found, for the pass that writes it. `flags` is what the
/// second pass reads: the mask array itself, or the flags a mask expression was evaluated into.
/// `tile_sums` is the GPU's running count per tile (empty on the cpu).
template <element_type F>
struct selection {
  ndarray<F> flags;
  index_t count = 0;
  index_t first_beyond = -1;  ///< the first selected flat position >= the limit counted with, or -1
  ndarray<std::int64_t> tile_sums;
};

/// Whether a mask element selects: nonzero (NumPy's cast to bool; NaN is nonzero). A bool is
/// read as its byte, so that memory from elsewhere (adapt) holding other nonzero bytes selects
/// on both backends alike.
template <class C>
CUNP_HD bool is_set(const C& v) {
  if constexpr (std::is_same_v<C, bool>)
    return *reinterpret_cast<const unsigned char*>(&v) != 0;
  else
    return convert<bool>(v);
}

/// Whether x (of any type) is in s[0, n), sorted in NumPy's order: integers compared exactly,
/// anything else in their common type; NaN is in nothing (NumPy compares with ==).
template <class X, class U>
CUNP_HD bool sorted_contains(const X& x, const U* s, std::int64_t n) {
  if (order_isnan(x)) return false;
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (order_less_mixed(s[mid], x))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && !order_less_mixed(x, s[lo]);
}

}  // namespace cunp::detail

#include "cunp/detail/cpu/indexing/select.hpp"

namespace cunp {

namespace detail {

/// The text of the static_assert of a non-bool mask.
#define CUNP_MASK_DTYPE_MESSAGE                                                   \
  "a mask is a bool array or a bool expression (a > 0); for integer indices use " \
  "cunp::take(a, indices)"

/// NumPy's checks of a boolean index m of an array of shape a (prepare_index): no more axes than
/// a has, each of a's extent.
inline void check_mask_shape(const shape_t& a, const shape_t& m) {
  if (m.size() > a.size())
    throw index_error("too many indices for array: array is " + std::to_string(a.size()) +
                      "-dimensional, but " + std::to_string(m.size()) + " were indexed");
  for (std::size_t d = 0; d < m.size(); ++d)
    if (m[d] != a[d])
      throw index_error("boolean index did not match indexed array along axis " +
                        std::to_string(d) + "; size of axis is " + std::to_string(a[d]) +
                        " but size of corresponding boolean axis is " + std::to_string(m[d]));
}

/// The shape of a[m] for a mask of k axes: (count,) + shape[k:].
inline shape_t selection_shape(index_t count, const shape_t& shape, int k) {
  shape_t out{count};
  out.insert(out.end(), shape.begin() + k, shape.end());
  return out;
}

/// A C++ value stored into an array of T as NumPy stores a Python scalar (a[m] = v, putmask): an
/// integer must fit an integer T (NumPy: OverflowError), a complex value fits only complex and
/// bool arrays (Python's float() and int() refuse it), anything else converts (unsafe).
template <class T, class V>
T stored_scalar(const V& v) {
  if constexpr (is_complex_v<V> && !is_complex_v<T> && !std::is_same_v<T, bool>) {
    throw dtype_error(is_floating_v<T>
                          ? "float() argument must be a string or a real number, not 'complex'"
                          : "int() argument must be a string, a bytes-like object or a real "
                            "number, not 'complex'");
  } else {
    check_weak_fits<T>(v);
    return convert<T>(v);
  }
}

/// compress along axis (nullopt: of the flattened array), after NumPy's checks in NumPy's order
/// (PyArray_Compress: the condition's depth, the axis, then the indices that take reads).
template <class Backend, class C, class T>
ndarray<T> compress_impl(const ndarray<C>& condition, const ndarray<T>& a,
                         std::optional<index_t> axis, const char* what) {
  if (condition.ndim() != 1) throw value_error("condition must be a 1-d array");
  check_same_device(condition.device(), a.device(), what);
  // NumPy takes a 0-d array along an axis as 1-d, and axis=None from the flattened array.
  const ndarray<T> x = !axis ? flat_view_or_copy(a) : a.ndim() == 0 ? a.reshape({1}) : a;
  const int ax = axis ? normalize_axis(*axis, x.shape().size()) : 0;
  std::vector<int> order{ax};
  for (int d = 0; d < x.ndim(); ++d)
    if (d != ax) order.push_back(d);
  const index_t n = x.shape()[ax], len = condition.size();
  return dispatch<Backend>(x.device(), [&](auto be) {
    auto sel = count_selected(be, condition,
                              (std::string(what) + " (its size depends on the values)").c_str(), n);
    if (sel.first_beyond >= 0) {
      if (n == 0) throw index_error("cannot do a non-empty take from an empty axes.");
      throw index_error("index " + std::to_string(sel.first_beyond) +
                        " is out of bounds for axis " + std::to_string(ax) + " with size " +
                        std::to_string(n));
    }
    // Only the first min(len, n) entries of the condition can select (any later one is false).
    const index_t m = std::min(len, n);
    ndarray<T> src = permuted(x, order);
    if (m < n) src = view(src, slice(0, m));
    if (m < len) sel.flags = view(sel.flags, slice(0, m));
    shape_t shape = x.shape();
    shape[ax] = sel.count;
    const ndarray<T> out(shape, x.device());
    gather_selected(be, sel, src, 1, permuted(out, order));
    return out;
  });
}

/// The values of a[m] = v as an array (a C++ value: a 0-d array of T).
template <class Backend, class T, class V>
auto assigned_values(const V& v, device dev) {
  if constexpr (array_like<V>) {
    auto x = eval<Backend>(v);
    check_same_device(dev, x.device(), "assign_mask");
    return x;
  } else {
    const ndarray<T> x({}, dev);
    x.fill(stored_scalar<T>(v));
    return x;
  }
}

/// "(3,)" in a[m] = v's errors: NumPy's compact shape.
template <class V>
shape_error value_shape_mismatch(const ndarray<V>& v, const shape_t& selection) {
  return shape_error("shape mismatch: value array of shape " + shape_str_compact(v.shape()) +
                     " could not be broadcast to indexing result of shape " +
                     shape_str_compact(selection));
}

template <class T, class D>
struct select_result {
  using type = weak_result_type_t<T, D>;
};
template <class T, class E>
struct select_result<T, ndarray<E>> {
  using type = result_type_t<T, E>;
};
/// numpy.select's dtype: result_type of the choices and the default (a C++ value is weak).
template <class T, class D>
using select_result_t = typename select_result<T, D>::type;

/// isin's search type: the test elements' own for two integer (or bool) types, compared exactly;
/// else the common type NumPy compares in.
template <class X, class T>
using isin_key_t =
    std::conditional_t<std::is_integral_v<X> && std::is_integral_v<T>, T, result_type_t<X, T>>;

/// numpy's _monotonicity of digitize's bins, in float64 as NumPy converts them: 1 increasing
/// (or all equal), -1 decreasing, 0 neither; NaN compares false with everything.
template <class E>
int bins_monotonicity(const std::vector<E>& bins) {
  std::vector<double> b;
  for (const E& v : bins) b.push_back(convert<double>(v));
  if (b.empty()) return 1;
  std::size_t i = 1;
  while (i < b.size() && b[i] == b[0]) ++i;
  if (i == b.size()) return 1;
  const bool increasing = b[0] < b[i];
  for (++i; i < b.size(); ++i)
    if (increasing ? b[i - 1] > b[i] : b[i - 1] < b[i]) return 0;
  return increasing ? 1 : -1;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Selecting

/// numpy's a[m] for a bool mask m (an array or a lazy bool expression, evaluated once) of a's
/// shape or of a's leading axes: a new C-ordered array of shape (count,) + a.shape[m.ndim:], the
/// selected elements (or rows) in C order. Waits for the device once: the size depends on the
/// values.
template <class Backend = detail::compiled_backend, array_like A, array_like M>
[[nodiscard]] ndarray<detail::sort_input_t<A>> mask(const A& a, const M& m) {
  static_assert(std::is_same_v<detail::sort_input_t<M>, bool>, CUNP_MASK_DTYPE_MESSAGE);
  using T = detail::sort_input_t<A>;
  const ndarray<T> x = eval<Backend>(a);
  detail::check_same_device(x.device(), m.device(), "mask");
  detail::check_mask_shape(x.shape(), m.shape());
  const int k = m.ndim();
  return detail::dispatch<Backend>(x.device(), [&](auto be) {
    const auto sel = count_selected(be, m, "cunp::mask (its size depends on the values)");
    const ndarray<T> out(detail::selection_shape(sel.count, x.shape(), k), x.device());
    gather_selected(be, sel, x, k, out);
    return out;
  });
}

/// numpy.nonzero(a): one int64 array of indices per axis of a, for the elements that are not
/// zero (NaN is not zero), in C order. Each is a C-contiguous view of one (ndim, count) block.
/// A 0-d a throws value_error, as NumPy 2. Waits for the device once.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] std::vector<ndarray<std::int64_t>> nonzero(const A& a) {
  if (a.ndim() == 0)
    throw value_error(std::string("Calling nonzero on 0d arrays is not allowed. Use "
                                  "np.atleast_1d(scalar).nonzero() instead.") +
                      (std::is_same_v<detail::sort_input_t<A>, bool>
                           ? " If the context of this error is of the form "
                             "`arr[nonzero(cond)]`, just use `arr[cond]`."
                           : ""));
  return detail::dispatch<Backend>(a.device(), [&](auto be) {
    const auto sel = count_selected(be, a, "cunp::nonzero (its size depends on the values)");
    const index_t nd = a.ndim();
    const ndarray<std::int64_t> rows({nd, sel.count}, a.device());
    positions_selected(be, sel, a.shape(), rows);
    std::vector<ndarray<std::int64_t>> out;
    for (index_t d = 0; d < nd; ++d)
      out.emplace_back(rows.storage(), d * sel.count, shape_t{sel.count}, strides_t{1});
    return out;
  });
}

/// numpy.where(condition) with one argument: nonzero(condition).
template <class Backend = detail::compiled_backend, array_like C>
[[nodiscard]] std::vector<ndarray<std::int64_t>> where(const C& condition) {
  return nonzero<Backend>(condition);
}

/// numpy.argwhere(a): the (count, a.ndim) int64 indices of the nonzero elements, in C order (a
/// 0-d a gives (0 or 1, 0)). Waits for the device once.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> argwhere(const A& a) {
  return detail::dispatch<Backend>(a.device(), [&](auto be) {
    const auto sel = count_selected(be, a, "cunp::argwhere (its size depends on the values)");
    const ndarray<std::int64_t> out({sel.count, index_t(a.ndim())}, a.device());
    positions_selected(be, sel, a.shape(), out.T());
    return out;
  });
}

/// numpy.flatnonzero(a): the indices of the nonzero elements of a.ravel(). Waits for the device
/// once.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] ndarray<std::int64_t> flatnonzero(const A& a) {
  return detail::dispatch<Backend>(a.device(), [&](auto be) {
    const auto sel = count_selected(be, a, "cunp::flatnonzero (its size depends on the values)");
    const ndarray<std::int64_t> out({sel.count}, a.device());
    positions_selected(be, sel, shape_t{a.size()}, out.reshape({1, sel.count}));
    return out;
  });
}

/// numpy.compress(condition, a, axis): the slices of a along axis where the 1-d condition (any
/// dtype; nonzero is true) holds. A condition shorter than the axis selects from its first
/// entries; a true entry past the axis throws index_error, as NumPy. Waits for the device once.
template <class Backend = detail::compiled_backend, array_like C, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> compress(const C& condition, const A& a,
                                                        index_t axis) {
  return detail::compress_impl<Backend>(eval<Backend>(condition),
                                        eval<Backend>(a), axis, "cunp::compress");
}
/// numpy.compress(condition, a) (axis=None): from the flattened a.
template <class Backend = detail::compiled_backend, array_like C, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> compress(const C& condition, const A& a,
                                                        none_t = none) {
  return detail::compress_impl<Backend>(eval<Backend>(condition),
                                        eval<Backend>(a), std::nullopt,
                                        "cunp::compress");
}

/// numpy.extract(condition, arr): the elements of arr.ravel() where condition.ravel() (any dtype,
/// any shape) is nonzero; a true entry past arr's size throws index_error. Waits for the device
/// once.
template <class Backend = detail::compiled_backend, array_like C, array_like A>
[[nodiscard]] ndarray<detail::sort_input_t<A>> extract(const C& condition, const A& arr) {
  return detail::compress_impl<Backend>(
      detail::flat_view_or_copy(eval<Backend>(condition)),
      eval<Backend>(arr), std::nullopt, "cunp::extract");
}

// ---------------------------------------------------------------------------------------------
// Assigning

/// numpy.putmask(a, mask, values): a.flat[n] = values.flat[n % values.size] wherever
/// mask.flat[n] is nonzero (mask of any dtype and shape, of a's size). values may be a C++ value
/// (weak: an integer must fit a's dtype) or an array of a dtype that casts safely to a's; empty
/// values change nothing. values are read in full before a is written. Never waits.
template <class Backend = detail::compiled_backend, element_type T, array_like M, class V>
  requires(array_like<V> || is_weak_scalar_v<V>)
void put_mask(const ndarray<T>& a, const M& mask, const V& values) {
  for (std::size_t d = 0; d < a.shape().size(); ++d)  // NumPy's broadcast views are read-only
    if (a.shape()[d] > 1 && a.strides()[d] == 0)
      throw value_error("putmask: output array is read-only");
  auto m = eval<Backend>(mask);
  detail::check_same_device(a.device(), m.device(), "putmask");
  if (m.size() != a.size()) throw value_error("putmask: mask and data must be the same size");
  ndarray<T> v;
  if constexpr (array_like<V>) {
    const auto x = eval<Backend>(values);
    using X = typename decltype(x)::value_type;
    detail::check_same_device(a.device(), x.device(), "putmask");
    detail::check_copy_cast(dtype_of_v<X>, dtype_of_v<T>, casting::safe);
    if (x.size() == 0) return;
    v = x.template astype<T, Backend>().reshape({x.size()});
  } else {
    v = ndarray<T>({1}, a.device());
    v.fill(detail::stored_scalar<T>(values));
  }
  if (a.size() == 0) return;
  // Each element of a is written by the one that reads its mask element: safe when that is the
  // same memory, element for element; any other overlap reads the mask before a changes.
  const bool same = static_cast<const void*>(m.data()) == static_cast<const void*>(a.data()) &&
                    m.strides() == a.strides() && m.shape() == a.shape() &&
                    m.itemsize() == a.itemsize();
  if (may_share_memory(a, m) && !same) m = m.copy();
  detail::dispatch<Backend>(a.device(),
                            [&](auto be) { put_mask_into(be, a, m.reshape(a.shape()), v); });
}

/// numpy's a[m] = v for a bool mask m (an array or a lazy bool expression) of a's shape or of
/// a's leading axes, v an array, an expression or a C++ value converted to a's dtype as NumPy's
/// assignment does (unsafe; a C++ integer must fit an integer dtype). As NumPy:
/// - m of a's every axis: v is 0-d or 1-d; one value goes to every selected element, else v
///   holds one value per selected element, in C order;
/// - m of a's leading axes: v broadcasts to the selection's shape (count,) + a.shape[m.ndim:].
/// v is read in full before a is written. Waits for the device once when v holds one value per
/// selection (its count is checked), never when v broadcasts along the selection (one pass,
/// fused with a mask expression).
template <class Backend = detail::compiled_backend, element_type T, array_like M, class V>
  requires(array_like<V> || is_weak_scalar_v<V>)
void assign_mask(const ndarray<T>& a, const M& m, const V& v) {
  static_assert(std::is_same_v<detail::sort_input_t<M>, bool>, CUNP_MASK_DTYPE_MESSAGE);
  detail::check_same_device(a.device(), m.device(), "assign_mask");
  detail::check_mask_shape(a.shape(), m.shape());
  detail::check_writeable(a);
  const auto values = detail::assigned_values<Backend, T>(v, a.device());
  const int k = m.ndim();
  const shape_t inner(a.shape().begin() + k, a.shape().end());
  const auto nv = static_cast<std::size_t>(values.ndim());
  // The value along the selection's axis when v has one (leading 1s dropped), else nullopt.
  std::optional<index_t> along;
  shape_t value_inner = values.shape();
  bool fits = true;  // v's axes after `along` broadcast to the inner axes
  if (k == a.ndim()) {
    if (nv > 1)
      throw dtype_error(
          "NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
          "input, input has " +
          std::to_string(nv) + " dimensions");
    if (nv == 1 && values.size() != 1) along = values.size();
    value_inner.clear();
  } else {
    std::size_t lead = 0;  // leading extents of 1 beyond the selection's axes are dropped
    while (nv - lead > inner.size() + 1 && values.shape()[lead] == 1) ++lead;
    value_inner.assign(values.shape().begin() + lead, values.shape().end());
    fits = value_inner.size() <= inner.size() + 1;
    if (fits && value_inner.size() == inner.size() + 1) {
      if (value_inner[0] != 1) along = value_inner[0];
      value_inner.erase(value_inner.begin());
    }
    for (std::size_t d = 0; fits && d < value_inner.size(); ++d) {
      const index_t e = value_inner[value_inner.size() - 1 - d];
      fits = e == 1 || e == inner[inner.size() - 1 - d];
    }
  }
  detail::dispatch<Backend>(a.device(), [&](auto be) {
    if (fits && !along) {
      // One value for every selected element (or its inner axes): where(m, v, a) in one pass.
      const ndarray<T> vb = values.template astype<T, Backend>().reshape(value_inner);
      if constexpr (detail::is_ndarray_v<M>) {
        shape_t spread = m.shape();
        spread.resize(a.shape().size(), 1);
        evaluate(be, a, where(m.reshape(spread), vb, a));
      } else if (k == a.ndim()) {
        evaluate(be, a, where(m, vb, a));
      } else {
        const ndarray<bool> flags = eval<Backend>(m);
        shape_t spread = flags.shape();
        spread.resize(a.shape().size(), 1);
        evaluate(be, a, where(flags.reshape(spread), vb, a));
      }
      return;
    }
    // The mask is read while a is written: it must not be a's memory.
    const auto sel = [&] {
      if constexpr (detail::is_ndarray_v<M>)
        return count_selected(be, may_share_memory(m, a) ? m.copy() : m,
                              "cunp::assign_mask (its size depends on the values)");
      else
        return count_selected(be, m, "cunp::assign_mask (its size depends on the values)");
    }();
    const shape_t result = detail::selection_shape(sel.count, a.shape(), k);
    if (k == a.ndim()) {
      if (*along != sel.count)
        throw value_error("NumPy boolean array indexing assignment cannot assign " +
                          std::to_string(*along) + " input values to the " +
                          std::to_string(sel.count) + " output values where the mask is true");
    } else if (!fits || *along != sel.count) {
      throw detail::value_shape_mismatch(values, result);
    }
    const ndarray<T> w = detail::unaliased(detail::index_values_as<Backend, T>(values), a);
    const ndarray<T> spread(w.storage(), w.offset(), result, detail::assignment_strides(w, result));
    assign_selected(be, sel, a, k, spread);
  });
}

// ---------------------------------------------------------------------------------------------
// Choosing, membership, binning

/// numpy.select(condlist, choicelist, default=0): where the first true condition is i,
/// choicelist[i], else default. Conditions, choices and default broadcast together; the dtype is
/// NumPy's result_type of the choices and the default (a C++ default is weak and is converted
/// into it as NumPy's np.full does: unsafe). Conditions must be bool (dtype_error otherwise, as
/// NumPy's TypeError). Never waits.
template <class Backend = detail::compiled_backend, element_type C, element_type T, class D = int>
  requires(is_weak_scalar_v<D> || detail::is_ndarray_v<D>)
[[nodiscard]] ndarray<detail::select_result_t<T, D>> select(
    const std::vector<ndarray<C>>& condlist, const std::vector<ndarray<T>>& choicelist,
    const D& default_value = 0) {
  using R = detail::select_result_t<T, D>;
  if (condlist.size() != choicelist.size())
    throw value_error("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw value_error("select with an empty condition list is not possible");
  const device dev = condlist[0].device();
  ndarray<R> fallback({}, dev);
  if constexpr (detail::is_ndarray_v<D>) {
    detail::check_same_device(dev, default_value.device(), "select");
    fallback = default_value.template astype<R, Backend>();
  } else {
    fallback.fill(detail::convert<R>(default_value));
  }
  std::vector<const shape_t*> conds, choices;
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    detail::check_same_device(dev, condlist[i].device(), "select");
    detail::check_same_device(dev, choicelist[i].device(), "select");
    conds.push_back(&condlist[i].shape());
    choices.push_back(&choicelist[i].shape());
  }
  choices.push_back(&fallback.shape());
  const shape_t cond_shape = detail::broadcast_shape_of(conds);
  const shape_t choice_shape = detail::broadcast_shape_of(choices);
  if constexpr (!std::is_same_v<C, bool>) {
    throw dtype_error("invalid entry 0 in condlist: should be boolean ndarray");
  } else {
    const ndarray<R> out(detail::broadcast_shape_of({&cond_shape, &choice_shape}), dev);
    detail::dispatch<Backend>(dev, [&](auto be) {
      // Last to first, so that the first true condition's choice is what stays.
      const std::size_t n = condlist.size();
      evaluate(be, out, where(condlist[n - 1], choicelist[n - 1], fallback));
      for (std::size_t i = n - 1; i-- > 0;)
        evaluate(be, out, where(condlist[i], choicelist[i], out));
    });
    return out;
  }
}

/// numpy.select([c1, c2], [x1, x2], default) with the lists braced:
/// `cunp::select({c1, c2}, {x1, x2}, 0)`.
template <class Backend = detail::compiled_backend, element_type C, element_type T, class D = int>
  requires(is_weak_scalar_v<D> || detail::is_ndarray_v<D>)
[[nodiscard]] ndarray<detail::select_result_t<T, D>> select(
    std::initializer_list<ndarray<C>> condlist, std::initializer_list<ndarray<T>> choicelist,
    const D& default_value = 0) {
  return select<Backend>(std::vector<ndarray<C>>(condlist), std::vector<ndarray<T>>(choicelist),
                         default_value);
}

/// numpy.isin(element, test_elements, assume_unique=False, invert=False): whether each element
/// is among the test elements (any shape, flattened), a bool array of element's shape; with
/// invert, whether it is not. Compared with NumPy's ==: NaN is in nothing, -0.0 is 0.0, integers
/// exactly (also across signed and unsigned types), others in their common type. As NumPy's
/// kind='sort': the test elements are sorted, then each element binary-searched. assume_unique
/// changes nothing here: the result is the same either way. Never waits.
template <class Backend = detail::compiled_backend, array_like E, array_like S>
[[nodiscard]] ndarray<bool> isin(const E& element, const S& test_elements,
                                 bool assume_unique = false, bool invert = false) {
  (void)assume_unique;
  using X = detail::sort_input_t<E>;
  using U = detail::isin_key_t<X, detail::sort_input_t<S>>;
  const ndarray<X> x = eval<Backend>(element);
  const auto t = eval<Backend>(test_elements);
  detail::check_same_device(x.device(), t.device(), "isin");
  const ndarray<bool> out(x.shape(), x.device());
  if (x.size() == 0) return out;
  if (t.size() == 0) {
    out.fill(invert);
    return out;
  }
  ndarray<U> keys;
  if constexpr (std::is_same_v<U, detail::sort_input_t<S>>)
    keys = t;
  else
    keys = t.template astype<U, Backend>();
  const ndarray<U> sorted = sort<Backend>(keys, none);
  detail::dispatch<Backend>(x.device(), [&](auto be) { isin_into(be, x, sorted, out, invert); });
  return out;
}

/// numpy.digitize(x, bins, right=False): the index of the bin of each value of x, by
/// searchsorted (side 'right', or 'left' when right): bins must be 1-d and monotonically
/// increasing or decreasing (checked as NumPy does, in float64). NaN sorts after every number.
/// Waits for the device: the bins are checked on the host.
template <class Backend = detail::compiled_backend, array_like X, array_like B>
[[nodiscard]] ndarray<std::int64_t> digitize(const X& x, const B& bins, bool right = false) {
  using T = detail::sort_input_t<X>;
  using E = detail::sort_input_t<B>;
  if constexpr (is_complex_v<T>) {
    throw dtype_error("x may not be complex");
  } else {
    const ndarray<T> xs = eval<Backend>(x);
    const ndarray<E> b = eval<Backend>(bins);
    detail::check_same_device(xs.device(), b.device(), "digitize");
    detail::check_1d_argument(b.ndim());
    detail::check_copy_cast(dtype_of_v<E>, dtype::float64, casting::safe);
    const int mono = detail::bins_monotonicity(b.to_vector());
    if (mono == 0) throw value_error("bins must be monotonically increasing or decreasing");
    const char* side = right ? "left" : "right";  // searchsorted's side is the other one
    if (mono > 0) return searchsorted<Backend>(b, xs, side);
    const auto found = searchsorted<Backend>(view(b, slice(none, none, -1)), xs, side);
    return eval<Backend>(b.size() - found);
  }
}

#undef CUNP_MASK_DTYPE_MESSAGE

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/indexing/select.cuh"
#endif
