// cunp/detail/cuda/cuda.cuh: the CUDA backend, included by cunp.hpp only under nvcc.
#pragma once
#include "cunp/detail/cuda/cast.cuh"
#include "cunp/detail/cuda/creation.cuh"
#include "cunp/detail/cuda/elementwise.cuh"
#include "cunp/detail/cuda/reduce.cuh"
#include "cunp/detail/cuda/runtime.cuh"
#include "cunp/detail/cuda/scan.cuh"
#include "cunp/detail/cuda/sort.cuh"
