// cunp/detail/cuda/reduce/reduce.cuh: the reduction kernels.
//
// Two shapes of work, chosen from the layout (detail/reduce/reduction.hpp):
// - rows: the reduced elements of an output lie contiguous (sum(a, 1), full reductions). A block
//   reduces one output's row, its threads reading consecutive elements; when there are fewer
//   outputs than the GPU has block slots, each row is split into chunks over blockIdx.y.
// - columns: neighbouring outputs lie contiguous (sum(a, 0)) or rows are short. A thread reduces
//   one output, neighbouring threads reading neighbouring elements; the reduced range is split
//   over blockIdx.y when outputs alone cannot fill the GPU.
// Split work leaves one accumulator per chunk in a pool-backed scratch array, and a second kernel
// (a warp per output) combines and finishes them. A thread issues several loads before it
// combines any (four elements, or four 16-byte vectors on contiguous aligned rows; columns whose
// neighbouring outputs lie contiguous and aligned load 16 bytes for V outputs at once), and
// folds elements in with the reducer's fold, fold_batch or load_batch where it has them
// (reduce_ops.hpp).
#pragma once
#include <cstring>

#include "cunp/detail/cuda/expr/elementwise.cuh"
#include "cunp/detail/reduce/reduction.hpp"

namespace cunp::detail {

namespace cuda {

/// v of lane + delta, for any trivially copyable accumulator (moved as 32-bit words).
template <class T>
__device__ __forceinline__ T shuffle_down(const T& v, int delta) {
  constexpr int words = int((sizeof(T) + 3) / 4);
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}
/// The combination of v over the warp, in lane 0 (every lane must call).
template <class R>
__device__ __forceinline__ typename R::acc warp_combine(const R& r, typename R::acc v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v = r.combine(v, shuffle_down(v, d));
  return v;
}
/// The combination of v over the block, in thread 0 (every thread must call). Own code rather
/// than cub::BlockReduce: CUB's headers would cost every TU that includes cunp.hpp seconds.
template <int Threads, class R>
__device__ __forceinline__ typename R::acc block_combine(const R& r, typename R::acc v,
                                                         typename R::acc* smem) {
  v = warp_combine(r, v);
  if (threadIdx.x % 32 == 0) smem[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < Threads / 32 ? smem[threadIdx.x] : r.identity();
    v = warp_combine(r, v);
  }
  __syncthreads();  // smem is reused by the caller's next output
  return v;
}

template <class R, class Tree, int N>
struct reduce_args {
  R r;
  Tree tree;
  slot_ptrs<N> ptrs;
  loop_layout<N> kept, red;
  std::int64_t M, K, chunk;
  typename R::acc* partial;  // [split][M] when the reduced range is split
};

/// Reduces elements lo, lo + step, ... < hi of the output whose offsets are `base`.
template <class R, class Tree, int N>
__device__ __forceinline__ typename R::acc reduce_range(const reduce_args<R, Tree, N>& a,
                                                        const std::int64_t* base,
                                                        std::int64_t lo, std::int64_t hi,
                                                        std::int64_t step) {
  const bool flat = a.red.shape.ndim <= 1;
  std::int64_t rs[N];
#pragma unroll
  for (int k = 0; k < N; ++k) rs[k] = a.red.shape.ndim == 1 ? a.red.strides[k][0] : 0;
  auto element = [&](std::int64_t i) {
    std::int64_t offs[N];
#pragma unroll
    for (int k = 0; k < N; ++k) offs[k] = base[k] + (flat ? i * rs[k] : 0);
    if (!flat) add_offsets(i, a.red, offs);
    return a.tree.eval(offset_indexer<N>{a.ptrs.p, offs});
  };
  auto s0 = a.r.identity(), s1 = s0, s2 = s0, s3 = s0;
  std::int64_t i = lo;
  for (; i + 3 * step < hi; i += 4 * step) {
    // All four loads before any combine (see reduce_vectors).
    const auto x0 = element(i), x1 = element(i + step), x2 = element(i + 2 * step),
               x3 = element(i + 3 * step);
    s0 = fold_in(a.r, s0, x0, i);
    s1 = fold_in(a.r, s1, x1, i + step);
    s2 = fold_in(a.r, s2, x2, i + 2 * step);
    s3 = fold_in(a.r, s3, x3, i + 3 * step);
  }
  for (; i < hi; i += step) s0 = fold_in(a.r, s0, element(i), i);
  return a.r.combine(a.r.combine(s0, s1), a.r.combine(s2, s3));
}

/// The result of output m (one chunk: finished in place; several: its chunk's accumulator).
template <class R, class Tree, int N>
__device__ __forceinline__ void store(const reduce_args<R, Tree, N>& a, std::int64_t m,
                                      std::int64_t out_offset, const typename R::acc& v) {
  if (gridDim.y == 1)
    static_cast<typename R::out*>(const_cast<void*>(a.ptrs.p[0]))[out_offset] = a.r.finish(v, a.K);
  else
    a.partial[blockIdx.y * a.M + m] = v;
}

/// reduce_range over contiguous, aligned rows: every operand loads V elements (16 bytes for the
/// widest) at once, as the element-wise vector path does; the tail past the last whole vector
/// is left to reduce_range.
template <int V, class R, class Tree, int N, class... LeafT, std::size_t... K>
__device__ __forceinline__ typename R::acc reduce_vectors(const reduce_args<R, Tree, N>& a,
                                                          const std::int64_t* base,
                                                          std::int64_t lo, std::int64_t hi,
                                                          std::int64_t step, type_list<LeafT...>*,
                                                          std::index_sequence<K...>) {
  using Regs = hd_tuple<vec<LeafT, V>...>;
  // Batches of U vectors per operand (64 bytes a thread) are all loaded before any is combined,
  // so that they are in flight together whatever branches a combine takes. A reducer with
  // load_batch merges once a batch: batches twice as long halve those merges. (The measurements
  // behind both: bench/RESULTS.md, "Measurements behind code choices".)
  using T = typename Tree::value_type;
  constexpr int U0 = sizeof...(LeafT) >= 4 ? 1 : 4 / int(sizeof...(LeafT));
  constexpr int U = batch_reducer<R, T, 2 * U0 * V> ? 2 * U0 : U0;
  constexpr bool folds_batches = run_batch_reducer<R, T>;
  // One accumulator per lane: V independent chains of combines (max of 2^28 float32 went from
  // 0.89 to 0.95 of copy with them).
  typename R::acc s[V];
#pragma unroll
  for (int j = 0; j < V; ++j) s[j] = a.r.identity();
  auto load = [&](std::int64_t w) {
    return Regs{make_hd_tuple((static_cast<const vec<LeafT, V>*>(static_cast<const void*>(
        static_cast<const LeafT*>(a.ptrs.p[K + 1]) + base[K + 1])))[w]...)};
  };
  auto fold = [&](const Regs& regs, std::int64_t w) {
#pragma unroll
    for (int j = 0; j < V; ++j)
      s[j] = fold_in(a.r, s[j], a.tree.eval(vec_indexer<Regs>{&regs, j}), w * V + j);
  };
  std::int64_t w = lo / V + threadIdx.x;
  for (; w + (U - 1) * step < hi / V; w += U * step) {
    Regs regs[U];
#pragma unroll
    for (int u = 0; u < U; ++u) regs[u] = load(w + u * step);
    if constexpr (batch_reducer<R, T, U * V> || folds_batches) {
      T x[U * V];
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int j = 0; j < V; ++j) x[u * V + j] = a.tree.eval(vec_indexer<Regs>{&regs[u], j});
      // s[0] takes the batches in order, so fold_batch's elements come after all it holds.
      if constexpr (folds_batches)
        s[0] = a.r.template fold_batch<V>(s[0], x, w * V, step * V);
      else
        s[0] = a.r.combine(s[0], a.r.load_batch(x));
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u) fold(regs[u], w + u * step);
    }
  }
  for (; w < hi / V; w += step) fold(load(w), w);
#pragma unroll
  for (int j = 1; j < V; ++j) s[0] = a.r.combine(s[0], s[j]);
  return a.r.combine(s[0], reduce_range(a, base, hi / V * V + threadIdx.x, hi, step));
}

template <int Threads, int V, class R, class Tree, int N>
CUNP_KERNEL void __launch_bounds__(Threads) reduce_rows_kernel(reduce_args<R, Tree, N> a, bool vec) {
  using leaves = typename leaf_types<Tree>::type;
  using acc = typename R::acc;  // raw storage: complex accumulators have constructors
  __shared__ alignas(alignof(acc)) unsigned char smem_bytes[sizeof(acc) * (Threads / 32)];
  acc* smem = reinterpret_cast<acc*>(smem_bytes);
  const std::int64_t lo = blockIdx.y * a.chunk;
  const std::int64_t hi = lo + a.chunk < a.K ? lo + a.chunk : a.K;
  for (std::int64_t m = blockIdx.x; m < a.M; m += gridDim.x) {
    std::int64_t base[N] = {};
    add_offsets(m, a.kept, base);
    auto v = vec ? reduce_vectors<V>(a, base, lo, hi, Threads, static_cast<leaves*>(nullptr),
                                     std::make_index_sequence<N - 1>())
                 : reduce_range(a, base, lo + threadIdx.x, hi, Threads);
    v = block_combine<Threads>(a.r, v, smem);
    if (threadIdx.x == 0) store(a, m, base[0], v);
  }
}

template <class R, class Tree, int N>
CUNP_KERNEL void reduce_cols_kernel(reduce_args<R, Tree, N> a) {
  const std::int64_t m = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (m >= a.M) return;
  const std::int64_t lo = blockIdx.y * a.chunk;
  const std::int64_t hi = lo + a.chunk < a.K ? lo + a.chunk : a.K;
  std::int64_t base[N] = {};
  add_offsets(m, a.kept, base);
  store(a, m, base[0], reduce_range(a, base, lo, hi, 1));
}

/// reduce_cols_kernel for V neighbouring outputs per thread whose elements lie contiguous and
/// aligned in every operand (sum(a, 0) of a C-ordered matrix): one 16-byte load per operand and
/// reduced element feeds V accumulators, so a thread keeps 16-byte loads in flight where the
/// scalar kernel keeps 4-byte ones. The reduced layout is one dimension (stride rs per operand).
template <int V, class R, class Tree, int N, class... LeafT, std::size_t... K>
__device__ __forceinline__ void reduce_vec_cols(const reduce_args<R, Tree, N>& a,
                                                type_list<LeafT...>*, std::index_sequence<K...>) {
  using Regs = hd_tuple<vec<LeafT, V>...>;
  const std::int64_t m0 = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * V;
  if (m0 >= a.M) return;
  const std::int64_t lo = blockIdx.y * a.chunk;
  const std::int64_t hi = lo + a.chunk < a.K ? lo + a.chunk : a.K;
  std::int64_t base[N] = {};
  add_offsets(m0, a.kept, base);
  typename R::acc s[V];
#pragma unroll
  for (int j = 0; j < V; ++j) s[j] = a.r.identity();
#pragma unroll 4
  for (std::int64_t i = lo; i < hi; ++i) {
    const Regs regs{make_hd_tuple(*static_cast<const vec<LeafT, V>*>(static_cast<const void*>(
        static_cast<const LeafT*>(a.ptrs.p[K + 1]) + base[K + 1] +
        i * a.red.strides[K + 1][0]))...)};
#pragma unroll
    for (int j = 0; j < V; ++j)
      s[j] = fold_in(a.r, s[j], a.tree.eval(vec_indexer<Regs>{&regs, j}), i);
  }
  const std::int64_t out_step = a.kept.strides[0][a.kept.shape.ndim - 1];
#pragma unroll
  for (int j = 0; j < V; ++j) store(a, m0 + j, base[0] + j * out_step, s[j]);
}
template <int V, class R, class Tree, int N>
CUNP_KERNEL void reduce_vec_cols_kernel(reduce_args<R, Tree, N> a) {
  reduce_vec_cols<V>(a, static_cast<typename leaf_types<Tree>::type*>(nullptr),
                     std::make_index_sequence<N - 1>());
}

inline constexpr int finish_warps = 4;

template <class R, int N>
CUNP_KERNEL void reduce_finish_kernel(R r, const typename R::acc* partial, int splits,
                                      std::int64_t M, std::int64_t K, void* out,
                                      loop_layout<N> kept) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t m = blockIdx.x * std::int64_t(finish_warps) + warp;
  if (m >= M) return;  // the whole warp
  auto v = r.identity();
  for (int s = lane; s < splits; s += 32) v = r.combine(v, partial[s * M + m]);
  v = warp_combine(r, v);
  if (lane == 0) {
    std::int64_t offs[N] = {};
    add_offsets(m, kept, offs);
    static_cast<typename R::out*>(out)[offs[0]] = r.finish(v, K);
  }
}

}  // namespace cuda

/// The CUDA backend's reduction on device `dev` (detail/reduce/reduction.hpp binds and checks).
template <class R, class X>
void reduce_run(cuda_backend, int dev, const bound_reduction<X>& b, const R& r) {
  constexpr int N = bound_reduction<X>::N;
  using Tree = typename bound_reduction<X>::tree_type;
  using acc = typename R::acc;
  constexpr int threads = cuda::block_threads;
  cuda::reduce_args<R, Tree, N> a{r, b.tree, {}, b.kept, b.red, b.kept.size, b.red.size, 0, nullptr};
  for (int k = 0; k < N; ++k) a.ptrs.p[k] = b.ctx.ptrs[k];
  const std::int64_t M = a.M, K = a.K;
  using leaves = typename cuda::leaf_types<Tree>::type;
  constexpr int V = cuda::vec_width<std::uint8_t>(static_cast<leaves*>(nullptr));

  // Rows when each output's elements are contiguous (or there is one output), else columns.
  bool contiguous_rows = b.red.shape.ndim > 0;
  for (int k = 1; k < N && contiguous_rows; ++k) {
    const std::int64_t s = b.red.strides[k][b.red.shape.ndim - 1];
    contiguous_rows = s == 0 || s == 1;
  }
  const bool rows = M == 1 || (contiguous_rows && K >= 128);

  // Columns of V outputs per thread: one reduced dimension, the kept innermost dimension
  // contiguous in every operand, and every vector of V elements starting aligned.
  bool vec_cols = !rows && V > 1 && b.red.shape.ndim == 1 && b.kept.shape.ndim > 0 &&
                  b.kept.shape.extent[b.kept.shape.ndim - 1] % V == 0;
  [&]<class... LeafT>(cuda::type_list<LeafT...>*) {
    int k = 1;
    ((vec_cols = vec_cols && b.kept.strides[k][b.kept.shape.ndim - 1] == 1 &&
                 b.red.strides[k][0] % V == 0 &&
                 cuda::vec_aligned<LeafT, V>(a.ptrs.p[k]) &&
                 [&] {
                   for (int d = 0; d + 1 < b.kept.shape.ndim; ++d)
                     if (b.kept.strides[k][d] % V != 0) return false;
                   return true;
                 }(),
      ++k),
     ...);
  }(static_cast<leaves*>(nullptr));
  const std::int64_t col_threads = vec_cols ? M / V : M;

  cuda::device_scope scope(dev);
  const cudaStream_t st = cuda::current_stream(dev);
  const std::int64_t sms = cuda::sm_count(dev);
  // Row chunks: two waves of blocks (4 resident per SM), one wave for reducers with fold_batch
  // (argmax, argmin): measured, not derived (bench/RESULTS.md, "Measurements behind code
  // choices").
  const std::int64_t row_blocks = sms * (run_batch_reducer<R, typename Tree::value_type> ? 4 : 8);
  std::int64_t splits = 1;
  if (rows && M < row_blocks)
    splits = std::clamp<std::int64_t>((row_blocks + M - 1) / M, 1,
                                      std::max<std::int64_t>(1, K / 4096));
  else if (!rows && col_threads < sms * 2048)
    splits = std::clamp<std::int64_t>((sms * 2048 + col_threads - 1) / col_threads, 1,
                                      std::max<std::int64_t>(1, K / 64));
  splits = std::min<std::int64_t>(splits, 65535);
  a.chunk = std::max<std::int64_t>(1, (K + splits - 1) / splits);
  if (splits > 1) a.chunk = (a.chunk + V - 1) / V * V;  // chunks start on whole vectors
  splits = std::max<std::int64_t>(1, (K + a.chunk - 1) / a.chunk);

  ndarray<std::uint8_t> scratch;
  if (splits > 1) {
    scratch = ndarray<std::uint8_t>(shape_t{index_t(splits * M * sizeof(acc))}, cunp::cuda(dev));
    a.partial = reinterpret_cast<acc*>(scratch.data());
  }
  if (rows) {
    // Vector loads when every operand's rows are contiguous and start on a vector boundary.
    bool vec = V > 1 && b.red.shape.ndim == 1;
    [&]<class... LeafT>(cuda::type_list<LeafT...>*) {
      int k = 1;
      ((vec = vec && b.red.strides[k][0] == 1 &&
              cuda::vec_aligned<LeafT, V>(a.ptrs.p[k]) &&
              [&] {
                for (int d = 0; d < b.kept.shape.ndim; ++d)
                  if (b.kept.strides[k][d] % V != 0) return false;
                return true;
              }(),
        ++k),
       ...);
    }(static_cast<leaves*>(nullptr));
    const dim3 grid(unsigned(std::min<std::int64_t>(M, 0x7fffffff)), unsigned(splits));
    cuda::reduce_rows_kernel<threads, V><<<grid, threads, 0, st>>>(a, vec);
  } else {
    const int block = int(std::min<std::int64_t>(threads, (col_threads + 31) / 32 * 32));
    const dim3 grid(unsigned((col_threads + block - 1) / block), unsigned(splits));
    if (vec_cols)
      cuda::reduce_vec_cols_kernel<V><<<grid, block, 0, st>>>(a);
    else
      cuda::reduce_cols_kernel<<<grid, block, 0, st>>>(a);
  }
  CUNP_CUDA_CHECK_LAUNCH("reduction kernel");
  if (splits > 1) {
    const unsigned grid = unsigned((M + cuda::finish_warps - 1) / cuda::finish_warps);
    cuda::reduce_finish_kernel<R, N><<<grid, 32 * cuda::finish_warps, 0, st>>>(
        r, a.partial, int(splits), M, K, const_cast<void*>(a.ptrs.p[0]), b.kept);
    CUNP_CUDA_CHECK_LAUNCH("reduction finish kernel");
  }
}

}  // namespace cunp::detail
