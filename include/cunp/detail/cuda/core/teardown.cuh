// cunp/detail/cuda/core/teardown.cuh: destroying a library's handle or plan from a destructor.
#pragma once
#include "cunp/detail/cuda/core/check.cuh"

namespace cunp::detail::cuda {

/// Makes `dev` current for a destructor and restores the caller's device, never throwing.
/// alive() is false once the CUDA runtime has shut down (a destructor that runs at program exit
/// after CUDA's own teardown, which answers every call with cudaErrorCudartUnloading): the
/// contexts went with it, and with them what the libraries had allocated, so the handle is left
/// alone; calling into a library then is what crashes programs at exit.
class teardown_scope {
 public:
  explicit teardown_scope(int dev) noexcept {
    if (cudaGetDevice(&saved_) != cudaSuccess) {
      cudaGetLastError();
      return;
    }
    changed_ = saved_ != dev;
    // cudaFree(nullptr) frees nothing and waits for nothing; it fails once the runtime is gone.
    alive_ = (!changed_ || cudaSetDevice(dev) == cudaSuccess) && cudaFree(nullptr) == cudaSuccess;
    if (!alive_) cudaGetLastError();
  }
  teardown_scope(const teardown_scope&) = delete;
  teardown_scope& operator=(const teardown_scope&) = delete;
  ~teardown_scope() {
    if (changed_) cudaSetDevice(saved_);
  }
  [[nodiscard]] bool alive() const noexcept { return alive_; }

 private:
  int saved_ = 0;
  bool alive_ = false, changed_ = false;
};

}  // namespace cunp::detail::cuda
