// cunp/detail/cuda/pad/index_map.cuh: the gather behind numpy.pad on the GPU
// (detail/pad/index_map.hpp says when it applies).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/pad/index_map.hpp"

namespace cunp::detail {

namespace cuda {

/// Every axis's rule and the input's element strides, by value.
struct pad_geometry {
  int ndim = 0;
  pad_axis axis[max_dims];
  std::int64_t extent[max_dims]{}, stride[max_dims]{};
};

/// Elements of a result row a thread loads before it stores them.
inline constexpr int pad_unroll = 8;

/// One block a result row at a time: the row's input offset from the axes before the last, then
/// the row's elements through the last axis's rule.
template <class Item>
CUNP_KERNEL void pad_map_kernel(Item* out, const Item* src, pad_geometry g, std::int64_t rows) {
  const int last = g.ndim - 1;
  const std::int64_t len = g.extent[last], step = g.stride[last];
  const pad_axis ax = g.axis[last];
  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    std::int64_t s = 0, r = row;
    for (int d = last - 1; d >= 0; --d) {
      const std::int64_t q = r / g.extent[d];
      s += pad_source(r - q * g.extent[d], g.axis[d]) * g.stride[d];
      r = q;
    }
    Item* dp = out + row * len;
    for (std::int64_t x0 = threadIdx.x; x0 < len; x0 += std::int64_t(blockDim.x) * pad_unroll) {
      Item v[pad_unroll];
#pragma unroll
      for (int u = 0; u < pad_unroll; ++u) {
        const std::int64_t x = x0 + u * std::int64_t(blockDim.x);
        if (x < len) v[u] = src[s + pad_source(x, ax) * step];
      }
#pragma unroll
      for (int u = 0; u < pad_unroll; ++u) {
        const std::int64_t x = x0 + u * std::int64_t(blockDim.x);
        if (x < len) dp[x] = v[u];
      }
    }
  }
}

}  // namespace cuda

/// The pad as one gather into a new C-ordered array of `shape`.
template <class T>
std::optional<ndarray<T>> pad_by_map(cuda_backend, const ndarray<T>& a, const shape_t& shape,
                                     const std::vector<pad_axis>& axes) {
  if (shape.size() > std::size_t(max_dims)) return std::nullopt;
  ndarray<T> out(shape, a.device());
  const std::int64_t n = out.size();
  if (n == 0) return out;
  cuda::pad_geometry g;
  g.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < g.ndim; ++d) {
    g.axis[d] = axes[d];
    g.extent[d] = shape[d];
    g.stride[d] = a.strides()[d];
  }
  const std::int64_t rows = n / shape.back();
  using Item = typename cuda::item_of<sizeof(T)>::type;
  const int dev = a.device().index();
  cuda::device_scope scope(dev);
  const auto grid = unsigned(std::min<std::int64_t>(rows, std::int64_t(cuda::sm_count(dev)) * 16));
  cuda::pad_map_kernel<Item><<<grid, cuda::block_threads, 0, cuda::current_stream(dev)>>>(
      reinterpret_cast<Item*>(out.data()), reinterpret_cast<const Item*>(a.data()), g, rows);
  CUNP_CUDA_CHECK_LAUNCH("pad_map_kernel");
  return out;
}

}  // namespace cunp::detail
