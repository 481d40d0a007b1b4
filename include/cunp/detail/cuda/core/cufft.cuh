// cunp/detail/cuda/core/cufft.cuh: cuFFT statuses and cuFFT plans, cached per device and bound
// to the caller's stream at each use. Included by the FFT backend only: <cunp/cunp.hpp> does not
// include cuFFT's headers.
#pragma once
#include <cufft.h>

#include <cstddef>
#include <memory>
#include <mutex>

#include "cunp/detail/cuda/core/library_error.cuh"
#include "cunp/detail/cuda/core/plan_cache.cuh"
#include "cunp/detail/cuda/core/teardown.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"

namespace cunp::detail::cuda {

/// cuFFT has no status-string function: the names and meanings of cufft.h's results.
inline const char* cufft_status_name(cufftResult s, const char** text) {
  struct row {
    cufftResult status;
    const char *name, *text;
  };
  static constexpr row rows[] = {
      {CUFFT_INVALID_PLAN, "CUFFT_INVALID_PLAN", "the plan handle is invalid"},
      {CUFFT_ALLOC_FAILED, "CUFFT_ALLOC_FAILED", "GPU or host memory allocation failed"},
      {CUFFT_INVALID_TYPE, "CUFFT_INVALID_TYPE", "the transform type is invalid"},
      {CUFFT_INVALID_VALUE, "CUFFT_INVALID_VALUE", "a pointer or parameter is invalid"},
      {CUFFT_INTERNAL_ERROR, "CUFFT_INTERNAL_ERROR", "an internal driver or library error"},
      {CUFFT_EXEC_FAILED, "CUFFT_EXEC_FAILED", "the transform failed to run on the GPU"},
      {CUFFT_SETUP_FAILED, "CUFFT_SETUP_FAILED", "the library failed to initialize"},
      {CUFFT_INVALID_SIZE, "CUFFT_INVALID_SIZE", "the transform size is invalid"},
      {CUFFT_UNALIGNED_DATA, "CUFFT_UNALIGNED_DATA", "the data is not aligned as required"},
      {CUFFT_INVALID_DEVICE, "CUFFT_INVALID_DEVICE", "the plan was made on another GPU"},
      {CUFFT_NO_WORKSPACE, "CUFFT_NO_WORKSPACE", "no work area was set"},
      {CUFFT_NOT_IMPLEMENTED, "CUFFT_NOT_IMPLEMENTED", "the feature is not implemented"},
      {CUFFT_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED", "the operation is not supported for these parameters"},
      {CUFFT_MISSING_DEPENDENCY, "CUFFT_MISSING_DEPENDENCY", "a library cuFFT needs is missing"},
      {CUFFT_NVRTC_FAILURE, "CUFFT_NVRTC_FAILURE", "run-time compilation (NVRTC) failed"},
      {CUFFT_NVJITLINK_FAILURE, "CUFFT_NVJITLINK_FAILURE", "run-time linking (nvJitLink) failed"},
      {CUFFT_NVSHMEM_FAILURE, "CUFFT_NVSHMEM_FAILURE", "NVSHMEM failed"},
  };
  for (const row& r : rows)
    if (r.status == s) {
      *text = r.text;
      return r.name;
    }
  *text = "a status this version of cunp does not know";
  return "CUFFT_UNKNOWN";
}

inline void check_cufft(cufftResult status, const char* call) {
  if (status == CUFFT_SUCCESS) return;
  const char* text = nullptr;
  const char* name = cufft_status_name(status, &text);
  throw_library_error("cuFFT", status, name, text, call);
}

}  // namespace cunp::detail::cuda

/// Checks a cuFFT call, naming it in the error.
#define CUNP_CUFFT_CHECK(call) ::cunp::detail::cuda::check_cufft((call), #call)

namespace cunp::detail::cuda {

/// A cuFFT plan (RAII) that holds no work area: it takes one from the pool, on the caller's
/// stream, at each use. The plan cache shares a plan between every thread of the process, and a
/// work area kept by the plan would be raced on by two streams running the plan at once; the
/// pool's stream-ordered blocks cannot be.
class cufft_plan {
 public:
  explicit cufft_plan(int dev) : dev_(dev) {
    device_scope scope(dev);
    CUNP_CUFFT_CHECK(cufftCreate(&h_));
    if (const cufftResult s = cufftSetAutoAllocation(h_, 0); s != CUFFT_SUCCESS) {
      cufftDestroy(h_);
      check_cufft(s, "cufftSetAutoAllocation");
    }
  }
  cufft_plan(const cufft_plan&) = delete;
  cufft_plan& operator=(const cufft_plan&) = delete;
  ~cufft_plan() {
    teardown_scope scope(dev_);
    if (scope.alive()) cufftDestroy(h_);
  }

  [[nodiscard]] int device() const noexcept { return dev_; }
  [[nodiscard]] std::size_t work_bytes() const noexcept { return work_bytes_; }

  /// Runs exec(cufftHandle) -> cufftResult (a cufftExec* call, `name` in errors) on the calling
  /// thread's current stream of the plan's device, with a work area from the pool. One use at a
  /// time: the bound stream and the work area are the plan's state. cufftSetStream is called
  /// only when the stream differs from the last use's, cufftSetWorkArea only when the area does.
  template <class F> void run(const char* name, F&& exec) {
    const std::lock_guard lock(mutex_);
    const cudaStream_t st = current_stream(dev_);
    device_scope scope(dev_);
    if (!bound_ || st != stream_) {
      CUNP_CUFFT_CHECK(cufftSetStream(h_, st));
      stream_ = st;
      bound_ = true;
    }
    const workspace work(dev_, work_bytes_);
    // cufftSetWorkArea costs microseconds of host time (bench/RESULTS.md, FFT): skipped when the
    // pool hands back the block the plan already holds (the usual case on one stream), which is
    // then ours again.
    if (work.data() != work_area_) {
      CUNP_CUFFT_CHECK(cufftSetWorkArea(h_, work.data()));
      work_area_ = work.data();
    }
    check_cufft(exec(h_), name);
  }

  /// The plan of `key` on `dev` from the plan cache, made on a miss by
  /// make(cufftHandle, std::size_t* work_bytes) -> cufftResult (a cufftMakePlan* call, `name`
  /// in errors). Its work-area bytes count against the cache's byte bound.
  template <class Make>
  static std::shared_ptr<cufft_plan> cached(int dev, const core::plan_key& key, const char* name,
                                            Make&& make) {
    return cached_plan<cufft_plan>(dev, key, [&] {
      auto plan = std::make_shared<cufft_plan>(dev);
      device_scope scope(dev);
      check_cufft(make(plan->h_, &plan->work_bytes_), name);
      return core::sized<cufft_plan>{plan, plan->work_bytes_};
    });
  }

 private:
  int dev_;
  cufftHandle h_ = 0;
  std::size_t work_bytes_ = 0;
  std::mutex mutex_;
  cudaStream_t stream_ = nullptr;
  bool bound_ = false;
  void* work_area_ = nullptr;  // the work area cuFFT was last given
};

}  // namespace cunp::detail::cuda
