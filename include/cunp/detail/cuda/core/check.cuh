// cunp/detail/cuda/core/check.cuh: every CUDA status checked and reported with the call that failed.
#pragma once
#include <cuda_runtime.h>

#include "cunp/detail/core/runtime.hpp"
#include "cunp/errors.hpp"

namespace cunp::detail::cuda {

inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    throw cuda_error(static_cast<int>(status), call,
                     std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status));
  }
}

/// Makes `dev` current for a scope and restores the caller's device.
class device_scope {
 public:
  explicit device_scope(int dev) {
    check(cudaGetDevice(&saved_), "cudaGetDevice");
    if (saved_ != dev) check(cudaSetDevice(dev), "cudaSetDevice");
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope() {
    int now = saved_;
    cudaGetDevice(&now);
    if (now != saved_) cudaSetDevice(saved_);
  }

 private:
  int saved_ = 0;
};

/// The calling thread's current stream on `dev` (per-thread default stream unless a guard is set).
inline cudaStream_t current_stream(int dev) {
  void* s = stream_for(dev);
  return s ? static_cast<cudaStream_t>(s) : cudaStreamPerThread;
}

}  // namespace cunp::detail::cuda

/// Checks a CUDA runtime call, naming it in the error.
#define CUNP_CUDA_CHECK(call) ::cunp::detail::cuda::check((call), #call)
/// Checks the launch of the kernel just queued.
#define CUNP_CUDA_CHECK_LAUNCH(name) ::cunp::detail::cuda::check(cudaGetLastError(), "launch of " name)
