// cunp/detail/cuda/creation/generate.cuh: the generator kernel behind arange and linspace.
#pragma once
#include "cunp/creation.hpp"
#include "cunp/detail/cuda/core/launch.cuh"

namespace cunp::detail {

namespace cuda {
template <class T, class Rule>
CUNP_KERNEL void generate_kernel(T* out, std::int64_t n, Rule rule) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step)
    out[i] = rule(i);
}
}  // namespace cuda

template <class T, class Rule> void generate(cuda_backend, const ndarray<T>& a, const Rule& rule) {
  if (a.size() == 0) return;
  const int dev = a.device().index();
  cuda::device_scope scope(dev);
  cuda::generate_kernel<<<cuda::grid_for(dev, a.size()), cuda::block_threads, 0,
                          cuda::current_stream(dev)>>>(a.data(), a.size(), rule);
  CUNP_CUDA_CHECK_LAUNCH("generate_kernel");
}

}  // namespace cunp::detail
