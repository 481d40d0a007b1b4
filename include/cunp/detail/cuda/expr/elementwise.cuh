// cunp/detail/cuda/expr/elementwise.cuh: the one kernel that evaluates any element-wise expression.
//
// Contiguous, aligned operands take the vector path: each thread loads 16 bytes of every operand
// at once and computes V elements. Anything else (broadcasting, strides, offsets) takes the
// strided path, which walks V elements of an innermost row per thread, in 32-bit index
// arithmetic when the size allows.
#pragma once
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/expr/expr.hpp"

namespace cunp::detail {

namespace cuda {

template <int N> struct slot_ptrs {
  const void* p[N];
};

// The element types of a bound tree's array leaves, in slot order.
template <class... T> struct type_list {};
template <class A, class B> struct concat;
template <class... A, class... B> struct concat<type_list<A...>, type_list<B...>> {
  using type = type_list<A..., B...>;
};
template <class Tree> struct leaf_types { using type = type_list<>; };
template <class T, int S> struct leaf_types<slot_leaf<T, S>> { using type = type_list<T>; };
template <class Op, class L, class O, int P> struct leaf_types<bound_node<Op, L, O, P>> {
  using type = type_list<>;
};
template <class Op, class L, class O, int P, class A, class... Rest>
struct leaf_types<bound_node<Op, L, O, P, A, Rest...>> {
  using type = typename concat<typename leaf_types<A>::type,
                               typename leaf_types<bound_node<Op, L, O, P, Rest...>>::type>::type;
};

/// Reads lane `lane` of the registers loaded for each slot.
template <class Regs> struct vec_indexer {
  const Regs* regs;
  int lane;
  template <int Slot, class T> __device__ T get() const { return tget<Slot - 1>(*regs).v[lane]; }
};

/// The strided path: a thread computes V consecutive elements of one innermost row, so the outer
/// dimensions' offsets cost one division chain per V elements, and an aligned contiguous output
/// row takes 16-byte stores, neighbouring threads writing neighbouring vectors (a[:, None] +
/// b[None, :] is bound by its writes). I: the index and offset type, 32-bit where the sizes and
/// every operand's reach allow.
template <int N, int V, class OutT, class Tree, class I>
CUNP_KERNEL void ew_strided_kernel(Tree tree, slot_ptrs<N> ptrs, loop_layout<N> l, I rows, I n0,
                                   bool vec_out) {
  const int nd = l.shape.ndim;
  I inner[N];
#pragma unroll
  for (int k = 0; k < N; ++k) inner[k] = nd > 0 ? I(l.strides[k][nd - 1]) : 0;
  const I per_row = (n0 + V - 1) / V;
  const I work = rows * per_row;
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  OutT* out = static_cast<OutT*>(const_cast<void*>(ptrs.p[0]));
  for (I w = blockIdx.x * blockDim.x + threadIdx.x; w < work; w += step) {
    const I row = w / per_row;
    const I j0 = (w - row * per_row) * V;
    I offs[N];
#pragma unroll
    for (int k = 0; k < N; ++k) offs[k] = j0 * inner[k];
    I rem = row;
    for (int d = nd - 2; d >= 0; --d) {
      I r = rem;  // the outermost dimension needs no division
      if (d > 0) {
        const I e = static_cast<I>(l.shape.extent[d]);
        const I q = rem / e;
        r = rem - q * e;
        rem = q;
      }
#pragma unroll
      for (int k = 0; k < N; ++k) offs[k] += r * I(l.strides[k][d]);
    }
    auto element = [&](int j) {
      I o[N];
#pragma unroll
      for (int k = 0; k < N; ++k) o[k] = offs[k] + I(j) * inner[k];
      return convert<OutT>(tree.eval(offset_indexer<N, I>{ptrs.p, o}));
    };
    if (vec_out && j0 + V <= n0) {
      vec<OutT, V> res;
#pragma unroll
      for (int j = 0; j < V; ++j) res.v[j] = element(j);
      *reinterpret_cast<vec<OutT, V>*>(out + offs[0]) = res;
    } else {
      const int jn = n0 - j0 < V ? int(n0 - j0) : V;
      for (int j = 0; j < jn; ++j) out[offs[0] + I(j) * inner[0]] = element(j);
    }
  }
}

template <int N, int V, class OutT, class Tree, class I, class... LeafT, std::size_t... K>
__device__ __forceinline__ void ew_vec_body(const Tree& tree, const slot_ptrs<N>& ptrs, I n,
                                            std::index_sequence<K...>) {
  using Regs = hd_tuple<vec<LeafT, V>...>;
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  const I nvec = n / V;
  auto* out = static_cast<vec<OutT, V>*>(const_cast<void*>(ptrs.p[0]));
  for (I w = blockIdx.x * blockDim.x + threadIdx.x; w < nvec; w += step) {
    const Regs regs{make_hd_tuple(static_cast<const vec<LeafT, V>*>(ptrs.p[K + 1])[w]...)};
    vec<OutT, V> res;
#pragma unroll
    for (int j = 0; j < V; ++j) res.v[j] = convert<OutT>(tree.eval(vec_indexer<Regs>{&regs, j}));
    out[w] = res;
  }
  for (I i = nvec * V + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {  // the tail
    std::int64_t offs[N];
#pragma unroll
    for (int k = 0; k < N; ++k) offs[k] = i;
    static_cast<OutT*>(const_cast<void*>(ptrs.p[0]))[i] = convert<OutT>(tree.eval(offset_indexer<N>{ptrs.p, offs}));
  }
}

template <int N, int V, class OutT, class Tree, class I, class... LeafT>
CUNP_KERNEL void ew_vec_kernel(Tree tree, slot_ptrs<N> ptrs, I n, type_list<LeafT...>*) {
  ew_vec_body<N, V, OutT, Tree, I, LeafT...>(tree, ptrs, n, std::index_sequence_for<LeafT...>());
}

template <class OutT, class... LeafT> constexpr int vec_width(type_list<LeafT...>*) {
  std::size_t widest = sizeof(OutT);
  ((widest = sizeof(LeafT) > widest ? sizeof(LeafT) : widest), ...);
  return widest >= 16 ? 1 : int(16 / widest);
}

}  // namespace cuda

/// The CUDA backend's evaluation of e into out (same device, out of e's shape).
template <class OutT, class E> void evaluate(cuda_backend, const ndarray<OutT>& out, const E& e) {
  check_same_device(out.device(), e.device(), "evaluate");
  const index_t n = out.size();
  if (n == 0) return;
  const bound_expr<E> b(out, e);
  if (b.output_overlaps_input()) {
    const ndarray<OutT> tmp(out.shape(), out.device());
    evaluate(cuda_backend{}, tmp, e);
    copy_same(out, tmp);
    return;
  }
  constexpr int N = bound_expr<E>::N;
  using Tree = typename bound_expr<E>::tree_type;
  using Leaves = typename cuda::leaf_types<Tree>::type;
  constexpr int V = cuda::vec_width<OutT>(static_cast<Leaves*>(nullptr));
  cuda::slot_ptrs<N> ptrs;
  for (int k = 0; k < N; ++k) ptrs.p[k] = b.ctx.ptrs[k];

  const int dev = out.device().index();
  cuda::device_scope scope(dev);
  const cudaStream_t st = cuda::current_stream(dev);
  bool contiguous = b.layout.shape.ndim <= 1;
  for (int k = 0; k < N && contiguous && b.layout.shape.ndim == 1; ++k) contiguous = b.layout.strides[k][0] == 1;
  bool aligned = true;
  [&]<class... LeafT>(cuda::type_list<LeafT...>*) {
    std::size_t k = 1;
    aligned = cuda::vec_aligned<OutT, V>(ptrs.p[0]);
    ((aligned = aligned && cuda::vec_aligned<LeafT, V>(ptrs.p[k++])), ...);
  }(static_cast<Leaves*>(nullptr));

  if (contiguous && aligned) {
    const unsigned grid = cuda::grid_for(dev, (n + V - 1) / V);
    if (n < (index_t(1) << 31))
      cuda::ew_vec_kernel<N, V, OutT, Tree, std::int32_t><<<grid, cuda::block_threads, 0, st>>>(
          b.tree, ptrs, std::int32_t(n), static_cast<Leaves*>(nullptr));
    else
      cuda::ew_vec_kernel<N, V, OutT, Tree, std::int64_t><<<grid, cuda::block_threads, 0, st>>>(
          b.tree, ptrs, n, static_cast<Leaves*>(nullptr));
  } else {
    // Rows of the innermost dimension; 16-byte stores when every output row starts aligned.
    constexpr int VS = sizeof(OutT) >= 16 ? 1 : int(16 / sizeof(OutT));
    const int nd = b.layout.shape.ndim;
    const index_t n0 = nd > 0 ? b.layout.shape.extent[nd - 1] : 1;
    bool vec_out = nd > 0 && b.layout.strides[0][nd - 1] == 1 &&
                   cuda::vec_aligned<OutT, VS>(ptrs.p[0]);
    for (int d = 0; d + 1 < nd && vec_out; ++d) vec_out = b.layout.strides[0][d] % VS == 0;
    const index_t rows = n / n0, work = rows * ((n0 + VS - 1) / VS);
    bool small = n < (index_t(1) << 31);  // and every operand's reach, for 32-bit offsets
    for (int k = 0; k < N && small; ++k) {
      index_t reach = 0;
      for (int d = 0; d < nd; ++d) reach += (b.layout.shape.extent[d] - 1) * std::abs(b.layout.strides[k][d]);
      small = reach < (index_t(1) << 31);
    }
    const unsigned grid = cuda::grid_for(dev, work);
    if (small)
      cuda::ew_strided_kernel<N, VS, OutT, Tree, std::int32_t><<<grid, cuda::block_threads, 0, st>>>(
          b.tree, ptrs, b.layout, std::int32_t(rows), std::int32_t(n0), vec_out);
    else
      cuda::ew_strided_kernel<N, VS, OutT, Tree, std::int64_t><<<grid, cuda::block_threads, 0, st>>>(
          b.tree, ptrs, b.layout, rows, n0, vec_out);
  }
  CUNP_CUDA_CHECK_LAUNCH("elementwise kernel");
}

}  // namespace cunp::detail
