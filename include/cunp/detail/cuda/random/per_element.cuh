// cunp/detail/cuda/random/per_element.cuh: the CUDA backend of the per-element draws
// (detail/random/per_element.hpp), one thread an element: a thread whose element refuses more
// draws than its neighbours' keeps its lanes of the warp waiting, the price of results that do
// not depend on the neighbours (the cpu's: detail/cpu/random/per_element.hpp).
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"  // on_device
#include "cunp/detail/random/per_element.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace cuda {

template <class T, class Rule>
CUNP_KERNEL void per_element_kernel(T* out, std::int64_t n, std::uint64_t k0, std::uint64_t k1,
                                    Rule rule) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step) {
    element_stream s{k0, k1, std::uint64_t(i)};
    out[i] = static_cast<T>(rule.value(s));
  }
}

}  // namespace cuda

template <class T, class Rule>
void random_each(cuda_backend, const ndarray<T>& out, std::uint64_t k0, std::uint64_t k1,
                 const Rule& rule) {
  const cuda::on_device on(out.device());
  const std::int64_t n = out.size();
  cuda::per_element_kernel<<<cuda::grid_for(on.dev, n), cuda::block_threads, 0, on.stream>>>(
      out.data(), n, k0, k1, rule);
  CUNP_CUDA_CHECK_LAUNCH("per_element_kernel");
}

}  // namespace cunp::detail
