// cunp/detail/cuda/core/cublaslt.cuh: cuBLASLt statuses and each thread's cuBLASLt handle.
#pragma once
#include <cublasLt.h>

#include "cunp/detail/cuda/core/library_error.cuh"
#include "cunp/detail/cuda/core/library_handle.cuh"

namespace cunp::detail::cuda {

inline void check_cublaslt(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw_library_error("cuBLASLt", status, cublasLtGetStatusName(status),
                        cublasLtGetStatusString(status), call);
}

// No bind: cublasLtMatmul takes its stream at each call. No math mode either: each matmul
// descriptor names its compute type (CUBLAS_COMPUTE_32F, never _FAST_TF32, unless a precision
// setting asks).
struct cublaslt_library {
  using handle = cublasLtHandle_t;
  static handle create() {
    handle h = nullptr;
    check_cublaslt(cublasLtCreate(&h), "cublasLtCreate");
    return h;
  }
  static void destroy(handle h) noexcept { cublasLtDestroy(h); }
};

/// The calling thread's cuBLASLt handle on `dev`.
inline cublasLtHandle_t cublaslt_handle(int dev) { return thread_handle<cublaslt_library>(dev); }

}  // namespace cunp::detail::cuda

/// Checks a cuBLASLt call, naming it in the error.
#define CUNP_CUBLASLT_CHECK(call) ::cunp::detail::cuda::check_cublaslt((call), #call)
