// cunp/detail/cpu/linalg/gemm.hpp: the cpu backend's batched matrix product, the reference the
// GPU's products are checked against. Blocked: a tile of C (rows x cols) is accumulated in the
// compute type over panels of k, each panel of A and B first packed into contiguous buffers of
// the compute type (which absorbs any operand layout and converts float16/bfloat16, and where
// the float32 precision modes round or split the inputs), then a loop whose inner step runs
// along a row of the packed B, contiguous, which g++ vectorises. OpenMP across the tiles of
// every matrix of the batch.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/dtype.hpp"

namespace cunp::detail::cpu_linalg {

/// The type a product of T's accumulates in (NumPy's): float for float16 and bfloat16, the
/// unsigned type of the width for integers (wrap-around without signed overflow), T otherwise
/// (bool: OR of ANDs).
template <class T, class = void> struct gemm_acc { using type = T; };
template <> struct gemm_acc<float16> { using type = float; };
template <> struct gemm_acc<bfloat16> { using type = float; };
template <class T>
struct gemm_acc<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = std::make_unsigned_t<T>;
};

/// A complex accumulator as two reals: the multiply-add written out, which vectorises (BLAS's
/// arithmetic; std::complex's operator* also handles inf and NaN specially, and slowly).
template <class R> struct parts {
  R re, im;
};
template <class R> struct gemm_acc<std::complex<R>> { using type = parts<R>; };

template <class A> inline void multiply_add(A& c, A a, A b) { c = static_cast<A>(c + a * b); }
inline void multiply_add(bool& c, bool a, bool b) { c = c || (a && b); }
template <class R> inline void multiply_add(parts<R>& c, parts<R> a, parts<R> b) {
  c.re += a.re * b.re - a.im * b.im;
  c.im += a.re * b.im + a.im * b.re;
}

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

// Tile sizes: a C tile of 64 x 256 accumulators and a panel of 256 k (64 KB of float packed B,
// 64 KB of A) stay in a core's L2.
inline constexpr index_t tile_m = 64, tile_n = 256, tile_k = 256;

/// Packs rows [i0, i0 + mr) x k-panel [l0, l0 + kr) of A (row-major, kr per row) and the panel
/// of B's columns [j0, j0 + nr) (row-major, nr per row) into the compute type. `part` selects
/// the bf16x3 part: 0 the value (or its TF32 rounding), 1 its bfloat16 high part, 2 the low.
template <class T, class U, class A>
void pack(const gemm_operand<const T>& o, index_t off, index_t r0, index_t rows, index_t c0,
          index_t cols, matmul_precision prec, int part, A* dst) {
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      const T& v = o.data[off + (r0 + r) * o.rs + (c0 + c) * o.cs];
      if constexpr (std::is_same_v<T, float>) {
        float x = v;
        if (prec == matmul_precision::tf32) {
          x = to_tf32(x);
        } else if (prec == matmul_precision::bf16x3) {
          const float hi = static_cast<float>(bfloat16(x));
          x = part == 1 ? hi : static_cast<float>(bfloat16(x - hi));
        }
        dst[r * cols + c] = x;
      } else {
        dst[r * cols + c] = to_acc<A>(v);
      }
    }
}

/// acc (mr x nr) += a (mr x kr) b (kr x nr), all row-major and contiguous.
template <class A>
void tile_product(const A* a, const A* b, A* acc, index_t mr, index_t nr, index_t kr) {
  for (index_t i = 0; i < mr; ++i) {
    A* ci = acc + i * nr;
    for (index_t l = 0; l < kr; ++l) {
      const A ail = a[i * kr + l];
      const A* bl = b + l * nr;
#pragma omp simd
      for (index_t j = 0; j < nr; ++j) multiply_add(ci[j], ail, bl[j]);
    }
  }
}

/// C[z] = A[z] @ B[z] for every matrix z of the batch (gemm_problem.hpp's layout).
template <class T> void gemm(const gemm_problem<T>& p) {
  using A = typename gemm_acc<T>::type;
  const index_t count = p.batch_count();
  const index_t mt = (p.m + tile_m - 1) / tile_m, nt = (p.n + tile_n - 1) / tile_n;
  const index_t tiles = count * mt * nt;
  // bf16x3: hi·lo + lo·hi first, then hi·hi, each a pass over k of its own parts.
  const bool split = std::is_same_v<T, float> && p.precision == matmul_precision::bf16x3;
  static constexpr int plain[][2] = {{0, 0}};
  static constexpr int split_passes[][2] = {{1, 2}, {2, 1}, {1, 1}};
  const auto* passes = split ? split_passes : plain;
  const int npass = split ? 3 : 1;
  const double work = double(count) * double(p.m) * double(p.n) * double(p.k);
#pragma omp parallel if (tiles > 1 && work > 1e6)
  {
    // (unique_ptr, not vector: vector<bool> has no data())
    const std::unique_ptr<A[]> pa(new A[tile_m * tile_k]), pb(new A[tile_k * tile_n]),
        acc(new A[tile_m * tile_n]);
#pragma omp for schedule(dynamic)
    for (index_t t = 0; t < tiles; ++t) {
      const index_t z = t / (mt * nt), i0 = (t / nt) % mt * tile_m, j0 = t % nt * tile_n;
      const index_t mr = std::min(tile_m, p.m - i0), nr = std::min(tile_n, p.n - j0);
      const index_t oa = batch_offset(p.batch, p.a.batch, z),
                    ob = batch_offset(p.batch, p.b.batch, z),
                    oc = batch_offset(p.batch, p.c.batch, z);
      std::fill(acc.get(), acc.get() + mr * nr, A{});
      for (int pass = 0; pass < npass; ++pass)
        for (index_t l0 = 0; l0 < p.k; l0 += tile_k) {
          const index_t kr = std::min(tile_k, p.k - l0);
          pack<T, T>(p.a, oa, i0, mr, l0, kr, p.precision, passes[pass][0], pa.get());
          pack<T, T>(p.b, ob, l0, kr, j0, nr, p.precision, passes[pass][1], pb.get());
          tile_product(pa.get(), pb.get(), acc.get(), mr, nr, kr);
        }
      for (index_t i = 0; i < mr; ++i)
        for (index_t j = 0; j < nr; ++j)
          p.c.data[oc + (i0 + i) * p.c.rs + (j0 + j) * p.c.cs] = from_acc<T>(acc[i * nr + j]);
    }
  }
}

}  // namespace cunp::detail::cpu_linalg
