// cunp/tiling.hpp: numpy's tile and repeat (new arrays). tile and repeat by one count are one
// strided copy from a broadcast view of the input; repeat by per-element counts runs one kernel
// (detail/cpu/manipulation/repeat.hpp, detail/cuda/manipulation/repeat.cuh).
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/core/copy.hpp"
#include "cunp/detail/core/layout.hpp"
#include "cunp/detail/cpu/manipulation/repeat.hpp"
#include "cunp/joining.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"

namespace cunp {

/// numpy.tile(a, reps): a repeated reps[i] times along each axis (reps and a's shape padded with
/// leading 1s to the same length). A negative rep is value_error("negative dimensions are not
/// allowed") also for an empty a, whose NumPy error is reshape's.
template <element_type T>
[[nodiscard]] ndarray<T> tile(const ndarray<T>& a, const std::vector<index_t>& reps) {
  for (index_t r : reps)
    if (r < 0) throw value_error("negative dimensions are not allowed");
  const std::size_t nd = std::max(reps.size(), a.shape().size());
  const std::size_t pad_a = nd - a.shape().size(), pad_r = nd - reps.size();
  // The result seen as (reps[0], a.shape[0], reps[1], a.shape[1], ...), read from a through
  // zero strides on the reps axes: one copy.
  shape_t spread, shape;
  strides_t from;
  for (std::size_t d = 0; d < nd; ++d) {
    const index_t e = d < pad_a ? 1 : a.shape()[d - pad_a];
    const index_t r = d < pad_r ? 1 : reps[d - pad_r];
    index_t n = 0;
    if (__builtin_mul_overflow(e, r, &n)) throw value_error("Maximum allowed dimension exceeded");
    spread.insert(spread.end(), {r, e});
    from.insert(from.end(), {0, d < pad_a ? 0 : a.strides()[d - pad_a]});
    shape.push_back(n);
  }
  ndarray<T> out(spread, a.device());
  detail::copy_same(out, ndarray<T>(a.storage(), a.offset(), spread, from));
  return out.reshape(shape);
}
template <element_type T, detail::integer_count I>
[[nodiscard]] ndarray<T> tile(const ndarray<T>& a, I reps) {
  return tile(a, std::vector<index_t>{static_cast<index_t>(reps)});
}

namespace detail {

/// repeat's count arrays: the element types that cast safely to NumPy's intp.
template <class C>
inline constexpr bool repeat_count_v = std::is_integral_v<C> && !std::is_same_v<C, std::uint64_t>;

/// The input of repeat (a 0-d array as shape (1,), as NumPy), its repeated axis (the last one
/// when the result is flattened) and the number of slabs along it (every element when flat).
template <class T> struct repeat_input {
  ndarray<T> in;
  bool flat;
  int axis;
  index_t slabs;
};
template <class T>
repeat_input<T> repeat_geometry(const ndarray<T>& a, std::optional<index_t> axis) {
  const ndarray<T> in = a.ndim() == 0 ? a.reshape({1}) : a;
  if (!axis) return {in, true, in.ndim() - 1, in.size()};
  const int ax = normalize_axis(*axis, in.shape().size());
  return {in, false, ax, in.shape()[ax]};
}

/// repeat by one count: the result seen with an axis of extent `count` after the repeated axis,
/// read from the input through a zero stride there: one copy.
template <class T> ndarray<T> repeat_each(const repeat_input<T>& g, index_t count) {
  index_t total = 0;
  if (__builtin_mul_overflow(g.slabs, count, &total)) throw array_too_big();
  if (total < 0) throw value_error("negative dimensions are not allowed");
  if (total == 0) count = std::max<index_t>(count, 0);  // NumPy: -1 copies of nothing is nothing
  shape_t spread = g.in.shape();
  strides_t from = g.in.strides();
  spread.insert(spread.begin() + g.axis + 1, count);
  from.insert(from.begin() + g.axis + 1, 0);
  ndarray<T> out(spread, g.in.device());
  copy_same(out, ndarray<T>(g.in.storage(), g.in.offset(), spread, std::move(from)));
  if (g.flat) return out.reshape({total});
  shape_t shape = g.in.shape();
  shape[g.axis] = total;
  return out.reshape(shape);
}

/// loop_layout of the axes [from, to) of a.
template <class T> loop_layout<1> axes_layout(const ndarray<T>& a, int from, int to) {
  const shape_t shape(a.shape().begin() + from, a.shape().begin() + to);
  const strides_t strides(a.strides().begin() + from, a.strides().begin() + to);
  return make_loop_layout<1>(shape, {&strides});
}

/// repeat by per-element counts (one per slab, or one for all), NumPy's checks in its order. The
/// counts are read by read(), after the checks that need only their number.
template <class Backend, class T, class Read>
ndarray<T> repeat_by(const ndarray<T>& a, index_t ncounts, const Read& read,
                     std::optional<index_t> axis) {
  const repeat_input<T> g = repeat_geometry(a, axis);
  if (ncounts != 1 && ncounts != g.slabs)
    throw shape_error("operands could not be broadcast together with shape (" +
                      std::to_string(g.slabs) + ",) (" + std::to_string(ncounts) + ",)");
  const std::vector<index_t> counts = read();
  if (ncounts == 1) return repeat_each(g, counts[0]);
  for (index_t c : counts)
    if (c < 0) throw value_error("repeats may not contain negative values.");
  ndarray<index_t> offsets({g.slabs + 1}, cpu);
  index_t* off = offsets.data();
  off[0] = 0;
  for (index_t i = 0; i < g.slabs; ++i)
    if (__builtin_add_overflow(off[i], counts[i], &off[i + 1])) throw array_too_big();
  const index_t total = off[g.slabs];
  shape_t shape{total};
  if (!g.flat) {
    shape = g.in.shape();
    shape[g.axis] = total;
  }
  ndarray<T> out(shape, g.in.device());
  if (out.size() == 0) return out;
  const int nd = g.in.ndim();
  const loop_layout<1> outer = axes_layout(g.in, 0, g.flat ? 0 : g.axis);
  const loop_layout<1> mid = axes_layout(g.in, g.flat ? 0 : g.axis, g.flat ? nd : g.axis + 1);
  const loop_layout<1> inner = axes_layout(g.in, g.flat ? nd : g.axis + 1, nd);
  const ndarray<index_t> at = offsets.to(out.device());
  dispatch<Backend>(out.device(), [&](auto be) {
    repeat_slabs(be, out, g.in, outer, mid, inner, at, total);
  });
  return out;
}

}  // namespace detail

/// numpy.repeat(a, repeats, axis=None): each element (axis given: each slab along axis) repeated
/// `repeats` times; without an axis the result is flattened. One strided copy.
template <element_type T, detail::integer_count I>
[[nodiscard]] ndarray<T> repeat(const ndarray<T>& a, I repeats,
                                std::optional<index_t> axis = std::nullopt) {
  return detail::repeat_each(detail::repeat_geometry(a, axis), static_cast<index_t>(repeats));
}

/// numpy.repeat(a, [r0, r1, ...], axis=None): slab i (element i of the flattened a without an
/// axis) repeated r_i times; one count applies to every slab. A typed kernel: a GPU array needs a
/// translation unit compiled by nvcc (one count does not).
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> repeat(const ndarray<T>& a, const std::vector<index_t>& repeats,
                                std::optional<index_t> axis = std::nullopt) {
  return detail::repeat_by<Backend>(a, static_cast<index_t>(repeats.size()),
                                    [&] { return repeats; }, axis);
}

/// numpy.repeat(a, repeats, axis=None) with the counts in an integer array (0-d or 1-d, bool or
/// an integer type that casts safely to int64, on a's device). Counts on a GPU are read back: the
/// result's size depends on them, so this waits for the device once (after the checks that need
/// no values; cunp::allow_synchronize(false) makes it throw instead).
template <class Backend = detail::compiled_backend, element_type T, element_type C>
[[nodiscard]] ndarray<T> repeat(const ndarray<T>& a, const ndarray<C>& repeats,
                                std::optional<index_t> axis = std::nullopt) {
  detail::check_same_device(a.device(), repeats.device(), "repeat");
  if (!detail::repeat_count_v<C>)
    throw dtype_error("Cannot cast array data from " + detail::dtype_repr(dtype_of_v<C>) +
                      " to dtype('int64') according to the rule 'safe'");
  if (repeats.ndim() > 1) throw value_error("object too deep for desired array");
  const auto read = [&] {
    std::vector<index_t> out;
    if constexpr (detail::repeat_count_v<C>) {
      if (repeats.device().is_cuda())
        detail::check_synchronize_allowed("repeat (its size depends on the values)");
      for (const C& c : repeats.to_vector()) out.push_back(static_cast<index_t>(c));
    }
    return out;
  };
  return detail::repeat_by<Backend>(a, repeats.size(), read, axis);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs.
#if defined(__CUDACC__)
#include "cunp/detail/cuda/manipulation/repeat.cuh"
#endif
