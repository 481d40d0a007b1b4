// cunp/detail/cuda/core/library_error.cuh: a CUDA library's failed status as a cunp::cuda_error.
#pragma once
#include <string>

#include "cunp/errors.hpp"

namespace cunp::detail::cuda {

/// Throws cuda_error naming the library, the call, the status's name and what it means:
/// "cublasSgemm(...) failed: cuBLAS CUBLAS_STATUS_INVALID_VALUE: an invalid value was used".
[[noreturn]] inline void throw_library_error(const char* library, int status, const char* name,
                                             const char* text, const char* call) {
  throw cuda_error(status, call, std::string(library) + " " + name + ": " + text);
}

}  // namespace cunp::detail::cuda
