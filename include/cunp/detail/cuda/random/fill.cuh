// cunp/detail/cuda/random/fill.cuh: the CUDA backend of the random fills, NumPy's numbers in
// parallel. Every 64-bit draw p of a call is a function of the call's starting state alone
// (PCG64: the state p + 1 LCG steps on, one jump; Philox: a block of the counter), so threads
// start at their own draws and then step by the grid's width (PCG64: one multiply-add a draw,
// like the sequential generator; Philox: one block a draw).
//
// A pair rule (the normal's) makes elements 2k and 2k + 1 from the 64-bit draws of pair k, one
// kernel too. A rule without rejection maps draws to elements by position (64-bit draws one to
// one; 32-bit draws the buffered half first, then both halves of each 64-bit draw; narrower
// draws the pieces of each 32-bit one), one kernel. Lemire's bounded integers refuse a few
// draws, each refusal a function of that draw alone: one pass over tiles of 64-bit draws counts
// each tile's accepted candidates, chains the counts by a decoupled look-back, and writes the
// accepted values at their ranks (a tile without a refusal knows them from its places, others
// rank by block scans); the host then reads how many draws the call consumed (its one wait,
// which allow_synchronize(false) refuses), to leave the generator where NumPy's is. A round
// that accepted too few (its size is a generous estimate, six standard deviations over the
// expected refusals) is followed by another from where it stopped, after one more wait.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/scan/scan_tiles.cuh"
#include "cunp/detail/random/draws.hpp"
#include "cunp/random.hpp"

namespace cunp::detail {

namespace cuda {

inline constexpr int random_threads = 256;
// 64-bit draws a thread owns in a tile of a fill with rejection, held in registers from the
// tile's count to its stores (fill_accepted_kernel).
inline constexpr int random_items = 16;
inline constexpr std::int64_t random_tile = std::int64_t(random_threads) * random_items;

/// Blocks of a fill over `items` (draws or pairs): one resident wave (blocks_per_sm blocks of 256
/// threads an SM, as many as the kernel's registers allow), so that each thread's first jump,
/// O(log t) multiplications, is paid over many draws.
inline unsigned fill_grid(int dev, std::int64_t items, int blocks_per_sm = 8) {
  const std::int64_t want = (items + block_threads - 1) / block_threads;
  return static_cast<unsigned>(
      std::clamp<std::int64_t>(want, 1, std::int64_t(sm_count(dev)) * blocks_per_sm));
}
/// Blocks an SM of the pair fill: the registers it takes (45) allow five, and a grid of five an
/// SM runs in one wave (RESULTS.md: six, at 40 registers, ran 2% slower).
inline constexpr int pair_blocks_per_sm = 5;

/// Where a call's draws start: the generator's draws by index (pcg64_draws, philox_draws),
/// whether the buffered half comes first (lead), and the stride between one thread's draws.
template <class Draws> struct draw_origin {
  using stride_type = typename Draws::stride_type;
  Draws draws;
  stride_type stride;
  int lead;
  std::uint32_t lead_bits;
};

/// A fill kernel's copy of the table its rule reads (takes_tables: Rule::tables_type), or
/// nothing.
struct no_tables {};
template <class Rule, bool = takes_tables<Rule>> struct tables_of {
  using type = no_tables;
};
template <class Rule> struct tables_of<Rule, true> {
  using type = typename Rule::tables_type;
};
template <class Rule> using tables_param = typename tables_of<Rule>::type;
template <class Rule> tables_param<Rule> tables_for(const Rule& rule) {
  if constexpr (takes_tables<Rule>) return *rule.tables;
  else return {};
}

/// Points the rule at a copy of its tables in shared memory: a lookup in the kernel's parameter
/// space serialises a warp's different indices. Every thread of the block calls it.
template <class Rule>
__device__ __forceinline__ void stage_tables(Rule& rule, const tables_param<Rule>& tables) {
  if constexpr (takes_tables<Rule>) {
    using table_t = tables_param<Rule>;
    static_assert(sizeof(table_t) % sizeof(std::uint64_t) == 0);
    constexpr int words = int(sizeof(table_t) / sizeof(std::uint64_t));
    __shared__ table_t shared;
    const auto* from = reinterpret_cast<const std::uint64_t*>(&tables);
    auto* to = reinterpret_cast<std::uint64_t*>(&shared);
    for (int i = int(threadIdx.x); i < words; i += int(blockDim.x)) to[i] = from[i];
    __syncthreads();
    rule.tables = &shared;
  }
}

/// Piece j of the 32-bit draw u, as a draw of Width bits.
template <int Width> __device__ __forceinline__ draw_t<Width> piece(std::uint32_t u, int j) {
  if constexpr (Width >= 32) return u;
  else return static_cast<draw_t<Width>>((u >> (Width * j)) & ((1u << Width) - 1));
}

/// Bytes that one 64-bit draw fills (2 pieces of each of its halves, or one element).
template <class T, class Rule>
inline constexpr int bytes_per_draw =
    Rule::width == 64 ? int(sizeof(T)) : 2 * pieces_per_u32(Rule::width) * int(sizeof(T));

/// Stores the N bytes at src to the N-aligned dst in 4, 8 or 16-byte accesses. Through __stwb (a
/// plain write-back store), which the compiler keeps whole: an assignment through a uint4 pointer
/// from a local array of two int64 compiled to an 8-byte and two 4-byte stores, each warp access
/// then writing a quarter of the 512 bytes it spans.
template <int N> __device__ __forceinline__ void store_chunk(void* dst, const void* src) {
  const auto* bytes = static_cast<const unsigned char*>(src);
  if constexpr (N % 16 == 0) {
#pragma unroll
    for (int i = 0; i < N / 16; ++i) {
      uint4 w;
      memcpy(&w, bytes + 16 * i, 16);
      __stwb(static_cast<uint4*>(dst) + i, w);
    }
  } else if constexpr (N == 8) {
    uint2 w;
    memcpy(&w, bytes, 8);
    __stwb(static_cast<uint2*>(dst), w);
  } else {
    static_assert(N == 4, "a draw fills 4, 8 or a multiple of 16 bytes");
    unsigned int w;
    memcpy(&w, bytes, 4);
    __stwb(static_cast<unsigned int*>(dst), w);
  }
}

/// Every candidate of the 64-bit draw x as an element (a rule without rejection, or a tile that
/// refused none): x's, or the pieces of its two 32-bit halves, low half first.
template <class T, class Rule>
__device__ __forceinline__ void candidate_values(std::uint64_t x, const Rule& rule, T* v) {
  constexpr int W = Rule::width, per = pieces_per_u32(W);
  if constexpr (W == 64) {
    v[0] = rule.value(x);
  } else {
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int j = 0; j < per; ++j)
        v[h * per + j] = rule.value(piece<W>(std::uint32_t(x >> (32 * h)), j));
  }
}

/// Elements from the 64-bit draw x with index p (Rule without rejection): element p for 64-bit
/// draws, else the pieces of the 32-bit draws lead + 2p and lead + 2p + 1; with no lead and an
/// aligned output, a whole draw's elements in one store.
template <class T, class Rule>
__device__ __forceinline__ void emit_fixed(T* out, std::int64_t n, std::int64_t p, std::uint64_t x,
                                           int lead, bool aligned, const Rule& rule) {
  constexpr int W = Rule::width, per = pieces_per_u32(W);
  if constexpr (W == 64) {
    out[p] = rule.value(x);
  } else {
    const std::int64_t first = (lead + 2 * p) * per;
    if (lead == 0 && aligned && first + 2 * per <= n) {
      alignas(16) T v[2 * per];
      candidate_values(x, rule, v);
      store_chunk<bytes_per_draw<T, Rule>>(out + first, v);
      return;
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
#pragma unroll
      for (int j = 0; j < per; ++j)
        if (first + h * per + j < n)
          out[first + h * per + j] = rule.value(piece<W>(std::uint32_t(x >> (32 * h)), j));
    }
  }
}

template <class T, class Draws, class Rule>
CUNP_KERNEL void fixed_fill_kernel(T* out, std::int64_t n, std::int64_t draws,
                                   draw_origin<Draws> o, bool aligned, Rule rule,
                                   tables_param<Rule> tables) {
  stage_tables(rule, tables);
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  if constexpr (Rule::width < 64) {
    if (t == 0 && o.lead) {  // the buffered half: the call's first 32-bit draw
      constexpr int per = pieces_per_u32(Rule::width);
      for (int j = 0; j < per && j < n; ++j) out[j] = rule.value(piece<Rule::width>(o.lead_bits, j));
    }
  }
  if (t >= draws) return;
  const Draws d = o.draws;
  const auto stride = o.stride;
  auto s = d.at(t);
  for (std::int64_t p = t; p < draws; p += step) {
    emit_fixed(out, n, p, d.value(s), o.lead, aligned, rule);
    s = Draws::next(s, stride);
  }
}

/// Jumps of 2^i tiles of draws, so that a block moves its cursor from one tile it took to the
/// next in a few multiply-adds (a jump from the call's start, O(log) of them, every tile would
/// hold the block's other threads).
template <class Draws> struct tile_jumps {
  typename Draws::stride_type pow2[52];  // 2^51 tiles of 2^12 draws: every int64 draw index
};
template <class Draws> tile_jumps<Draws> make_tile_jumps(const Draws& d) {
  tile_jumps<Draws> j;
  for (int i = 0; i < 52; ++i) j.pow2[i] = d.stride(std::uint64_t(random_tile) << i);
  return j;
}

/// The accepted candidates of the 64-bit draw x, in order, through f(k, value) (k: the
/// candidate's place among the draw's 2 * pieces, or 0 for 64-bit draws); returns their count.
template <class Rule, class F>
__device__ __forceinline__ int accepted(std::uint64_t x, const Rule& rule, F&& f) {
  constexpr int W = Rule::width;
  int count = 0;
  if constexpr (W == 64) {
    if (rule.accept(x)) f(0, x), ++count;
  } else {
    constexpr int per = pieces_per_u32(W);
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int j = 0; j < per; ++j) {
        const auto d = piece<W>(std::uint32_t(x >> (32 * h)), j);
        if (rule.accept(d)) f(h * per + j, d), ++count;
      }
  }
  return count;
}

/// One pass over the tiles of `draws` 64-bit draws from draw `from` (cursor `start`): a block
/// takes tiles in order from the chain's counter, counts each tile's accepted candidates with
/// the tile's draws held in registers, finds the accepted candidates of the tiles before it by a
/// decoupled look-back (scan_tiles.cuh), and writes each accepted value at out[rank] for the
/// ranks below n (rank: the accepted candidates before it in this round, plus `done`, the values
/// written before this round). The thread that writes rank n - 1 records the 64-bit draw it came
/// from and the candidate's place in it; the last tile records the round's count in last[2].
/// Three blocks an SM: 80 registers for int64 (118 at two blocks an SM ran 15% slower).
template <class T, class Draws, class Rule>
CUNP_KERNEL void __launch_bounds__(random_threads, 3)
    fill_accepted_kernel(T* out, std::int64_t n, std::int64_t done, std::int64_t from,
                         std::int64_t draws, std::int64_t tiles, typename Draws::cursor start,
                         draw_origin<Draws> o, tile_jumps<Draws> jumps, Rule rule,
                         chain_status<std::int64_t> chain, std::int64_t* last) {
  const Draws d = o.draws;
  const auto stride = o.stride;
  using reduce = cub::BlockReduce<int, random_threads>;
  using scan = cub::BlockScan<std::int64_t, random_threads>;
  __shared__ union {
    typename reduce::TempStorage reduce;
    typename scan::TempStorage scan;
  } temp;
  __shared__ typename Draws::cursor base_s;
  __shared__ std::int64_t tile_s, before_s;
  __shared__ int total_s;
  constexpr int cands = Rule::width == 64 ? 1 : 2 * pieces_per_u32(Rule::width);
  const auto to_thread = d.stride(threadIdx.x);
  auto base = start;  // thread 0's: the cursor of tile `at`'s first draw
  std::int64_t at = 0;
  while (true) {
    if (threadIdx.x == 0) {
      const auto tile = static_cast<std::int64_t>(atomicAdd(chain.counter, 1ull));
      if (tile < tiles) {
        for (std::int64_t k = tile - at, b = 0; k != 0; k >>= 1, ++b)
          if (k & 1) base = Draws::next(base, jumps.pow2[b]);
        at = tile;
      }
      tile_s = tile;
      base_s = base;
    }
    __syncthreads();
    const std::int64_t tile = tile_s, first = from + tile * random_tile;
    if (tile >= tiles) return;
    auto s = Draws::next(base_s, to_thread);
    std::uint64_t x[random_items];
    int mine = 0;
#pragma unroll
    for (int i = 0; i < random_items; ++i) {
      x[i] = d.value(s);
      s = Draws::next(s, stride);
      if (first + i * random_threads + threadIdx.x < from + draws)
        mine += accepted(x[i], rule, [](int, auto) {});
    }
    const int total = reduce(temp.reduce).Sum(mine);  // thread 0's
    if (threadIdx.x < 32) {
      std::int64_t before = 0;
      if (tile == 0) {
        if (threadIdx.x == 0) publish(chain, tile, std::int64_t(total), link_prefix);
      } else {
        if (threadIdx.x == 0) publish(chain, tile, std::int64_t(total), link_aggregate);
        before = warp_look_back(chain, tile, ::cuda::std::plus<std::int64_t>{});
        if (threadIdx.x == 0) publish(chain, tile, before + total, link_prefix);
      }
      if (threadIdx.x == 0) {
        before_s = before;
        total_s = total;
        if (tile == tiles - 1) last[2] = before + total;
      }
    }
    __syncthreads();
    std::int64_t rank = done + before_s;
    const std::int64_t left = from + draws - first;  // (std::min would bind the host constant)
    const std::int64_t tile_draws = left < random_tile ? left : random_tile;
    if (rank >= n) {
      // nothing to write (every later tile neither)
    } else if (total_s == tile_draws * cands) {
      // No candidate of the tile refused (the common case: refusals are rare unless the range
      // is just over a power of two): each one's rank follows from its place, no scan.
      constexpr int bytes = bytes_per_draw<T, Rule>;
      // Pairs one item off their bytes-aligned places (an odd number of refusals before the
      // tile; at a refusal in 2^24 candidates half of a 2^28 fill): a lane stores the lane
      // before it's second value with its own first, so the warp's stores stay whole.
      const bool shifted =
          cands == 2 &&
          (reinterpret_cast<std::uintptr_t>(out) + std::uintptr_t(rank - 1) * sizeof(T)) % bytes == 0;
#pragma unroll
      for (int i = 0; i < random_items; ++i) {
        const std::int64_t p = first + i * random_threads + threadIdx.x;
        const std::int64_t r0 = rank + (p - first) * cands;
        if constexpr (cands == 2) {
          if (shifted && __all_sync(0xFFFFFFFFu, p < from + draws && r0 + cands <= n)) {
            alignas(16) T v[2], w[2];
            candidate_values(x[i], rule, v);
            const int lane = threadIdx.x % 32;
            w[0] = __shfl_up_sync(0xFFFFFFFFu, v[1], 1);
            w[1] = v[0];
            if (lane == 0)
              out[r0] = v[0];  // (the previous warp's last lane stores the item before)
            else
              store_chunk<bytes>(out + r0 - 1, w);
            if (lane == 31) out[r0 + 1] = v[1];
            if (r0 + cands == n) last[0] = p, last[1] = cands - 1;
            continue;
          }
        }
        if (p >= from + draws) continue;
        if (r0 + cands <= n && reinterpret_cast<std::uintptr_t>(out + r0) % bytes == 0) {
          // The draw's candidates in one store (a lane's 8-byte stores 16 bytes apart left
          // half of each store's sectors to another).
          alignas(16) T v[cands];
          candidate_values(x[i], rule, v);
          store_chunk<bytes>(out + r0, v);
          if (r0 + cands == n) last[0] = p, last[1] = cands - 1;
          continue;
        }
        accepted(x[i], rule, [&](int k, auto c) {
          const std::int64_t r = r0 + k;
          if (r < n) out[r] = rule.value(c);
          if (r == n - 1) last[0] = p, last[1] = k;
        });
      }
    } else {
#pragma unroll
      for (int i = 0; i < random_items; ++i) {
        const std::int64_t p = first + i * random_threads + threadIdx.x;
        const int mine_i = p < from + draws ? accepted(x[i], rule, [](int, auto) {}) : 0;
        std::int64_t before = 0, round = 0;
        scan(temp.scan).ExclusiveSum(std::int64_t(mine_i), before, round);
        __syncthreads();  // temp is reused by the next item's scan
        if (mine_i == 0 || rank >= n) {
          rank += round;
          continue;
        }
        std::int64_t r = rank + before;
        accepted(x[i], rule, [&](int k, auto c) {
          if (r < n) out[r] = rule.value(c);
          if (r == n - 1) last[0] = p, last[1] = k;
          ++r;
        });
        rank += round;
      }
    }
    __syncthreads();  // the shared values are rewritten for the next tile
  }
}

/// Pair k of a pair rule from 64-bit draws Rule::draws * k (and the next), a thread's pairs a
/// grid's width apart; the loop writes whole pairs, and an odd n's last element comes after it.
template <class T, class Draws, class Rule>
CUNP_KERNEL void __launch_bounds__(random_threads, pair_blocks_per_sm)
    pair_fill_kernel(T* out, std::int64_t n, draw_origin<Draws> o, Rule rule,
                     tables_param<Rule> tables) {
  stage_tables(rule, tables);
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  if (t >= (n + 1) / 2) return;
  const Draws d = o.draws;
  const auto stride = o.stride;
  auto s = d.at(t * Rule::draws);
  const auto one = d.stride(1);  // from a pair's first draw to its second
  const auto pair = [&](T* z) {
    const std::uint64_t x1 = d.value(s);
    rule.values(x1, Rule::draws == 2 ? d.value(Draws::next(s, one)) : x1, z);
    s = Draws::next(s, stride);
  };
  // The whole pairs this thread writes, in an int: a step is at least 256 pairs, and no device
  // holds 2^40 elements.
  const std::int64_t whole = n / 2;
  const int count = t < whole ? int((whole - 1 - t) / step + 1) : 0;
  T z[2];
  T* p = out + 2 * t;
  for (int i = 0; i < count; ++i, p += 2 * step) {
    pair(z);
    // (two stores: one 8-byte store of a float32 pair ran 3% slower on an H100, RESULTS.md)
    p[0] = z[0];
    p[1] = z[1];
  }
  if (2 * (t + count * step) + 1 == n) {
    pair(z);
    p[0] = z[0];
  }
}

/// The accepted pieces of the buffered half, which come before every 64-bit draw of a call.
template <class T> struct lead_values {
  T v[32];
  int count;
};
template <class T> CUNP_KERNEL void put_lead_kernel(T* out, lead_values<T> lead) {
  if (int(threadIdx.x) < lead.count) out[threadIdx.x] = lead.v[threadIdx.x];
}

}  // namespace cuda

template <class T, class Engine, class Rule>
void random_fill(cuda_backend, const ndarray<T>& out, Engine& s, const Rule& rule) {
  constexpr int W = Rule::width, per = pieces_per_u32(W);
  const std::int64_t n = out.size();
  const cuda::on_device on(out.device());
  const auto draws_in = draws_of(s);
  cuda::draw_origin<decltype(draws_of(s))> o{draws_in, {}, (W < 64 && s.has_uint32) ? 1 : 0,
                                             s.uinteger};
  if constexpr (!Rule::rejects) {
    // 64-bit draws the fill needs: n of them, or enough for the 32-bit draws after the lead.
    const std::int64_t u32s = W == 64 ? 0 : (n + per - 1) / per;
    const std::int64_t draws = W == 64 ? n : (std::max<std::int64_t>(u32s - o.lead, 0) + 1) / 2;
    const unsigned grid = cuda::fill_grid(on.dev, draws);
    o.stride = draws_in.stride(std::uint64_t(grid) * cuda::block_threads);
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(out.data()) % cuda::bytes_per_draw<T, Rule> == 0;
    cuda::fixed_fill_kernel<<<grid, cuda::block_threads, 0, on.stream>>>(
        out.data(), n, draws, o, aligned, rule, cuda::tables_for(rule));
    CUNP_CUDA_CHECK_LAUNCH("fixed_fill_kernel");
    skip_draws(s, W, std::uint64_t(n));
    return;
  } else {
    o.stride = draws_in.stride(cuda::random_threads);
    // The lead's candidates (the pieces of the buffered half) are the host's: it knows them,
    // and a one-thread-a-value kernel writes the accepted ones (a copy from host memory could
    // wait for the stream).
    std::int64_t done = 0, lead_used = 0;
    cuda::lead_values<T> lead{};
    if (o.lead) {
      for (int j = 0; j < per && done < n; ++j) {
        ++lead_used;
        const auto d = static_cast<draw_t<W>>(W >= 32 ? s.uinteger
                                                      : (s.uinteger >> (W * j)) & ((1u << W) - 1));
        if (rule.accept(d)) lead.v[done++] = rule.value(d);
      }
      lead.count = int(done);
      if (done > 0) {
        cuda::put_lead_kernel<<<1, 32, 0, on.stream>>>(out.data(), lead);
        CUNP_CUDA_CHECK_LAUNCH("put_lead_kernel");
      }
    }
    if (done == n) {  // the buffered half was enough
      skip_draws(s, W, std::uint64_t(lead_used));
      return;
    }
    // Rounds of 64-bit draws sized for the expected refusals, with six standard deviations and
    // a tile to spare.
    const double refuse = double(rule.threshold) / std::ldexp(1.0, W);
    const int cands = W == 64 ? 1 : 2 * per;
    // marks: the 64-bit draw and the place in it of the candidate of rank n - 1, and the count
    // a round accepted, read back together.
    std::int64_t from = 0, last[3] = {-1, -1, 0};
    const cuda::workspace marks(on.dev, sizeof(last));
    const auto jumps = cuda::make_tile_jumps(draws_in);
    auto* last_d = static_cast<std::int64_t*>(marks.data());
    CUNP_CUDA_CHECK(cudaMemsetAsync(last_d, 0xFF, sizeof(last), on.stream));
    while (true) {
      const double want = double(n - done) / (1 - refuse);
      const auto draws = static_cast<std::int64_t>(
          (want + 6 * std::sqrt(want * refuse) + 64) / cands + cuda::random_tile);
      const std::int64_t tiles = (draws + cuda::random_tile - 1) / cuda::random_tile;
      cuda::chain_status<std::int64_t> chain{};
      const auto status = cuda::make_status(out.device(), tiles, chain, on.stream);
      const unsigned grid = cuda::fill_grid(on.dev, tiles * cuda::block_threads);
      cuda::fill_accepted_kernel<<<grid, cuda::random_threads, 0, on.stream>>>(
          out.data(), n, done, from, draws, tiles, draws_in.at(from), o, jumps, rule, chain,
          last_d);
      CUNP_CUDA_CHECK_LAUNCH("fill_accepted_kernel");
      cuda::read_back(on, last, last_d, sizeof(last),
                      "Generator.integers on a GPU (it reads how many draws it used)");
      if (done + last[2] >= n) break;
      done += last[2];
      from += draws;
    }
    // Draws of width W the call consumed: the lead's, then up to the candidate of rank n - 1.
    const std::uint64_t used =
        W == 64 ? std::uint64_t(last[0] + 1)
                : std::uint64_t(lead_used) + std::uint64_t(last[0]) * cands + std::uint64_t(last[1]) + 1;
    skip_draws(s, W, used);
  }
}

template <class T, class Engine, class Rule>
void random_pairs(cuda_backend, const ndarray<T>& out, Engine& s, const Rule& rule) {
  const std::int64_t n = out.size(), pairs = (n + 1) / 2;
  const cuda::on_device on(out.device());
  const unsigned grid = cuda::fill_grid(on.dev, pairs, cuda::pair_blocks_per_sm);
  const auto draws_in = draws_of(s);
  const cuda::draw_origin<decltype(draws_of(s))> o{
      draws_in, draws_in.stride(std::uint64_t(grid) * cuda::block_threads * Rule::draws), 0, 0};
  cuda::pair_fill_kernel<<<grid, cuda::block_threads, 0, on.stream>>>(out.data(), n, o, rule,
                                                                       cuda::tables_for(rule));
  CUNP_CUDA_CHECK_LAUNCH("pair_fill_kernel");
  skip_draws(s, 64, std::uint64_t(pairs) * Rule::draws);
}

}  // namespace cunp::detail
