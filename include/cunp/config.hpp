// cunp/config.hpp: version, compiler switches and the backend tag of this translation unit.
#pragma once

#define CUNP_VERSION_MAJOR 0
#define CUNP_VERSION_MINOR 1
#define CUNP_VERSION_PATCH 0

// CUNP_HD marks functions that run on host and device. The host code is identical in g++ and nvcc
// translation units, so inline functions keep one definition across a mixed program.
#if defined(__CUDACC__)
#define CUNP_HD __host__ __device__
#define CUNP_HAS_CUDA 1
#else
#define CUNP_HD
#define CUNP_HAS_CUDA 0
#endif

namespace cunp::detail {
// Which backend a translation unit compiles. Templates whose GPU path needs typed kernels take
// `class Backend = compiled_backend`, so the g++ and the nvcc instantiations have different
// mangled names and never replace each other at link time (One Definition Rule).
struct host_backend {};
struct cuda_backend {};
#if CUNP_HAS_CUDA
using compiled_backend = cuda_backend;
#else
using compiled_backend = host_backend;
#endif
}  // namespace cunp::detail
