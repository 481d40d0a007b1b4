// cunp/detail/cuda/core/runtime.cuh: fills the gpu_runtime table when a CUDA translation unit starts.
#pragma once
#include "cunp/detail/cuda/core/copy_kernels.cuh"
#include "cunp/detail/cuda/core/per_device.cuh"
#include "cunp/detail/cuda/core/plan_cache.cuh"
#include "cunp/detail/cuda/core/pool.cuh"
#include "cunp/detail/cuda/core/transfer.cuh"
#include "cunp/detail/cuda/indexing/fault.cuh"

namespace cunp::detail::cuda {

inline const gpu_runtime runtime_table = {
    device_count,
    allocate,
    deallocate,
    [](std::size_t bytes) {
      void* p = nullptr;
      CUNP_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
      return p;
    },
    [](void* p) { cudaFreeHost(p); },
    copy_to_device,
    copy_to_host,
    copy_strided,
    fill,
    tri_zero,
    [](int dev) {
      device_scope scope(dev);
      CUNP_CUDA_CHECK(cudaDeviceSynchronize());
    },
    [](int dev) -> void* {
      device_scope scope(dev);
      cudaStream_t s = nullptr;
      CUNP_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      return s;
    },
    [](int dev, void* s) {
      device_scope scope(dev);
      cudaStreamDestroy(static_cast<cudaStream_t>(s));
    },
    [](int dev, void* s) {
      device_scope scope(dev);
      CUNP_CUDA_CHECK(
          cudaStreamSynchronize(s ? static_cast<cudaStream_t>(s) : cudaStreamPerThread));
    },
    [](int dev) -> void* {
      device_scope scope(dev);
      cudaEvent_t e = nullptr;
      CUNP_CUDA_CHECK(cudaEventCreate(&e));
      return e;
    },
    [](int dev, void* e) {
      device_scope scope(dev);
      cudaEventDestroy(static_cast<cudaEvent_t>(e));
    },
    [](int dev, void* e, void* s) {
      device_scope scope(dev);
      CUNP_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(e),
                                      s ? static_cast<cudaStream_t>(s) : cudaStreamPerThread));
    },
    [](void* e) { CUNP_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(e))); },
    [](void* a, void* b) {
      float ms = 0;
      CUNP_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(a), static_cast<cudaEvent_t>(b)));
      return ms;
    },
    memory_stats,
    empty_cache,
    set_memory_limit,
    plan_cache_info,
    clear_plan_cache,
    take_index_fault,
};

// Every CUDA translation unit registers the same table; the first one at start-up wins.
inline const bool runtime_registered = (gpu_slot() = &runtime_table, true);

}  // namespace cunp::detail::cuda
