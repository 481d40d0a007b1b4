// cunp/detail/cuda/cuda.cuh: the CUDA backend, included by cunp.hpp only under nvcc.
#pragma once
#include "cunp/detail/cuda/core/cast.cuh"
#include "cunp/detail/cuda/core/runtime.cuh"
#include "cunp/detail/cuda/creation/generate.cuh"
#include "cunp/detail/cuda/expr/elementwise.cuh"
#include "cunp/detail/cuda/indexing/gather.cuh"
#include "cunp/detail/cuda/indexing/scatter.cuh"
#include "cunp/detail/cuda/indexing/select.cuh"
#include "cunp/detail/cuda/manipulation/repeat.cuh"
#include "cunp/detail/cuda/pad/index_map.cuh"
#include "cunp/detail/cuda/reduce/reduce.cuh"
#include "cunp/detail/cuda/scan/scan.cuh"
#include "cunp/detail/cuda/sort/sort.cuh"
