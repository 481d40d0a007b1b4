// cunp/cunp.hpp: NumPy for NVIDIA GPUs. Include this one header.
//
// Compiled by a host compiler it gives the cpu backend; compiled by nvcc it adds the CUDA backend.
#pragma once

#include "cunp/checking.hpp"
#include "cunp/compare.hpp"
#include "cunp/config.hpp"
#include "cunp/creation.hpp"
#include "cunp/decompositions.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/einsum.hpp"
#include "cunp/errors.hpp"
#include "cunp/fft.hpp"
#include "cunp/indexing.hpp"
#include "cunp/io.hpp"
#include "cunp/joining.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/memory.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/padding.hpp"
#include "cunp/print.hpp"
#include "cunp/products.hpp"
#include "cunp/profiler.hpp"
#include "cunp/random.hpp"
#include "cunp/promotion.hpp"
#include "cunp/rearranging.hpp"
#include "cunp/reduce.hpp"
#include "cunp/scan.hpp"
#include "cunp/selection.hpp"
#include "cunp/shape.hpp"
#include "cunp/sort.hpp"
#include "cunp/stream.hpp"
#include "cunp/testing.hpp"
#include "cunp/tiling.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/ufunc_methods.hpp"
#include "cunp/view.hpp"

#if CUNP_HAS_CUDA
#include "cunp/detail/cuda/cuda.cuh"
#endif
