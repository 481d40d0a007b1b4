// cunp/detail/cuda/scan_tiles.cuh: the decoupled look-back that chains the tiles of the CUDA
// scans, and the vector tile scan built on it for rows along a contiguous last axis that are at
// least a tile long (cumsum(a, -1) of a large matrix).
//
// That scan is shaped for the memory system alone: each thread holds 256 bytes, loaded as 16
// independent 16-byte vectors issued together, each warp instruction reading 512 contiguous
// bytes; the scan runs in registers and shuffles, and the results go back by the same vector
// stores, with no shared-memory transposes in between. On the H200, cumsum over axis 1 of 16384^2
// float32 went from 0.59 of copy (scan.cuh's row kernel, cub::BlockLoad/BlockScan/BlockStore) to
// 0.98; the bytes a thread holds decide it (4, 8, 16 vectors: 0.51, 0.76, 0.98; 512 threads of 8
// vectors 0.95, of 16 0.52; numbering tiles by blockIdx instead of the ticket below changed
// nothing). One long row (the flattened cumsum) stays with CUB's scan (0.75): there every tile
// walks back window by window to the last published prefix, tiles in flight behind it, and this
// kernel reached 0.58-0.68.
#pragma once
#include <cuda/atomic>

#include "cunp/detail/cuda/elementwise.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

// ---------------------------------------------------------------------------------------------
// Decoupled look-back between the links of a chain (the tiles of a row, the chunks of a column).
// A link publishes its own aggregate as soon as it has it, and its inclusive prefix once the
// links before it are known; a successor adds aggregates going back until it meets a prefix.
// Links take their numbers from a counter in the order they start, so a link only ever waits on
// links that are already running: no deadlock, whatever the order the hardware starts blocks in.

enum : unsigned { link_empty = 0, link_aggregate = 1, link_prefix = 2 };

template <class V> struct chain_status {
  unsigned long long* counter;  // next tile number
  unsigned* flags;              // per link: link_empty, link_aggregate or link_prefix
  V* aggregates;                // written before the flag says link_aggregate
  V* prefixes;                  // written before the flag says link_prefix
};

template <class V>
__device__ __forceinline__ void publish(const chain_status<V>& s, std::int64_t i, const V& v,
                                        unsigned state) {
  (state == link_prefix ? s.prefixes : s.aggregates)[i] = v;
  ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(s.flags[i]).store(
      state, ::cuda::std::memory_order_release);
}

/// A value that another block published, read from L2 past this SM's L1 (as CUB reads its tile
/// descriptors); link values are aligned to their size (make_status).
template <class V> __device__ __forceinline__ V load_published(const V* p) {
  using W = std::conditional_t<
      sizeof(V) == 1, unsigned char,
      std::conditional_t<sizeof(V) == 2, unsigned short,
                         std::conditional_t<sizeof(V) == 4, unsigned int,
                                            std::conditional_t<sizeof(V) == 8, unsigned long long,
                                                               ulonglong2>>>>;
  static_assert(sizeof(W) == sizeof(V), "accumulators are 1, 2, 4, 8 or 16 bytes");
  const W w = __ldcg(reinterpret_cast<const W*>(p));
  V v;
  memcpy(&v, &w, sizeof(V));
  return v;
}

/// The combination of the links before link i of its chain (i - step, i - 2 step, ...); the
/// first link of every chain publishes a prefix at once, which ends the walk.
template <class V, class Op>
__device__ V look_back(const chain_status<V>& s, std::int64_t i, std::int64_t step, Op op) {
  V prefix{};
  bool have = false;
  for (std::int64_t p = i - step;; p -= step) {
    ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> flag(s.flags[p]);
    unsigned state;
    while ((state = flag.load(::cuda::std::memory_order_acquire)) == link_empty) __nanosleep(32);
    const V v = load_published(state == link_prefix ? s.prefixes + p : s.aggregates + p);
    prefix = have ? op(v, prefix) : v;
    have = true;
    if (state == link_prefix) return prefix;
  }
}

/// The next tile number for the block, read by every thread.
inline __device__ std::int64_t next_tile(unsigned long long* counter, std::int64_t& slot) {
  if (threadIdx.x == 0) slot = static_cast<std::int64_t>(atomicAdd(counter, 1ull));
  __syncthreads();
  const std::int64_t t = slot;
  __syncthreads();  // everyone has read the slot before thread 0 writes the next number
  return t;
}

/// One pool block for the counter and `links` links' flags and values; counter and flags zeroed.
template <class V>
ndarray<std::uint8_t> make_status(cunp::device dev, std::int64_t links, chain_status<V>& s,
                                  cudaStream_t st) {
  const std::size_t head = (8 + 4 * static_cast<std::size_t>(links) + 15) / 16 * 16;
  const std::size_t values = sizeof(V) * static_cast<std::size_t>(links);
  ndarray<std::uint8_t> buf({static_cast<index_t>(head + 2 * values)}, dev);
  auto* base = buf.data();
  s.counter = reinterpret_cast<unsigned long long*>(base);
  s.flags = reinterpret_cast<unsigned*>(base + 8);
  s.aggregates = reinterpret_cast<V*>(base + head);
  s.prefixes = s.aggregates + links;
  CUNP_CUDA_CHECK(cudaMemsetAsync(base, 0, head, st));
  return buf;
}

// ---------------------------------------------------------------------------------------------
// The single-pass scan of contiguous rows: float, double, uint32 or uint64 accumulators read as
// they are, with cuda::std::plus or multiplies, every row of input and output 16-byte aligned.

inline constexpr int tile_threads = 256;
inline constexpr int tile_vectors = 16;  // 16-byte vectors per thread: 256 bytes in flight each

/// Elements of V in one 16-byte vector, and in one tile.
template <class V> inline constexpr int tile_vec = int(16 / sizeof(V));
template <class V>
inline constexpr std::int64_t tile_items = std::int64_t(tile_threads) * tile_vectors * tile_vec<V>;

/// The identity of the scan's operator; for sums of floating point -0.0, so that combining with
/// it leaves every value as it is, -0.0 included.
template <class V, class Op> __device__ __forceinline__ V scan_identity() {
  if constexpr (std::is_same_v<Op, ::cuda::std::multiplies<V>>) return V(1);
  else if constexpr (std::is_floating_point_v<V>) return V(-0.0);
  else return V(0);
}

/// The combination, in tile order, of the tiles before tile t, read by the whole of warp 0: each
/// lane watches one of 32 predecessors at a time, so a tile waits for the slowest of a window
/// rather than walking back one L2 round trip per tile. Every lane returns the same value.
template <class V, class Op>
__device__ V warp_look_back(const chain_status<V>& s, std::int64_t t, Op op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const V one = scan_identity<V, Op>();
  V prefix = one;
  for (std::int64_t end = t;; end -= 32) {
    const std::int64_t p = end - 32 + lane;
    const auto flag = [&] {
      return ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(s.flags[p]).load(
          ::cuda::std::memory_order_acquire);
    };
    // Before tile 0 there is nothing: an empty prefix, never waited on (tile 0's own prefix
    // always ends the walk first).
    unsigned state = p < 0 ? unsigned(link_prefix) : flag();
    while (__any_sync(~0u, state == link_empty)) {
      __nanosleep(32);
      if (state == link_empty) state = flag();
    }
    V v = one;
    if (p >= 0) v = load_published(state == link_prefix ? s.prefixes + p : s.aggregates + p);
    // The latest prefix in the window ends the walk: it and the aggregates after it count.
    const unsigned prefixes = __ballot_sync(~0u, state == link_prefix);
    const int from = prefixes ? 31 - __clz(static_cast<int>(prefixes)) : 0;
    if (lane < from) v = one;
    // Butterfly in lane order: both lanes of a pair compute lower op higher, so all agree.
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const V w = __shfl_xor_sync(~0u, v, d);
      v = lane & d ? op(w, v) : op(v, w);
    }
    prefix = op(v, prefix);
    if (prefixes) return prefix;
  }
}

/// One tile per block, numbered by the chain's counter in the order blocks start; row r of n
/// elements starts at in + r * in_row and out + r * n and is `per` tiles. Warp w's lane
/// l holds vectors (w * tile_vectors + q) * 32 + l of the tile (q < tile_vectors): each load
/// instruction of a warp reads 32 consecutive vectors, and the q-th vectors of a warp form the
/// q-th of its tile_vectors consecutive runs, which its lanes scan together with shuffles.
template <class V, class Op>
CUNP_KERNEL void __launch_bounds__(tile_threads)
    tile_scan_kernel(const V* in, V* out, std::int64_t n, std::int64_t in_row, std::int64_t per,
                     chain_status<V> s, Op op) {
  constexpr int W = tile_vec<V>, Q = tile_vectors, warps = tile_threads / 32;
  constexpr std::int64_t tile = tile_items<V>;
  using vec_t = vec<V, W>;
  __shared__ std::int64_t tile_slot;
  __shared__ V warp_totals[warps];
  __shared__ V block_prefix;
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const V one = scan_identity<V, Op>();

  if (threadIdx.x == 0) tile_slot = static_cast<std::int64_t>(atomicAdd(s.counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_slot;
  const std::int64_t row = t / per, k = t - row * per;  // the k-th tile of its row
  in += row * in_row + k * tile;
  out += row * n + k * tile;
  const std::int64_t valid = n - k * tile;
  const int first = (warp * Q * 32 + lane) * W;  // this thread's first element in the tile
  const bool full = valid >= tile;

  // All loads before any arithmetic, so that a thread has its 256 bytes in flight at once.
  V v[Q][W];
  if (full) {
    const vec_t* src = reinterpret_cast<const vec_t*>(in + first);
    vec_t raw[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) raw[q] = src[q * 32];
#pragma unroll
    for (int q = 0; q < Q; ++q)
#pragma unroll
      for (int j = 0; j < W; ++j) v[q][j] = raw[q].v[j];
  } else {  // a row's last tile: nothing past the row is read
#pragma unroll
    for (int q = 0; q < Q; ++q)
#pragma unroll
      for (int j = 0; j < W; ++j) {
        const std::int64_t i = first + q * 32 * W + j;
        v[q][j] = i < valid ? in[i] : one;
      }
  }

  // Each vector scanned in place; then per run q an inclusive scan of the lanes' vector totals.
  // pre[q]: what comes before this thread's vector q within the warp's runs.
  V pre[Q];
  V carry = one;  // the warp's runs before run q
#pragma unroll
  for (int q = 0; q < Q; ++q) {
#pragma unroll
    for (int j = 1; j < W; ++j) v[q][j] = op(v[q][j - 1], v[q][j]);
    V x = v[q][W - 1];
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const V y = __shfl_up_sync(~0u, x, d);
      if (lane >= d) x = op(y, x);
    }
    const V before = __shfl_up_sync(~0u, x, 1);
    pre[q] = lane == 0 ? carry : op(carry, before);
    carry = op(carry, __shfl_sync(~0u, x, 31));
  }
  if (lane == 0) warp_totals[warp] = carry;
  __syncthreads();

  V warp_prefix = one, aggregate = one;
#pragma unroll
  for (int k = 0; k < warps; ++k) {
    if (k == warp) warp_prefix = aggregate;
    aggregate = op(aggregate, warp_totals[k]);
  }
#pragma unroll
  for (int q = 0; q < Q; ++q) pre[q] = op(warp_prefix, pre[q]);

  // Chaining: publish the aggregate at once (a row's first tile: its prefix), then look back.
  if (warp == 0) {
    if (k == 0) {
      if (lane == 0) {
        publish(s, t, aggregate, link_prefix);
        block_prefix = one;
      }
    } else {
      if (lane == 0) publish(s, t, aggregate, link_aggregate);
      const V prefix = warp_look_back(s, t, op);
      if (lane == 0) {
        publish(s, t, op(prefix, aggregate), link_prefix);
        block_prefix = prefix;
      }
    }
  }
  __syncthreads();

  const V prefix = block_prefix;
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const V p = op(prefix, pre[q]);
#pragma unroll
    for (int j = 0; j < W; ++j) v[q][j] = op(p, v[q][j]);
  }
  if (full) {
    vec_t* dst = reinterpret_cast<vec_t*>(out + first);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      vec_t r;
#pragma unroll
      for (int j = 0; j < W; ++j) r.v[j] = v[q][j];
      dst[q * 32] = r;
    }
  } else {
#pragma unroll
    for (int q = 0; q < Q; ++q)
#pragma unroll
      for (int j = 0; j < W; ++j) {
        const std::int64_t i = first + q * 32 * W + j;
        if (i < valid) out[i] = v[q][j];
      }
  }
}

/// Whether tile_scan can scan `rows` rows of n elements from `in` (rows in_row apart) into the
/// C-ordered `out`: every row of both on a 16-byte boundary (an offset view, a[:, 1:], is not),
/// rows of a tile or more (shorter ones would leave most of a tile's threads idle), and few
/// enough tiles for one block each.
template <class V>
bool tile_scan_fits(const V* in, const V* out, std::int64_t n, std::int64_t in_row,
                    std::int64_t rows) {
  const auto aligned = [](const V* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return aligned(in) && aligned(out) && in_row % tile_vec<V> == 0 && n % tile_vec<V> == 0 &&
         n >= tile_items<V> && rows * ((n + tile_items<V> - 1) / tile_items<V>) < (1ll << 31);
}

/// The inclusive scans with op of `rows` rows of n elements (tile_scan_fits must hold).
template <class V, class Op>
void tile_scan(cunp::device dev, const V* in, V* out, std::int64_t n, std::int64_t in_row,
               std::int64_t rows, Op op, cudaStream_t st) {
  const std::int64_t per = (n + tile_items<V> - 1) / tile_items<V>, tiles = rows * per;
  chain_status<V> s{};
  const auto status = make_status<V>(dev, tiles, s, st);
  tile_scan_kernel<V, Op><<<static_cast<unsigned>(tiles), tile_threads, 0, st>>>(in, out, n, in_row,
                                                                                per, s, op);
  CUNP_CUDA_CHECK_LAUNCH("tile_scan_kernel");
}

}  // namespace cunp::detail::cuda
