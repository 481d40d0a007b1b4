// cunp/detail/cuda/manipulation/repeat.cuh: the kernel behind repeat with per-element counts.
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/tiling.hpp"

namespace cunp::detail {

namespace cuda {

/// out[o] for every element o of the C-ordered (outer, total, inner) output: the output row j
/// belongs to the slab i with offsets[i] <= j < offsets[i + 1] (a binary search over the
/// exclusive scan of the counts; slabs repeated 0 times have no such j). Items move as bytes of
/// the element's size (U).
template <class U, class I>
CUNP_KERNEL void repeat_kernel(U* out, const U* in, const std::int64_t* offsets,
                               loop_layout<1> outer, loop_layout<1> mid, loop_layout<1> inner,
                               I total, I size) {
  const I q = static_cast<I>(inner.size), n = static_cast<I>(mid.size);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I o = blockIdx.x * blockDim.x + threadIdx.x; o < size; o += step) {
    const I t = o / q, k = o - t * q;
    const I p = t / total, j = t - p * total;
    I lo = 0, hi = n;
    while (hi - lo > 1) {
      const I m = lo + (hi - lo) / 2;
      if (static_cast<I>(offsets[m]) <= j) lo = m;
      else hi = m;
    }
    out[o] = in[offset_of(p, outer.shape, &outer.strides[0][0]) +
                offset_of(lo, mid.shape, &mid.strides[0][0]) +
                offset_of(k, inner.shape, &inner.strides[0][0])];
  }
}

}  // namespace cuda

template <class T>
void repeat_slabs(cuda_backend, const ndarray<T>& out, const ndarray<T>& in,
                  const loop_layout<1>& outer, const loop_layout<1>& mid,
                  const loop_layout<1>& inner, const ndarray<index_t>& offsets, index_t total) {
  const std::int64_t size = out.size();
  if (size == 0) return;
  using U = typename cuda::item_of<sizeof(T)>::type;
  const int dev = out.device().index();
  cuda::device_scope scope(dev);
  const auto grid = cuda::grid_for(dev, size);
  const cudaStream_t st = cuda::current_stream(dev);
  auto* o = reinterpret_cast<U*>(out.data());
  const auto* i = reinterpret_cast<const U*>(in.data());
  // 32-bit index arithmetic while o + step cannot pass INT32_MAX.
  constexpr std::int64_t small = std::int64_t(1) << 30;
  if (size <= small && mid.size <= small)
    cuda::repeat_kernel<U, std::int32_t><<<grid, cuda::block_threads, 0, st>>>(
        o, i, offsets.data(), outer, mid, inner, std::int32_t(total), std::int32_t(size));
  else
    cuda::repeat_kernel<U, std::int64_t><<<grid, cuda::block_threads, 0, st>>>(
        o, i, offsets.data(), outer, mid, inner, total, size);
  CUNP_CUDA_CHECK_LAUNCH("repeat_kernel");
}

}  // namespace cunp::detail
