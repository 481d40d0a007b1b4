// cunp/detail/cuda/indexing/gather.cuh: the CUDA backend of take, take_along_axis and choose
// (cunp/indexing.hpp). They only move elements, so the kernels are templated on the item size
// and the index dtype, not on the element type. A bad index is skipped and reported to the
// device's fault record (fault.cuh), never read.
#pragma once
#include "cunp/detail/cuda/indexing/fault.cuh"
#include "cunp/detail/cuda/indexing/index_loop.cuh"
#include "cunp/indexing.hpp"

namespace cunp::detail {

namespace cuda {

template <class Item, class I>
CUNP_KERNEL void gather_kernel(loop_layout<3> l, index_target t, index_mode mode, Item* out,
                               const I* idx, const Item* src, index_fault* f,
                               unsigned long long call) {
  for_index_groups(l, gather_index, idx, take_normalize{t.n, mode}, f, call,
                   [&](const auto&, const auto& off, const auto& k, const auto& ok) {
                     Item v[index_unroll];
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u]) v[u] = src[off[u][gather_base] + k[u] * t.stride];
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u]) out[off[u][gather_out]] = v[u];
                   });
}

template <class Item, class I>
CUNP_KERNEL void choose_kernel(choose_plan p, index_mode mode, Item* out, const I* idx,
                               index_fault* f, unsigned long long call) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < p.size;
       i += step) {
    std::int64_t oo = 0, io = 0;
    std::int64_t rest = i;
    for (int d = p.shape.ndim - 1; d >= 0; --d) {
      const std::int64_t e = p.shape.extent[d], q = rest / e, r = rest - q * e;
      oo += r * p.out[d];
      io += r * p.index[d];
      rest = q;
    }
    std::int64_t k = 0;
    if (!normalize_choice(index_value(idx[io]), p.count, mode, k)) {
      report_bad_index(f, call, i);
      continue;
    }
    out[oo] = static_cast<const Item*>(p.data[k])[offset_of(i, p.shape, p.strides[k])];
  }
}

/// The index operand of a choose plan as a layout (for the follow-up step).
inline loop_layout<1> choose_index_layout(const choose_plan& p) {
  loop_layout<1> l;
  l.shape = p.shape;
  std::copy(p.index, p.index + max_dims, l.strides[0].begin());
  l.size = p.size;
  return l;
}

}  // namespace cuda

/// take, take_along_axis (CUDA backend): one kernel over the result, then the follow-up step of
/// the fault record when the call checks its indices.
template <class T, class I>
void gather(cuda_backend, const gather_plan& p, const index_check& c, index_mode mode,
            const ndarray<T>& out, const ndarray<I>& idx, const ndarray<T>& src) {
  if (p.layout.size == 0 && !c.enabled) return;
  using Item = typename cuda::item_of<sizeof(T)>::type;
  const cuda::fault_scope fs(src.device().index());
  if (p.layout.size == 0) return fs.check_only(c, idx.data(), p.target.n);
  const unsigned grid = cuda::grid_for(fs.dev(), p.layout.size, cuda::index_unroll);
  cuda::gather_kernel<Item, I><<<grid, cuda::block_threads, 0, fs.stream()>>>(
      p.layout, p.target, mode, reinterpret_cast<Item*>(out.data()), idx.data(),
      reinterpret_cast<const Item*>(src.data()), fs.record(), fs.call());
  CUNP_CUDA_CHECK_LAUNCH("gather_kernel");
  if (c.enabled) fs.commit(c, operand_layout(p.layout, gather_index), idx.data(), p.target.n);
}

/// choose (CUDA backend): one kernel over the broadcast shape, its choices' pointers and strides
/// passed by value (up to 17 KB of parameters, which CUDA 12.1+ allows on sm_70 and later).
template <class T, class I>
void choose_into(cuda_backend, const choose_plan& p, const index_check& c, index_mode mode,
                 const ndarray<T>& out, const ndarray<I>& idx) {
  if (p.size == 0) return;
  using Item = typename cuda::item_of<sizeof(T)>::type;
  const cuda::fault_scope fs(out.device().index());
  cuda::choose_kernel<Item, I>
      <<<cuda::grid_for(fs.dev(), p.size), cuda::block_threads, 0, fs.stream()>>>(
          p, mode, reinterpret_cast<Item*>(out.data()), idx.data(), fs.record(), fs.call());
  CUNP_CUDA_CHECK_LAUNCH("choose_kernel");
  if (c.enabled) fs.commit(c, cuda::choose_index_layout(p), idx.data(), p.count);
}

}  // namespace cunp::detail
