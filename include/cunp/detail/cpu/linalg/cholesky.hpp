// cunp/detail/cpu/linalg/cholesky.hpp: the cpu backend of cholesky: LAPACK potrf's factor of a
// Hermitian positive definite matrix, on a row-major copy. One kernel, the upper one (A = U^H U),
// because in row-major storage all of its updates run along rows: row i of U is row i of A
// scaled, and each later row r takes conj(U[i][r]) times it away, a loop g++ vectorises. The
// lower case (NumPy's default, A = L L^H) mirrors its triangle into the upper one first and
// writes L = U^H back: two O(n^2) copies against the O(n^3) factorisation.
// Blocked by panels of rows, so that the trailing matrix is read once per panel rather than once
// per row of U: the panel's rows are factorised first (its diagonal block, then the columns to
// its right in chunks, in parallel), then every trailing row takes the whole panel's updates
// while it sits in L1, the rows in parallel.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>

#include "cunp/detail/cpu/linalg/level1.hpp"
#include "cunp/dtype.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg {

namespace cholesky_impl {

using namespace level1;

template <class T> auto real_part(const T& v) {
  if constexpr (is_complex_v<T>)
    return v.real();
  else
    return v;
}

/// The strictly upper triangle of the row-major n x n a from its strictly lower one
/// (a[j][i] = conj(a[i][j]), j < i), or the other way; in tiles so that the strided side stays
/// in cache.
template <class T> void mirror_triangle(T* a, index_t n, bool from_lower) {
  constexpr index_t tile = 64;
  for (index_t i0 = 0; i0 < n; i0 += tile)
    for (index_t j0 = 0; j0 <= i0; j0 += tile)
      for (index_t i = i0; i < std::min(n, i0 + tile); ++i)
        for (index_t j = j0; j < std::min(i, j0 + tile); ++j) {
          if (from_lower)
            a[j * n + i] = conj_of(a[i * n + j]);
          else
            a[i * n + j] = conj_of(a[j * n + i]);
        }
}

template <class T> void zero_triangle(T* a, index_t n, bool lower) {
  for (index_t i = 0; i < n; ++i) {
    if (lower)
      std::fill(a + i * n, a + i * n + i, T(0));
    else
      std::fill(a + i * n + i + 1, a + (i + 1) * n, T(0));
  }
}

/// U in the upper triangle of a (the strictly lower one is neither read nor written); potrf's
/// info: 0, or i + 1 for the first row whose pivot is not positive (or NaN).
template <class T> index_t factor_upper(T* a, index_t n, bool parallel) {
  using R = real_t<T>;
  constexpr index_t nb = 64;      // rows per panel: the panel (nb x n) stays in L2 meanwhile
  constexpr index_t chunk = 256;  // columns of the panel that one thread updates at a time
  // multiply-adds worth a parallel region (read by the OpenMP clauses only, as kb)
  [[maybe_unused]] constexpr index_t parallel_work = index_t(1) << 18;
  for (index_t k0 = 0; k0 < n; k0 += nb) {
    const index_t k1 = std::min(n, k0 + nb);
    [[maybe_unused]] const index_t kb = k1 - k0;
    // The diagonal block first: its U[i][r] are the multipliers of the panel's other columns.
    for (index_t i = k0; i < k1; ++i) {
      T* ui = a + i * n;
      // potrf reads only the real part of a Hermitian diagonal; NaN fails the test too.
      const R d = real_part(ui[i]);
      if (!(d > R(0))) return i + 1;
      const R u = std::sqrt(d), inv = R(1) / u;
      ui[i] = T(u);
      for (index_t j = i + 1; j < k1; ++j) ui[j] *= inv;
      for (index_t r = i + 1; r < k1; ++r)
        sub_scaled(a + r * n + r, ui + r, conj_of(ui[r]), k1 - r);
    }
    // The same steps on the columns right of the block, which do not interact.
    const index_t width = n - k1, chunks = (width + chunk - 1) / chunk;
#pragma omp parallel for schedule(static) if (parallel && chunks > 1 && \
                                              kb * kb * width / 2 >= parallel_work)
    for (index_t c = 0; c < chunks; ++c) {
      const index_t j0 = k1 + c * chunk, len = std::min(chunk, n - j0);
      for (index_t i = k0; i < k1; ++i) {
        T* ui = a + i * n;
        const R inv = R(1) / real_part(ui[i]);
        for (index_t j = j0; j < j0 + len; ++j) ui[j] *= inv;
        for (index_t r = i + 1; r < k1; ++r)
          sub_scaled(a + r * n + j0, ui + j0, conj_of(ui[r]), len);
      }
    }
    // The trailing matrix takes the panel's rank-kb update (A22 -= U12^H U12), a row at a time.
#pragma omp parallel for schedule( \
    dynamic, 8) if (parallel && width > 8 && kb * width * width / 2 >= parallel_work)
    for (index_t r = k1; r < n; ++r)
      for (index_t i = k0; i < k1; ++i)
        sub_scaled(a + r * n + r, a + i * n + r, conj_of(a[i * n + r]), n - r);
  }
  return 0;
}

}  // namespace cholesky_impl

/// The Cholesky factor of the Hermitian positive definite n x n row-major matrix at a, in place
/// (LAPACK's potrf). upper == false reads only the lower triangle and leaves L (A = L L^H) there,
/// zeros above it; upper == true reads only the upper triangle and leaves U = L^H (A = U^H U),
/// zeros below. The diagonal is real and positive. Returns potrf's info: 0, or k + 1 for the
/// first leading k + 1 by k + 1 minor that is not positive definite (its pivot <= 0 or NaN); the
/// matrix's content is then unspecified. parallel: OpenMP inside this one matrix (false when
/// the caller already spreads a batch over the threads).
template <class T> index_t cholesky(T* a, index_t n, bool upper, bool parallel = true) {
  if (!upper) cholesky_impl::mirror_triangle(a, n, true);
  const index_t info = cholesky_impl::factor_upper(a, n, parallel);
  if (!upper) cholesky_impl::mirror_triangle(a, n, false);
  cholesky_impl::zero_triangle(a, n, /*lower=*/upper);
  return info;
}

}  // namespace cunp::detail::cpu_linalg
