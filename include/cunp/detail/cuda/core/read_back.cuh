// cunp/detail/cuda/core/read_back.cuh: the calling thread's stream on a device, and the one way a
// kernel's small result (a size, a count, a range) reaches the host: a copy, a wait for that
// stream, and then, as after every wait (detail/core/device_wait.hpp), the pending index fault.
#pragma once
#include <cstddef>

#include "cunp/detail/core/device_wait.hpp"
#include "cunp/detail/cuda/core/check.cuh"
#include "cunp/memory.hpp"

namespace cunp::detail::cuda {

/// The calling thread's stream on the array's device, with that device current.
struct on_device {
  int dev;
  device_scope scope;
  cudaStream_t stream;
  explicit on_device(cunp::device d)
      : dev(d.index()), scope(d.index()), stream(current_stream(d.index())) {}
};

/// Copies `bytes` from `device_src`, which the work queued on on.stream computes, to `host_dst`
/// once that work is done. `what` names the operation when allow_synchronize(false) forbids the
/// wait.
inline void read_back(const on_device& on, void* host_dst, const void* device_src,
                      std::size_t bytes, const char* what) {
  check_synchronize_allowed(what);
  CUNP_CUDA_CHECK(cudaMemcpyAsync(host_dst, device_src, bytes, cudaMemcpyDeviceToHost, on.stream));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(on.stream));
  raise_pending_index_fault(cunp::cuda(on.dev), waited::stream, stream_for(on.dev));
}

}  // namespace cunp::detail::cuda
