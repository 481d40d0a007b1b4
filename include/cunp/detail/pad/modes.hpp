// cunp/detail/pad/modes.hpp: numpy.pad's modes as NumPy computes them
// (numpy/lib/_arraypad_impl.py): the two pad areas of one axis filled from slices of the partly
// padded array, by fills, copies of (reversed, shifted or broadcast) slices, reductions and
// element-wise expressions. No loop here runs over elements or rows: a side costs one or two
// operations per chunk.
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/core/copy.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail::padding {

using width_pair = std::pair<index_t, index_t>;

/// NumPy's _slice_at_axis: a[(:,) * axis + (s, ...)], a view.
template <class T> ndarray<T> at_axis(const ndarray<T>& a, int axis, const slice& s) {
  std::vector<index_item> idx(static_cast<std::size_t>(axis), all);
  idx.emplace_back(s);
  return view(a, idx);
}

/// NumPy's _pad_simple: the padded array, uninitialised but for the input, which one strided
/// copy puts into its centre.
template <class T>
ndarray<T> padded_copy(const ndarray<T>& a, const shape_t& shape,
                       const std::vector<width_pair>& widths) {
  ndarray<T> out(shape, a.device());
  std::vector<index_item> centre;
  for (std::size_t d = 0; d < widths.size(); ++d)
    centre.emplace_back(slice(widths[d].first, widths[d].first + a.shape()[d]));
  copy_same(view(out, centre), a);
  return out;
}

/// NumPy's _view_roi: the part of `padded` that axis `axis` pads from and into: the axes before
/// it (already padded) and it whole, the axes after it only where the input lies.
template <class T>
ndarray<T> roi(const ndarray<T>& padded, const std::vector<width_pair>& widths,
               const shape_t& original, int axis) {
  std::vector<index_item> idx(static_cast<std::size_t>(axis) + 1, all);
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < widths.size(); ++d)
    idx.emplace_back(slice(widths[d].first, widths[d].first + original[d]));
  return view(padded, idx);
}

/// The two pad areas of `axis` in the roi r.
template <class T> std::pair<ndarray<T>, ndarray<T>> areas(const ndarray<T>& r, int axis,
                                                            width_pair w) {
  return {at_axis(r, axis, slice(none, w.first)),
          at_axis(r, axis, slice(r.shape()[axis] - w.second, none))};
}

/// `area` = src, src repeated along its axes of extent 1 (a copy through zero strides).
template <class T> void broadcast_into(const ndarray<T>& area, const ndarray<T>& src) {
  copy_same(area, broadcast_to(src, area.shape()));
}

/// mode 'constant': NumPy's _set_pad_area with values, two fills.
template <class T> void fill_constant(const ndarray<T>& r, int axis, width_pair w,
                                      const std::pair<T, T>& values) {
  const auto [before, after] = areas(r, axis, w);
  before.fill(values.first);
  after.fill(values.second);
}

/// NumPy's _get_edges: the first and last slice of the part of `axis` that is not padded yet.
template <class T> std::pair<ndarray<T>, ndarray<T>> edges(const ndarray<T>& r, int axis,
                                                            width_pair w) {
  const index_t right = r.shape()[axis] - w.second;
  return {at_axis(r, axis, slice(w.first, w.first + 1)), at_axis(r, axis, slice(right - 1, right))};
}

/// mode 'edge' (and reflect/symmetric of an axis of length 1): two broadcast copies.
template <class T> void fill_edge(const ndarray<T>& r, int axis, width_pair w) {
  const auto [before, after] = areas(r, axis, w);
  const auto [first, last] = edges(r, axis, w);
  broadcast_into(before, first);
  broadcast_into(after, last);
}

/// One chunk of reflection: `area` = the reversed slice `src`; reflect_type odd: 2 * edge - src,
/// cast back as NumPy's assignment casts (bool: 2 * edge is int64).
template <class Backend, class T>
void reflect_chunk(const ndarray<T>& area, const ndarray<T>& src, const ndarray<T>& edge,
                   bool odd) {
  if (odd) copyto<Backend>(area, 2 * edge - src, casting::unsafe);
  else copy_same(area, src);
}

/// NumPy's _set_reflect_both: one chunk per side, at most as long as the values already in
/// place (whole multiples of the input's period). Returns the widths still to pad.
template <class Backend, class T>
width_pair reflect_both(const ndarray<T>& r, int axis, width_pair w, bool odd, index_t period,
                        bool include_edge) {
  auto [left, right] = w;
  index_t old_length = r.shape()[axis] - right - left;
  index_t edge_offset = 0;
  if (include_edge) {
    old_length = old_length / period * period;
    edge_offset = 1;
  } else {
    old_length = (old_length - 1) / (period - 1) * (period - 1);  // the edge is left out
  }
  if (left > 0) {
    const index_t chunk = std::min(old_length, left);
    const index_t stop = left - edge_offset;
    reflect_chunk<Backend>(at_axis(r, axis, slice(left - chunk, left)),
                           at_axis(r, axis, slice(stop + chunk, stop, -1)),
                           at_axis(r, axis, slice(left, left + 1)), odd);
    left -= chunk;
  }
  if (right > 0) {
    const index_t chunk = std::min(old_length, right);
    const index_t start = -right + edge_offset - 2;  // from the end, as NumPy's slice
    const index_t from = r.shape()[axis] - right;
    reflect_chunk<Backend>(at_axis(r, axis, slice(from, from + chunk)),
                           at_axis(r, axis, slice(start, start - chunk, -1)),
                           at_axis(r, axis, slice(-right - 1, -right)), odd);
    right -= chunk;
  }
  return {left, right};
}

/// modes 'reflect' and 'symmetric' of one axis: chunks until both sides are full.
template <class Backend, class T>
void fill_reflect(const ndarray<T>& r, int axis, width_pair w, index_t length, bool odd,
                  bool include_edge) {
  if (length == 1) {  // NumPy's legacy rule: a single value is repeated, not reflected
    fill_edge(r, axis, w);
    return;
  }
  while (w.first > 0 || w.second > 0)
    w = reflect_both<Backend>(r, axis, w, odd, length, include_edge);
}

/// NumPy's _set_wrap_both: one copy per side of at most one period (a multiple of the input's
/// length, as long as the values already in place allow). Returns the widths still to pad.
template <class T> width_pair wrap_both(const ndarray<T>& r, int axis, width_pair w,
                                        index_t length) {
  const auto [left, right] = w;
  const index_t period = (r.shape()[axis] - right - left) / length * length;
  width_pair rest{0, 0};
  if (left > 0) {
    const index_t end = left + period;
    const auto src = at_axis(r, axis, slice(end - std::min(period, left), end));
    if (left > period) {
      copy_same(at_axis(r, axis, slice(left - period, left)), src);
      rest.first = left - period;
    } else {
      copy_same(at_axis(r, axis, slice(none, left)), src);
    }
  }
  if (right > 0) {
    const index_t start = -right - period;  // from the end, as NumPy's slice
    const auto src = at_axis(r, axis, slice(start, start + std::min(period, right)));
    if (right > period) {
      copy_same(at_axis(r, axis, slice(-right, -right + period)), src);
      rest.second = right - period;
    } else {
      copy_same(at_axis(r, axis, slice(-right, none)), src);
    }
  }
  return rest;
}

/// mode 'wrap' of one axis of input length `length`.
template <class T> void fill_wrap(const ndarray<T>& r, int axis, width_pair w, index_t length) {
  while (w.first > 0 || w.second > 0) w = wrap_both(r, axis, w, length);
}

/// One side of NumPy's _get_linear_ramps: np.linspace(end, edge, width, endpoint=False,
/// dtype=T, axis=axis) computed in D (linspace's dtype from the end value and T), reversed on
/// the right side, floored for integer T and cast into `area`. As linspace: y = arange(width)
/// times step = (edge - end) / width, or, where any step is 0 (denormals, gh-5437),
/// arange / width * (edge - end); then + end. Whether a step is 0 is a reduction that stays on
/// the device. The products are materialised before the sum: a fused multiply-add (nvcc's
/// contraction) would round once where NumPy rounds twice.
template <class Backend, class T, class D>
void ramp_side(const ndarray<T>& area, const ndarray<T>& edge, int axis, D end, bool reversed) {
  const index_t width = area.shape()[axis];
  if (width == 0) return;
  const device dev = area.device();
  const ndarray<D> i = arange<D, Backend>(index_t(0), width, 1, dev);
  shape_t along(area.shape().size(), 1);
  strides_t st(area.shape().size(), 0);
  along[axis] = width;
  st[axis] = reversed ? -1 : 1;
  const ndarray<D> y(i.storage(), i.offset() + (reversed ? width - 1 : 0), along, st);
  const ndarray<D> start = full<D>({}, end, dev);
  const auto delta = astype<D>(edge) - start;
  const auto step = delta / width;
  const ndarray<bool> zero_step = any<Backend>(step == 0);
  const ndarray<D> scaled = eval<Backend>(where(zero_step, y / width * delta, y * step));
  if constexpr (is_integer_v<T>) copyto<Backend>(area, floor(scaled + start), casting::unsafe);
  else copyto<Backend>(area, scaled + start, casting::unsafe);
}

/// mode 'linear_ramp' of one axis, the end values already in the ramp's dtype D.
template <class Backend, class T, class D>
void fill_ramp(const ndarray<T>& r, int axis, width_pair w, const std::pair<D, D>& ends) {
  const auto [before, after] = areas(r, axis, w);
  const auto [first, last] = edges(r, axis, w);
  ramp_side<Backend>(before, first, axis, ends.first, false);
  ramp_side<Backend>(after, last, axis, ends.second, true);
}

/// The statistic modes.
enum class statistic : std::uint8_t { maximum, minimum, mean, median };

/// NumPy's _get_stats of one chunk: the statistic along `axis`, kept as an axis of extent 1;
/// for integer T rounded half to even (_round_if_needed), then cast into T as NumPy's
/// assignment casts it.
template <class Backend, class T, class S> ndarray<T> into_dtype(const ndarray<S>& s) {
  if constexpr (is_integer_v<T>) return eval<Backend>(astype<T>(rint(s)));
  else if constexpr (std::is_same_v<S, T>) return s;
  else return eval<Backend>(astype<T>(s));
}
template <class Backend, class T>
ndarray<T> statistic_of(const ndarray<T>& chunk, int axis, statistic s) {
  switch (s) {
    case statistic::maximum: return max<Backend>(chunk, axis, true);
    case statistic::minimum: return min<Backend>(chunk, axis, true);
    case statistic::mean: return into_dtype<Backend, T>(mean<void, Backend>(chunk, axis, true));
    case statistic::median: break;
  }
  return into_dtype<Backend, T>(median<Backend>(chunk, axis, true));
}

/// The statistic modes of one axis: the statistic of the first lengths.first and the last
/// lengths.second values not padded yet (at most all of them), broadcast into the pad areas.
/// A side of width 0 computes nothing (NumPy computes it and drops it).
template <class Backend, class T>
void fill_statistic(const ndarray<T>& r, int axis, width_pair w, width_pair lengths,
                    statistic s) {
  const index_t lo = w.first, hi = r.shape()[axis] - w.second, whole = hi - lo;
  const index_t left_length = std::min(lengths.first, whole);
  const index_t right_length = std::min(lengths.second, whole);
  const auto [before, after] = areas(r, axis, w);
  ndarray<T> left;
  if (w.first > 0) {
    left = statistic_of<Backend>(at_axis(r, axis, slice(lo, lo + left_length)), axis, s);
    broadcast_into(before, left);
  }
  if (w.second == 0) return;
  const bool same = left_length == whole && right_length == whole && w.first > 0;
  broadcast_into(after, same ? left
                             : statistic_of<Backend>(at_axis(r, axis, slice(hi - right_length, hi)),
                                                     axis, s));
}

}  // namespace cunp::detail::padding
