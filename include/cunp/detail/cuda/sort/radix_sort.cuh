// cunp/detail/cuda/sort/radix_sort.cuh: one device-wide stable radix sort of keys (and values), the
// one every cunp radix sort calls. For up to 2^28 items it launches CUB's onesweep kernels itself,
// with one memset for every pass's counters, histograms and look-back tiles: CUB's own dispatch
// clears the look-back before each pass, a memset a pass (4 for 4-byte keys, 8 for 8-byte ones),
// each a launch gap. The price is memory: each pass has look-back tiles of its own (2^26
// float32: 38 MB where CUB has 9). Measurements: bench/RESULTS.md. Elsewhere
// CUB's public call runs: a GPU whose tuning sorts without onesweep, one tile of items, more items
// than one onesweep portion, or a CUB other than the 3.0 whose detail kernels and tuning hub this
// file was written and checked against.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/ndarray.hpp"

#define CUNP_OWN_ONESWEEP (CUB_MAJOR_VERSION == 3 && CUB_MINOR_VERSION == 0)

namespace cunp::detail::cuda {

/// CUB's public radix sort of n items (counted in int where they fit: CUB tunes its 32-bit
/// offsets for more items a thread, which is faster). V is cub::NullType, and the values'
/// pointers null, for keys alone.
template <class K, class V>
void cub_radix_sort(int dev, cudaStream_t st, const K* keys_in, K* keys_out, const V* values_in,
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

#if CUNP_OWN_ONESWEEP
/// The sort as CUB's policy chain calls it (Invoke<P> for the tuning P of the device's
/// architecture): CUB's onesweep kernels under one memset, or CUB's public call where P does not
/// sweep once or n is one tile or more than one portion.
template <class K, class V>
struct onesweep_sort {
  // CUB's global offsets for an int count (signed ones were measured slower)
  using offset_t = std::uint32_t;
  using max_policy = typename cub::detail::radix::policy_hub<K, V, offset_t>::MaxPolicy;
  static constexpr bool keys_only = std::is_same_v<V, cub::NullType>;
  // Every region on its own 4 KiB: look-back tiles with less alignment were measured slower.
  static constexpr std::size_t align = 4096;

  int dev;
  cudaStream_t st;
  const K* keys_in;
  K* keys_out;
  const V* values_in;
  V* values_out;
  std::int64_t n;
  int bits;

  static std::size_t up(std::size_t b) { return (b + align - 1) / align * align; }

  template <class P>
  cudaError_t Invoke() {
    if constexpr (P::ONESWEEP) {
      using single_tile = typename P::SingleTilePolicy;
      constexpr std::int64_t tile = std::int64_t(P::OnesweepPolicy::ITEMS_PER_THREAD) *
                                    P::OnesweepPolicy::BLOCK_THREADS;
      constexpr std::int64_t portion = ((std::int64_t(1) << 28) - 1) / tile * tile;  // CUB's
      if (n > std::int64_t(single_tile::BLOCK_THREADS) * single_tile::ITEMS_PER_THREAD &&
          n <= portion)
        return sweep<P>(tile);
    }
    cub_radix_sort(dev, st, keys_in, keys_out, values_in, values_out, n, bits);
    return cudaSuccess;
  }

  /// CUB's onesweep kernels as tuned by P (tiles of `tile` items) under one memset.
  template <class P>
  cudaError_t sweep(std::int64_t tile) {
    using sweep_policy = typename P::OnesweepPolicy;
    constexpr int digit_bits = P::ONESWEEP_RADIX_BITS, digits = 1 << digit_bits;
    const int passes = (bits + digit_bits - 1) / digit_bits;
    const auto blocks = static_cast<int>((n + tile - 1) / tile);
    // [pass counters | pass histograms | each pass's look-back tiles], zeroed at once, then the
    // keys' and values' buffers between passes (none for one pass).
    const std::size_t histograms = up(sizeof(int) * passes),
                      lookbacks = histograms + up(sizeof(offset_t) * passes * digits),
                      lookback = up(sizeof(int) * std::size_t(blocks) * digits),
                      zeroed = lookbacks + lookback * passes,
                      values = up(zeroed + (passes > 1 ? sizeof(K) * n : 0));
    const workspace tmp(dev, values + (passes > 1 && !keys_only ? sizeof(V) * n : 0));
    auto* base = static_cast<std::uint8_t*>(tmp.data());
    check(cudaMemsetAsync(base, 0, zeroed, st), "cudaMemsetAsync");
    auto* counters = reinterpret_cast<int*>(base);
    auto* bins = reinterpret_cast<offset_t*>(base + histograms);
    K* keys_between = reinterpret_cast<K*>(base + zeroed);
    V* values_between = reinterpret_cast<V*>(base + values);

    namespace rs = cub::detail::radix_sort;
    using identity = cub::detail::identity_decomposer_t;
    constexpr auto order = cub::SortOrder::Ascending;
    constexpr auto histogram = rs::DeviceRadixSortHistogramKernel<max_policy, order, K, offset_t>;
    constexpr int histogram_threads = P::HistogramPolicy::BLOCK_THREADS;
    const int fit = blocks_per_sm<histogram>(dev, histogram_threads);
    const auto items = static_cast<offset_t>(n);
    histogram<<<fit * sm_count(dev), histogram_threads, 0, st>>>(bins, keys_in, items, 0, bits,
                                                                 identity{});
    CUNP_CUDA_CHECK_LAUNCH("cub's DeviceRadixSortHistogramKernel");
    rs::DeviceRadixSortExclusiveSumKernel<max_policy, offset_t>
        <<<passes, P::ExclusiveSumPolicy::BLOCK_THREADS, 0, st>>>(bins);
    CUNP_CUDA_CHECK_LAUNCH("cub's DeviceRadixSortExclusiveSumKernel");
    const auto onesweep = rs::DeviceRadixSortOnesweepKernel<max_policy, order, K, V, offset_t, int>;
    const K* keys_from = keys_in;
    const V* values_from = values_in;
    for (int p = 0; p < passes; ++p) {
      // The last pass writes the output; the ones before alternate so that it does.
      const bool to_out = (passes - 1 - p) % 2 == 0;
      K* keys_to = to_out ? keys_out : keys_between;
      V* values_to = to_out ? values_out : values_between;
      onesweep<<<blocks, sweep_policy::BLOCK_THREADS, 0, st>>>(
          reinterpret_cast<int*>(base + lookbacks + lookback * p), counters + p, nullptr,
          bins + p * digits, keys_to, keys_from, values_to, values_from, static_cast<int>(n),
          p * digit_bits, std::min(digit_bits, bits - p * digit_bits), identity{});
      CUNP_CUDA_CHECK_LAUNCH("cub's DeviceRadixSortOnesweepKernel");
      keys_from = keys_to;
      values_from = values_to;
    }
    return cudaSuccess;
  }
};
#endif

/// Sorts n keys (bits [0, bits) of each) stably from keys_in into keys_out, and the values with
/// them, on stream st of device dev.
template <class K, class V>
void radix_sort(int dev, cudaStream_t st, const K* keys_in, K* keys_out, const V* values_in,
                V* values_out, std::int64_t n, int bits) {
#if CUNP_OWN_ONESWEEP
  int ptx = 0;
  check(cub::PtxVersion(ptx, dev), "cub::PtxVersion");
  onesweep_sort<K, V> sort{dev, st, keys_in, keys_out, values_in, values_out, n, bits};
  check(onesweep_sort<K, V>::max_policy::Invoke(ptx, sort), "cunp's onesweep radix sort");
#else
  cub_radix_sort(dev, st, keys_in, keys_out, values_in, values_out, n, bits);
#endif
}

/// Sorts n keys (bits [0, bits) of each) stably from in into out.
template <class K>
void radix_sort(int dev, cudaStream_t st, const K* in, K* out, std::int64_t n, int bits) {
  radix_sort<K, cub::NullType>(dev, st, in, out, nullptr, nullptr, n, bits);
}

}  // namespace cunp::detail::cuda
