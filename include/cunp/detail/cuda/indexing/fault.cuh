// cunp/detail/cuda/indexing/fault.cuh: the fault record of each GPU (detail/indexing/fault.hpp):
// how index kernels report a bad index, the follow-up step that completes the report, and the
// runtime table's entry that reads and clears it.
#pragma once
#include <atomic>

#include "cunp/detail/core/device_wait.hpp"
#include "cunp/detail/core/layout.hpp"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/indexing/plan.hpp"

namespace cunp::detail::cuda {

/// The fault record of GPU `dev`, made and zeroed on first use (leaked at exit on purpose: the
/// runtime may be gone by then). Zeroing waits once for the calling thread's stream, so that no
/// kernel on any stream sees the record before it is clean.
inline index_fault* fault_record(int dev) {
  static per_device<index_fault*> records;
  return records.get(dev, [](int d) {
    device_scope scope(d);
    void* p = nullptr;
    CUNP_CUDA_CHECK(cudaMalloc(&p, sizeof(index_fault)));
    const cudaStream_t st = current_stream(d);
    CUNP_CUDA_CHECK(cudaMemsetAsync(p, 0, sizeof(index_fault), st));
    CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
    return static_cast<index_fault*>(p);
  });
}

/// The runtime table's take_index_fault: after the calling thread's current stream, copies a
/// ready fault of `dev` to `out` and clears the record (waiting, so that a later call on any
/// stream finds it clean). Only called after a wait that an index kernel armed.
inline bool take_index_fault(int dev, index_fault* out) {
  device_scope scope(dev);
  index_fault* f = fault_record(dev);
  const cudaStream_t st = current_stream(dev);
  index_fault h{};
  CUNP_CUDA_CHECK(cudaMemcpyAsync(&h, f, sizeof(h), cudaMemcpyDeviceToHost, st));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
  if (h.ready == 0) return false;
  CUNP_CUDA_CHECK(cudaMemsetAsync(f, 0, sizeof(index_fault), st));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
  *out = h;
  return true;
}

/// Reports the bad index at position `pos` of call `call`: the first call to report claims the
/// record, and the smallest position of the owner's stays.
__device__ inline void report_bad_index(index_fault* f, unsigned long long call, std::int64_t pos) {
  const unsigned long long owner = *static_cast<volatile unsigned long long*>(&f->owner);
  if (owner != 0 && owner != call) return;
  const unsigned long long was = owner == 0 ? atomicCAS(&f->owner, 0ull, call) : call;
  if (was == 0 || was == call) atomicMax(&f->first, ~static_cast<unsigned long long>(pos));
}

/// The follow-up step of a call (one thread, after its kernels on the same stream): when the
/// call owns the record, reads its first bad index (position `first` of `indices`) and completes
/// the record, `ready` last.
template <class I>
CUNP_KERNEL void commit_fault_kernel(index_fault* f, unsigned long long call,
                                     loop_layout<1> indices, const I* idx, long long size,
                                     std::int32_t axis, std::int32_t op) {
  if (f->owner != call || f->ready != 0) return;
  std::int64_t off = 0;
  add_offsets(static_cast<std::int64_t>(~f->first), indices, &off);
  f->value = index_value(idx[off]);
  f->size = size;
  f->axis = axis;
  f->op = op;
  __threadfence();
  atomicExch(&f->ready, call);
}

/// The check alone, over the index array, for the calls whose iteration space is empty although
/// NumPy checks their indices (take and add_at with an empty trailing shape).
template <class I>
CUNP_KERNEL void check_indices_kernel(loop_layout<1> l, const I* idx, std::int64_t n,
                                      index_fault* f, unsigned long long call) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < l.size;
       i += step) {
    std::int64_t off = 0;
    add_offsets(i, l, &off);
    const std::int64_t v = index_value(idx[off]);
    if (v < -n || v >= n) report_bad_index(f, call, i);
  }
}

/// One index call on GPU `dev`, made current for its scope: the calling thread's current stream,
/// and the fault protocol's side of the call: a fresh call id and the record for its kernels,
/// then (commit) the follow-up step, which also arms this thread's next wait on the stream.
class fault_scope {
 public:
  explicit fault_scope(int dev)
      : scope_(dev),
        dev_(dev),
        stream_(current_stream(dev)),
        record_(fault_record(dev)),
        call_(next_call()) {}

  [[nodiscard]] int dev() const { return dev_; }
  [[nodiscard]] cudaStream_t stream() const { return stream_; }
  [[nodiscard]] index_fault* record() const { return record_; }
  [[nodiscard]] unsigned long long call() const { return call_; }

  /// Queues the follow-up step: positions count over `indices`, the layout of the index array
  /// over the iteration space that the call's kernels walked.
  template <class I>
  void commit(const index_check& c, const loop_layout<1>& indices, const I* idx,
              std::int64_t size) const {
    commit_fault_kernel<I><<<1, 1, 0, stream_>>>(record_, call_, indices, idx, size, c.axis,
                                                 static_cast<std::int32_t>(c.op));
    CUNP_CUDA_CHECK_LAUNCH("commit_fault_kernel");
    arm_index_faults(dev_, stream_for(dev_));
  }

  /// Checks the index array alone (check_indices_kernel), then commits.
  template <class I>
  void check_only(const index_check& c, const I* idx, std::int64_t n) const {
    if (c.indices.size == 0) return;
    check_indices_kernel<I><<<grid_for(dev_, c.indices.size), block_threads, 0, stream_>>>(
        c.indices, idx, n, record_, call_);
    CUNP_CUDA_CHECK_LAUNCH("check_indices_kernel");
    commit(c, c.indices, idx, n);
  }

 private:
  static unsigned long long next_call() {
    static std::atomic<unsigned long long> last{0};
    return ++last;
  }
  device_scope scope_;
  int dev_;
  cudaStream_t stream_;
  index_fault* record_;
  unsigned long long call_;
};

}  // namespace cunp::detail::cuda
