// cunp/detail/cuda/core/cusolver.cuh: cuSOLVER (dense) statuses, its `info` outputs, and each
// thread's cuSOLVER handle. Included by the linear-algebra backend only: <cunp/cunp.hpp> does
// not include cuSOLVER's headers.
#pragma once
#include <cusolverDn.h>

#include <string>
#include <vector>

#include "cunp/detail/cuda/core/library_error.cuh"
#include "cunp/detail/cuda/core/library_handle.cuh"
#include "cunp/memory.hpp"

namespace cunp::detail::cuda {

/// cuSOLVER has no status-string function: the names and meanings of cusolver_common.h's statuses.
inline const char* cusolver_status_name(cusolverStatus_t s, const char** text) {
  struct row {
    cusolverStatus_t status;
    const char *name, *text;
  };
  static constexpr row rows[] = {
      {CUSOLVER_STATUS_NOT_INITIALIZED, "CUSOLVER_STATUS_NOT_INITIALIZED", "the library was not initialized"},
      {CUSOLVER_STATUS_ALLOC_FAILED, "CUSOLVER_STATUS_ALLOC_FAILED", "resource allocation failed"},
      {CUSOLVER_STATUS_INVALID_VALUE, "CUSOLVER_STATUS_INVALID_VALUE", "an invalid value was passed"},
      {CUSOLVER_STATUS_ARCH_MISMATCH, "CUSOLVER_STATUS_ARCH_MISMATCH", "the device lacks a feature the call needs"},
      {CUSOLVER_STATUS_MAPPING_ERROR, "CUSOLVER_STATUS_MAPPING_ERROR", "access to GPU memory failed"},
      {CUSOLVER_STATUS_EXECUTION_FAILED, "CUSOLVER_STATUS_EXECUTION_FAILED", "a kernel failed to run"},
      {CUSOLVER_STATUS_INTERNAL_ERROR, "CUSOLVER_STATUS_INTERNAL_ERROR", "an internal operation failed"},
      {CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED, "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "the matrix type is not supported"},
      {CUSOLVER_STATUS_NOT_SUPPORTED, "CUSOLVER_STATUS_NOT_SUPPORTED", "the parameters or the operation are not supported"},
      {CUSOLVER_STATUS_ZERO_PIVOT, "CUSOLVER_STATUS_ZERO_PIVOT", "a zero pivot was met"},
      {CUSOLVER_STATUS_INVALID_LICENSE, "CUSOLVER_STATUS_INVALID_LICENSE", "invalid license"},
      {CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED, "CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED", "the iterative-refinement parameters were not initialized"},
      {CUSOLVER_STATUS_IRS_PARAMS_INVALID, "CUSOLVER_STATUS_IRS_PARAMS_INVALID", "invalid iterative-refinement parameters"},
      {CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC", "invalid iterative-refinement precision"},
      {CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE", "invalid iterative-refinement solver"},
      {CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER", "invalid iterative-refinement iteration count"},
      {CUSOLVER_STATUS_IRS_INTERNAL_ERROR, "CUSOLVER_STATUS_IRS_INTERNAL_ERROR", "iterative refinement failed internally"},
      {CUSOLVER_STATUS_IRS_NOT_SUPPORTED, "CUSOLVER_STATUS_IRS_NOT_SUPPORTED", "iterative refinement is not supported"},
      {CUSOLVER_STATUS_IRS_OUT_OF_RANGE, "CUSOLVER_STATUS_IRS_OUT_OF_RANGE", "iterative refinement went out of range"},
      {CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES, "CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES", "GMRES refinement takes one right-hand side"},
      {CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED, "CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED", "the iterative-refinement infos were not initialized"},
      {CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED, "CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED", "the iterative-refinement infos were not destroyed"},
      {CUSOLVER_STATUS_IRS_MATRIX_SINGULAR, "CUSOLVER_STATUS_IRS_MATRIX_SINGULAR", "the matrix is singular"},
      {CUSOLVER_STATUS_INVALID_WORKSPACE, "CUSOLVER_STATUS_INVALID_WORKSPACE", "the workspace is invalid or too small"},
  };
  for (const row& r : rows)
    if (r.status == s) {
      *text = r.text;
      return r.name;
    }
  *text = "a status this version of cunp does not know";
  return "CUSOLVER_STATUS_UNKNOWN";
}

inline void check_cusolver(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  const char* text = nullptr;
  const char* name = cusolver_status_name(status, &text);
  throw_library_error("cuSOLVER", status, name, text, call);
}

/// The math mode of every cuSOLVER handle, chosen here alone: CUSOLVER_DEFAULT_MATH (no
/// float32 emulation through bfloat16), until a precision setting asks for another.
inline cusolverMathMode_t cusolver_math_mode() { return CUSOLVER_DEFAULT_MATH; }

struct cusolver_library {
  using handle = cusolverDnHandle_t;
  static handle create() {
    handle h = nullptr;
    check_cusolver(cusolverDnCreate(&h), "cusolverDnCreate");
    if (const cusolverStatus_t s = cusolverDnSetMathMode(h, cusolver_math_mode());
        s != CUSOLVER_STATUS_SUCCESS) {
      cusolverDnDestroy(h);
      check_cusolver(s, "cusolverDnSetMathMode");
    }
    return h;
  }
  static void bind(handle h, cudaStream_t s) { check_cusolver(cusolverDnSetStream(h, s), "cusolverDnSetStream"); }
  static void destroy(handle h) noexcept { cusolverDnDestroy(h); }
};

/// The calling thread's cuSOLVER dense handle on `dev`, bound to its current stream.
inline cusolverDnHandle_t cusolver_handle(int dev) { return thread_handle<cusolver_library>(dev); }

/// Reads the `count` device ints that a cuSOLVER call `call` wrote as its info (one per matrix of
/// a batch) once the calling thread's current stream of `dev` has reached them, and throws for
/// the first that is not 0: linalg_error(`failed`) for info > 0, what the matrix is (NumPy's
/// LinAlgError: "Singular matrix"), and cuda_error for info < 0, a parameter that cunp passed
/// wrongly. This waits for the device, so it throws device_error under allow_synchronize(false).
inline void check_cusolver_info(int dev, const int* info, std::size_t count, const char* call,
                                const std::string& failed) {
  check_synchronize_allowed((std::string("reading the info of ") + call).c_str());
  std::vector<int> host(count);
  const cudaStream_t st = current_stream(dev);
  {
    device_scope scope(dev);
    CUNP_CUDA_CHECK(cudaMemcpyAsync(host.data(), info, count * sizeof(int), cudaMemcpyDeviceToHost, st));
    CUNP_CUDA_CHECK(cudaStreamSynchronize(st));
  }
  for (const int i : host) {
    if (i > 0) throw linalg_error(failed);
    if (i < 0)
      throw cuda_error(CUSOLVER_STATUS_INVALID_VALUE, call,
                       "cuSOLVER info " + std::to_string(i) + ": parameter " + std::to_string(-i) +
                           " of " + call + " had an illegal value");
  }
}

}  // namespace cunp::detail::cuda

/// Checks a cuSOLVER call, naming it in the error.
#define CUNP_CUSOLVER_CHECK(call) ::cunp::detail::cuda::check_cusolver((call), #call)
