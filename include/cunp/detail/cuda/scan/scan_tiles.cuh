// cunp/detail/cuda/scan/scan_tiles.cuh: the decoupled look-back that chains the tiles of the CUDA
// scans, and the vector tile scans built on it: along rows on a contiguous last axis that are at
// least a tile long (cumsum(a, -1) of a large matrix), and down columns of contiguous rows
// (cumsum(a, 0)).
//
// That scan is shaped for the memory system alone: each thread holds 256 bytes, loaded as 16
// independent 16-byte vectors issued together, each warp instruction reading 512 contiguous
// bytes; the scan runs in registers and shuffles, and the results go back by the same vector
// stores, with no shared-memory transposes in between. On the H200, cumsum over axis 1 of 16384^2
// float32 went from 0.59 of copy (scan.cuh's row kernel, cub::BlockLoad/BlockScan/BlockStore) to
// 0.98; the bytes a thread holds decide it (4, 8, 16 vectors: 0.51, 0.76, 0.98; 512 threads of 8
// vectors 0.95, of 16 0.52; numbering tiles by blockIdx instead of the ticket below changed
// nothing). One long row (the flattened cumsum) is not for it: there every tile walks back
// window by window to the last published prefix, tiles in flight behind it, and this kernel
// reached 0.58-0.68; it goes to the streaming scan (scan_stream.cuh).
#pragma once
#include <cuda/atomic>
#include <cuda_pipeline_primitives.h>

#include "cunp/detail/cuda/expr/elementwise.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

// ---------------------------------------------------------------------------------------------
// Decoupled look-back between the links of a chain (the tiles of a row, the chunks of a column).
// A link publishes its own aggregate as soon as it has it, and its inclusive prefix once the
// links before it are known; a successor adds aggregates going back until it meets a prefix.
// Links take their numbers from a counter in the order they start, so a link only ever waits on
// links that are already running: no deadlock, whatever the order the hardware starts blocks in.

enum : unsigned { link_empty = 0, link_aggregate = 1, link_prefix = 2 };

/// A link of an accumulator of 4 bytes is one 8-byte word, its state in the low half and its value
/// in the high half, stored and read whole and relaxed: the word carries its own value, so no
/// fence has to order a value before a flag (a release store waits for the value's store to
/// reach L2, an L2 round trip in the middle of the chain). Wider accumulators have a flag
/// (release/acquire) and two arrays of values.
template <class V> inline constexpr bool packed_links_v = sizeof(V) == 4;

template <class V> struct chain_status {
  unsigned long long* counter;  // next tile number
  unsigned* flags;              // per link: link_empty, link_aggregate or link_prefix
  V* aggregates;                // written before the flag says link_aggregate
  V* prefixes;                  // written before the flag says link_prefix
  unsigned long long* words;    // per link, packed_links_v: value << 32 | state
};

template <class V>
__device__ __forceinline__ void publish(const chain_status<V>& s, std::int64_t i, const V& v,
                                        unsigned state) {
  if constexpr (packed_links_v<V>) {
    unsigned bits;
    memcpy(&bits, &v, sizeof(V));
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(s.words[i]).store(
        (static_cast<unsigned long long>(bits) << 32) | state, ::cuda::std::memory_order_relaxed);
  } else {
    (state == link_prefix ? s.prefixes : s.aggregates)[i] = v;
    ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(s.flags[i]).store(
        state, ::cuda::std::memory_order_release);
  }
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

/// Link p's state, read relaxed; a packed link's value comes with it, into `v`.
template <class V>
__device__ __forceinline__ unsigned peek_link(const chain_status<V>& s, std::int64_t p, V& v) {
  if constexpr (packed_links_v<V>) {
    const unsigned long long w =
        ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(s.words[p]).load(
            ::cuda::std::memory_order_relaxed);
    const auto bits = static_cast<unsigned>(w >> 32);
    memcpy(&v, &bits, sizeof(V));
    return static_cast<unsigned>(w);
  } else {
    return ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(s.flags[p]).load(
        ::cuda::std::memory_order_relaxed);
  }
}

/// Orders the value reads after the states that peek_link saw published (nothing to order for
/// packed links).
template <class V> __device__ __forceinline__ void after_peeks() {
  if constexpr (!packed_links_v<V>)
    ::cuda::atomic_thread_fence(::cuda::std::memory_order_acquire, ::cuda::thread_scope_device);
}

/// The value of link p, published in `state` and peeked (then after_peeks) into `peeked`.
template <class V>
__device__ __forceinline__ V link_value(const chain_status<V>& s, std::int64_t p, unsigned state,
                                        const V& peeked) {
  if constexpr (packed_links_v<V>) return peeked;
  else return load_published(state == link_prefix ? s.prefixes + p : s.aggregates + p);
}

/// The combination of the links before link i of its chain (i - step, i - 2 step, ...); the
/// first link of every chain publishes a prefix at once, which ends the walk.
template <class V, class Op>
__device__ V look_back(const chain_status<V>& s, std::int64_t i, std::int64_t step, Op op) {
  V prefix{};
  bool have = false;
  for (std::int64_t p = i - step;; p -= step) {
    V v{};
    unsigned state;
    while ((state = peek_link(s, p, v)) == link_empty) __nanosleep(32);
    after_peeks<V>();
    v = link_value(s, p, state, v);
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

/// One pool block for the counter and `links` links' states and values (`width` values a link,
/// link i's at i * width; packed links are one word each); counter and states zeroed.
template <class V>
ndarray<std::uint8_t> make_status(cunp::device dev, std::int64_t links, chain_status<V>& s,
                                  cudaStream_t st, int width = 1) {
  if constexpr (packed_links_v<V>) {
    const std::size_t bytes = 8 + 8 * static_cast<std::size_t>(links) * width;
    ndarray<std::uint8_t> buf({static_cast<index_t>(bytes)}, dev);
    s.counter = reinterpret_cast<unsigned long long*>(buf.data());
    s.words = s.counter + 1;
    CUNP_CUDA_CHECK(cudaMemsetAsync(buf.data(), 0, bytes, st));
    return buf;
  } else {
    const std::size_t head = (8 + 4 * static_cast<std::size_t>(links) + 15) / 16 * 16;
    const std::size_t values = sizeof(V) * static_cast<std::size_t>(links) * width;
    ndarray<std::uint8_t> buf({static_cast<index_t>(head + 2 * values)}, dev);
    auto* base = buf.data();
    s.counter = reinterpret_cast<unsigned long long*>(base);
    s.flags = reinterpret_cast<unsigned*>(base + 8);
    s.aggregates = reinterpret_cast<V*>(base + head);
    s.prefixes = s.aggregates + links * width;
    CUNP_CUDA_CHECK(cudaMemsetAsync(base, 0, head, st));
    return buf;
  }
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

/// The combination, in tile order, of the tiles before tile t, read by one whole warp: a window
/// of 32 * K predecessors at a time, K rows of 32 (lane l watches link l of each row, so each
/// row is one coalesced read), so a tile waits for the slowest of a window rather than walking
/// back one L2 round trip per tile. The states are read relaxed, all at once, and one fence
/// orders the values after them (an acquire load each would make the K reads one round trip
/// after another; packed links need neither fence nor second read). Every lane returns the same
/// value.
template <int K = 1, class V, class Op>
__device__ V warp_look_back(const chain_status<V>& s, std::int64_t t, Op op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const V one = scan_identity<V, Op>();
  V prefix = one;
  for (std::int64_t end = t;; end -= 32 * K) {
    const std::int64_t first = end - 32 * K + lane;  // the lane's links: first + 32 k
    // Before tile 0 there is nothing: an empty prefix, never waited on (tile 0's own prefix
    // always ends the walk first).
    unsigned state[K];
    V w[K];
    bool waiting = false;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      w[k] = one;
      state[k] = first + 32 * k < 0 ? unsigned(link_prefix) : peek_link(s, first + 32 * k, w[k]);
      waiting |= state[k] == link_empty;
    }
    while (__any_sync(~0u, waiting)) {
      __nanosleep(32);
      waiting = false;
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (state[k] == link_empty)
          waiting |= (state[k] = peek_link(s, first + 32 * k, w[k])) == link_empty;
    }
    after_peeks<V>();
    // The latest prefix in the window ends the walk: it and the aggregates after it count.
    int row = -1, from = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned prefixes = __ballot_sync(~0u, state[k] == link_prefix);
      if (prefixes) row = k, from = 31 - __clz(static_cast<int>(prefixes));
    }
    V v = one;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::int64_t p = first + 32 * k;
      V x = (k > row || (k == row && lane >= from)) && p >= 0 ? link_value(s, p, state[k], w[k])
                                                             : one;
      // Butterfly in lane order: both lanes of a pair compute lower op higher, so all agree.
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const V y = __shfl_xor_sync(~0u, x, d);
        x = lane & d ? op(y, x) : op(x, y);
      }
      v = op(v, x);
    }
    prefix = op(v, prefix);
    if (row >= 0) return prefix;
  }
}

/// A warp's Q runs of 32 vectors of W elements, lane l holding the l-th vector of each run in
/// v[q]: each vector scanned in place, then per run an inclusive scan of the lanes' vector totals;
/// pre[q] gets what comes before this lane's vector q within the warp's runs. Returns the
/// combination of all the runs, on every lane.
template <int Q, int W, class V, class Op>
__device__ __forceinline__ V warp_scan_runs(V (&v)[Q][W], V (&pre)[Q], Op op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  V carry = scan_identity<V, Op>();  // the runs before run q
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
  return carry;
}

/// The last step of a tile scan: each of a lane's runs (warp_scan_runs' v and pre) combined with
/// what precedes it, op(op(before, pre[q]), v[q][j]), and stored to the tile at dst: one 16-byte
/// store a vector when the tile is whole, else the elements below `valid` one by one.
template <int Q, int W, class V, class Op>
__device__ __forceinline__ void store_runs(V (&v)[Q][W], const V (&pre)[Q], const V& before,
                                           V* dst, int first, std::int64_t valid, bool full,
                                           Op op) {
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const V p = op(before, pre[q]);
#pragma unroll
    for (int j = 0; j < W; ++j) v[q][j] = op(p, v[q][j]);
  }
  if (full) {
    using vec_t = vec<V, W>;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      vec_t r;
#pragma unroll
      for (int j = 0; j < W; ++j) r.v[j] = v[q][j];
      reinterpret_cast<vec_t*>(dst + first)[q * 32] = r;
    }
  } else {
#pragma unroll
    for (int q = 0; q < Q; ++q)
#pragma unroll
      for (int j = 0; j < W; ++j) {
        const std::int64_t i = first + q * 32 * W + j;
        if (i < valid) dst[i] = v[q][j];
      }
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

  const std::int64_t t = next_tile(s.counter, tile_slot);
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

  V pre[Q];
  const V carry = warp_scan_runs(v, pre, op);
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

  store_runs(v, pre, block_prefix, out, first, valid, full, op);
}

/// Whether tile_scan can scan `rows` rows of n elements from `in` (rows in_row apart) into the
/// C-ordered `out`: every row of both on a 16-byte boundary (an offset view, a[:, 1:], is not),
/// rows of a tile or more (shorter ones would leave most of a tile's threads idle), and few
/// enough tiles for one block each.
template <class V>
bool tile_scan_fits(const V* in, const V* out, std::int64_t n, std::int64_t in_row,
                    std::int64_t rows) {
  return vec_aligned<V, tile_vec<V>>(in) && vec_aligned<V, tile_vec<V>>(out) &&
         in_row % tile_vec<V> == 0 && n % tile_vec<V> == 0 &&
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

// ---------------------------------------------------------------------------------------------
// The single-pass scan down the columns of contiguous rows (cumsum(a, 0) of a matrix), built the
// same way: a tile is a stripe of 32 16-byte column vectors (each load instruction of a warp
// reads 512 contiguous bytes of one row) by column_tile_rows rows; warp w holds the w-th run of
// tile_vectors + column_staged of them, lane l the l-th vector of each row, tile_vectors in
// registers and column_staged in shared memory (cp.async, no registers held), and scans them down
// the rows. The tiles of a stripe chain down the columns with a look-back that moves whole rows
// of prefixes. On the H200, cumsum over axis 0 of 16384^2 float32: 0.45 of copy with one thread
// per column (scan.cuh), 0.84 with tiles of 16 rows a warp in registers, 0.91 with 16 more staged
// (8 more 0.88, 24 more 0.90). Taller tiles mean fewer links in the chains, and the staged rows
// keep more bytes in flight than registers allow; 64 rows of 1 KB (two vectors a lane) 0.76,
// 512 threads a tile 0.82, 128 threads 0.77.

/// The (outer, n, inner) array of a column scan, inner contiguous: element (o, r, j) of the input
/// at o * in_outer + r * in_step + j, of the C-ordered output at (o * n + r) * inner + j.
struct column_tiles {
  std::int64_t n, inner, in_outer, in_step;
  std::int64_t stripes_per_outer;  // stripes across one outer index's columns
  std::int64_t stripes;            // in all: outer * stripes_per_outer
  std::int64_t tiles;              // stripes times the tiles down a column
};
inline constexpr int column_staged = 16;  // rows a thread stages in shared memory
inline constexpr std::size_t column_stage_bytes = column_staged * tile_threads * 16;
inline constexpr int column_tile_rows = tile_threads / 32 * (tile_vectors + column_staged);

/// The tiles of a column scan of V over the (outer, n, inner) array.
template <class V>
column_tiles column_tiles_of(std::int64_t outer, std::int64_t n, std::int64_t inner,
                             std::int64_t in_outer, std::int64_t in_step) {
  column_tiles g{n, inner, in_outer, in_step, (inner / tile_vec<V> + 31) / 32, 0, 0};
  g.stripes = outer * g.stripes_per_outer;
  g.tiles = g.stripes * ((n + column_tile_rows - 1) / column_tile_rows);
  return g;
}

/// The link's flag seen by every lane of the warp: the lanes poll until each sees it published,
/// then agree on the lesser state any saw (states only grow, so every lane's acquire covers it).
__device__ __forceinline__ unsigned warp_link_state(unsigned* flags, std::int64_t p) {
  const auto flag = [&] {
    return ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(flags[p]).load(
        ::cuda::std::memory_order_acquire);
  };
  unsigned state = flag();
  while (__any_sync(~0u, state == link_empty)) {
    __nanosleep(32);
    if (state == link_empty) state = flag();
  }
  return __all_sync(~0u, state == link_prefix) ? unsigned(link_prefix) : unsigned(link_aggregate);
}

template <class V, class Op>
CUNP_KERNEL void __launch_bounds__(tile_threads)
    column_tile_scan_kernel(const V* in, V* out, column_tiles g,
                            chain_status<vec<V, tile_vec<V>>> s, Op op) {
  constexpr int W = tile_vec<V>, Q = tile_vectors, S = column_staged, warps = tile_threads / 32;
  using vec_t = vec<V, W>;
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  vec_t* const stage = reinterpret_cast<vec_t*>(stage_bytes) + threadIdx.x;  // [q * tile_threads]
  __shared__ std::int64_t tile_slot;
  __shared__ vec_t warp_totals[warps][32];
  __shared__ vec_t block_prefix[32];
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const V one = scan_identity<V, Op>();
  const auto combine = [&](const vec_t& a, const vec_t& b) {
    vec_t r;
#pragma unroll
    for (int j = 0; j < W; ++j) r.v[j] = op(a.v[j], b.v[j]);
    return r;
  };
  vec_t identity;
#pragma unroll
  for (int j = 0; j < W; ++j) identity.v[j] = one;

  const std::int64_t t = next_tile(s.counter, tile_slot);
  const std::int64_t chunk = t / g.stripes, stripe = t - chunk * g.stripes;
  const std::int64_t o = stripe / g.stripes_per_outer;
  const std::int64_t j = ((stripe - o * g.stripes_per_outer) * 32 + lane) * W;  // its column
  const std::int64_t r = chunk * column_tile_rows + warp * (Q + S);             // its first row
  const std::int64_t rows = g.n - r;  // this thread's rows: min(rows, Q + S)
  const bool column = j < g.inner;
  const vec_t* src = reinterpret_cast<const vec_t*>(in + o * g.in_outer + r * g.in_step + j);
  const std::int64_t step = g.in_step / W;

  // All loads before any arithmetic, as in the row tiles: the staged rows first.
#pragma unroll
  for (int q = 0; q < S; ++q)
    if (column && Q + q < rows)
      __pipeline_memcpy_async(stage + q * tile_threads, src + (Q + q) * step, sizeof(vec_t));
  __pipeline_commit();
  vec_t v[Q];
  if (column && rows >= Q) {
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = src[q * step];
  } else {
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = column && q < rows ? src[q * step] : identity;
  }
#pragma unroll
  for (int q = 1; q < Q; ++q) v[q] = combine(v[q - 1], v[q]);
  vec_t total = v[Q - 1];
  __pipeline_wait_prior(0);  // the staged rows, scanned in place
#pragma unroll
  for (int q = 0; q < S; ++q)
    if (column && Q + q < rows)
      stage[q * tile_threads] = total = combine(total, stage[q * tile_threads]);
  warp_totals[warp][lane] = total;
  __syncthreads();

  vec_t warp_prefix = identity, aggregate = identity;
#pragma unroll
  for (int k = 0; k < warps; ++k) {
    if (k == warp) warp_prefix = aggregate;
    aggregate = combine(aggregate, warp_totals[k][lane]);
  }

  // Chaining, by warp 0: every lane publishes its vector of the tile's aggregate, the fence makes
  // the whole row visible before lane 0 raises the flag; then the look-back down the stripe.
  if (warp == 0) {
    const auto raise = [&](const vec_t& x, unsigned state) {
      (state == link_prefix ? s.prefixes : s.aggregates)[t * 32 + lane] = x;
      __threadfence();
      __syncwarp();
      if (lane == 0)
        ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>(s.flags[t])
            .store(state, ::cuda::std::memory_order_release);
    };
    vec_t prefix = identity;
    if (chunk == 0) {
      raise(aggregate, link_prefix);
    } else {
      raise(aggregate, link_aggregate);
      for (std::int64_t p = t - g.stripes;; p -= g.stripes) {
        const unsigned state = warp_link_state(s.flags, p);
        prefix = combine(
            load_published((state == link_prefix ? s.prefixes : s.aggregates) + p * 32 + lane),
            prefix);
        if (state == link_prefix) break;
      }
      raise(combine(prefix, aggregate), link_prefix);
    }
    block_prefix[lane] = prefix;
  }
  __syncthreads();

  const vec_t before = combine(block_prefix[lane], warp_prefix);
  if (!column) return;
  vec_t* dst = reinterpret_cast<vec_t*>(out + (o * g.n + r) * g.inner + j);
  const std::int64_t out_step = g.inner / W;
#pragma unroll
  for (int q = 0; q < Q; ++q)
    if (q < rows) dst[q * out_step] = combine(before, v[q]);
#pragma unroll
  for (int q = 0; q < S; ++q)
    if (Q + q < rows) dst[(Q + q) * out_step] = combine(before, stage[q * tile_threads]);
}

/// Whether column_tile_scan can scan down the columns of the (outer, n, inner) input: input and
/// output on 16-byte boundaries with every row (inner a multiple of a vector, both strides too),
/// at least one whole stripe of columns (narrower ones would leave most lanes idle), and few
/// enough tiles for one block each; and the kernel's shared memory to be had on dev.
template <class V, class Op>
bool column_tile_fits(cunp::device dev, const V* in, const V* out, std::int64_t outer,
                      std::int64_t n, std::int64_t inner, std::int64_t in_outer,
                      std::int64_t in_step, Op) {
  constexpr int W = tile_vec<V>;
  return vec_aligned<V, W>(in) && vec_aligned<V, W>(out) && inner % W == 0 && in_outer % W == 0 &&
         in_step % W == 0 && inner >= 32 * W &&
         column_tiles_of<V>(outer, n, inner, in_outer, in_step).tiles < (1ll << 31) &&
         shared_memory_opt_in<column_tile_scan_kernel<V, Op>>(dev.index(), column_stage_bytes);
}

/// The inclusive scans with op down the columns (column_tile_fits must hold).
template <class V, class Op>
void column_tile_scan(cunp::device dev, const V* in, V* out, std::int64_t outer, std::int64_t n,
                      std::int64_t inner, std::int64_t in_outer, std::int64_t in_step, Op op,
                      cudaStream_t st) {
  const column_tiles g = column_tiles_of<V>(outer, n, inner, in_outer, in_step);
  chain_status<vec<V, tile_vec<V>>> s{};
  const auto status = make_status(dev, g.tiles, s, st, 32);
  column_tile_scan_kernel<V, Op><<<static_cast<unsigned>(g.tiles), tile_threads,
                                   column_stage_bytes, st>>>(in, out, g, s, op);
  CUNP_CUDA_CHECK_LAUNCH("column_tile_scan_kernel");
}

}  // namespace cunp::detail::cuda
