// cunp/detail/cpu/random/permutation.hpp: the cpu backend of Generator.permutation, the reference
// the CUDA backend (detail/cuda/random/permutation.cuh) matches. A permutation of n is the stable
// argsort of the call's next n 64-bit draws (one an element, the buffered half untouched):
// uniform, since the draws are independent and equal ones (about n^2 / 2^65 pairs) are as likely
// in any order. NumPy shuffles by Fisher-Yates, a sequential walk (other numbers:
// docs/differences.md).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Writes into the C-contiguous 1-d `out` the permutation of [0, out.size()) that sorts the next
/// out.size() 64-bit draws of `s` stably, and leaves `s` after them.
template <class Engine>
void random_permutation(host_backend, const ndarray<std::int64_t>& out, Engine& s) {
  require_cpu_for(out.device(), "a random permutation");
  const std::int64_t n = out.size();
  std::vector<std::pair<std::uint64_t, std::int64_t>> keyed(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keyed[std::size_t(i)] = {s.next_uint64(), i};
  std::sort(keyed.begin(), keyed.end());  // by (draw, position): the draws' stable order
  std::int64_t* o = out.data();
  for (std::int64_t i = 0; i < n; ++i) o[i] = keyed[std::size_t(i)].second;
}

}  // namespace cunp::detail
