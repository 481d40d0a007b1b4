// cunp/detail/cuda/core/curand.cuh: cuRAND statuses. Included by the random backend only:
// <cunp/cunp.hpp> does not include cuRAND's headers.
#pragma once
#include <curand.h>

#include "cunp/detail/cuda/core/library_error.cuh"

namespace cunp::detail::cuda {

/// cuRAND has no status-string function: the names and meanings of curand.h's statuses.
inline const char* curand_status_name(curandStatus_t s, const char** text) {
  struct row {
    curandStatus_t status;
    const char *name, *text;
  };
  static constexpr row rows[] = {
      {CURAND_STATUS_VERSION_MISMATCH, "CURAND_STATUS_VERSION_MISMATCH", "the header and the linked library versions differ"},
      {CURAND_STATUS_NOT_INITIALIZED, "CURAND_STATUS_NOT_INITIALIZED", "the generator was not initialized"},
      {CURAND_STATUS_ALLOCATION_FAILED, "CURAND_STATUS_ALLOCATION_FAILED", "memory allocation failed"},
      {CURAND_STATUS_TYPE_ERROR, "CURAND_STATUS_TYPE_ERROR", "the generator is of the wrong type"},
      {CURAND_STATUS_OUT_OF_RANGE, "CURAND_STATUS_OUT_OF_RANGE", "an argument is out of range"},
      {CURAND_STATUS_LENGTH_NOT_MULTIPLE, "CURAND_STATUS_LENGTH_NOT_MULTIPLE", "the length is not a multiple of the dimension"},
      {CURAND_STATUS_DOUBLE_PRECISION_REQUIRED, "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED", "the GPU lacks the double precision the generator needs"},
      {CURAND_STATUS_LAUNCH_FAILURE, "CURAND_STATUS_LAUNCH_FAILURE", "a kernel launch failed"},
      {CURAND_STATUS_PREEXISTING_FAILURE, "CURAND_STATUS_PREEXISTING_FAILURE", "an earlier failure was pending when the call began"},
      {CURAND_STATUS_INITIALIZATION_FAILED, "CURAND_STATUS_INITIALIZATION_FAILED", "CUDA failed to initialize"},
      {CURAND_STATUS_ARCH_MISMATCH, "CURAND_STATUS_ARCH_MISMATCH", "the GPU does not support the requested feature"},
      {CURAND_STATUS_INTERNAL_ERROR, "CURAND_STATUS_INTERNAL_ERROR", "an internal library error"},
  };
  for (const row& r : rows)
    if (r.status == s) {
      *text = r.text;
      return r.name;
    }
  *text = "a status this version of cunp does not know";
  return "CURAND_STATUS_UNKNOWN";
}

inline void check_curand(curandStatus_t status, const char* call) {
  if (status == CURAND_STATUS_SUCCESS) return;
  const char* text = nullptr;
  const char* name = curand_status_name(status, &text);
  throw_library_error("cuRAND", status, name, text, call);
}

}  // namespace cunp::detail::cuda

/// Checks a cuRAND call, naming it in the error.
#define CUNP_CURAND_CHECK(call) ::cunp::detail::cuda::check_curand((call), #call)
