// cunp/detail/cuda/indexing/scatter.cuh: the CUDA backend of put, put_along_axis and the add_at
// family (cunp/indexing.hpp).
//
// put and put_along_axis keep NumPy's rule that of repeated indices the last write stays, made
// deterministic in two passes: the first raises, per target element, the largest position that
// writes it (atomicMax in a zeroed table of the target's size), the second writes where the
// position is the winner. The add_at family updates with atomics: native adds of the 32- and
// 64-bit integers and floats (complex numbers part by part), native max and min of the 32- and
// 64-bit integers, and otherwise a compare-and-swap loop (on the 32-bit word that holds a 1- or
// 2-byte element), or for 16-byte elements a short lock from a hashed table.
#pragma once
#include <bit>
#include <optional>
#include <type_traits>

#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/indexing/fault.cuh"
#include "cunp/detail/cuda/indexing/index_loop.cuh"
#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/indexing.hpp"

namespace cunp::detail {

namespace cuda {

template <class W, class I>
CUNP_KERNEL void claim_kernel(loop_layout<4> l, index_target t, index_mode mode, const I* idx,
                              W* winner, index_fault* f, unsigned long long call) {
  for_index_groups(l, scatter_index, idx, take_normalize{t.n, mode}, f, call,
                   [&](const auto& pos, const auto& off, const auto& k, const auto& ok) {
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u])
                         atomicMax(winner + off[u][scatter_cbase] + k[u] * t.cstride,
                                   static_cast<W>(pos[u] + 1));
                   });
}

/// The second pass of put: a position writes where the first pass made it the winner (a bad
/// index was reported by the first pass and is skipped here).
template <class Item, class W, class I>
CUNP_KERNEL void put_kernel(loop_layout<4> l, index_target t, index_mode mode, std::int64_t cycle,
                            const I* idx, const Item* v, Item* a, const W* winner) {
  for_index_groups(l, scatter_index, idx, take_normalize{t.n, mode}, nullptr, 0,
                   [&](const auto& pos, const auto& off, const auto& k, const auto& ok) {
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u] && winner[off[u][scatter_cbase] + k[u] * t.cstride] ==
                                        static_cast<W>(pos[u] + 1))
                         a[off[u][scatter_base] + k[u] * t.stride] =
                             v[cycle ? pos[u] % cycle : off[u][scatter_value]];
                   });
}

/// *p = f(*p) atomically by compare-and-swap: on the aligned 32-bit word that holds a 1- or
/// 2-byte element (its other bytes are swapped back unchanged), else on the element itself.
template <class T, class F>
__device__ void cas_update(T* p, F f) {
  if constexpr (sizeof(T) <= 2) {
    using B = typename item_of<sizeof(T)>::type;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    auto* word = reinterpret_cast<unsigned*>(addr & ~std::uintptr_t(3));
    const unsigned shift = static_cast<unsigned>(addr & 3) * 8;
    const unsigned mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
    unsigned old = *static_cast<volatile unsigned*>(word), seen = 0;
    do {
      seen = old;
      const T cur = std::bit_cast<T>(static_cast<B>((seen & mask) >> shift));
      const unsigned next = (seen & ~mask) | (unsigned(std::bit_cast<B>(f(cur))) << shift);
      if (next == seen) return;
      old = atomicCAS(word, seen, next);
    } while (old != seen);
  } else {
    using B = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
    auto* word = reinterpret_cast<B*>(p);
    B old = *static_cast<volatile B*>(word), seen = 0;
    do {
      seen = old;
      const B next = std::bit_cast<B>(f(std::bit_cast<T>(seen)));
      if (next == seen) return;
      old = atomicCAS(word, seen, next);
    } while (old != seen);
  }
}

/// Locks for the updates of 16-byte elements, picked by the element's address.
inline constexpr unsigned update_locks = 1024;

/// *p = f(*p) under the lock of p's slot (16-byte elements, which have no compare-and-swap
/// before sm_90). Volta's independent thread scheduling lets a lock holder progress while
/// threads of its warp spin.
template <class T, class F>
__device__ void locked_update(T* p, F f, unsigned* locks) {
  unsigned* lock = locks + (reinterpret_cast<std::uintptr_t>(p) / sizeof(T)) % update_locks;
  while (atomicCAS(lock, 0u, 1u) != 0u) __nanosleep(32);
  __threadfence();
  auto* q = reinterpret_cast<volatile unsigned long long*>(p);
  const item16 cur{q[0], q[1]};
  const item16 next = std::bit_cast<item16>(f(std::bit_cast<T>(cur)));
  q[0] = next.lo;
  q[1] = next.hi;
  __threadfence();
  atomicExch(lock, 0u);
}

template <class Op>
inline constexpr bool additive_v = std::is_same_v<Op, add_op> || std::is_same_v<Op, subtract_op>;
template <class Op>
inline constexpr bool extreme_v = std::is_same_v<Op, maximum_op> || std::is_same_v<Op, minimum_op>;

/// The CUDA type of the native atomics on a 4- or 8-byte integer T.
template <class T>
using atomic_int_t =
    std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int, unsigned>,
                       std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>;

/// *p = Op(*p, v) atomically, Op a ufunc's functor on T's math type. subtract adds -v: IEEE
/// defines x - y as x + (-y), and integers wrap the same either way.
template <class Op, class T>
__device__ void atomic_update(T* p, const T& v, unsigned* locks) {
  using M = math_t<T>;
  constexpr bool negate = std::is_same_v<Op, subtract_op>;
  if constexpr (additive_v<Op> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    atomicAdd(p, negate ? -v : v);
  } else if constexpr (additive_v<Op> && is_integer_v<T> && sizeof(T) >= 4) {
    using B = std::make_unsigned_t<atomic_int_t<T>>;
    const B b = static_cast<B>(v);
    atomicAdd(reinterpret_cast<B*>(p), negate ? B(0) - b : b);
  } else if constexpr (additive_v<Op> && is_complex_v<T>) {
    using R = typename T::value_type;
    const M w = convert<M>(v);
    R* parts = reinterpret_cast<R*>(p);
    atomicAdd(parts, negate ? -w.re : w.re);
    atomicAdd(parts + 1, negate ? -w.im : w.im);
  } else if constexpr (extreme_v<Op> && is_integer_v<T> && sizeof(T) >= 4) {
    using B = atomic_int_t<T>;
    if constexpr (std::is_same_v<Op, maximum_op>)
      atomicMax(reinterpret_cast<B*>(p), static_cast<B>(v));
    else
      atomicMin(reinterpret_cast<B*>(p), static_cast<B>(v));
  } else {
    const auto f = [v](T x) { return convert<T>(Op{}(convert<M>(x), convert<M>(v))); };
    if constexpr (sizeof(T) == 16)
      locked_update(p, f, locks);
    else
      cas_update(p, f);
  }
}

template <class Op, class T, class I>
CUNP_KERNEL void at_kernel(loop_layout<4> l, index_target t, const I* idx, const T* v, T* a,
                           unsigned* locks, index_fault* f, unsigned long long call) {
  for_index_groups(l, scatter_index, idx, take_normalize{t.n, index_mode::raise}, f, call,
                   [&](const auto&, const auto& off, const auto& k, const auto& ok) {
                     T w[index_unroll];
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u]) w[u] = v[off[u][scatter_value]];
#pragma unroll
                     for (int u = 0; u < index_unroll; ++u)
                       if (ok[u])
                         atomic_update<Op>(a + off[u][scatter_base] + k[u] * t.stride, w[u], locks);
                   });
}

/// The two passes of put with a winner table of W (32 bits while the positions fit).
template <class W, class T, class I>
void put_passes(const fault_scope& fs, const scatter_plan& p, index_mode mode, const ndarray<T>& a,
                const ndarray<I>& idx, const ndarray<T>& v) {
  using Item = typename item_of<sizeof(T)>::type;
  const workspace table(fs.dev(), static_cast<std::size_t>(a.size()) * sizeof(W));
  W* winner = static_cast<W*>(table.data());
  CUNP_CUDA_CHECK(cudaMemsetAsync(winner, 0, table.size(), fs.stream()));
  const unsigned grid = grid_for(fs.dev(), p.layout.size, index_unroll);
  claim_kernel<W, I><<<grid, block_threads, 0, fs.stream()>>>(p.layout, p.target, mode, idx.data(),
                                                              winner, fs.record(), fs.call());
  CUNP_CUDA_CHECK_LAUNCH("claim_kernel");
  put_kernel<Item, W, I><<<grid, block_threads, 0, fs.stream()>>>(
      p.layout, p.target, mode, p.cycle, idx.data(), reinterpret_cast<const Item*>(v.data()),
      reinterpret_cast<Item*>(a.data()), winner);
  CUNP_CUDA_CHECK_LAUNCH("put_kernel");
}

}  // namespace cuda

/// put, put_along_axis (CUDA backend): `a` is the target whole (its size sizes the winner table).
template <class T, class I>
void scatter_put(cuda_backend, const scatter_plan& p, const index_check& c, index_mode mode,
                 const ndarray<T>& a, const ndarray<I>& idx, const ndarray<T>& v) {
  if (p.layout.size == 0) return;
  const cuda::fault_scope fs(a.device().index());
  if (p.layout.size < std::int64_t(0xffffffff))
    cuda::put_passes<unsigned>(fs, p, mode, a, idx, v);
  else
    cuda::put_passes<unsigned long long>(fs, p, mode, a, idx, v);
  if (c.enabled) fs.commit(c, operand_layout(p.layout, scatter_index), idx.data(), p.target.n);
}

/// The add_at family (CUDA backend): one kernel of atomic updates.
template <class Op, class T, class I>
void scatter_at(cuda_backend, const scatter_plan& p, const index_check& c, const ndarray<T>& a,
                const ndarray<I>& idx, const ndarray<T>& v) {
  if (p.layout.size == 0 && !c.enabled) return;
  const cuda::fault_scope fs(a.device().index());
  if (p.layout.size == 0) return fs.check_only(c, idx.data(), p.target.n);
  std::optional<cuda::workspace> locks;  // for the updates that take a lock (locked_update)
  if constexpr (sizeof(T) == 16 && !cuda::additive_v<Op>) {
    locks.emplace(fs.dev(), cuda::update_locks * sizeof(unsigned));
    CUNP_CUDA_CHECK(cudaMemsetAsync(locks->data(), 0, locks->size(), fs.stream()));
  }
  const unsigned grid = cuda::grid_for(fs.dev(), p.layout.size, cuda::index_unroll);
  cuda::at_kernel<Op, T, I><<<grid, cuda::block_threads, 0, fs.stream()>>>(
      p.layout, p.target, idx.data(), v.data(), a.data(),
      locks ? static_cast<unsigned*>(locks->data()) : nullptr, fs.record(), fs.call());
  CUNP_CUDA_CHECK_LAUNCH("at_kernel");
  if (c.enabled) fs.commit(c, operand_layout(p.layout, scatter_index), idx.data(), p.target.n);
}

}  // namespace cunp::detail
