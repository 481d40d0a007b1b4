// cunp/manipulation.hpp: numpy's shape manipulation: reshape, ravel, flatten, transpose,
// swapaxes, moveaxis, squeeze, expand_dims, broadcast_to, broadcast_arrays, atleast_1d/2d/3d,
// ascontiguousarray. Everything but flatten (and ravel/ascontiguousarray of non-contiguous
// arrays) returns a view.
#pragma once
#include <algorithm>
#include <concepts>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {

/// normalize_axis with numpy's message prefix ("source: axis 3 is out of bounds ...").
inline int normalize_axis_named(index_t axis, std::size_t ndim, const std::string& name) {
  try {
    return normalize_axis(axis, ndim);
  } catch (const shape_error& e) {
    throw shape_error(name + ": " + e.what());
  }
}

/// numpy.lib.array_utils.normalize_axis_tuple: every axis normalized, repeats rejected.
inline std::vector<int> normalize_axis_tuple(const std::vector<index_t>& axes, std::size_t ndim,
                                             const std::string& name = "") {
  std::vector<int> out;
  for (index_t a : axes)
    out.push_back(name.empty() ? normalize_axis(a, ndim) : normalize_axis_named(a, ndim, name));
  std::vector<int> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw value_error(name.empty() ? "repeated axis" : "repeated axis in `" + name + "` argument");
  return out;
}

template <class T> ndarray<T> permuted(const ndarray<T>& a, const std::vector<int>& order) {
  shape_t shape;
  strides_t strides;
  for (int d : order) {
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  return ndarray<T>(a.storage(), a.offset(), std::move(shape), std::move(strides));
}

/// numpy's broadcast of several shapes (PyArray_Broadcast): the error names the argument that
/// set the extent and the first argument that disagrees with it.
inline shape_t broadcast_shape_of(const std::vector<const shape_t*>& shapes) {
  std::size_t nd = 0;
  for (const shape_t* s : shapes) nd = std::max(nd, s->size());
  shape_t out(nd, 1);
  for (std::size_t i = 0; i < nd; ++i) {
    std::size_t from = 0;
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      const shape_t& s = *shapes[j];
      if (i + s.size() < nd) continue;
      const index_t e = s[i + s.size() - nd];
      if (e == 1) continue;
      if (out[i] == 1) {
        out[i] = e;
        from = j;
      } else if (out[i] != e) {
        throw shape_error("shape mismatch: objects cannot be broadcast to a single shape.  "
                          "Mismatch is between arg " + std::to_string(from) + " with shape " +
                          shape_str(*shapes[from]) + " and arg " + std::to_string(j) +
                          " with shape " + shape_str(s) + ".");
      }
    }
  }
  return out;
}

}  // namespace detail

/// numpy.reshape: a view when the strides allow it, else a C-ordered copy.
template <element_type T> [[nodiscard]] ndarray<T> reshape(const ndarray<T>& a, shape_t shape) {
  return a.reshape(std::move(shape));
}

/// numpy.ravel: a 1-d view of a C-contiguous array, else a C-ordered copy (also of strided 1-d
/// arrays, as NumPy).
template <element_type T> [[nodiscard]] ndarray<T> ravel(const ndarray<T>& a) {
  return a.is_contiguous() ? a.reshape({a.size()}) : a.copy().reshape({a.size()});
}

/// numpy.ndarray.flatten: always a 1-d copy.
template <element_type T> [[nodiscard]] ndarray<T> flatten(const ndarray<T>& a) {
  return a.copy().reshape({a.size()});
}

/// numpy.transpose(a): the axes reversed, a view.
template <element_type T> [[nodiscard]] ndarray<T> transpose(const ndarray<T>& a) { return a.T(); }

/// numpy.transpose(a, axes): axis i of the result is axis axes[i] of a, a view.
template <element_type T>
[[nodiscard]] ndarray<T> transpose(const ndarray<T>& a, const std::vector<index_t>& axes) {
  const std::size_t nd = a.shape().size();
  if (axes.size() != nd) throw shape_error("axes don't match array");
  std::vector<int> order;
  std::vector<bool> seen(nd, false);
  for (index_t ax : axes) {
    const int d = normalize_axis(ax, nd);
    if (seen[d]) throw value_error("repeated axis in transpose");
    seen[d] = true;
    order.push_back(d);
  }
  return detail::permuted(a, order);
}

/// numpy.swapaxes: a view with two axes interchanged.
template <element_type T>
[[nodiscard]] ndarray<T> swapaxes(const ndarray<T>& a, index_t axis1, index_t axis2) {
  const std::size_t nd = a.shape().size();
  const int d1 = detail::normalize_axis_named(axis1, nd, "axis1");
  const int d2 = detail::normalize_axis_named(axis2, nd, "axis2");
  std::vector<int> order(nd);
  for (std::size_t d = 0; d < nd; ++d) order[d] = static_cast<int>(d);
  std::swap(order[d1], order[d2]);
  return detail::permuted(a, order);
}

/// numpy.moveaxis: axes `source` moved to positions `destination`, the others kept in order.
template <element_type T>
[[nodiscard]] ndarray<T> moveaxis(const ndarray<T>& a, const std::vector<index_t>& source,
                                  const std::vector<index_t>& destination) {
  const std::size_t nd = a.shape().size();
  const auto src = detail::normalize_axis_tuple(source, nd, "source");
  const auto dst = detail::normalize_axis_tuple(destination, nd, "destination");
  if (src.size() != dst.size())
    throw value_error(
        "`source` and `destination` arguments must have the same number of elements");
  std::vector<int> order;
  for (std::size_t d = 0; d < nd; ++d)
    if (std::find(src.begin(), src.end(), static_cast<int>(d)) == src.end())
      order.push_back(static_cast<int>(d));
  std::vector<std::pair<int, int>> moves;
  for (std::size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [to, from] : moves) order.insert(order.begin() + to, from);
  return detail::permuted(a, order);
}
template <element_type T, std::integral I, std::integral J>
[[nodiscard]] ndarray<T> moveaxis(const ndarray<T>& a, I source, J destination) {
  return moveaxis(a, std::vector<index_t>{index_t(source)},
                  std::vector<index_t>{index_t(destination)});
}

/// numpy.squeeze(a): every axis of extent 1 removed, a view.
template <element_type T> [[nodiscard]] ndarray<T> squeeze(const ndarray<T>& a) {
  shape_t shape;
  strides_t strides;
  for (std::size_t d = 0; d < a.shape().size(); ++d)
    if (a.shape()[d] != 1) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  return ndarray<T>(a.storage(), a.offset(), std::move(shape), std::move(strides));
}

/// numpy.squeeze(a, axis=(...)): the named axes removed; each must have extent 1.
template <element_type T>
[[nodiscard]] ndarray<T> squeeze(const ndarray<T>& a, const std::vector<index_t>& axes) {
  const std::size_t nd = a.shape().size();
  std::vector<bool> drop(nd, false);
  for (index_t ax : axes) {
    const int d = normalize_axis(ax, nd);
    if (drop[d]) throw value_error("duplicate value in 'axis'");
    drop[d] = true;
  }
  shape_t shape;
  strides_t strides;
  for (std::size_t d = 0; d < nd; ++d) {
    if (!drop[d]) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    } else if (a.shape()[d] != 1) {
      throw shape_error("cannot select an axis to squeeze out which has size not equal to one");
    }
  }
  return ndarray<T>(a.storage(), a.offset(), std::move(shape), std::move(strides));
}
/// numpy.squeeze(a, axis): as NumPy, a 0-d array accepts axis 0 or -1 (and stays 0-d).
template <element_type T, std::integral I>
[[nodiscard]] ndarray<T> squeeze(const ndarray<T>& a, I axis) {
  if (a.ndim() == 0 && (axis == 0 || axis == -1)) return a;
  return squeeze(a, std::vector<index_t>{index_t(axis)});
}

/// numpy.expand_dims: axes of extent 1 inserted at the positions `axes` of the result, a view.
template <element_type T>
[[nodiscard]] ndarray<T> expand_dims(const ndarray<T>& a, const std::vector<index_t>& axes) {
  const std::size_t nd = a.shape().size() + axes.size();
  const auto at = detail::normalize_axis_tuple(axes, nd);
  shape_t shape;
  strides_t strides;
  std::size_t next = 0;
  for (std::size_t d = 0; d < nd; ++d) {
    if (std::find(at.begin(), at.end(), static_cast<int>(d)) != at.end()) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[next]);
      strides.push_back(a.strides()[next]);
      ++next;
    }
  }
  return ndarray<T>(a.storage(), a.offset(), std::move(shape), std::move(strides));
}
template <element_type T, std::integral I>
[[nodiscard]] ndarray<T> expand_dims(const ndarray<T>& a, I axis) {
  return expand_dims(a, std::vector<index_t>{index_t(axis)});
}

/// numpy.broadcast_to: a view of a in `shape`, repeating along zero strides. NumPy makes it
/// read-only; cunp's copyto and ufunc outputs refuse such a destination.
template <element_type T>
[[nodiscard]] ndarray<T> broadcast_to(const ndarray<T>& a, const shape_t& shape) {
  if (shape.empty() && a.ndim() > 0)
    throw shape_error("cannot broadcast a non-scalar to a scalar array");
  for (index_t e : shape)
    if (e < 0) throw value_error("all elements of broadcast shape must be non-negative");
  // NumPy builds the view through an iterator, which refuses an element count past int64 before
  // the view's own size check (the bytes) can.
  if (!detail::extent_product(shape)) throw value_error("iterator is too large");
  if (a.shape().size() > shape.size())
    throw shape_error("input operand has more dimensions than allowed by the axis remapping");
  const std::size_t lead = shape.size() - a.shape().size();
  strides_t strides(shape.size(), 0);
  for (std::size_t d = 0; d < a.shape().size(); ++d) {
    const index_t e = a.shape()[d];
    if (e == shape[lead + d]) {
      strides[lead + d] = a.strides()[d];
    } else if (e != 1) {
      throw shape_error("operands could not be broadcast together with remapped shapes "
                        "[original->remapped]: " + detail::shape_str_compact(a.shape()) +
                        "  and requested shape " + detail::shape_str_compact(shape));
    }
  }
  return ndarray<T>(a.storage(), a.offset(), shape, std::move(strides));
}

/// numpy.broadcast_arrays: views of every array in their common broadcast shape.
template <element_type... Ts>
[[nodiscard]] std::tuple<ndarray<Ts>...> broadcast_arrays(const ndarray<Ts>&... arrays) {
  const shape_t shape = detail::broadcast_shape_of({&arrays.shape()...});
  return {broadcast_to(arrays, shape)...};
}
/// numpy.broadcast_arrays of a run-time list of arrays of one type.
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> broadcast_arrays(const std::vector<ndarray<T>>& arrays) {
  std::vector<const shape_t*> shapes;
  for (const auto& a : arrays) shapes.push_back(&a.shape());
  const shape_t shape = detail::broadcast_shape_of(shapes);
  std::vector<ndarray<T>> out;
  for (const auto& a : arrays) out.push_back(broadcast_to(a, shape));
  return out;
}

/// numpy.atleast_1d: a 0-d array as shape (1,), others unchanged (views).
template <element_type T> [[nodiscard]] ndarray<T> atleast_1d(const ndarray<T>& a) {
  return a.ndim() == 0 ? a.reshape({1}) : a;
}
/// numpy.atleast_2d: (N,) becomes (1, N), 0-d becomes (1, 1) (views).
template <element_type T> [[nodiscard]] ndarray<T> atleast_2d(const ndarray<T>& a) {
  if (a.ndim() == 0) return a.reshape({1, 1});
  if (a.ndim() == 1) return view(a, newaxis, all);
  return a;
}
/// numpy.atleast_3d: (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1), 0-d (1, 1, 1) (views).
template <element_type T> [[nodiscard]] ndarray<T> atleast_3d(const ndarray<T>& a) {
  if (a.ndim() == 0) return a.reshape({1, 1, 1});
  if (a.ndim() == 1) return view(a, newaxis, all, newaxis);
  if (a.ndim() == 2) return view(a, all, all, newaxis);
  return a;
}
/// numpy.atleast_1d(a, b, ...): a tuple, one result per array.
template <element_type... Ts>
  requires(sizeof...(Ts) > 1)
[[nodiscard]] std::tuple<ndarray<Ts>...> atleast_1d(const ndarray<Ts>&... arrays) {
  return {atleast_1d(arrays)...};
}
template <element_type... Ts>
  requires(sizeof...(Ts) > 1)
[[nodiscard]] std::tuple<ndarray<Ts>...> atleast_2d(const ndarray<Ts>&... arrays) {
  return {atleast_2d(arrays)...};
}
template <element_type... Ts>
  requires(sizeof...(Ts) > 1)
[[nodiscard]] std::tuple<ndarray<Ts>...> atleast_3d(const ndarray<Ts>&... arrays) {
  return {atleast_3d(arrays)...};
}

/// numpy.ascontiguousarray: the same handle when a is C-contiguous, else a C-ordered copy; a 0-d
/// array becomes shape (1,), as NumPy.
template <element_type T> [[nodiscard]] ndarray<T> ascontiguousarray(const ndarray<T>& a) {
  if (a.ndim() == 0) return a.reshape({1});
  return a.is_contiguous() ? a : a.copy();
}

}  // namespace cunp
