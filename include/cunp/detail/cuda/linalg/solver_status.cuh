// cunp/detail/cuda/linalg/solver_status.cuh: what the CUDA backends of numpy.linalg share around
// cuSOLVER and cuBLAS's batched solvers: the calling thread's cuSOLVER params, the pointer arrays
// of the batched calls, and the failure report. A factorisation's `info` (one int per matrix) is
// never read on the host: a kernel queued after it claims the device's fault record
// (detail/indexing/fault.hpp) for the first matrix that failed, so the next wait for the device
// throws NumPy's LinAlgError, or the call itself under index_checking::eager.
#pragma once
#include <cusolverDn.h>

#include <cstdint>

#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/indexing/fault.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// The calling thread's cuSOLVER params object (default settings), made once.
inline cusolverDnParams_t cusolver_params() {
  struct holder {
    cusolverDnParams_t p = nullptr;
    holder() { CUNP_CUSOLVER_CHECK(cusolverDnCreateParams(&p)); }
    ~holder() { cusolverDnDestroyParams(p); }
  };
  thread_local holder h;
  return h.p;
}

/// out[z] = base + z * step: the pointer arrays of cuBLAS's batched calls.
template <class T> CUNP_KERNEL void pointers_kernel(T** out, T* base, index_t step, index_t count) {
  const index_t z = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (z < count) out[z] = base + z * step;
}

/// The first matrix z with info[z] > 0 claims the device's fault record as operation op
/// (commit_fault_kernel's protocol). One block: its threads read the infos side by side and the
/// smallest failing z wins (one thread reading them in turn waits on each load: 4096 of them
/// cost a few hundred microseconds). A template only so that the TUs that never launch it do
/// not compile it (a plain kernel in a header is compiled by every nvcc TU).
inline constexpr int linalg_fault_threads = 256;
template <int Unused = 0>
CUNP_KERNEL void commit_linalg_fault_kernel(index_fault* f, unsigned long long call,
                                            const int* info, index_t count, std::int32_t op) {
  __shared__ unsigned long long first;
  if (threadIdx.x == 0) first = ~0ull;
  __syncthreads();
  for (index_t z = threadIdx.x; z < count; z += blockDim.x)
    if (info[z] > 0) {
      atomicMin(&first, static_cast<unsigned long long>(z));
      break;
    }
  __syncthreads();
  if (threadIdx.x != 0 || first == ~0ull) return;
  if (atomicCAS(&f->owner, 0ull, call) != 0ull) return;  // an earlier fault is pending
  f->value = static_cast<index_t>(first);
  f->op = op;
  __threadfence();
  atomicExch(&f->ready, call);
}

/// Queues the check of the count infos of a factorisation: a failure surfaces as op's
/// LinAlgError at the next wait for the device (at once under index_checking::eager).
inline void report_linalg_failure(const ndarray<int>& info, index_t count, index_op op) {
  const fault_scope fs(info.device().index());
  commit_linalg_fault_kernel<<<1, linalg_fault_threads, 0, fs.stream()>>>(
      fs.record(), fs.call(), info.data(), count, static_cast<std::int32_t>(op));
  CUNP_CUDA_CHECK_LAUNCH("commit_linalg_fault_kernel");
  arm_index_faults(fs.dev(), stream_for(fs.dev()));
  if (get_index_checking() == index_checking::eager)
    wait_for_device(info.device(),
                    (std::string(index_op_name(op)) + " (index_checking::eager)").c_str());
}

}  // namespace cunp::detail::cuda
