// cunp/detail/cuda/scan/scan.cuh: the CUDA scans behind cumsum, cumprod, nancumsum and nancumprod.
//
// Every path reads the input once and writes the output once:
// - one row (a flattened array, or an axis that is the only one longer than 1): a contiguous row
//   of float32 or 32-bit integer accumulators, 16-byte aligned, of at least 2^16, goes to the
//   streaming scan (scan_stream.cuh); others to CUB's single-pass decoupled look-back scan
//   (cub::DeviceScan::InclusiveScan), temporary storage from cunp's pool; a contiguous
//   expression is read through its binding, without a temporary;
// - rows along a contiguous last axis: rows of at least a tile, 16-byte aligned, of float,
//   double or 32/64-bit integers read as they are go to the vector tile scan (scan_tiles.cuh);
//   other rows to a kernel where a block scans a tile of one row (cub::BlockScan), the tiles of a
//   row chained by the same decoupled look-back; rows shorter than half a tile share tiles
//   through a segmented block scan;
// - any other axis: columns of the same accumulators, 16-byte aligned and at least 32 vectors
//   wide, go to the vector tile scan down the columns (scan_tiles.cuh); others to a kernel with
//   one thread per column, so that neighbouring threads touch neighbouring elements, each walking
//   a chunk of its column in registers; the chunks of a column are chained by a per-column
//   look-back.
// Inputs whose axes do not merge into one of these forms are first copied into C order.
#pragma once
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/expr/elementwise.cuh"
#include "cunp/detail/cuda/scan/scan_stream.cuh"
#include "cunp/detail/cuda/scan/scan_tiles.cuh"
#include "cunp/scan.hpp"

namespace cunp::detail {

namespace cuda {

/// The accumulator of a scan whose result dtype is R: signed integers as their unsigned
/// counterpart when they are summed or multiplied (the same two's-complement bits, wrapping
/// without undefined behaviour; a comparison needs the signed type), complex as cplx (the same
/// layout, with device operators), others as R.
template <class T, bool Wraps> struct scan_value { using type = T; };
template <class T>
  requires(is_integer_v<T> && std::is_signed_v<T>)
struct scan_value<T, true> { using type = std::make_unsigned_t<T>; };
template <class R, bool Wraps> struct scan_value<std::complex<R>, Wraps> { using type = cplx<R>; };
template <class T, class Fn>
using scan_value_t = typename scan_value<T, std::is_same_v<Fn, add_op> ||
                                                std::is_same_v<Fn, multiply_op>>::type;

/// CUB's tuned policies apply to its own operators on arithmetic types; other accumulators
/// (float16, complex, narrow integers, bool) use NumPy's loop through scan_combine.
template <class V>
inline constexpr bool cub_arithmetic_v =
    std::is_same_v<V, float> || std::is_same_v<V, double> || std::is_same_v<V, std::uint32_t> ||
    std::is_same_v<V, std::uint64_t>;
/// Sums and products of those take CUB's operators, and the tuned paths below (their identities
/// are 0 and 1); every other scan goes through scan_combine.
template <class V, class Fn>
inline constexpr bool cub_op_v =
    cub_arithmetic_v<V> && (std::is_same_v<Fn, add_op> || std::is_same_v<Fn, multiply_op>);
template <class V, class Fn>
using scan_op_t = std::conditional_t<
    cub_op_v<V, Fn>,
    std::conditional_t<std::is_same_v<Fn, multiply_op>, ::cuda::std::multiplies<V>,
                       ::cuda::std::plus<V>>,
    scan_combine<V, Fn>>;

/// Element i of a strided input as the accumulator V (R: the result dtype).
template <class R, class V, class Fn, bool Nan, class L> struct strided_loader {
  const L* data;
  std::int64_t step;
  CUNP_HD V operator()(std::int64_t i) const {
    return convert<V>(scan_load<R, Fn, Nan>(data[i * step]));
  }
};

/// Element i of a bound expression whose operands are all contiguous, as the accumulator V.
template <class R, class V, class Fn, bool Nan, int N, class Tree> struct expression_loader {
  Tree tree;
  slot_ptrs<N> ptrs;
  CUNP_HD V operator()(std::int64_t i) const {
    std::int64_t offs[N];
    for (int k = 0; k < N; ++k) offs[k] = i;
    return convert<V>(scan_load<R, Fn, Nan>(tree.eval(offset_indexer<N>{ptrs.p, offs})));
  }
};

/// The sequence f(0), f(1), ... as an iterator CUB can read.
template <class F> auto indexed(const F& f) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), f);
}

/// cub::DeviceScan::InclusiveScan of n items, its temporary storage taken from the pool.
template <class In, class V, class Op>
void device_scan(cunp::device dev, In in, V* out, index_t n, Op op, cudaStream_t st) {
  const auto run = [&](auto count) {
    cub_call(dev.index(), "cub::DeviceScan::InclusiveScan", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, op, count, st);
    });
  };
  if (n <= index_t(0xffffffff)) run(static_cast<std::uint32_t>(n));
  else run(static_cast<std::uint64_t>(n));
}

// ---------------------------------------------------------------------------------------------
// Rows along a contiguous axis.

/// Items per thread of the row kernel: 64 bytes of the wider of input and accumulator.
template <class L, class V> constexpr int row_items() {
  constexpr std::size_t w = sizeof(L) > sizeof(V) ? sizeof(L) : sizeof(V);
  return w >= 16 ? 4 : w >= 8 ? 8 : 16;
}
inline constexpr int row_threads = 256;

template <class V> struct segment_item {
  V value;
  bool head;
};
/// The segmented scan operator: a head starts over, otherwise values combine.
template <class V, class Op> struct segmented_op {
  Op op;
  CUNP_HD segment_item<V> operator()(const segment_item<V>& a, const segment_item<V>& b) const {
    return b.head ? b : segment_item<V>{op(a.value, b.value), a.head};
  }
};

/// Scans `rows` rows of n elements (row r at in + r * in_row, elements contiguous) into the
/// C-ordered out. Segmented: each tile holds `per` whole rows (in_row == n). Otherwise each row
/// is `per` tiles chained by look-back.
template <int Threads, int Items, bool Segmented, class R, class V, class Fn, bool Nan, class L,
          class Op>
CUNP_KERNEL void __launch_bounds__(Threads)
    row_scan_kernel(const L* in, V* out, std::int64_t n, std::int64_t in_row, std::int64_t rows,
                    std::int64_t per, chain_status<V> s, Op op) {
  constexpr std::int64_t tile = std::int64_t(Threads) * Items;
  using item_t = std::conditional_t<Segmented, segment_item<V>, V>;
  using load_t = cub::BlockLoad<L, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using scan_t = cub::BlockScan<item_t, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
  using store_t = cub::BlockStore<V, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename scan_t::TempStorage scan;
    typename store_t::TempStorage store;
  } temp;
  __shared__ std::int64_t tile_slot;
  __shared__ cub::Uninitialized<V> prefix_slot;
  const std::int64_t tiles = Segmented ? (rows + per - 1) / per : rows * per;
  for (std::int64_t t = next_tile(s.counter, tile_slot); t < tiles;
       t = next_tile(s.counter, tile_slot)) {
    std::int64_t src, dst, k = 0;
    int valid;
    if constexpr (Segmented) {
      const std::int64_t r0 = t * per;
      valid = static_cast<int>((per < rows - r0 ? per : rows - r0) * n);
      src = r0 * n;
      dst = r0 * n;
    } else {
      const std::int64_t row = t / per;
      k = t - row * per;
      valid = static_cast<int>(tile < n - k * tile ? tile : n - k * tile);
      src = row * in_row + k * tile;
      dst = row * n + k * tile;
    }
    L raw[Items];
    if (valid == tile) load_t(temp.load).Load(in + src, raw);
    else load_t(temp.load).Load(in + src, raw, valid, L{});
    __syncthreads();  // temp: load -> scan
    V values[Items];
    if constexpr (Segmented) {
      item_t items[Items];
      std::int64_t pos = (std::int64_t(threadIdx.x) * Items) % n;  // blocked arrangement
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        items[i] = {convert<V>(scan_load<R, Fn, Nan>(raw[i])), pos == 0};
        pos = pos + 1 == n ? 0 : pos + 1;
      }
      scan_t(temp.scan).InclusiveScan(items, items, segmented_op<V, Op>{op});
#pragma unroll
      for (int i = 0; i < Items; ++i) values[i] = items[i].value;
    } else {
#pragma unroll
      for (int i = 0; i < Items; ++i) values[i] = convert<V>(scan_load<R, Fn, Nan>(raw[i]));
      V aggregate;
      scan_t(temp.scan).InclusiveScan(values, values, op, aggregate);
      if (per > 1) {  // chained tiles (a partial tile is a row's last: its aggregate goes unread)
        if (threadIdx.x == 0) {
          if (k == 0) {
            publish(s, t, aggregate, link_prefix);
          } else {
            publish(s, t, aggregate, link_aggregate);
            const V prefix = look_back(s, t, 1, op);
            publish(s, t, op(prefix, aggregate), link_prefix);
            prefix_slot.Alias() = prefix;
          }
        }
        __syncthreads();
        if (k > 0) {
          const V prefix = prefix_slot.Alias();
#pragma unroll
          for (int i = 0; i < Items; ++i) values[i] = op(prefix, values[i]);
        }
      }
    }
    __syncthreads();  // temp: scan -> store
    if (valid == tile) store_t(temp.store).Store(out + dst, values);
    else store_t(temp.store).Store(out + dst, values, valid);
    __syncthreads();  // temp is reused by the next tile's load
  }
}

// ---------------------------------------------------------------------------------------------
// Columns: a scan along an axis that is not the last one.

/// Rows of a column that one thread holds in registers: 256 bytes of accumulators.
template <class V> constexpr int column_rows() {
  return sizeof(V) >= 16 ? 16 : sizeof(V) >= 8 ? 32 : 64;
}
inline constexpr int column_threads = 256;

struct column_geometry {
  std::int64_t columns, inner, n, chunks, column_blocks;
  std::int64_t in_outer, in_step, in_inner;
};

/// Column c = (o, j) of the (outer, n, inner) output: one thread per column, `Rows` rows per
/// chunk; chunk-major tile numbers, so that a chunk's predecessor in its column started first.
template <int Threads, int Rows, class R, class V, class Fn, bool Nan, class L, class Op>
CUNP_KERNEL void __launch_bounds__(Threads)
    column_scan_kernel(const L* in, V* out, column_geometry g, chain_status<V> s, Op op) {
  __shared__ std::int64_t tile_slot;
  const std::int64_t tiles = g.chunks * g.column_blocks;
  for (std::int64_t t = next_tile(s.counter, tile_slot); t < tiles;
       t = next_tile(s.counter, tile_slot)) {
    const std::int64_t chunk = t / g.column_blocks;
    const std::int64_t c = (t - chunk * g.column_blocks) * Threads + threadIdx.x;
    if (c >= g.columns) continue;
    const std::int64_t o = c / g.inner, j = c - o * g.inner, r0 = chunk * Rows;
    const int rows = static_cast<int>(Rows < g.n - r0 ? Rows : g.n - r0);
    const L* src = in + o * g.in_outer + j * g.in_inner + r0 * g.in_step;
    V v[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r)
      if (r < rows) v[r] = convert<V>(scan_load<R, Fn, Nan>(src[r * g.in_step]));
    V last = v[0];
#pragma unroll
    for (int r = 1; r < Rows; ++r)
      if (r < rows) {
        v[r] = op(v[r - 1], v[r]);
        last = v[r];
      }
    if (g.chunks > 1) {
      const std::int64_t i = chunk * g.columns + c;
      if (chunk == 0) {
        publish(s, i, last, link_prefix);
      } else {
        publish(s, i, last, link_aggregate);
        const V prefix = look_back(s, i, g.columns, op);
        publish(s, i, op(prefix, last), link_prefix);
#pragma unroll
        for (int r = 0; r < Rows; ++r)
          if (r < rows) v[r] = op(prefix, v[r]);
      }
    }
    V* dst = out + (o * g.n + r0) * g.inner + j;
#pragma unroll
    for (int r = 0; r < Rows; ++r)
      if (r < rows) dst[r * g.inner] = v[r];
  }
}

/// Blocks for the persistent kernels above: enough to fill the GPU, never more than the tiles.
inline unsigned tile_grid(int dev, std::int64_t tiles) {
  return static_cast<unsigned>(std::min<std::int64_t>(tiles, std::int64_t(sm_count(dev)) * 16));
}

/// Whether the geometry's input can be read by one of the kernels with coalesced accesses.
inline bool scan_readable(const scan_geometry& g, std::int64_t row_tile) {
  if (!g.merged) return false;
  if (g.outer == 1 && g.inner == 1) return true;
  if (g.inner == 1) return g.in_step == 1 && (2 * g.n > row_tile || g.in_outer == g.n);
  return g.in_inner == 1;
}

}  // namespace cuda

/// The CUDA backend's scan of x into out (C-ordered, x's shape, or x's size when flattened).
template <class R, class L, class Fn, bool Nan>
void scan_into(cuda_backend, const ndarray<R>& out, const ndarray<L>& x, std::optional<int> axis,
               scan_kind<Fn, Nan> kind) {
  check_same_device(out.device(), x.device(), "scan");
  if (x.size() == 0) return;
  using V = cuda::scan_value_t<R, Fn>;
  using Op = cuda::scan_op_t<V, Fn>;
  constexpr int items = cuda::row_items<L, V>();
  constexpr std::int64_t row_tile = std::int64_t(cuda::row_threads) * items;
  const scan_geometry g = scan_geometry_of(x.shape(), x.strides(), axis);
  if (!cuda::scan_readable(g, row_tile))  // C order is always readable
    return scan_into(cuda_backend{}, out, x.copy(), axis, kind);

  const cunp::device dev = out.device();
  cuda::device_scope scope(dev.index());
  const cudaStream_t st = cuda::current_stream(dev.index());
  V* o = reinterpret_cast<V*>(out.data());
  const Op op{};

  // The input as the accumulator itself (float, or int64 as uint64): read directly.
  constexpr bool as_is = std::is_same_v<cuda::scan_value_t<L, Fn>, V> &&
                         !(Nan && (is_floating_v<L> || is_complex_v<L>));
  [[maybe_unused]] const V* in = reinterpret_cast<const V*>(x.data());
  if (g.outer == 1 && g.inner == 1) {
    if constexpr (as_is) {
      if constexpr (cuda::cub_op_v<V, Fn> && cuda::packed_links_v<V>) {
        if (g.in_step == 1 && cuda::stream_scan_fits(dev, in, o, g.n, op))
          return cuda::stream_scan(dev, in, o, g.n, op, st);
      }
      if (g.in_step == 1) return cuda::device_scan(dev, in, o, g.n, op, st);
    }
    const cuda::strided_loader<R, V, Fn, Nan, L> load{x.data(), g.in_step};
    cuda::device_scan(dev, cuda::indexed(load), o, g.n, op, st);
    return;
  }

  if constexpr (as_is && cuda::cub_op_v<V, Fn>) {
    if (g.inner == 1 && cuda::tile_scan_fits(in, o, g.n, g.in_outer, g.outer))
      return cuda::tile_scan(dev, in, o, g.n, g.in_outer, g.outer, op, st);
  }
  cuda::chain_status<V> s{};
  if (g.inner == 1) {
    const bool segmented = 2 * g.n <= row_tile;
    const std::int64_t per = segmented ? row_tile / g.n : (g.n + row_tile - 1) / row_tile;
    const std::int64_t tiles = segmented ? (g.outer + per - 1) / per : g.outer * per;
    const auto status = cuda::make_status<V>(dev, segmented || per == 1 ? 0 : tiles, s, st);
    const unsigned grid = cuda::tile_grid(dev.index(), tiles);
    if (segmented)
      cuda::row_scan_kernel<cuda::row_threads, items, true, R, V, Fn, Nan>
          <<<grid, cuda::row_threads, 0, st>>>(x.data(), o, g.n, g.in_outer, g.outer, per, s, op);
    else
      cuda::row_scan_kernel<cuda::row_threads, items, false, R, V, Fn, Nan>
          <<<grid, cuda::row_threads, 0, st>>>(x.data(), o, g.n, g.in_outer, g.outer, per, s, op);
    CUNP_CUDA_CHECK_LAUNCH("row_scan_kernel");
    return;
  }

  if constexpr (as_is && cuda::cub_op_v<V, Fn>) {
    if (cuda::column_tile_fits(dev, in, o, g.outer, g.n, g.inner, g.in_outer, g.in_step, op))
      return cuda::column_tile_scan(dev, in, o, g.outer, g.n, g.inner, g.in_outer, g.in_step, op,
                                    st);
  }
  constexpr int rows = cuda::column_rows<V>();
  cuda::column_geometry cg{};
  cg.columns = g.outer * g.inner;
  cg.inner = g.inner;
  cg.n = g.n;
  cg.chunks = (g.n + rows - 1) / rows;
  cg.column_blocks = (cg.columns + cuda::column_threads - 1) / cuda::column_threads;
  cg.in_outer = g.in_outer;
  cg.in_step = g.in_step;
  cg.in_inner = g.in_inner;
  const auto status = cuda::make_status<V>(dev, cg.chunks > 1 ? cg.chunks * cg.columns : 0, s, st);
  cuda::column_scan_kernel<cuda::column_threads, rows, R, V, Fn, Nan>
      <<<cuda::tile_grid(dev.index(), cg.chunks * cg.column_blocks), cuda::column_threads, 0, st>>>(
          x.data(), o, cg, s, op);
  CUNP_CUDA_CHECK_LAUNCH("column_scan_kernel");
}

/// A flattened scan of an expression whose operands are all contiguous, read through its binding
/// by CUB (no temporary). False when the expression needs another path.
template <class R, class E, class Fn, bool Nan>
bool scan_expression(cuda_backend, const ndarray<R>& out, const E& e, scan_kind<Fn, Nan>) {
  check_same_device(out.device(), e.device(), "scan");
  const ndarray<R> shaped = out.reshape(e.shape());
  const bound_expr<E> b(shaped, e);
  if (b.output_overlaps_input()) return false;
  constexpr int N = bound_expr<E>::N;
  for (int k = 0; k < N && b.layout.shape.ndim == 1; ++k)
    if (b.layout.strides[k][0] != 1) return false;
  if (b.layout.shape.ndim > 1) return false;
  using V = cuda::scan_value_t<R, Fn>;
  cuda::expression_loader<R, V, Fn, Nan, N, typename bound_expr<E>::tree_type> load{b.tree, {}};
  for (int k = 0; k < N; ++k) load.ptrs.p[k] = b.ctx.ptrs[k];
  const cunp::device dev = out.device();
  cuda::device_scope scope(dev.index());
  cuda::device_scan(dev, cuda::indexed(load), reinterpret_cast<V*>(out.data()), out.size(),
                    cuda::scan_op_t<V, Fn>{}, cuda::current_stream(dev.index()));
  return true;
}

}  // namespace cunp::detail
