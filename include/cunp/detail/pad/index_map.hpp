// cunp/detail/pad/index_map.hpp: numpy.pad as one gather, for the GPU. Where every pad of every
// axis fits within one period of its mode (edge: any width; wrap and symmetric: up to the axis's
// length; reflect: up to one less), each element of the result is a copy of one input element,
// found per axis by pad_source: one pass that reads the input and writes the result, instead of
// NumPy's centre copy and one copy per side and axis (narrow, strided, a launch each). The cpu
// reference keeps NumPy's algorithm (modes.hpp), so that the GPU tests compare the two.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "cunp/config.hpp"
#include "cunp/detail/core/runtime.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// How one axis maps a result position outside the input to an input position.
enum class pad_rule : std::uint8_t { edge, wrap, reflect, symmetric };

/// Per axis: the width before, the input's length, the rule.
struct pad_axis {
  std::int64_t before = 0, length = 0;
  pad_rule rule = pad_rule::edge;
};

/// The input position that result position o of an axis copies (host and device).
CUNP_HD inline std::int64_t pad_source(std::int64_t o, const pad_axis& a) {
  const std::int64_t j = o - a.before, n = a.length;
  if (j >= 0 && j < n) return j;
  switch (a.rule) {
    case pad_rule::edge: return j < 0 ? 0 : n - 1;
    case pad_rule::wrap: return j < 0 ? j + n : j - n;
    case pad_rule::reflect: return j < 0 ? -j : 2 * (n - 1) - j;
    case pad_rule::symmetric: break;
  }
  return j < 0 ? -j - 1 : 2 * n - 1 - j;
}

/// The axes' rules when the pad is one gather (see the top), else nullopt: mode is edge, wrap,
/// or reflect or symmetric of reflect_type even (`odd`: reflect_type odd); every axis non-empty.
/// An axis of length 1 repeats its value in reflect and symmetric (NumPy's rule), edge's.
inline std::optional<std::vector<pad_axis>> pad_index_map(
    pad_rule mode, bool odd, const std::vector<std::pair<index_t, index_t>>& widths,
    const shape_t& in) {
  if (in.empty() || (odd && (mode == pad_rule::reflect || mode == pad_rule::symmetric)))
    return std::nullopt;
  std::vector<pad_axis> axes;
  for (std::size_t d = 0; d < in.size(); ++d) {
    const index_t n = in[d], widest = std::max(widths[d].first, widths[d].second);
    pad_rule rule = n == 1 ? pad_rule::edge : mode;
    const index_t period = rule == pad_rule::reflect ? n - 1 : rule == pad_rule::edge ? widest : n;
    if (n == 0 || widest > period) return std::nullopt;
    axes.push_back({widths[d].first, n, rule});
  }
  return axes;
}

/// The cpu backend: none (the reference keeps NumPy's algorithm; GPU data from a g++ translation
/// unit takes it too, as it needs no kernel).
template <class T>
std::optional<ndarray<T>> pad_by_map(host_backend, const ndarray<T>&, const shape_t&,
                                     const std::vector<pad_axis>&) {
  return std::nullopt;
}

}  // namespace cunp::detail
