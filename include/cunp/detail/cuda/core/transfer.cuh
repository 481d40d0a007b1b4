// cunp/detail/cuda/core/transfer.cuh: host <-> device copies; host to device from pageable memory is
// staged through pinned buffers.
#pragma once
#include <cstring>
#include <mutex>

#include "cunp/detail/cuda/core/check.cuh"

namespace cunp::detail::cuda {

/// Two page-locked buffers: while the DMA engine moves one, the CPU fills the other (9 GB/s on
/// the H200 where the driver's own pageable path gave 7.6).
struct staging {
  static constexpr std::size_t chunk = std::size_t(8) << 20;
  static constexpr std::size_t direct = std::size_t(1) << 20;  // below this the driver's path wins
  std::mutex mutex;
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  void ensure() {
    if (buf[0]) return;
    for (int i = 0; i < 2; ++i) {
      CUNP_CUDA_CHECK(cudaHostAlloc(&buf[i], chunk, cudaHostAllocPortable));
      CUNP_CUDA_CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    }
  }
};
inline staging& staging_buffers() {
  static staging s;  // leaked at exit on purpose: the runtime may be gone by then
  return s;
}

inline void copy_to_device(int dev, void* dst, const void* src, std::size_t bytes, bool src_pinned) {
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  if (src_pinned || bytes <= staging::direct) {
    CUNP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, st));
    CUNP_CUDA_CHECK(cudaStreamSynchronize(st));  // the caller may reuse the host memory now
    return;
  }
  staging& s = staging_buffers();
  std::lock_guard lock(s.mutex);
  s.ensure();
  for (std::size_t pos = 0, i = 0; pos < bytes; pos += staging::chunk, i ^= 1) {
    const std::size_t n = std::min(staging::chunk, bytes - pos);
    CUNP_CUDA_CHECK(cudaEventSynchronize(s.done[i]));
    std::memcpy(s.buf[i], static_cast<const char*>(src) + pos, n);
    CUNP_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + pos, s.buf[i], n,
                                    cudaMemcpyHostToDevice, st));
    CUNP_CUDA_CHECK(cudaEventRecord(s.done[i], st));
  }
  CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
}

// Device to host goes straight through the driver: on the H200 its pageable path moved 16 GB/s
// where staging through our pinned buffers (plus a host memcpy) reached 9 (bench_memory).
inline void copy_to_host(int dev, void* dst, const void* src, std::size_t bytes, bool) {
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  CUNP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, st));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
}

}  // namespace cunp::detail::cuda
