// cunp/detail/cuda/core/cublas.cuh: cuBLAS statuses and each thread's cuBLAS handle. Included by
// the linear-algebra backend only: <cunp/cunp.hpp> does not include cuBLAS's headers.
#pragma once
#include <cublas_v2.h>

#include "cunp/detail/cuda/core/library_error.cuh"
#include "cunp/detail/cuda/core/library_handle.cuh"

namespace cunp::detail::cuda {

inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw_library_error("cuBLAS", status, cublasGetStatusName(status),
                        cublasGetStatusString(status), call);
}

/// The math mode of every cuBLAS handle, chosen here alone: CUBLAS_DEFAULT_MATH computes float32
/// products in float32, as NumPy does (no TF32), until a precision setting asks for another.
inline cublasMath_t cublas_math_mode() { return CUBLAS_DEFAULT_MATH; }

struct cublas_library {
  using handle = cublasHandle_t;
  static handle create() {
    handle h = nullptr;
    check_cublas(cublasCreate(&h), "cublasCreate");
    if (const cublasStatus_t s = cublasSetMathMode(h, cublas_math_mode()); s != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(h);
      check_cublas(s, "cublasSetMathMode");
    }
    return h;
  }
  static void bind(handle h, cudaStream_t s) { check_cublas(cublasSetStream(h, s), "cublasSetStream"); }
  static void destroy(handle h) noexcept { cublasDestroy(h); }
};

/// The calling thread's cuBLAS handle on `dev`, bound to its current stream.
inline cublasHandle_t cublas_handle(int dev) { return thread_handle<cublas_library>(dev); }

}  // namespace cunp::detail::cuda

/// Checks a cuBLAS call, naming it in the error.
#define CUNP_CUBLAS_CHECK(call) ::cunp::detail::cuda::check_cublas((call), #call)
