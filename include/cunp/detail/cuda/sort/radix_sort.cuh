// cunp/detail/cuda/sort/radix_sort.cuh: one device-wide stable radix sort of keys (and values), the
// one every cunp radix sort calls: CUB's public DeviceRadixSort. (Until the twenty-ninth session
// cunp launched CUB's onesweep kernels from its detail namespace under one memset, 0.4% faster on
// 2^26 float32 and 6% on 2^20: not worth a dependency on CUB's internals, which change with the
// toolkit; bench/RESULTS.md.)
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <limits>

#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// Sorts n keys (bits [0, bits) of each) stably from keys_in into keys_out, and the values with
/// them, on stream st of device dev; V is cub::NullType, and the values' pointers null, for keys
/// alone. Counted in int where they fit: CUB tunes its 32-bit offsets for more items a thread,
/// which is faster.
template <class K, class V>
void radix_sort(int dev, cudaStream_t st, const K* keys_in, K* keys_out, const V* values_in,
                V* values_out, std::int64_t n, int bits) {
  const auto sort = [&](auto count) {
    cub_call(dev, "cub::DeviceRadixSort", [&](void* temp, std::size_t& bytes) {
      if constexpr (std::is_same_v<V, cub::NullType>)
        return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, count, 0, bits, st);
      else
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in,
                                               values_out, count, 0, bits, st);
    });
  };
  if (n <= std::numeric_limits<int>::max())
    sort(static_cast<int>(n));
  else
    sort(n);
}

/// Sorts n keys (bits [0, bits) of each) stably from in into out.
template <class K>
void radix_sort(int dev, cudaStream_t st, const K* in, K* out, std::int64_t n, int bits) {
  radix_sort<K, cub::NullType>(dev, st, in, out, nullptr, nullptr, n, bits);
}

}  // namespace cunp::detail::cuda
