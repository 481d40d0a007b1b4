// cunp/indexing.hpp: numpy's integer-array indexing: take, put, take_along_axis, put_along_axis,
// choose, and the unbuffered in-place updates of ufunc.at (add_at, subtract_at, multiply_at,
// maximum_at, minimum_at). The cpu backend is in detail/cpu/indexing/, the CUDA one in
// detail/cuda/indexing/, the geometry they share in detail/indexing/plan.hpp.
//
// Index arrays may have any integer dtype (negative indices count from the end; uint64 indices
// are read as int64, as NumPy casts them); a float or bool index array does not compile.
//
// Bad indices (docs/differences.md, "Integer-array indexing"):
// - on the cpu every index is checked before anything is written: a call that throws
//   cunp::index_error (NumPy's text) leaves every operand as it was;
// - on a GPU the check runs inside the kernels, which skip a bad index (never reading or writing
//   out of bounds) and record the first one in index order; the error surfaces, as index_error
//   naming the function ("take: index 9 is out of bounds for axis 0 with size 3"), at the next
//   operation that waits for the device (to(cpu), to_vector, item, synchronize, a stream's or an
//   event's synchronize, a result whose size depends on the data). The elements with good
//   indices have been written by then. set_index_checking(index_checking::eager) makes every
//   index call on a GPU wait and throw at once (for debugging).
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

// ndarray.hpp first: it completes the core headers (copy, cast) that creation.hpp's backends use.
#include "cunp/creation.hpp"
#include "cunp/detail/core/device_wait.hpp"
#include "cunp/detail/cpu/indexing/scatter.hpp"
#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/detail/indexing/plan.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {

/// Integer scalars that index (bool is not one).
template <class S>
concept scalar_index = std::is_integral_v<S> && !std::is_same_v<S, bool>;

/// After an index call has queued its kernels: under index_checking::eager, waits for the
/// device and raises the call's bad index now.
inline void finish_index_call(device dev, index_op op) {
  if (dev.is_cuda() && get_index_checking() == index_checking::eager)
    wait_for_device(dev, (std::string(index_op_name(op)) + " (index_checking::eager)").c_str());
}

/// A 1-d view of `a` in C order when its elements are evenly spaced, else nullopt.
template <class T>
std::optional<ndarray<T>> index_flat_view(const ndarray<T>& a) {
  const auto l = make_loop_layout<1>(a.shape(), {&a.strides()});
  if (l.shape.ndim > 1) return std::nullopt;
  const index_t stride = l.shape.ndim == 1 ? l.strides[0][0] : 1;
  return ndarray<T>(a.storage(), a.offset(), {a.size()}, {stride});
}
/// `a` flattened in C order: a view when one exists, else a copy.
template <class T>
ndarray<T> index_flattened(const ndarray<T>& a) {
  if (auto v = index_flat_view(a)) return *v;
  return a.copy().reshape({a.size()});
}

/// v as T (NumPy casts the values unsafely to the array's dtype).
template <class Backend, class T, class V>
ndarray<T> index_values_as(const ndarray<V>& v) {
  if constexpr (std::is_same_v<T, V>)
    return v;
  else
    return v.template astype<T, Backend>();
}

template <class A, class B>
bool index_overlap(const ndarray<A>& x, const ndarray<B>& y) {
  return bytes_of(x).overlaps(bytes_of(y));
}
/// x, or a copy of it when it overlaps `written`: the kernels read x while they write there, and
/// NumPy reads x as it was.
template <class X, class W>
ndarray<X> unaliased(const ndarray<X>& x, const ndarray<W>& written) {
  return index_overlap(x, written) ? x.copy() : x;
}

/// The shape a.shape[:ax] + middle + a.shape[ax+1:].
inline shape_t replace_axis(const shape_t& s, int ax, const shape_t& middle) {
  shape_t out(s.begin(), s.begin() + ax);
  out.insert(out.end(), middle.begin(), middle.end());
  out.insert(out.end(), s.begin() + ax + 1, s.end());
  return out;
}
inline index_t extent_product_before(const shape_t& s, int ax) {
  index_t n = 1;
  for (int d = 0; d < ax; ++d) n *= s[d];
  return n;
}

/// take's a and axis: axis None flattens a, a 0-d a counts as 1-d (NumPy's PyArray_CheckAxis).
template <class T>
std::pair<ndarray<T>, int> take_axis(const ndarray<T>& a, std::optional<index_t> axis) {
  if (!axis) return {index_flattened(a), 0};
  const ndarray<T> x = a.ndim() == 0 ? a.reshape({1}) : a;
  return {x, normalize_axis(*axis, x.shape().size())};
}

template <class Backend, class T, class I>
ndarray<T> take_impl(const ndarray<T>& array, const ndarray<I>& idx, std::optional<index_t> axis,
                     std::type_identity_t<const ndarray<T>*> out, index_mode mode) {
  check_index_dtype<I>();
  check_same_device(array.device(), idx.device(), "take");
  const auto [a, ax] = take_axis(array, axis);
  const shape_t shape = replace_axis(a.shape(), ax, idx.shape());
  if (out) {
    check_same_device(array.device(), out->device(), "take");
    if (out->shape() != shape)
      throw shape_error("output array does not match result of ndarray.take");
  }
  const index_t n = a.shape()[ax];
  if (n == 0 && shape_size(shape) != 0)
    throw index_error("cannot do a non-empty take from an empty axes.");
  const bool direct = out && !index_overlap(*out, a) && !index_overlap(*out, idx);
  const ndarray<T> dst = direct ? *out : ndarray<T>(shape, a.device());
  const gather_plan p =
      take_plan(a.shape(), a.strides(), ax, idx.shape(), idx.strides(), dst.strides());
  // NumPy checks nothing when a.shape[:axis] is empty, but also when the result is empty only
  // for lack of trailing elements.
  const bool checked =
      mode == index_mode::raise && extent_product_before(a.shape(), ax) > 0 && idx.size() > 0;
  const index_check c = make_check(index_op::take, ax, checked, idx.shape(), idx.strides());
  dispatch<Backend>(a.device(), [&](auto be) { gather(be, p, c, mode, dst, idx, a); });
  finish_index_call(a.device(), index_op::take);
  if (out && !direct) copy_same(*out, dst);
  return out ? *out : dst;
}

/// take with one integer index: checked and normalised on the host, then a copy of the slice.
template <class T>
ndarray<T> take_scalar(const ndarray<T>& array, std::int64_t i, std::optional<index_t> axis,
                       index_mode mode) {
  const auto [a, ax] = take_axis(array, axis);
  const shape_t shape = replace_axis(a.shape(), ax, {});
  const index_t n = a.shape()[ax];
  if (n == 0 && shape_size(shape) != 0)
    throw index_error("cannot do a non-empty take from an empty axes.");
  std::int64_t k = 0;
  if (mode == index_mode::raise && extent_product_before(a.shape(), ax) > 0 &&
      !normalize_index(i, n, mode, k))
    throw index_error(out_of_bounds_text(i, n, ax));
  if (shape_size(shape) == 0) return ndarray<T>(shape, a.device());
  normalize_index(i, n, mode, k);
  strides_t st = a.strides();
  st.erase(st.begin() + ax);
  return ndarray<T>(a.storage(), a.offset() + k * a.strides()[ax], shape, st).copy();
}

template <class Backend, class T, class I, class V>
void put_impl(const ndarray<T>& a, const ndarray<I>& idx, const ndarray<V>& v, index_mode mode) {
  check_index_dtype<I>();
  check_same_device(a.device(), idx.device(), "put");
  check_same_device(a.device(), v.device(), "put");
  if (idx.size() > 0 && a.size() == 0)
    throw index_error("cannot replace elements of an empty array");
  if (idx.size() == 0 || v.size() == 0) return;
  // put reads v flat and contiguous (cycled by position)
  const ndarray<T> v0 = unaliased(index_values_as<Backend, T>(v), a);
  const ndarray<T> vals = (v0.is_contiguous() ? v0 : v0.copy()).reshape({v0.size()});
  const ndarray<I> ix = unaliased(idx, a);
  const auto flat = index_flat_view(a);
  const ndarray<T> target = flat ? *flat : a.copy().reshape({a.size()});
  const scatter_plan p =
      put_plan(target.size(), target.strides()[0], ix.shape(), ix.strides(), vals.size());
  const index_check c =
      make_check(index_op::put, 0, mode == index_mode::raise, ix.shape(), ix.strides());
  dispatch<Backend>(a.device(), [&](auto be) { scatter_put(be, p, c, mode, target, ix, vals); });
  if (!flat) copy_same(a, target.reshape(a.shape()));
  finish_index_call(a.device(), index_op::put);
}

/// put with one integer index: checked on the host, then one element copied.
template <class Backend, class T, class V>
void put_scalar(const ndarray<T>& a, std::int64_t i, const ndarray<V>& v, index_mode mode) {
  check_same_device(a.device(), v.device(), "put");
  if (a.size() == 0) throw index_error("cannot replace elements of an empty array");
  if (v.size() == 0) return;
  std::int64_t k = 0;
  if (!normalize_index(i, a.size(), mode, k)) throw index_error(out_of_bounds_text(i, a.size(), 0));
  const ndarray<T> vals = index_flattened(index_values_as<Backend, T>(v));
  index_t off = 0;
  for (std::size_t d = a.shape().size(); d-- > 0;) {
    off += (k % a.shape()[d]) * a.strides()[d];
    k /= a.shape()[d];
  }
  copy_same(ndarray<T>(a.storage(), a.offset() + off, {}, {}),
            ndarray<T>(vals.storage(), vals.offset(), {}, {}));
}

/// take_along_axis's and put_along_axis's a and axis (None: a flattened, indices 1-d).
template <class T>
std::pair<ndarray<T>, int> along_axis(const ndarray<T>& a, int idx_ndim,
                                      std::optional<index_t> axis, bool writes) {
  if (!axis) {
    if (idx_ndim != 1) throw value_error("when axis=None, `indices` must have a single dimension.");
    if (!writes) return {index_flattened(a), 0};
    const auto flat = index_flat_view(a);
    return {flat ? *flat : a.copy().reshape({a.size()}), 0};
  }
  const int ax = normalize_axis(*axis, a.shape().size());
  if (a.ndim() != idx_ndim)
    throw value_error("`indices` and `arr` must have the same number of dimensions");
  return {a, ax};
}

template <class Backend, class T, class I>
ndarray<T> take_along_axis_impl(const ndarray<T>& array, const ndarray<I>& idx,
                                std::optional<index_t> axis) {
  check_index_dtype<I>();
  check_same_device(array.device(), idx.device(), "take_along_axis");
  const auto [a, ax] = along_axis(array, idx.ndim(), axis, false);
  const shape_t shape = along_axis_shape(a.shape(), ax, idx.shape());
  const ndarray<T> out(shape, a.device());
  const gather_plan p =
      take_along_plan(a.shape(), a.strides(), ax, idx.shape(), idx.strides(), shape, out.strides());
  const index_check c =
      make_check(index_op::take_along_axis, ax, shape_size(shape) > 0, idx.shape(), idx.strides());
  dispatch<Backend>(a.device(), [&](auto be) { gather(be, p, c, index_mode::raise, out, idx, a); });
  finish_index_call(a.device(), index_op::take_along_axis);
  return out;
}

template <class Backend, class T, class I, class V>
void put_along_axis_impl(const ndarray<T>& array, const ndarray<I>& idx, const ndarray<V>& v,
                         std::optional<index_t> axis) {
  check_index_dtype<I>();
  check_same_device(array.device(), idx.device(), "put_along_axis");
  check_same_device(array.device(), v.device(), "put_along_axis");
  const auto [a, ax] = along_axis(array, idx.ndim(), axis, true);
  const shape_t shape = along_axis_shape(a.shape(), ax, idx.shape());
  const ndarray<T> vals = unaliased(index_values_as<Backend, T>(v), array);
  const auto sv = assigned_strides(vals.shape(), vals.strides(), shape);
  if (!sv)
    throw value_error("shape mismatch: value array of shape " + compact_shape_str(vals.shape()) +
                      " could not be broadcast to indexing result of shape " +
                      compact_shape_str(shape));
  const ndarray<I> ix = unaliased(idx, array);
  const scatter_plan p =
      put_along_plan(a.shape(), a.strides(), ax, ix.shape(), ix.strides(), shape, *sv);
  const index_check c =
      make_check(index_op::put_along_axis, ax, shape_size(shape) > 0, ix.shape(), ix.strides());
  dispatch<Backend>(a.device(),
                    [&](auto be) { scatter_put(be, p, c, index_mode::raise, a, ix, vals); });
  if (a.storage() != array.storage()) copy_same(array, a.reshape(array.shape()));
  finish_index_call(a.device(), index_op::put_along_axis);
}

template <class Backend, class T, class I>
ndarray<T> choose_impl(const ndarray<I>& a, const std::vector<ndarray<T>>& choices,
                       std::type_identity_t<const ndarray<T>*> out, index_mode mode) {
  check_index_dtype<I>();
  if (choices.empty()) throw value_error("0-length sequence.");
  if (choices.size() > std::size_t(max_choices))
    throw value_error("Need at least 0 and at most 64 array objects.");
  std::vector<const shape_t*> shapes;
  for (const ndarray<T>& c : choices) {
    check_same_device(a.device(), c.device(), "choose");
    shapes.push_back(&c.shape());
  }
  shapes.push_back(&a.shape());
  const shape_t shape = broadcast_shape_of(shapes);
  bool direct = out != nullptr;
  if (out) {
    check_same_device(a.device(), out->device(), "choose");
    if (out->shape() != shape) throw shape_error("choose: invalid shape for output array.");
    direct = !index_overlap(*out, a);
    for (const ndarray<T>& c : choices) direct = direct && !index_overlap(*out, c);
  }
  const ndarray<T> dst = direct ? *out : ndarray<T>(shape, a.device());
  std::vector<const void*> data;
  std::vector<strides_t> strides;
  for (const ndarray<T>& c : choices) {
    data.push_back(c.data());
    strides.push_back(*assigned_strides(c.shape(), c.strides(), shape));
  }
  const choose_plan p = make_choose_plan(
      shape, dst.strides(), *assigned_strides(a.shape(), a.strides(), shape), data, strides);
  const index_check c =
      make_check(index_op::choose, 0, mode == index_mode::raise && shape_size(shape) > 0, a.shape(),
                 a.strides());
  dispatch<Backend>(a.device(), [&](auto be) { choose_into(be, p, c, mode, dst, a); });
  finish_index_call(a.device(), index_op::choose);
  if (out && !direct) copy_same(*out, dst);
  return out ? *out : dst;
}

template <class Op, class Backend, class T, class I, class V>
void ufunc_at_impl(index_op op, const ndarray<T>& a, const ndarray<I>& idx, const ndarray<V>& v) {
  static_assert(!std::is_same_v<Op, subtract_op> || !std::is_same_v<T, bool>,
                "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                "the `^` operator, or the logical_xor function instead.");
  check_index_dtype<I>();
  const char* name = index_op_name(op);
  check_same_device(a.device(), idx.device(), name);
  check_same_device(a.device(), v.device(), name);
  if (a.ndim() == 0)
    throw index_error("too many indices for array: array is 0-dimensional, but 1 were indexed");
  const shape_t shape = at_shape(a.shape(), idx.shape());
  const ndarray<T> vals = unaliased(index_values_as<Backend, T>(v), a);
  const auto sv = assigned_strides(vals.shape(), vals.strides(), shape);
  if (!sv) throw value_error("array is not broadcastable to correct shape");
  const ndarray<I> ix = unaliased(idx, a);
  const scatter_plan p = at_plan(a.shape(), a.strides(), ix.shape(), ix.strides(), *sv);
  const index_check c = make_check(op, 0, ix.size() > 0, ix.shape(), ix.strides());
  dispatch<Backend>(a.device(), [&](auto be) { scatter_at<Op>(be, p, c, a, ix, vals); });
  finish_index_call(a.device(), op);
}

/// A C++ scalar as a 1-element array of T on `dev` (NumPy's conversion of a Python scalar).
template <class T, class S>
ndarray<T> index_scalar_value(const S& v, device dev) {
  return full<T>({1}, v, dev);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// take

/// numpy.take(a, indices, axis=None, mode='raise'): elements of the flattened a.
template <class Backend = detail::compiled_backend, element_type T, element_type I>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, const ndarray<I>& indices,
                              index_mode mode = index_mode::raise) {
  return detail::take_impl<Backend>(a, indices, std::nullopt, nullptr, mode);
}
/// numpy.take(a, indices, axis=None, mode=...).
template <class Backend = detail::compiled_backend, element_type T, element_type I>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, const ndarray<I>& indices, none_t,
                              index_mode mode = index_mode::raise) {
  return detail::take_impl<Backend>(a, indices, std::nullopt, nullptr, mode);
}
/// numpy.take(a, indices, axis, mode='raise'): the result has the shape a.shape[:axis] +
/// indices.shape + a.shape[axis+1:].
template <class Backend = detail::compiled_backend, element_type T, element_type I>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, const ndarray<I>& indices, index_t axis,
                              index_mode mode = index_mode::raise) {
  return detail::take_impl<Backend>(a, indices, axis, nullptr, mode);
}
/// numpy.take(a, indices, axis, out): writes into `out` (a's dtype, the result's shape) and
/// returns it. An out that overlaps a or indices is written from a temporary, as NumPy's.
template <class Backend = detail::compiled_backend, element_type T, element_type I>
ndarray<T> take(const ndarray<T>& a, const ndarray<I>& indices, index_t axis, const ndarray<T>& out,
                index_mode mode = index_mode::raise) {
  return detail::take_impl<Backend>(a, indices, axis, &out, mode);
}
/// numpy.take(a, indices, axis=None, out=out).
template <class Backend = detail::compiled_backend, element_type T, element_type I>
ndarray<T> take(const ndarray<T>& a, const ndarray<I>& indices, none_t, const ndarray<T>& out,
                index_mode mode = index_mode::raise) {
  return detail::take_impl<Backend>(a, indices, std::nullopt, &out, mode);
}
/// numpy.take(a, i) with one integer index: a 0-d array of the flattened a's element i. The
/// index is checked when the call is made, on every device.
template <element_type T, detail::scalar_index S>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, S index, index_mode mode = index_mode::raise) {
  return detail::take_scalar(a, detail::index_value(index), std::nullopt, mode);
}
template <element_type T, detail::scalar_index S>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, S index, none_t,
                              index_mode mode = index_mode::raise) {
  return detail::take_scalar(a, detail::index_value(index), std::nullopt, mode);
}
/// numpy.take(a, i, axis): a copy of the slice at i along axis (a.shape without axis).
template <element_type T, detail::scalar_index S>
[[nodiscard]] ndarray<T> take(const ndarray<T>& a, S index, index_t axis,
                              index_mode mode = index_mode::raise) {
  return detail::take_scalar(a, detail::index_value(index), axis, mode);
}

// ---------------------------------------------------------------------------------------------
// put

/// numpy.put(a, ind, v, mode='raise'): a.flat[ind] = v, v (cast to a's dtype) repeated as needed.
/// Of repeated indices the last in index order writes, on every device (a GPU resolves them in
/// a second pass). On the cpu nothing is written when an index is bad (NumPy writes the elements
/// before it).
template <class Backend = detail::compiled_backend, element_type T, element_type I, element_type V>
void put(const ndarray<T>& a, const ndarray<I>& indices, const ndarray<V>& v,
         index_mode mode = index_mode::raise) {
  detail::put_impl<Backend>(a, indices, v, mode);
}
/// numpy.put(a, ind, scalar).
template <class Backend = detail::compiled_backend, element_type T, element_type I,
          detail::assignable_scalar S>
void put(const ndarray<T>& a, const ndarray<I>& indices, const S& v,
         index_mode mode = index_mode::raise) {
  detail::put_impl<Backend>(a, indices, detail::index_scalar_value<T>(v, a.device()), mode);
}
/// numpy.put(a, i, v) with one integer index (checked when the call is made).
template <class Backend = detail::compiled_backend, element_type T, detail::scalar_index S,
          element_type V>
void put(const ndarray<T>& a, S index, const ndarray<V>& v, index_mode mode = index_mode::raise) {
  detail::put_scalar<Backend>(a, detail::index_value(index), v, mode);
}
template <class Backend = detail::compiled_backend, element_type T, detail::scalar_index S,
          detail::assignable_scalar U>
void put(const ndarray<T>& a, S index, const U& v, index_mode mode = index_mode::raise) {
  detail::put_scalar<Backend>(a, detail::index_value(index),
                              detail::index_scalar_value<T>(v, a.device()), mode);
}

// ---------------------------------------------------------------------------------------------
// take_along_axis, put_along_axis

/// numpy.take_along_axis(arr, indices, axis=-1): indices has arr's rank and broadcasts against
/// arr in every dimension but axis.
template <class Backend = detail::compiled_backend, element_type T, element_type I>
[[nodiscard]] ndarray<T> take_along_axis(const ndarray<T>& a, const ndarray<I>& indices,
                                         index_t axis = -1) {
  return detail::take_along_axis_impl<Backend>(a, indices, axis);
}
/// numpy.take_along_axis(arr, indices, axis=None): 1-d indices into the flattened arr.
template <class Backend = detail::compiled_backend, element_type T, element_type I>
[[nodiscard]] ndarray<T> take_along_axis(const ndarray<T>& a, const ndarray<I>& indices, none_t) {
  return detail::take_along_axis_impl<Backend>(a, indices, std::nullopt);
}

/// numpy.put_along_axis(arr, indices, values, axis): values broadcast to the indexing result;
/// of repeated indices the last writes, on every device.
template <class Backend = detail::compiled_backend, element_type T, element_type I, element_type V>
void put_along_axis(const ndarray<T>& a, const ndarray<I>& indices, const ndarray<V>& v,
                    index_t axis) {
  detail::put_along_axis_impl<Backend>(a, indices, v, axis);
}
template <class Backend = detail::compiled_backend, element_type T, element_type I,
          detail::assignable_scalar S>
void put_along_axis(const ndarray<T>& a, const ndarray<I>& indices, const S& v, index_t axis) {
  detail::put_along_axis_impl<Backend>(a, indices, detail::index_scalar_value<T>(v, a.device()),
                                       axis);
}
/// numpy.put_along_axis(arr, indices, values, axis=None): into the flattened arr.
template <class Backend = detail::compiled_backend, element_type T, element_type I, element_type V>
void put_along_axis(const ndarray<T>& a, const ndarray<I>& indices, const ndarray<V>& v, none_t) {
  detail::put_along_axis_impl<Backend>(a, indices, v, std::nullopt);
}
template <class Backend = detail::compiled_backend, element_type T, element_type I,
          detail::assignable_scalar S>
void put_along_axis(const ndarray<T>& a, const ndarray<I>& indices, const S& v, none_t) {
  detail::put_along_axis_impl<Backend>(a, indices, detail::index_scalar_value<T>(v, a.device()),
                                       std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// choose

/// numpy.choose(a, choices, mode='raise'): out[i] = choices[a[i]][i], a and the choices
/// broadcast together (NumPy's errors name the choices as args 0.. and a last). At most 63
/// choices, as NumPy.
template <class Backend = detail::compiled_backend, element_type I, element_type T>
[[nodiscard]] ndarray<T> choose(const ndarray<I>& a, const std::vector<ndarray<T>>& choices,
                                index_mode mode = index_mode::raise) {
  return detail::choose_impl<Backend>(a, choices, nullptr, mode);
}
/// numpy.choose(a, choices, out): writes into `out` (the broadcast shape) and returns it.
template <class Backend = detail::compiled_backend, element_type I, element_type T>
ndarray<T> choose(const ndarray<I>& a, const std::vector<ndarray<T>>& choices,
                  const ndarray<T>& out, index_mode mode = index_mode::raise) {
  return detail::choose_impl<Backend>(a, choices, &out, mode);
}
/// numpy.choose(a, [x, y, z], mode) with the choices braced: `cunp::choose(a, {x, y, z})`.
template <class Backend = detail::compiled_backend, element_type I, element_type T>
[[nodiscard]] ndarray<T> choose(const ndarray<I>& a, std::initializer_list<ndarray<T>> choices,
                                index_mode mode = index_mode::raise) {
  return detail::choose_impl<Backend>(a, std::vector<ndarray<T>>(choices), nullptr, mode);
}

// ---------------------------------------------------------------------------------------------
// The ufunc.at family: a[indices] op= v, repeated indices applied once each

// Each NAME(a, indices, v) is numpy.OP.at(a, indices, v): a[indices] = OP(a[indices], v),
// unbuffered, so that a repeated index applies each of its values in turn. indices index axis 0
// (a[indices] has the shape indices.shape + a.shape[1:]); v, cast to a's dtype, broadcasts to
// it. All indices are checked before anything is updated on the cpu, as NumPy. On a GPU the
// updates are atomic and their order is not fixed: float sums and products may differ from
// NumPy's sequential ones in the last bits.
#define CUNP_UFUNC_AT(NAME, OP)                                                        \
  template <class Backend = detail::compiled_backend, element_type T, element_type I,  \
            element_type V>                                                            \
  void NAME(const ndarray<T>& a, const ndarray<I>& indices, const ndarray<V>& v) {     \
    detail::ufunc_at_impl<detail::OP, Backend>(detail::index_op::NAME, a, indices, v); \
  }                                                                                    \
  template <class Backend = detail::compiled_backend, element_type T, element_type I,  \
            detail::assignable_scalar S>                                               \
  void NAME(const ndarray<T>& a, const ndarray<I>& indices, const S& v) {              \
    NAME<Backend>(a, indices, detail::index_scalar_value<T>(v, a.device()));           \
  }

/// numpy.add.at (bool: logical or, as numpy.add).
CUNP_UFUNC_AT(add_at, add_op)
/// numpy.subtract.at; bool does not compile (NumPy: TypeError, use logical_xor).
CUNP_UFUNC_AT(subtract_at, subtract_op)
/// numpy.multiply.at (bool: logical and).
CUNP_UFUNC_AT(multiply_at, multiply_op)
/// numpy.maximum.at: NaN propagates, as numpy.maximum.
CUNP_UFUNC_AT(maximum_at, maximum_op)
/// numpy.minimum.at: NaN propagates, as numpy.minimum.
CUNP_UFUNC_AT(minimum_at, minimum_op)
#undef CUNP_UFUNC_AT

namespace detail {
/// The index_op of ufunc.at for the ufuncs that have one.
template <class Op> inline constexpr bool has_ufunc_at = false;
template <class Op> inline constexpr index_op ufunc_at_op = index_op::add_at;
#define CUNP_UFUNC_AT_OP(OP, NAME)                          \
  template <> inline constexpr bool has_ufunc_at<OP> = true; \
  template <> inline constexpr index_op ufunc_at_op<OP> = index_op::NAME;
CUNP_UFUNC_AT_OP(add_op, add_at)
CUNP_UFUNC_AT_OP(subtract_op, subtract_at)
CUNP_UFUNC_AT_OP(multiply_op, multiply_at)
CUNP_UFUNC_AT_OP(maximum_op, maximum_at)
CUNP_UFUNC_AT_OP(minimum_op, minimum_at)
#undef CUNP_UFUNC_AT_OP
}  // namespace detail

template <class Op, int Arity>
template <class Backend, element_type T, element_type I, class V>
void ufunc_object<Op, Arity>::at(const ndarray<T>& a, const ndarray<I>& indices,
                                 const V& v) const {
  static_assert(detail::has_ufunc_at<Op>,
                "cunp has ufunc.at for add, subtract, multiply, maximum and minimum "
                "(cunp::add_at and its family)");
  if constexpr (detail::is_ndarray_v<V>)
    detail::ufunc_at_impl<Op, Backend>(detail::ufunc_at_op<Op>, a, indices, v);
  else
    detail::ufunc_at_impl<Op, Backend>(detail::ufunc_at_op<Op>, a, indices,
                                       detail::index_scalar_value<T>(v, a.device()));
}

}  // namespace cunp
