// cunp/detail/cuda/scan/scan_stream.cuh: the flattened scan of 4-byte accumulators (cumsum of one long
// contiguous row of float32 or 32-bit integers), a persistent kernel whose warps each keep to one
// job, so that the loads never wait on the chain.
//
// In the tile scans (scan_tiles.cuh) and in CUB's, a block loads a tile, publishes its aggregate,
// waits for the look-back and stores: while it waits it holds its bytes and asks for no more, and
// on one long row the waits are long (CUB: 0.74 of copy on the H200; our row tiles 0.58-0.77).
// Here a block stays on its SM and streams 32 KiB tiles through 7 shared-memory stages:
//   warp 0, the producer: takes the next tile number (only once a stage is free, so every numbered
//     tile is already on its way in) and loads the tile with one bulk copy (cp.async.bulk);
//   the aggregators: as each tile lands, reduce it together and publish its aggregate at once;
//   the chainers, each for every other tile of the block: look back to the tile's prefix
//     (warp_look_back, a window of 128 links a round trip) and publish the inclusive prefix;
//   the scanners: scan each tile from shared memory into registers, free its stage, wait for its
//     prefix and store.
// A tile's aggregate therefore depends on its load alone, never on an earlier tile's look-back.
// No deadlock whatever the order blocks start in: tile t waits only on tiles numbered before it,
// and those were numbered by blocks that are running and already loading them.
//
// What decides the speed is how long a stage stays taken: from its tile's number to the moment
// the scanners read it, ~13 us on the H200, most of it the look-back waiting on the slowest loads
// of the tiles before. cumsum of 2^28 float32 (traced with %globaltimer per tile, then timed):
// one chainer, separate flag and value 0.59 of copy; packed links (scan_tiles.cuh: no release
// fence) 0.81; two aggregator warps 0.84; 7 stages instead of 6 0.86. No gain from 3 stages of
// 64 KiB, 12 of 16 KiB, 4-8 chainers or windows of 256-512 links.
#pragma once
#include <climits>
#include <cuda/ptx>

#include "cunp/detail/cuda/scan/scan_tiles.cuh"

namespace cunp::detail::cuda {

inline constexpr int stream_scanners = 8;     // warps that scan and store
inline constexpr int stream_aggregators = 2;  // warps that reduce each tile together
inline constexpr int stream_chainers = 2;     // warps that look back, each for every other tile
inline constexpr int stream_threads =
    (1 + stream_aggregators + stream_chainers + stream_scanners) * 32;
inline constexpr int stream_vectors = 8;  // 16-byte vectors a scanner thread holds
inline constexpr int stream_stages = 7;   // tiles in shared memory: loading, landed, being read
inline constexpr int stream_ring = 8;     // per-tile slots between the roles (> stream_stages)
inline constexpr int look_back_links = 4;  // warp_look_back's window: 32 * 4 links
inline constexpr unsigned stream_tile_bytes = stream_scanners * 32 * stream_vectors * 16;
inline constexpr int stream_smem = stream_stages * int(stream_tile_bytes);
template <class V>
inline constexpr std::int64_t stream_tile_items = stream_tile_bytes / sizeof(V);

/// The handover between the roles of a block, in shared memory.
struct stream_roles {
  std::uint64_t full[stream_stages];   // the stage's tile has landed (bulk copy's bytes counted)
  std::uint64_t empty[stream_stages];  // every aggregator and scanner warp has read it
  std::int64_t tile_of[stream_stages]; // its tile number; -1: no more tiles
  std::int64_t tiles[stream_ring];     // the block's j-th tile, in slot j % stream_ring
  int aggregated;                      // tiles of the block aggregated so far; INT_MAX at the end
  int end;                             // the block's j past its last tile, once known
  int chained[stream_ring];            // j + 1 once the block's j-th tile has its prefix
};

/// Waits until the stage barrier has completed its phase-th phase (counted from 0).
__device__ __forceinline__ void stage_wait(std::uint64_t* bar, unsigned phase) {
  while (!::cuda::ptx::mbarrier_try_wait_parity(bar, phase & 1u)) {
  }
}

/// Waits until a block-shared counter exceeds j (every lane polls; acquire at block scope).
__device__ __forceinline__ void counter_wait(int& counter, int j) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_block> c(counter);
  while (c.load(::cuda::std::memory_order_acquire) <= j) __nanosleep(20);
}

/// Sets a block-shared counter to j, releasing what the thread wrote before.
__device__ __forceinline__ void counter_set(int& counter, int j) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_block>(counter).store(
      j, ::cuda::std::memory_order_release);
}

template <class V, class Op>
CUNP_KERNEL void __launch_bounds__(stream_threads, 1)
    stream_scan_kernel(const V* in, V* out, std::int64_t n, chain_status<V> s, Op op) {
#if __CUDA_ARCH__ >= 900  // bulk copies and mbarrier transaction counts (stream_scan_fits)
  constexpr int W = tile_vec<V>, Q = stream_vectors, S = stream_stages, R = stream_ring;
  constexpr std::int64_t tile = stream_tile_items<V>;
  using vec_t = vec<V, W>;
  extern __shared__ __align__(128) unsigned char stage_bytes[];
  __shared__ stream_roles roles;
  __shared__ V aggregates[R], prefixes[R];
  __shared__ V warp_totals[2][stream_scanners];
  __shared__ V partials[2][stream_aggregators];
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const V one = scan_identity<V, Op>();
  const std::int64_t tiles = (n + tile - 1) / tile;
  const auto stage_of = [&](int st) {
    return reinterpret_cast<vec_t*>(stage_bytes) + st * (tile / W);
  };
  // The i-th element of tile t in stage st: a ragged last tile's bulk copy stops at the last whole
  // 16 bytes, and the few elements after it are read from global memory.
  const auto element = [&](int st, std::int64_t t, std::int64_t i) {
    const std::int64_t valid = n - t * tile, copied = valid / W * W;
    if (i < copied) return stage_of(st)[i / W].v[i % W];
    return i < valid ? in[t * tile + i] : one;
  };

  if (threadIdx.x == 0) {
    for (int st = 0; st < S; ++st) {
      ::cuda::ptx::mbarrier_init(&roles.full[st], 1);
      ::cuda::ptx::mbarrier_init(&roles.empty[st], stream_aggregators + stream_scanners);
    }
    roles.aggregated = 0;
    roles.end = INT_MAX;
    for (int k = 0; k < R; ++k) roles.chained[k] = 0;
    ::cuda::ptx::fence_mbarrier_init(::cuda::ptx::sem_release, ::cuda::ptx::scope_cluster);
  }
  __syncthreads();

  if (warp == 0) {  // producer
    if (lane != 0) return;
    for (int j = 0;; ++j) {
      const int st = j % S;
      if (j >= S) stage_wait(&roles.empty[st], j / S - 1);
      const std::int64_t t = static_cast<std::int64_t>(atomicAdd(s.counter, 1ull));
      roles.tile_of[st] = t < tiles ? t : -1;
      const std::int64_t valid = t < tiles ? n - t * tile : 0;
      const auto bytes = static_cast<std::uint32_t>(std::min(valid, tile) / W * 16);
      if (bytes == 0) {
        ::cuda::ptx::mbarrier_arrive(&roles.full[st]);
      } else {
        ::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta,
                                               ::cuda::ptx::space_shared, &roles.full[st], bytes);
        ::cuda::ptx::cp_async_bulk(::cuda::ptx::space_shared, ::cuda::ptx::space_global,
                                   stage_of(st), in + t * tile, bytes, &roles.full[st]);
      }
      if (t >= tiles) return;
    }
  }

  constexpr int A = stream_aggregators, C = stream_chainers;
  if (warp <= A) {  // aggregators: warp a reads vectors (a + k * A) * 32 + lane of each tile
    const int a = warp - 1;
    for (int j = 0;; ++j) {
      const int st = j % S;
      stage_wait(&roles.full[st], j / S);
      const std::int64_t t = roles.tile_of[st];
      V acc[W];  // W chains of adds in flight
#pragma unroll
      for (int k = 0; k < W; ++k) acc[k] = one;
      if (t >= 0 && n - t * tile >= tile) {
        const vec_t* v = stage_of(st);
#pragma unroll 4
        for (int i = a * 32 + lane; i < tile / W; i += 32 * A) {
          const vec_t x = v[i];
#pragma unroll
          for (int k = 0; k < W; ++k) acc[k] = op(acc[k], x.v[k]);
        }
      } else if (t >= 0) {
        for (std::int64_t i = a * 32 + lane; i < tile; i += 32 * A)
          acc[0] = op(acc[0], element(st, t, i));
      }
      __syncwarp();
      if (lane == 0) ::cuda::ptx::mbarrier_arrive(&roles.empty[st]);
      V total = acc[0];
#pragma unroll
      for (int k = 1; k < W; ++k) total = op(total, acc[k]);
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) total = op(total, __shfl_xor_sync(~0u, total, d));
      // The warps' totals alternate between two rows, as the scanners' do.
      if (lane == 0) partials[j & 1][a] = total;
      asm volatile("bar.sync 2, %0;" ::"n"(A * 32) : "memory");
      if (a != 0) {
        if (t < 0) return;
        continue;
      }
      total = partials[j & 1][0];
#pragma unroll
      for (int k = 1; k < A; ++k) total = op(total, partials[j & 1][k]);
      if (lane == 0 && t >= 0) {
        publish(s, t, total, t == 0 ? link_prefix : link_aggregate);
        roles.tiles[j % R] = t;
        aggregates[j % R] = total;
        counter_set(roles.aggregated, j + 1);
      } else if (lane == 0) {
        roles.end = j;
        counter_set(roles.aggregated, INT_MAX);
      }
      if (t < 0) return;
    }
  }

  if (warp <= A + C) {  // chainers: the block's tiles j = c, c + C, ...
    for (int j = warp - 1 - A;; j += C) {
      counter_wait(roles.aggregated, j);
      if (j >= roles.end) return;
      const std::int64_t t = roles.tiles[j % R];
      V prefix = one;
      if (t > 0) {
        prefix = warp_look_back<look_back_links>(s, t, op);
        if (lane == 0) publish(s, t, op(prefix, aggregates[j % R]), link_prefix);
      }
      if (lane == 0) {
        prefixes[j % R] = prefix;
        counter_set(roles.chained[j % R], j + 1);
      }
    }
  }

  // Scanners: warp w (of the scanners) lane l holds vectors (w * Q + q) * 32 + l of the tile, as
  // in tile_scan_kernel.
  const int sw = warp - 1 - A - C;
  const int first = (sw * Q * 32 + lane) * W;  // this thread's first element in the tile
  for (int j = 0;; ++j) {
    const int st = j % S;
    stage_wait(&roles.full[st], j / S);
    const std::int64_t t = roles.tile_of[st];
    if (t < 0) return;
    const bool full = n - t * tile >= tile;
    V v[Q][W];
    if (full) {
      const vec_t* src = stage_of(st) + first / W;
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const vec_t x = src[q * 32];
#pragma unroll
        for (int k = 0; k < W; ++k) v[q][k] = x.v[k];
      }
    } else {
#pragma unroll
      for (int q = 0; q < Q; ++q)
#pragma unroll
        for (int k = 0; k < W; ++k) v[q][k] = element(st, t, first + q * 32 * W + k);
    }
    __syncwarp();
    if (lane == 0) ::cuda::ptx::mbarrier_arrive(&roles.empty[st]);

    V pre[Q];
    const V carry = warp_scan_runs(v, pre, op);
    // The totals alternate between two rows, so one barrier a tile separates writers and readers.
    if (lane == 0) warp_totals[j & 1][sw] = carry;
    asm volatile("bar.sync 1, %0;" ::"n"(stream_scanners * 32) : "memory");
    V warp_prefix = one;
#pragma unroll
    for (int k = 0; k < stream_scanners; ++k)
      if (k < sw) warp_prefix = op(warp_prefix, warp_totals[j & 1][k]);

    counter_wait(roles.chained[j % R], j);
    store_runs(v, pre, op(prefixes[j % R], warp_prefix), out + t * tile, first, n - t * tile,
               full, op);
  }
#endif
}

/// Whether stream_scan can scan n elements from `in` into `out` on dev (the current device): both
/// on 16-byte boundaries, at least 2^16 elements (measured down to there: 7.5 us against CUB's
/// 12.4 at 2^16, level at 2^22-2^23, 0.86 against 0.74 of copy at 2^28), and the kernel able to
/// run there. Only for 4-byte accumulators (float32, 32-bit integers), whose links are packed:
/// with a flag and a value a link the chain is slower than CUB's (float64 at 2^24: 0.61 of copy
/// against 0.70).
template <class V, class Op>
bool stream_scan_fits(cunp::device dev, const V* in, const V* out, std::int64_t n, Op) {
  static_assert(packed_links_v<V>, "the streaming scan is for 4-byte accumulators");
  return vec_aligned<V, tile_vec<V>>(in) && vec_aligned<V, tile_vec<V>>(out) &&
         n >= (std::int64_t(1) << 16) &&
         // bulk copies and transaction barriers: an older build has an empty body
         shared_memory_opt_in<stream_scan_kernel<V, Op>>(dev.index(), stream_smem, 90);
}

/// The inclusive scan with op of n contiguous elements (stream_scan_fits must hold).
template <class V, class Op>
void stream_scan(cunp::device dev, const V* in, V* out, std::int64_t n, Op op, cudaStream_t st) {
  const std::int64_t tiles = (n + stream_tile_items<V> - 1) / stream_tile_items<V>;
  chain_status<V> s{};
  const auto status = make_status<V>(dev, tiles, s, st);
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(tiles, sm_count(dev.index())));
  stream_scan_kernel<V, Op><<<blocks, stream_threads, stream_smem, st>>>(in, out, n, s, op);
  CUNP_CUDA_CHECK_LAUNCH("stream_scan_kernel");
}

}  // namespace cunp::detail::cuda
