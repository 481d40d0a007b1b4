// cunp/detail/cuda/core/cusparse.cuh: cuSPARSE statuses and each thread's cuSPARSE handle.
// Included by the sparse backend only: <cunp/cunp.hpp> does not include cuSPARSE's headers.
#pragma once
#include <cusparse.h>

#include "cunp/detail/cuda/core/library_error.cuh"
#include "cunp/detail/cuda/core/library_handle.cuh"

namespace cunp::detail::cuda {

inline void check_cusparse(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw_library_error("cuSPARSE", status, cusparseGetErrorName(status),
                        cusparseGetErrorString(status), call);
}

// No math mode to set: cuSPARSE's generic calls take the compute type per call.
struct cusparse_library {
  using handle = cusparseHandle_t;
  static handle create() {
    handle h = nullptr;
    check_cusparse(cusparseCreate(&h), "cusparseCreate");
    return h;
  }
  static void bind(handle h, cudaStream_t s) { check_cusparse(cusparseSetStream(h, s), "cusparseSetStream"); }
  static void destroy(handle h) noexcept { cusparseDestroy(h); }
};

/// The calling thread's cuSPARSE handle on `dev`, bound to its current stream.
inline cusparseHandle_t cusparse_handle(int dev) { return thread_handle<cusparse_library>(dev); }

}  // namespace cunp::detail::cuda

/// Checks a cuSPARSE call, naming it in the error.
#define CUNP_CUSPARSE_CHECK(call) ::cunp::detail::cuda::check_cusparse((call), #call)
