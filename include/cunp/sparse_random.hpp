// cunp/sparse_random.hpp: scipy.sparse.random: a sparse matrix with round(density m n) entries at
// distinct positions, values uniform in [0, 1) (real and imaginary parts each, for complex T),
// drawn from a cunp::random::Generator. Positions are scipy's mapping of flat draws (column
// major: draw k is row k % m, column k / m), drawn by cunp's choice without replacement, whose
// samples are not NumPy's (docs/differences.md): the same matrix on the cpu and a GPU for the
// same generator state, not scipy's.
#pragma once
#include <cmath>
#include <cstdint>

#include "cunp/random.hpp"
#include "cunp/sparse_construct.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::sparse {

/// scipy.sparse.random(m, n, density, format, dtype, rng): format F (coo by default, as scipy),
/// values T, indices I, on `dev`. density outside [0, 1] is scipy's ValueError. Positions are
/// drawn as choice(m n, k, replace=False): m n 64-bit draws (cunp's choice permutes the whole
/// population), so m n must be a size the device can hold in int64s twice.
template <format F = format::coo, class T = double, class I = std::int32_t,
          class Backend = detail::compiled_backend, class BitGenerator>
[[nodiscard]] matrix_t<F, T, I> random(index_t m, index_t n, double density,
                                       cunp::random::Generator<BitGenerator>& rng,
                                       device dev = default_device()) {
  if (!(density >= 0 && density <= 1))
    throw value_error("density expected to be 0 <= density <= 1");
  detail::check_sparse_shape<I>({m, n});
  const index_t mn = detail::sparse_extent_product<std::int64_t>(m, n, "a random matrix of");
  // scipy: int(round(density * m * n)), Python's round: half to even (nearbyint's default mode).
  const auto k = static_cast<index_t>(std::nearbyint(density * double(m) * double(n)));
  detail::check_index_fits<I>(k, "a number of stored entries of");
  const ndarray<std::int64_t> flat = rng.template choice<Backend>(mn, {k}, false, {}, dev);
  const std::int64_t rows = m > 0 ? m : 1;
  const ndarray<std::int64_t> col(floor_divide(flat, rows));
  const ndarray<std::int64_t> row(flat - col * rows);
  ndarray<T> values;
  if constexpr (is_complex_v<T>) {
    using R = typename detail::complex_parts<T>::type;
    const ndarray<R> re = rng.template random<R>({k}, dev), im = rng.template random<R>({k}, dev);
    values = ndarray<T>(re + im * T(0, 1));
  } else {
    values = rng.template random<T>({k}, dev);
  }
  const coo_matrix<T, I> c(detail::unchecked, values, row.template astype<I, Backend>(),
                           col.template astype<I, Backend>(), {m, n}, false);
  return detail::as_format<F, Backend>(c);
}

}  // namespace cunp::sparse
