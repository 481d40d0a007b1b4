// cunp/detail/cpu/linalg/gemm.hpp: the cpu backend's batched matrix product, the reference the
// GPU's products are checked against. GotoBLAS's structure: a tile of C is accumulated in the
// compute type over panels of k, each panel of A and B first packed into contiguous micro-panels
// of the compute type (which absorbs any operand layout and converts float16/bfloat16, and where
// the float32 precision modes round or split the inputs), then multiplied by gemm_kernel.hpp's
// register-tiled kernel. OpenMP across the tiles of every matrix of the batch.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/detail/cpu/linalg/gemm_kernel.hpp"
#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/dtype.hpp"

namespace cunp::detail::cpu_linalg {

/// The type a product of T's accumulates in (NumPy's): float for float16 and bfloat16, the
/// unsigned type of the width for integers (wrap-around without signed overflow), two reals for
/// a complex (gemm_kernel.hpp's parts), T otherwise (bool: OR of ANDs).
template <class T, class = void> struct gemm_acc { using type = T; };
template <> struct gemm_acc<float16> { using type = float; };
template <> struct gemm_acc<bfloat16> { using type = float; };
template <class T>
struct gemm_acc<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = std::make_unsigned_t<T>;
};
template <class R> struct gemm_acc<std::complex<R>> { using type = parts<R>; };

template <class A, class T> A to_acc(const T& v) {
  if constexpr (is_complex_v<T>) return {v.real(), v.imag()};
  else return static_cast<A>(v);
}
template <class T, class A> T from_acc(const A& v) {
  if constexpr (is_complex_v<T>) return T(v.re, v.im);
  else return static_cast<T>(v);
}

/// x rounded to TF32 (10 explicit mantissa bits, to nearest even); inf and NaN kept.
inline float to_tf32(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
  std::memcpy(&x, &u, 4);
  return x;
}

/// Packs `count` lines of a panel of k (kr long) into micro-panels of w lines, k-major: element
/// (x, l), at src[x * sx + l * sl], goes to value(...) at dst[(x / w * kr + l) * w + x % w].
/// The last micro-panel is filled out with zeros: the kernel computes those lines too, never
/// stores them.
template <class T, class A, class F>
void pack_lines(const T* src, index_t sx, index_t sl, index_t count, index_t kr, index_t w, F value,
                A* dst) {
  for (index_t x0 = 0; x0 < count; x0 += w) {
    const index_t lines = std::min(w, count - x0);
    for (index_t l = 0; l < kr; ++l) {
      const T* s = src + x0 * sx + l * sl;
      A* d = dst + x0 * kr + l * w;
      if constexpr (std::is_same_v<F, std::identity>)
        if (sx == 1) {  // a row of B, or a column of a transposed A: a plain copy
          std::memcpy(d, s, lines * sizeof(A));
          std::fill(d + lines, d + w, A{});
          continue;
        }
      for (index_t x = 0; x < lines; ++x) d[x] = value(s[x * sx]);
      std::fill(d + lines, d + w, A{});
    }
  }
}

/// pack_lines in the compute type A, where a float is rounded to TF32, or split into its
/// bfloat16 high (`part` 1) or low (2) part, as the precision mode asks.
template <class T, class A>
void pack(const T* src, index_t sx, index_t sl, index_t count, index_t kr, index_t w,
          matmul_precision prec, int part, A* dst) {
  if constexpr (std::is_same_v<T, float>) {
    if (prec == matmul_precision::tf32)
      return pack_lines(src, sx, sl, count, kr, w, [](float v) { return to_tf32(v); }, dst);
    if (prec == matmul_precision::bf16x3) {
      const auto bf16_part = [part](float v) {
        const float hi = static_cast<float>(bfloat16(v));
        return part == 1 ? hi : static_cast<float>(bfloat16(v - hi));
      };
      return pack_lines(src, sx, sl, count, kr, w, bf16_part, dst);
    }
  }
  if constexpr (std::is_same_v<T, A>)
    pack_lines(src, sx, sl, count, kr, w, std::identity{}, dst);
  else
    pack_lines(src, sx, sl, count, kr, w, [](const T& v) { return to_acc<A>(v); }, dst);
}

inline index_t ceil_div(index_t v, index_t d) { return (v + d - 1) / d; }
inline index_t round_up(index_t v, index_t step) { return ceil_div(v, step) * step; }

inline index_t gemm_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Room for n A's, the calling thread's until it next makes one: a buffer kept per thread while
/// small (up to 2 MB), since fresh memory's page faults would be most of a small product's time.
template <class A> class gemm_buffer {
 public:
  explicit gemm_buffer(index_t n) {
    thread_local std::unique_ptr<A[]> kept;
    thread_local index_t kept_size = 0;
    if (n * index_t(sizeof(A)) > (index_t(2) << 20)) {
      own_.reset(new A[n]);
      data_ = own_.get();
      return;
    }
    if (kept_size < n) {
      kept.reset(new A[n]);
      kept_size = n;
    }
    data_ = kept.get();
  }
  A* get() const { return data_; }

 private:
  std::unique_ptr<A[]> own_;  // (unique_ptr, not vector: vector<bool> has no data())
  A* data_;
};

/// How C is cut into tiles, each one thread's work: mt x nt tiles of tile_m x tile_n.
struct gemm_tiling {
  index_t tile_m, tile_n, mt, nt;
};

/// A tile packs its own panels of A and B for every panel of k: A's again for every tile of a
/// row of tiles, B's for every tile of a column. So tiles are big, up to 768 x 512 (the kernel
/// reads a tile's packed panel of A once per micro-panel of B, from L2), unless that leaves a
/// thread fewer than about four (dynamic scheduling evens out the last ones): then narrower
/// and shorter, down to 4 micro-tiles. Rows and columns are shared out evenly, so that no tile is
/// a sliver.
inline gemm_tiling choose_tiling(index_t count, index_t m, index_t n, index_t mr, index_t nr,
                                 index_t threads) {
  const index_t want = threads > 1 ? 4 * threads : 1;
  const index_t most_rows = std::max<index_t>(m / (4 * mr), 1);
  index_t widest = 512;
  while (widest > 4 * nr && count * ceil_div(n, widest) * most_rows < want) widest /= 2;
  const index_t nt = std::max<index_t>(ceil_div(n, widest), 1);
  const index_t mt = std::clamp(ceil_div(want, std::max<index_t>(count * nt, 1)),
                                ceil_div(m, 768), most_rows);
  const index_t tile_m = std::max(round_up(ceil_div(m, mt), mr), mr);
  const index_t tile_n = std::max(round_up(ceil_div(n, nt), nr), nr);
  return {tile_m, tile_n, ceil_div(m, tile_m), ceil_div(n, tile_n)};
}

/// C[z] = A[z] @ B[z] for every matrix z of the batch (gemm_problem.hpp's layout).
template <class T> void gemm(const gemm_problem<T>& p) {
  using A = typename gemm_acc<T>::type;
  const gemm_kernel<A>& kernel = best_kernel<A>();
  const index_t MR = kernel.mr, NR = kernel.nr, count = p.batch_count();
  // A panel of 256 k: B's micro-panel (NR x 256) stays in L1 while the kernel runs down a tile.
  constexpr index_t tile_k = 256;
  // Small products stay on the calling thread: starting a team would cost more than it saves.
  const double work = double(count) * double(p.m) * double(p.n) * double(p.k);
  const index_t threads = work > 1e6 ? gemm_threads() : 1;
  const auto [tile_m, tile_n, mt, nt] = choose_tiling(count, p.m, p.n, MR, NR, threads);
  const index_t tiles = count * mt * nt;
  // bf16x3: hi·lo + lo·hi first, then hi·hi, each a pass over k of its own parts.
  const bool split = std::is_same_v<T, float> && p.precision == matmul_precision::bf16x3;
  static constexpr int plain[][2] = {{0, 0}};
  static constexpr int split_passes[][2] = {{1, 2}, {2, 1}, {1, 1}};
  const auto* passes = split ? split_passes : plain;
  const int npass = split ? 3 : 1;
#pragma omp parallel if (threads > 1 && tiles > 1)
  {
    // The packed panels and the tile's accumulators, sized to the product.
    const index_t kc = std::min(tile_k, p.k);
    const gemm_buffer<A> buffer(tile_m * kc + kc * tile_n + tile_m * tile_n);
    A* const pa = buffer.get();
    A* const pb = pa + tile_m * kc;
    A* const acc = pb + kc * tile_n;
#pragma omp for schedule(dynamic)
    for (index_t t = 0; t < tiles; ++t) {
      const index_t z = t / (mt * nt), i0 = (t / nt) % mt * tile_m, j0 = t % nt * tile_n;
      const index_t mr = std::min(tile_m, p.m - i0), nr = std::min(tile_n, p.n - j0);
      // The accumulators of the whole micro-tiles that cover the tile, row stride ld.
      const index_t mp = round_up(mr, MR), ld = round_up(nr, NR);
      const T* a = p.a.data + batch_offset(p.batch, p.a.batch, z) + i0 * p.a.rs;
      const T* b = p.b.data + batch_offset(p.batch, p.b.batch, z) + j0 * p.b.cs;
      T* c = p.c.data + batch_offset(p.batch, p.c.batch, z) + i0 * p.c.rs + j0 * p.c.cs;
      std::fill(acc, acc + mp * ld, A{});
      for (int pass = 0; pass < npass; ++pass)
        for (index_t l0 = 0; l0 < p.k; l0 += tile_k) {
          const index_t kr = std::min(tile_k, p.k - l0);
          pack(a + l0 * p.a.cs, p.a.rs, p.a.cs, mr, kr, MR, p.precision, passes[pass][0], pa);
          pack(b + l0 * p.b.rs, p.b.cs, p.b.rs, nr, kr, NR, p.precision, passes[pass][1], pb);
          kernel.run(pa, pb, acc, ld, mp, ld, kr);
        }
      for (index_t i = 0; i < mr; ++i)
        for (index_t j = 0; j < nr; ++j) c[i * p.c.rs + j * p.c.cs] = from_acc<T>(acc[i * ld + j]);
    }
  }
}

}  // namespace cunp::detail::cpu_linalg
