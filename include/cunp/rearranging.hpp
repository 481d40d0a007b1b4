// cunp/rearranging.hpp: numpy's rearranging of elements: flip, fliplr, flipud, rot90 and
// diagonal (views, as NumPy), roll (a copy: one strided copy per block that moves), trace.
#pragma once
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cunp/detail/core/copy.hpp"
#include "cunp/joining.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/reduce.hpp"
#include "cunp/view.hpp"

namespace cunp {

/// numpy.flip(a, axis=None): a view with the elements of the given axes (all of them by default)
/// in reverse order, through negative strides.
template <element_type T>
[[nodiscard]] ndarray<T> flip(const ndarray<T>& a, const axis_arg& axis = {}) {
  std::vector<index_item> idx(a.shape().size(), all);
  if (axis.all()) {
    for (auto& it : idx) it = slice(none, none, -1);
  } else {
    for (int d : detail::normalize_axis_tuple(axis.axes(), a.shape().size()))
      idx[d] = slice(none, none, -1);
  }
  return view(a, idx);
}

/// numpy.fliplr: flip(a, 1) of an array of at least 2 dimensions.
template <element_type T> [[nodiscard]] ndarray<T> fliplr(const ndarray<T>& a) {
  if (a.ndim() < 2) throw value_error("Input must be >= 2-d.");
  return flip(a, 1);
}
/// numpy.flipud: flip(a, 0) of an array of at least 1 dimension.
template <element_type T> [[nodiscard]] ndarray<T> flipud(const ndarray<T>& a) {
  if (a.ndim() < 1) throw value_error("Input must be >= 1-d.");
  return flip(a, 0);
}

namespace detail {

/// Python's s % n for n = extent, or 1 for an empty axis: in [0, n).
inline index_t wrapped_shift(index_t s, index_t extent) {
  const index_t n = extent > 0 ? extent : 1;
  const index_t r = s % n;
  return r < 0 ? r + n : r;
}

/// roll along the given axes (repeats allowed: their shifts add up), shift and axes broadcast
/// against each other as NumPy's broadcast(shift, axis). Each axis rolled by o moves two blocks,
/// so the result is made by one strided copy per combination of blocks (2^k for k axes).
template <class T>
ndarray<T> roll_axes(const ndarray<T>& a, const std::vector<index_t>& shift,
                     const std::vector<index_t>& axes) {
  const std::size_t nd = a.shape().size();
  std::vector<int> ax;
  for (index_t x : axes) ax.push_back(normalize_axis(x, nd));
  const shape_t shift_shape{static_cast<index_t>(shift.size())};
  const shape_t axes_shape{static_cast<index_t>(axes.size())};
  const auto pairs = static_cast<std::size_t>(broadcast_shape_of({&shift_shape, &axes_shape})[0]);
  std::vector<index_t> by(nd, 0);
  for (std::size_t i = 0; i < pairs; ++i) {
    const int d = ax[ax.size() == 1 ? 0 : i];
    const index_t n = a.shape()[d];
    const index_t s = wrapped_shift(shift[shift.size() == 1 ? 0 : i], n);
    by[d] = by[d] >= n - s ? by[d] - (n - s) : by[d] + s;  // (by + s) % n, with no overflow
  }
  // blocks[d]: (source, destination) slices of axis d, one pair or two.
  std::vector<std::vector<std::pair<slice, slice>>> blocks(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    if (by[d] == 0) {
      blocks[d] = {{slice(none), slice(none)}};
    } else {
      const index_t o = by[d];
      blocks[d] = {{slice(none, -o), slice(o, none)}, {slice(-o, none), slice(none, o)}};
    }
  }
  ndarray<T> out(a.shape(), a.device());
  std::vector<std::size_t> pick(nd, 0);
  std::vector<index_item> src(nd, all), dst(nd, all);
  while (true) {
    for (std::size_t d = 0; d < nd; ++d) {
      src[d] = blocks[d][pick[d]].first;
      dst[d] = blocks[d][pick[d]].second;
    }
    copy_same(view(out, dst), view(a, src));
    std::size_t d = nd;
    while (d > 0 && ++pick[d - 1] == blocks[d - 1].size()) pick[--d] = 0;
    if (d == 0) return out;
  }
}

}  // namespace detail

/// numpy.roll(a, shift, axis=None): a copy with the elements shifted along the axes (shifts and
/// axes broadcast: one shift for several axes, or one per axis; a repeated axis adds its shifts),
/// or, with no axis, along the flattened array (a non-contiguous input is flattened first, one
/// more copy).
template <element_type T>
[[nodiscard]] ndarray<T> roll(const ndarray<T>& a, const std::vector<index_t>& shift,
                              const axis_arg& axis = {}) {
  if (axis.all()) return detail::roll_axes(ravel(a), shift, {0}).reshape(a.shape());
  return detail::roll_axes(a, shift, axis.axes());
}
template <element_type T, detail::integer_count I>
[[nodiscard]] ndarray<T> roll(const ndarray<T>& a, I shift, const axis_arg& axis = {}) {
  return roll(a, std::vector<index_t>{static_cast<index_t>(shift)}, axis);
}

/// numpy.rot90(m, k=1, axes=(0, 1)): a view rotated by 90 degrees k times in the plane of the
/// two axes, from the first towards the second.
template <element_type T>
[[nodiscard]] ndarray<T> rot90(const ndarray<T>& m, index_t k = 1,
                               const std::vector<index_t>& axes = {0, 1}) {
  if (axes.size() != 2) throw value_error("len(axes) must be 2.");
  const auto nd = static_cast<index_t>(m.ndim());
  index_t gap = 0;
  const bool far = __builtin_sub_overflow(axes[0], axes[1], &gap);
  if (axes[0] == axes[1] || (!far && (gap == nd || gap == -nd)))
    throw value_error("Axes must be different.");
  for (index_t x : axes)
    if (x >= nd || x < -nd)
      throw value_error("Axes=(" + std::to_string(axes[0]) + ", " + std::to_string(axes[1]) +
                        ") out of range for array of ndim=" + std::to_string(nd) + ".");
  const int a0 = normalize_axis(axes[0], m.shape().size());
  const int a1 = normalize_axis(axes[1], m.shape().size());
  switch (detail::wrapped_shift(k, 4)) {
    case 0: return view(m, std::vector<index_item>{});
    case 2: return flip(flip(m, a0), a1);
    default: break;
  }
  std::vector<index_t> order(m.shape().size());
  std::iota(order.begin(), order.end(), index_t{0});
  std::swap(order[a0], order[a1]);
  if (detail::wrapped_shift(k, 4) == 1) return transpose(flip(m, a1), order);
  return flip(transpose(m, order), a1);
}

/// numpy.diagonal(a, offset=0, axis1=0, axis2=1): the diagonal of the (axis1, axis2) planes as a
/// view, its axis last. NumPy's view is read-only; cunp has no read-only flag, so writing through
/// this one writes into a. An offset past the plane gives an empty diagonal (NumPy's offset is
/// a C int: it raises OverflowError beyond that range).
template <element_type T>
[[nodiscard]] ndarray<T> diagonal(const ndarray<T>& a, index_t offset = 0, index_t axis1 = 0,
                                  index_t axis2 = 1) {
  const std::size_t nd = a.shape().size();
  if (nd < 2) throw value_error("diag requires an array of at least two dimensions");
  const int d1 = detail::normalize_axis_named(axis1, nd, "axis1");
  const int d2 = detail::normalize_axis_named(axis2, nd, "axis2");
  if (d1 == d2) throw value_error("axis1 and axis2 cannot be the same");
  const index_t n1 = a.shape()[d1], n2 = a.shape()[d2];
  index_t start = a.offset(), len = 0;
  if (offset >= 0 && offset < n2) {
    len = std::min(n1, n2 - offset);
    start += offset * a.strides()[d2];
  } else if (offset < 0 && offset > -n1) {
    len = std::min(n1 + offset, n2);
    start -= offset * a.strides()[d1];
  }
  shape_t shape;
  strides_t strides;
  for (std::size_t d = 0; d < nd; ++d) {
    if (static_cast<int>(d) == d1 || static_cast<int>(d) == d2) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  shape.push_back(len);
  strides.push_back(a.strides()[d1] + a.strides()[d2]);
  return ndarray<T>(a.storage(), start, std::move(shape), std::move(strides));
}

/// numpy.trace(a, offset=0, axis1=0, axis2=1, dtype): the sums along the diagonals, with
/// cunp::sum's result dtype (dtype= as the first template argument, `cunp::trace<double>(a)`).
/// A 2-d input gives a 0-d array.
template <class Dtype = void, class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] auto trace(const ndarray<T>& a, index_t offset = 0, index_t axis1 = 0,
                         index_t axis2 = 1) {
  return sum<Dtype, Backend>(diagonal(a, offset, axis1, axis2), axis_arg(index_t{-1}));
}

}  // namespace cunp
