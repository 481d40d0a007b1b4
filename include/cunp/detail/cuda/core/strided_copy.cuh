// cunp/detail/cuda/core/strided_copy.cuh: the kernels behind every copy of one layout into another
// (copyto, ascontiguousarray, to(), astype, concatenate, flip, pad, ...). The merged layout of
// the two operands decides which of three kernels runs:
//  - rows: both step by one along the last dimension (the source may step back, as a flip):
//    each block copies a piece of one row and computes that row's offsets once, so no element
//    pays for index arithmetic and both sides are coalesced;
//  - tiles: the source steps by one along one dimension and the destination along another (a
//    transpose, any axis permutation): tiles go through shared memory so that the reads and the
//    writes are both coalesced;
//  - elements: anything else (no dimension of unit stride on either side): one offset per element.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "cunp/detail/cuda/core/launch.cuh"

namespace cunp::detail::cuda {

/// The dimensions a kernel does not walk itself, with both operands' element strides.
struct outer_dims {
  int ndim = 0;
  std::int64_t extent[max_dims]{};
  std::int64_t dst[max_dims]{}, src[max_dims]{};
};

__device__ __forceinline__ void outer_offsets(std::int64_t i, const outer_dims& o, std::int64_t& d,
                                              std::int64_t& s) {
  d = 0;
  s = 0;
  for (int k = o.ndim - 1; k > 0; --k) {
    const std::int64_t q = i / o.extent[k], r = i - q * o.extent[k];
    d += r * o.dst[k];
    s += r * o.src[k];
    i = q;
  }
  if (o.ndim > 0) {  // i < extent[0]: the outermost index needs no division
    d += i * o.dst[0];
    s += i * o.src[0];
  }
}

/// The identity conversion of same-type copies.
struct copy_as_is {
  template <class T> __device__ __forceinline__ T operator()(const T& v) const { return v; }
};

/// Elements per thread and pass of the rows kernel: 64 bytes of loads in flight, 4 to 16 of them
/// (a copy at the H200's bandwidth needs about 32 KiB in flight per SM).
template <class T> inline constexpr int row_unroll = std::clamp(int(64 / sizeof(T)), 4, 16);

/// rows x len elements: dst[d(row) + i] = op(src[s(row) + i * Step]), Step 1 or -1.
template <class To, class From, class Op, int Step>
CUNP_KERNEL void copy_rows_kernel(To* dst, const From* src, outer_dims o, std::int64_t rows,
                                  std::int64_t len, std::int64_t pieces, Op op) {
  constexpr int U = row_unroll<From>, piece = block_threads * U;
  // (row, part) of piece t, moved by the grid's step without a 64-bit division per piece
  std::int64_t row = blockIdx.x / pieces, part = blockIdx.x - row * pieces;
  const std::int64_t hop_rows = gridDim.x / pieces, hop_parts = gridDim.x - hop_rows * pieces;
  for (std::int64_t t = blockIdx.x; t < rows * pieces; t += gridDim.x) {
    const std::int64_t first = part * piece + threadIdx.x;
    std::int64_t d, s;
    outer_offsets(row, o, d, s);
    row += hop_rows;
    part += hop_parts;
    if (part >= pieces) part -= pieces, ++row;
    const From* sp = src + s + first * Step;
    To* dp = dst + d + first;
    From v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)  // every load in flight before the first store
      if (first + u * block_threads < len) v[u] = sp[u * block_threads * Step];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (first + u * block_threads < len) dp[u * block_threads] = op(v[u]);
  }
}

/// Consecutive elements a thread of the tiles kernel moves as one access: two 4-byte items,
/// 4 bytes of smaller ones, one item otherwise (measured best on the H200: RESULTS.md).
template <class T>
inline constexpr int tile_vector = sizeof(T) >= 8   ? 1
                                   : sizeof(T) == 4 ? 2
                                                    : int(4 / sizeof(T));
inline constexpr int tile_rows = 8;  // threads per block: 32 x tile_rows

template <class T, int V> __device__ __forceinline__ void load_vector(T* to, const T* p) {
  if constexpr (V == 1) {
    to[0] = *p;
  } else {
    const auto v = *reinterpret_cast<const vec<T, V>*>(p);
#pragma unroll
    for (int k = 0; k < V; ++k) to[k] = v.v[k];
  }
}

/// Where tile t of a tiles kernel lies: its outer index's offsets on both sides and its first
/// row and column (tiles of E x E, tiles_r x tiles_c of them for each outer index).
struct tile_place {
  std::int64_t dst, src, r0, c0;
};
__device__ __forceinline__ tile_place place_of_tile(std::int64_t t, int E, const outer_dims& o,
                                                    std::int64_t tiles_r, std::int64_t tiles_c) {
  const std::int64_t b = t / (tiles_r * tiles_c), in = t - b * (tiles_r * tiles_c);
  const std::int64_t tr = in / tiles_c;
  tile_place p{0, 0, tr * E, (in - tr * tiles_c) * E};
  outer_offsets(b, o, p.dst, p.src);
  return p;
}

/// For every outer index, r < R, c < C: dst[d + r * dst_r + c] = op(src[s + r + c * src_c]).
/// Tiles of E x E elements (E = 32 V, V from tile_vector) go through shared memory; a thread
/// moves V consecutive elements as one access on each side (the host checks the alignment),
/// so 1- and 2-byte items move 4 bytes per access as 4-byte ones do. Edge tiles go element by
/// element.
template <class To, class From, class Op>
CUNP_KERNEL void copy_tiles_kernel(To* dst, const From* src, outer_dims o, std::int64_t R,
                                   std::int64_t C, std::int64_t dst_r, std::int64_t src_c,
                                   std::int64_t tiles_r, std::int64_t tiles_c, std::int64_t tiles,
                                   Op op) {
  constexpr int V = tile_vector<From>, E = 32 * V, rows = tile_rows, J = E / rows;
  // Raw storage: __shared__ variables cannot have constructors (complex, float16 have them).
  // A row of E + 1 elements keeps the column reads free of bank conflicts.
  __shared__ alignas(From) unsigned char storage[sizeof(From) * E * (E + 1)];
  auto tile = reinterpret_cast<From(*)[E + 1]>(storage);
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const tile_place p = place_of_tile(t, E, o, tiles_r, tiles_c);
    const std::int64_t r0 = p.r0, c0 = p.c0;
    const From* sp = src + p.src + r0 + c0 * src_c;
    To* dp = dst + p.dst + r0 * dst_r + c0;
    if (r0 + E <= R && c0 + E <= C) {
#pragma unroll
      for (int j = 0; j < J; ++j) {
        const int cl = ty + rows * j;
        load_vector<From, V>(&tile[cl][V * tx], sp + V * tx + cl * src_c);
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < J; ++j) {
        const int rl = ty + rows * j;
        To* q = dp + rl * dst_r + V * tx;
        if constexpr (V == 1) {
          *q = op(tile[tx][rl]);
        } else {
          vec<To, V> w;
#pragma unroll
          for (int k = 0; k < V; ++k) w.v[k] = op(tile[V * tx + k][rl]);
          *reinterpret_cast<vec<To, V>*>(q) = w;
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < J; ++j)
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const int cl = ty + rows * j, rl = V * tx + k;
          if (r0 + rl < R && c0 + cl < C) tile[cl][rl] = sp[rl + cl * src_c];
        }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < J; ++j)
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const int rl = ty + rows * j, cl = V * tx + k;
          if (r0 + rl < R && c0 + cl < C) dp[rl * dst_r + cl] = op(tile[cl][rl]);
        }
    }
    __syncthreads();
  }
}

/// Whether a tiles copy of To from From by op is a plain copy of 1- or 2-byte items, which
/// copy_tiles_packed_kernel moves.
template <class To, class From, class Op>
inline constexpr bool packed_tiles =
    sizeof(From) < 4 && std::conjunction_v<std::is_same<To, From>, std::is_same<Op, copy_as_is>>;

/// Words a thread of copy_tiles_packed_kernel moves along a tile row: tiles of 256 bytes a side,
/// as float32's tiles of 64 items are.
inline constexpr int packed_words = 2;
/// The packed kernel's tile side in items of T (32 lanes of packed_words words), and its
/// shared memory in bytes.
template <class T> inline constexpr int packed_side = int(4 / sizeof(T)) * 32 * packed_words;
template <class T>
inline constexpr std::size_t packed_tile_bytes =
    sizeof(T) * std::size_t(packed_side<T>) * std::size_t(packed_side<T>);

/// A V x V block of items transposed in registers (V = 2 or 4 items a 32-bit word): w[k] holds
/// column k's items of rows 0 .. V - 1, out[r] gets row r's items of columns 0 .. V - 1.
template <int V>
__device__ __forceinline__ void transpose_words(const unsigned (&w)[V], unsigned (&out)[V]) {
  if constexpr (V == 2) {
    out[0] = __byte_perm(w[0], w[1], 0x5410);
    out[1] = __byte_perm(w[0], w[1], 0x7632);
  } else {
    const unsigned t0 = __byte_perm(w[0], w[1], 0x5140), t1 = __byte_perm(w[0], w[1], 0x7362);
    const unsigned u0 = __byte_perm(w[2], w[3], 0x5140), u1 = __byte_perm(w[2], w[3], 0x7362);
    out[0] = __byte_perm(t0, u0, 0x5410);
    out[1] = __byte_perm(t0, u0, 0x7632);
    out[2] = __byte_perm(t1, u1, 0x5410);
    out[3] = __byte_perm(t1, u1, 0x7632);
  }
}

/// copy_tiles_kernel's copy for 1- and 2-byte items copied as they are. Staging single items in
/// shared memory costs two shared-memory accesses of 1 or 2 bytes for every 4 bytes moved (the
/// tiles kernel's float16 and int8 transposes stopped at 0.64 and 0.68 of the copy ceiling,
/// instruction bound); here a thread loads V words of V consecutive columns, transposes the V x
/// V block in registers (byte permutes) and stores whole words, so every shared-memory access
/// moves 4 bytes. Tiles are E = packed_side items a side (256 bytes: tiles of 128 bytes a side
/// left float16 at 0.81 and int8 at 0.68); row r's word w lies at [r][w ^ (r / V % 32)] of the
/// dynamic shared tile, which keeps both the stores and the reads free of bank conflicts
/// without padding. Edge tiles go element by element, global to global.
template <class T>
CUNP_KERNEL void copy_tiles_packed_kernel(T* dst, const T* src, outer_dims o, std::int64_t R,
                                          std::int64_t C, std::int64_t dst_r, std::int64_t src_c,
                                          std::int64_t tiles_r, std::int64_t tiles_c,
                                          std::int64_t tiles) {
  constexpr int V = 4 / sizeof(T), W = packed_words, E = packed_side<T>, words = E / V;
  constexpr int rows = tile_rows;
  extern __shared__ unsigned packed_storage[];
  auto tile = reinterpret_cast<unsigned(*)[words]>(packed_storage);
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const tile_place p = place_of_tile(t, E, o, tiles_r, tiles_c);
    const std::int64_t r0 = p.r0, c0 = p.c0;
    const T* sp = src + p.src + r0 + c0 * src_c;
    T* dp = dst + p.dst + r0 * dst_r + c0;
    if (r0 + E <= R && c0 + E <= C) {
#pragma unroll
      for (int j = 0; j < words / rows; ++j) {
        const int g = ty + rows * j;  // columns V g .. V g + V - 1
#pragma unroll
        for (int h = 0; h < W; ++h) {
          const int q = tx + 32 * h;  // rows V q .. V q + V - 1
          unsigned w[V], out[V];
#pragma unroll
          for (int k = 0; k < V; ++k)
            w[k] = *reinterpret_cast<const unsigned*>(sp + V * q + (V * g + k) * src_c);
          transpose_words<V>(w, out);
#pragma unroll
          for (int k = 0; k < V; ++k) tile[V * q + k][g ^ tx] = out[k];
        }
      }
      __syncthreads();
#pragma unroll 4
      for (int j = 0; j < E / rows; ++j) {
        const int rl = ty + rows * j;
#pragma unroll
        for (int h = 0; h < W; ++h) {
          const int q = tx + 32 * h;
          *reinterpret_cast<unsigned*>(dp + rl * dst_r + V * q) = tile[rl][q ^ (rl / V % 32)];
        }
      }
    } else {
      const std::int64_t er = std::min<std::int64_t>(E, R - r0),
                         ec = std::min<std::int64_t>(E, C - c0);
      for (std::int64_t i = ty * 32 + tx; i < er * ec; i += 32 * rows) {
        const std::int64_t rl = i / ec, cl = i - rl * ec;
        dp[rl * dst_r + cl] = sp[rl + cl * src_c];
      }
    }
    __syncthreads();
  }
}

template <class To, class From, class Op, class I>
CUNP_KERNEL void copy_elements_kernel(strided_shape shape, strided_operand dst, strided_operand src,
                                      I n, Op op) {
  To* d = static_cast<To*>(dst.data);
  const From* s = static_cast<const From*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  if (shape.ndim == 1) {  // one merged dimension, no unit stride: no division either
    const std::int64_t sd = dst.strides[0], ss = src.strides[0];
    for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) d[i * sd] = op(s[i * ss]);
    return;
  }
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    d[offset_of(i, shape, dst.strides)] = op(s[offset_of(i, shape, src.strides)]);
}

/// A merged two-operand layout, as copy_strided receives it.
struct copy_layout {
  strided_shape shape;
  strided_operand dst, src;
};

/// The outer dimensions of l: every dimension but those in `skip`.
inline outer_dims outer_of(const copy_layout& l, int skip0, int skip1 = -1) {
  outer_dims o;
  for (int k = 0; k < l.shape.ndim; ++k) {
    if (k == skip0 || k == skip1) continue;
    o.extent[o.ndim] = l.shape.extent[k];
    o.dst[o.ndim] = l.dst.strides[k];
    o.src[o.ndim] = l.src.strides[k];
    ++o.ndim;
  }
  return o;
}

inline std::int64_t element_count(const strided_shape& shape) {
  std::int64_t n = 1;
  for (int d = 0; d < shape.ndim; ++d) n *= shape.extent[d];
  return n;
}

/// Rows shorter than a block's first pass leave threads idle: the element kernel serves them.
inline constexpr std::int64_t min_row = block_threads;
/// Both tile sides this long at least, or the element kernel serves better.
inline constexpr std::int64_t min_tile_side = 8;

/// Makes the destination step forward along the last dimension where it steps back (and the
/// source by one either way): the same copy, walked from the row's other end.
inline void forward_destination(copy_layout& l, std::size_t dst_item, std::size_t src_item) {
  const int last = l.shape.ndim - 1;
  if (last < 0 || l.dst.strides[last] != -1 || std::abs(l.src.strides[last]) != 1) return;
  const std::int64_t back = l.shape.extent[last] - 1;
  l.dst.data = static_cast<char*>(l.dst.data) - back * std::int64_t(dst_item);
  l.src.data = static_cast<char*>(l.src.data) + back * l.src.strides[last] * std::int64_t(src_item);
  l.dst.strides[last] = 1;
  l.src.strides[last] = -l.src.strides[last];
}

/// The rows kernel, where the layout suits it (a forward destination, a source stepping by one
/// along rows of min_row elements or more; only back with BackOnly): whether it ran.
template <class To, class From, class Op, bool BackOnly = false>
bool copy_rows(int dev, const copy_layout& l, cudaStream_t st, Op op) {
  const int last = l.shape.ndim - 1;
  if (last < 0 || l.dst.strides[last] != 1 || std::abs(l.src.strides[last]) != 1 ||
      l.shape.extent[last] < min_row || (BackOnly && l.src.strides[last] != -1))
    return false;
  const std::int64_t len = l.shape.extent[last], rows = element_count(l.shape) / len;
  const std::int64_t piece = std::int64_t(block_threads) * row_unroll<From>;
  const std::int64_t pieces = (len + piece - 1) / piece;
  const auto grid =
      unsigned(std::min<std::int64_t>(rows * pieces, std::int64_t(sm_count(dev)) * 8));
  auto* d = static_cast<To*>(l.dst.data);
  const auto* s = static_cast<const From*>(l.src.data);
  if constexpr (!BackOnly)
    if (l.src.strides[last] == 1) {
      copy_rows_kernel<To, From, Op, 1>
          <<<grid, block_threads, 0, st>>>(d, s, outer_of(l, last), rows, len, pieces, op);
      CUNP_CUDA_CHECK_LAUNCH("copy_rows_kernel");
      return true;
    }
  copy_rows_kernel<To, From, Op, -1>
      <<<grid, block_threads, 0, st>>>(d, s, outer_of(l, last), rows, len, pieces, op);
  CUNP_CUDA_CHECK_LAUNCH("copy_rows_kernel");
  return true;
}

/// Copies (converting by op) with the kernel that suits the layout; To and From are the items
/// of the two sides.
template <class To, class From, class Op>
void copy_layout_run(int dev, copy_layout l, cudaStream_t st, Op op) {
  const std::int64_t n = element_count(l.shape);
  if (n == 0) return;
  const int last = l.shape.ndim - 1;
  forward_destination(l, sizeof(To), sizeof(From));
  if (copy_rows<To, From>(dev, l, st, op)) return;
  int ds = -1, dd = -1;  // the dimensions along which the source, the destination step by one
  for (int k = 0; k <= last; ++k) {
    if (l.src.strides[k] == 1 && (ds < 0 || l.shape.extent[k] > l.shape.extent[ds])) ds = k;
    if (l.dst.strides[k] == 1 && (dd < 0 || l.shape.extent[k] > l.shape.extent[dd])) dd = k;
  }
  if (ds >= 0 && dd >= 0 && ds != dd && l.shape.extent[ds] >= min_tile_side &&
      l.shape.extent[dd] >= min_tile_side) {
    constexpr int V = tile_vector<From>;
    bool packed = false;
    if constexpr (packed_tiles<To, From, Op>)
      packed = shared_memory_opt_in<copy_tiles_packed_kernel<From>>(dev, packed_tile_bytes<From>);
    const int E = packed ? packed_side<From> : 32 * V;
    const outer_dims o = outer_of(l, ds, dd);
    // V elements move as one access: every vector's first element must sit on a multiple of V.
    bool aligned =
        V == 1 || (reinterpret_cast<std::uintptr_t>(l.src.data) % (V * sizeof(From)) == 0 &&
                   reinterpret_cast<std::uintptr_t>(l.dst.data) % (V * sizeof(To)) == 0 &&
                   l.src.strides[dd] % V == 0 && l.dst.strides[ds] % V == 0);
    for (int k = 0; k < o.ndim && aligned; ++k) aligned = o.src[k] % V == 0 && o.dst[k] % V == 0;
    if (aligned) {
      const std::int64_t R = l.shape.extent[ds], C = l.shape.extent[dd];
      const std::int64_t tiles_r = (R + E - 1) / E, tiles_c = (C + E - 1) / E;
      const std::int64_t tiles = n / (R * C) * tiles_r * tiles_c;
      const std::int64_t resident = std::int64_t(sm_count(dev)) * 2048 / (32 * tile_rows);
      const auto grid = unsigned(std::min(tiles, resident));
      if constexpr (packed_tiles<To, From, Op>) {
        if (packed) {
          copy_tiles_packed_kernel<From>
              <<<grid, dim3(32, tile_rows), packed_tile_bytes<From>, st>>>(
                  static_cast<To*>(l.dst.data), static_cast<const From*>(l.src.data), o, R, C,
                  l.dst.strides[ds], l.src.strides[dd], tiles_r, tiles_c, tiles);
          CUNP_CUDA_CHECK_LAUNCH("copy_tiles_packed_kernel");
          return;
        }
      }
      copy_tiles_kernel<To, From, Op><<<grid, dim3(32, tile_rows), 0, st>>>(
          static_cast<To*>(l.dst.data), static_cast<const From*>(l.src.data), o, R, C,
          l.dst.strides[ds], l.src.strides[dd], tiles_r, tiles_c, tiles, op);
      CUNP_CUDA_CHECK_LAUNCH("copy_tiles_kernel");
      return;
    }
  }
  const unsigned grid = grid_for(dev, n);
  if (n < (std::int64_t(1) << 31))
    copy_elements_kernel<To, From, Op, std::int32_t>
        <<<grid, block_threads, 0, st>>>(l.shape, l.dst, l.src, std::int32_t(n), op);
  else
    copy_elements_kernel<To, From, Op, std::int64_t>
        <<<grid, block_threads, 0, st>>>(l.shape, l.dst, l.src, n, op);
  CUNP_CUDA_CHECK_LAUNCH("copy_elements_kernel");
}

/// The reversal of the items of Sub bytes inside one wide item W: a reversed row copied in wide
/// items reverses each of them.
template <class W, class Sub> struct reverse_within {
  __device__ __forceinline__ W operator()(const W& w) const {
    constexpr int k = sizeof(W) / sizeof(Sub);
    W out;
    const Sub* in = reinterpret_cast<const Sub*>(&w);
    Sub* o = reinterpret_cast<Sub*>(&out);
#pragma unroll
    for (int i = 0; i < k; ++i) o[i] = in[k - 1 - i];
    return out;
  }
};

/// The same copy (a forward destination) in the widest items, up to 16 bytes, that the layout
/// allows: where both sides step by one along the last dimension (the source forward or back)
/// and every stride, the row and the rows' lowest addresses are multiples of the wider item.
/// Returns the new item size; a source stepping back then reads each wide item reversed.
inline std::size_t widen_items(copy_layout& l, std::size_t itemsize) {
  const int last = l.shape.ndim - 1;
  if (last < 0 || l.dst.strides[last] != 1 || std::abs(l.src.strides[last]) != 1) return itemsize;
  const bool back = l.src.strides[last] == -1;
  const std::int64_t len = l.shape.extent[last], item = std::int64_t(itemsize);
  // The lowest address of the source's row: its last element when it steps back.
  const auto* src_low = static_cast<const char*>(l.src.data) - (back ? (len - 1) * item : 0);
  // Stepping back, only 16-byte items: each wide size is a kernel of its own to compile.
  for (std::size_t w = 16; w > itemsize && (!back || w == 16); w /= 2) {
    const auto fits = [&](std::int64_t elements) { return elements * item % std::int64_t(w) == 0; };
    bool ok = fits(len) && reinterpret_cast<std::uintptr_t>(l.dst.data) % w == 0 &&
              reinterpret_cast<std::uintptr_t>(src_low) % w == 0;
    for (int k = 0; k < last && ok; ++k) ok = fits(l.dst.strides[k]) && fits(l.src.strides[k]);
    if (!ok) continue;
    const auto ratio = std::int64_t(w / itemsize);
    l.shape.extent[last] /= ratio;
    for (int k = 0; k < last; ++k) {
      l.dst.strides[k] /= ratio;
      l.src.strides[k] /= ratio;
    }
    // Stepping back, wide item j holds source elements j * ratio + ratio - 1 down to j * ratio.
    if (back) l.src.data = static_cast<char*>(l.src.data) - (ratio - 1) * item;
    return w;
  }
  return itemsize;
}

}  // namespace cunp::detail::cuda
