// cunp/joining.hpp: numpy's joining and splitting: concatenate, stack, hstack, vstack, dstack,
// column_stack (new arrays: one copy of each input into its slab of the result), split,
// array_split, hsplit, vsplit, dsplit (views of the input, as NumPy).
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/detail/core/copy.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {

/// An integer count or index argument (a bool is not one).
template <class I>
concept integer_count = std::integral<I> && !std::same_as<I, bool>;

/// The view of a whose axis `axis` is cut to [start, start + len).
template <class T>
ndarray<T> axis_part(const ndarray<T>& a, int axis, index_t start, index_t len) {
  shape_t shape = a.shape();
  shape[axis] = len;
  return ndarray<T>(a.storage(), a.offset() + start * a.strides()[axis], std::move(shape),
                    a.strides());
}

/// NumPy's checks of concatenate along an axis (PyArray_ConcatenateArrays), in its order: the
/// shape of the result. `axis` is normalized in place.
inline shape_t concatenated_shape(const std::vector<const shape_t*>& shapes, index_t& axis) {
  if (shapes.empty()) throw value_error("need at least one array to concatenate");
  const shape_t& first = *shapes[0];
  if (first.empty()) throw shape_error("zero-dimensional arrays cannot be concatenated");
  axis = normalize_axis(axis, first.size());
  shape_t out = first;
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    const shape_t& s = *shapes[i];
    if (s.size() != first.size())
      throw shape_error("all the input arrays must have same number of dimensions, but the array "
                        "at index 0 has " + std::to_string(first.size()) +
                        " dimension(s) and the array at index " + std::to_string(i) + " has " +
                        std::to_string(s.size()) + " dimension(s)");
    for (std::size_t d = 0; d < s.size(); ++d) {
      if (static_cast<index_t>(d) == axis || s[d] == first[d]) continue;
      throw shape_error("all the input array dimensions except for the concatenation axis must "
                        "match exactly, but along dimension " + std::to_string(d) +
                        ", the array at index 0 has size " + std::to_string(first[d]) +
                        " and the array at index " + std::to_string(i) + " has size " +
                        std::to_string(s[d]));
    }
    if (__builtin_add_overflow(out[axis], s[axis], &out[axis])) throw array_too_big();
  }
  return out;
}

/// The length of concatenate(axis=None)'s result: the inputs' sizes added up.
inline index_t flattened_length(const std::vector<const shape_t*>& shapes) {
  if (shapes.empty()) throw value_error("need at least one array to concatenate");
  index_t n = 0;
  for (const shape_t* s : shapes)
    if (__builtin_add_overflow(n, shape_size(*s), &n)) throw array_too_big();
  return n;
}

template <class T> std::vector<const shape_t*> shapes_of(const std::vector<ndarray<T>>& arrays) {
  std::vector<const shape_t*> out;
  for (const auto& a : arrays) out.push_back(&a.shape());
  return out;
}

/// The device of every array (the first one's), or device_error naming the two that differ.
template <class... Ts> device common_device(const char* op, const ndarray<Ts>&... arrays) {
  const device dev = std::get<0>(std::forward_as_tuple(arrays...)).device();
  (check_same_device(dev, arrays.device(), op), ...);
  return dev;
}
template <class T> device common_device(const char* op, const std::vector<ndarray<T>>& arrays) {
  for (const auto& a : arrays) check_same_device(arrays[0].device(), a.device(), op);
  return arrays[0].device();
}

/// dst = src converted to dst's type: a byte copy for one type, else a typed cast.
template <class Backend, class D, class S>
void copy_into(const ndarray<D>& dst, const ndarray<S>& src) {
  if constexpr (std::is_same_v<D, S>) copy_same(dst, src);
  else dispatch<Backend>(dst.device(), [&](auto be) { cast_into(be, dst, src); });
}

/// The consecutive slabs of out that concatenate's inputs are copied into: along `axis`, or
/// (axis < 0) the next size() elements of the 1-d out in C order, shaped as the input.
template <class R> class slab_cursor {
 public:
  slab_cursor(const ndarray<R>& out, index_t axis) : out_(out), axis_(axis) {}
  template <class T> ndarray<R> next(const ndarray<T>& a) {
    const auto ax = static_cast<int>(axis_ < 0 ? 0 : axis_);
    const index_t len = axis_ < 0 ? a.size() : a.shape()[ax];
    const ndarray<R> part = axis_part(out_, ax, at_, len);
    at_ += len;
    return axis_ < 0 ? part.reshape(a.shape()) : part;
  }

 private:
  const ndarray<R>& out_;
  index_t axis_, at_ = 0;
};

template <class T>
ndarray<T> concatenate_along(const std::vector<ndarray<T>>& arrays, index_t axis) {
  const shape_t shape = concatenated_shape(shapes_of(arrays), axis);
  ndarray<T> out(shape, common_device("concatenate", arrays));
  slab_cursor<T> slabs(out, axis);
  for (const auto& a : arrays) copy_same(slabs.next(a), a);
  return out;
}

template <class T> ndarray<T> concatenate_flat(const std::vector<ndarray<T>>& arrays) {
  const index_t n = flattened_length(shapes_of(arrays));
  ndarray<T> out({n}, common_device("concatenate", arrays));
  slab_cursor<T> slabs(out, -1);
  for (const auto& a : arrays) copy_same(slabs.next(a), a);
  return out;
}

/// concatenate of arrays of several types into out of their result type (axis < 0: flattened).
template <class Backend, class R, class... Ts>
void concatenate_into(const ndarray<R>& out, index_t axis, const ndarray<Ts>&... arrays) {
  slab_cursor<R> slabs(out, axis);
  (copy_into<Backend>(slabs.next(arrays), arrays), ...);
}

/// np.result_type of several element types.
template <class T, class... Ts> struct common_type_of { using type = T; };
template <class A, class B, class... Ts> struct common_type_of<A, B, Ts...> {
  using type = typename common_type_of<result_type_t<A, B>, Ts...>::type;
};

template <class T, class F>
std::vector<ndarray<T>> map_arrays(const std::vector<ndarray<T>>& v, F f) {
  std::vector<ndarray<T>> out;
  out.reserve(v.size());
  for (const auto& a : v) out.push_back(f(a));
  return out;
}

}  // namespace detail

/// numpy.concatenate(arrays, axis=0): the arrays joined along an existing axis (a new array).
template <element_type T>
[[nodiscard]] ndarray<T> concatenate(const std::vector<ndarray<T>>& arrays, index_t axis = 0) {
  return detail::concatenate_along(arrays, axis);
}
/// numpy.concatenate(arrays, axis=None): the arrays flattened (C order) and joined.
template <element_type T>
[[nodiscard]] ndarray<T> concatenate(const std::vector<ndarray<T>>& arrays, none_t) {
  return detail::concatenate_flat(arrays);
}
template <element_type T>
[[nodiscard]] ndarray<T> concatenate(std::initializer_list<ndarray<T>> arrays, index_t axis = 0) {
  return detail::concatenate_along(std::vector<ndarray<T>>(arrays), axis);
}
template <element_type T>
[[nodiscard]] ndarray<T> concatenate(std::initializer_list<ndarray<T>> arrays, none_t) {
  return detail::concatenate_flat(std::vector<ndarray<T>>(arrays));
}

/// numpy.concatenate of arrays of different element types, `std::tuple{a, b, c}`: the result has
/// NumPy's result_type of them all, each input converted as it is copied (a typed cast, which a
/// GPU array gets only in a translation unit compiled by nvcc).
template <class Backend = detail::compiled_backend, element_type... Ts>
  requires(sizeof...(Ts) > 0)
[[nodiscard]] auto concatenate(const std::tuple<ndarray<Ts>...>& arrays, index_t axis = 0) {
  using R = typename detail::common_type_of<Ts...>::type;
  return std::apply(
      [&](const auto&... a) {
        const shape_t shape = detail::concatenated_shape({&a.shape()...}, axis);
        ndarray<R> out(shape, detail::common_device("concatenate", a...));
        detail::concatenate_into<Backend>(out, axis, a...);
        return out;
      },
      arrays);
}
/// numpy.concatenate(arrays, axis=None) of arrays of different element types.
template <class Backend = detail::compiled_backend, element_type... Ts>
  requires(sizeof...(Ts) > 0)
[[nodiscard]] auto concatenate(const std::tuple<ndarray<Ts>...>& arrays, none_t) {
  using R = typename detail::common_type_of<Ts...>::type;
  return std::apply(
      [&](const auto&... a) {
        const index_t n = detail::flattened_length({&a.shape()...});
        ndarray<R> out({n}, detail::common_device("concatenate", a...));
        detail::concatenate_into<Backend>(out, -1, a...);
        return out;
      },
      arrays);
}

/// numpy.stack(arrays, axis=0): arrays of one shape joined along a new axis (-1 is the last axis
/// of the result).
template <element_type T>
[[nodiscard]] ndarray<T> stack(const std::vector<ndarray<T>>& arrays, index_t axis = 0) {
  if (arrays.empty()) throw value_error("need at least one array to stack");
  for (const auto& a : arrays)
    if (a.shape() != arrays[0].shape())
      throw shape_error("all input arrays must have the same shape");
  const int ax = normalize_axis(axis, arrays[0].shape().size() + 1);
  return detail::concatenate_along(
      detail::map_arrays(arrays, [&](const ndarray<T>& a) { return expand_dims(a, ax); }), ax);
}
template <element_type T>
[[nodiscard]] ndarray<T> stack(std::initializer_list<ndarray<T>> arrays, index_t axis = 0) {
  return stack(std::vector<ndarray<T>>(arrays), axis);
}

/// numpy.hstack: 1-d arrays (0-d ones as shape (1,)) joined end to end, others along axis 1.
template <element_type T> [[nodiscard]] ndarray<T> hstack(const std::vector<ndarray<T>>& arrays) {
  const auto v = detail::map_arrays(arrays, [](const ndarray<T>& a) { return atleast_1d(a); });
  return detail::concatenate_along(v, !v.empty() && v[0].ndim() == 1 ? 0 : 1);
}
template <element_type T>
[[nodiscard]] ndarray<T> hstack(std::initializer_list<ndarray<T>> arrays) {
  return hstack(std::vector<ndarray<T>>(arrays));
}

/// numpy.vstack: the arrays as at least 2-d (a 1-d array as a row) joined along axis 0.
template <element_type T> [[nodiscard]] ndarray<T> vstack(const std::vector<ndarray<T>>& arrays) {
  return detail::concatenate_along(
      detail::map_arrays(arrays, [](const ndarray<T>& a) { return atleast_2d(a); }), 0);
}
template <element_type T>
[[nodiscard]] ndarray<T> vstack(std::initializer_list<ndarray<T>> arrays) {
  return vstack(std::vector<ndarray<T>>(arrays));
}

/// numpy.dstack: the arrays as at least 3-d (atleast_3d) joined along axis 2.
template <element_type T> [[nodiscard]] ndarray<T> dstack(const std::vector<ndarray<T>>& arrays) {
  return detail::concatenate_along(
      detail::map_arrays(arrays, [](const ndarray<T>& a) { return atleast_3d(a); }), 2);
}
template <element_type T>
[[nodiscard]] ndarray<T> dstack(std::initializer_list<ndarray<T>> arrays) {
  return dstack(std::vector<ndarray<T>>(arrays));
}

/// numpy.column_stack: 1-d arrays as columns (0-d ones as 1 x 1), others as they are, joined
/// along axis 1.
template <element_type T>
[[nodiscard]] ndarray<T> column_stack(const std::vector<ndarray<T>>& arrays) {
  return detail::concatenate_along(detail::map_arrays(arrays, [](const ndarray<T>& a) {
    return a.ndim() < 2 ? atleast_2d(a).T() : a;
  }), 1);
}
template <element_type T>
[[nodiscard]] ndarray<T> column_stack(std::initializer_list<ndarray<T>> arrays) {
  return column_stack(std::vector<ndarray<T>>(arrays));
}

namespace detail {

/// The extent of the axis that the split family cuts (NumPy reads ary.shape[axis], so a bad axis
/// is Python's IndexError for a tuple), and the axis normalized.
template <class T> std::pair<int, index_t> split_axis(const ndarray<T>& a, index_t axis) {
  const auto nd = static_cast<index_t>(a.ndim());
  if (axis < -nd || axis >= nd) throw index_error("tuple index out of range");
  const int ax = static_cast<int>(axis < 0 ? axis + nd : axis);
  return {ax, a.shape()[ax]};
}

/// The pieces a[bounds[i]:bounds[i + 1]] along axis ax, Python's slice rules for each bound.
template <class T>
std::vector<ndarray<T>> split_at(const ndarray<T>& a, int ax, const std::vector<index_t>& bounds) {
  std::vector<index_item> idx(static_cast<std::size_t>(ax), all);
  idx.push_back(all);
  std::vector<ndarray<T>> out;
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    idx[ax] = slice(bounds[i], bounds[i + 1]);
    out.push_back(view(a, idx));
  }
  return out;
}

template <class T>
std::vector<ndarray<T>> split_indices(const ndarray<T>& a, const std::vector<index_t>& indices,
                                      index_t axis) {
  const auto [ax, n] = split_axis(a, axis);
  std::vector<index_t> bounds{0};
  bounds.insert(bounds.end(), indices.begin(), indices.end());
  bounds.push_back(n);
  return split_at(a, ax, bounds);
}

/// array_split into `sections` pieces: the first n % sections one element longer.
template <class T>
std::vector<ndarray<T>> split_sections(const ndarray<T>& a, index_t sections, index_t axis) {
  const auto [ax, n] = split_axis(a, axis);
  if (sections <= 0) throw value_error("number sections must be larger than 0.");
  const index_t each = n / sections, extras = n % sections;
  std::vector<index_t> bounds{0};
  for (index_t i = 0; i < sections; ++i) bounds.push_back(bounds.back() + each + (i < extras));
  return split_at(a, ax, bounds);
}

/// numpy.split's check of a number of sections (Python's n % sections, which takes the sign of
/// sections, is zero exactly when |sections| divides n).
template <class T>
std::vector<ndarray<T>> split_equal(const ndarray<T>& a, index_t sections, index_t axis) {
  const index_t n = split_axis(a, axis).second;
  // NumPy: ZeroDivisionError (integer modulo by zero); array_split's text says what is wrong.
  if (sections == 0) throw value_error("number sections must be larger than 0.");
  if (n % sections != 0)
    throw value_error("array split does not result in an equal division");
  return split_sections(a, sections, axis);
}

inline void require_split_ndim(int ndim, int at_least, const char* name) {
  if (ndim < at_least)
    throw value_error(std::string(name) + " only works on arrays of " + std::to_string(at_least) +
                      " or more dimensions");
}

}  // namespace detail

/// numpy.split(a, sections, axis=0): `sections` views of equal length along axis.
template <element_type T, detail::integer_count I>
[[nodiscard]] std::vector<ndarray<T>> split(const ndarray<T>& a, I sections, index_t axis = 0) {
  return detail::split_equal(a, static_cast<index_t>(sections), axis);
}
/// numpy.split(a, indices, axis=0): the views a[:i0], a[i0:i1], ..., a[ik:] along axis (each
/// bound as a Python slice bound: negative from the end, clamped).
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> split(const ndarray<T>& a,
                                            const std::vector<index_t>& indices,
                                            index_t axis = 0) {
  return detail::split_indices(a, indices, axis);
}
/// numpy.array_split(a, sections, axis=0): as split, the first n % sections views one longer.
template <element_type T, detail::integer_count I>
[[nodiscard]] std::vector<ndarray<T>> array_split(const ndarray<T>& a, I sections,
                                                  index_t axis = 0) {
  return detail::split_sections(a, static_cast<index_t>(sections), axis);
}
/// numpy.array_split(a, indices, axis=0), which is split(a, indices, axis).
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> array_split(const ndarray<T>& a,
                                                  const std::vector<index_t>& indices,
                                                  index_t axis = 0) {
  return detail::split_indices(a, indices, axis);
}

/// numpy.hsplit: split along axis 1 (axis 0 of a 1-d array).
template <element_type T, detail::integer_count I>
[[nodiscard]] std::vector<ndarray<T>> hsplit(const ndarray<T>& a, I sections) {
  detail::require_split_ndim(a.ndim(), 1, "hsplit");
  return split(a, sections, a.ndim() > 1 ? 1 : 0);
}
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> hsplit(const ndarray<T>& a,
                                             const std::vector<index_t>& indices) {
  detail::require_split_ndim(a.ndim(), 1, "hsplit");
  return split(a, indices, a.ndim() > 1 ? 1 : 0);
}
/// numpy.vsplit: split along axis 0 of an array of at least 2 dimensions.
template <element_type T, detail::integer_count I>
[[nodiscard]] std::vector<ndarray<T>> vsplit(const ndarray<T>& a, I sections) {
  detail::require_split_ndim(a.ndim(), 2, "vsplit");
  return split(a, sections, 0);
}
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> vsplit(const ndarray<T>& a,
                                             const std::vector<index_t>& indices) {
  detail::require_split_ndim(a.ndim(), 2, "vsplit");
  return split(a, indices, 0);
}
/// numpy.dsplit: split along axis 2 of an array of at least 3 dimensions.
template <element_type T, detail::integer_count I>
[[nodiscard]] std::vector<ndarray<T>> dsplit(const ndarray<T>& a, I sections) {
  detail::require_split_ndim(a.ndim(), 3, "dsplit");
  return split(a, sections, 2);
}
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> dsplit(const ndarray<T>& a,
                                             const std::vector<index_t>& indices) {
  detail::require_split_ndim(a.ndim(), 3, "dsplit");
  return split(a, indices, 2);
}

}  // namespace cunp
