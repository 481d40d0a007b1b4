// cunp/detail/cuda/reduce/reduceat.cuh: the CUDA backend of ufunc.reduceat: a thread per output
// element, walking its slice in order (consecutive threads read consecutive inner elements).
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/reduce/reduceat.hpp"
#include "cunp/ufunc_methods.hpp"

namespace cunp::detail {

namespace cuda {
template <class R, class T>
CUNP_KERNEL void reduceat_kernel(typename R::out* out, const T* x, const std::int64_t* idx,
                                 reduceat_geometry g, std::int64_t n, R r) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < n; e += step)
    out[e] = reduceat_element(r, x, idx, g, e);
}
}  // namespace cuda

template <class R, class T>
void reduceat_run(cuda_backend, const ndarray<typename R::out>& out, const ndarray<T>& x,
                  const ndarray<std::int64_t>& idx, const reduceat_geometry& g, const R& r) {
  const int dev = out.device().index();
  cuda::device_scope scope(dev);
  cuda::reduceat_kernel<<<cuda::grid_for(dev, out.size()), cuda::block_threads, 0,
                          cuda::current_stream(dev)>>>(out.data(), x.data(), idx.data(), g,
                                                       out.size(), r);
  CUNP_CUDA_CHECK_LAUNCH("reduceat_kernel");
}

}  // namespace cunp::detail
