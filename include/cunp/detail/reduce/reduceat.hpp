// cunp/detail/reduce/reduceat.hpp: what both backends of ufunc.reduceat share: the geometry and
// the loop that computes one output element, so that the cpu and the GPU agree by construction.
#pragma once
#include <cstdint>

#include "cunp/detail/core/math.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// reduceat of a C-ordered input seen as (outer, n, inner) along the reduced axis into the
/// C-ordered output (outer, m, inner), m = the number of indices.
struct reduceat_geometry {
  index_t outer = 1, n = 1, inner = 1, m = 0;
};

/// Output element e of reduceat with reducer r: NumPy's loop, in order, over x[idx[i]:idx[i+1]]
/// along the axis (the last slice to the end), or x[idx[i]] alone where the next index is not
/// larger. The indices are checked (0 <= idx < n) before this runs.
template <class R, class T>
CUNP_HD typename R::out reduceat_element(const R& r, const T* x, const std::int64_t* idx,
                                         const reduceat_geometry& g, std::int64_t e) {
  const std::int64_t j = e % g.inner, i = (e / g.inner) % g.m, o = e / (g.inner * g.m);
  const std::int64_t lo = idx[i];
  std::int64_t hi = i + 1 < g.m ? idx[i + 1] : g.n;
  if (hi <= lo) hi = lo + 1;
  const T* p = x + (o * g.n + lo) * g.inner + j;
  auto a = r.identity();
  for (std::int64_t k = 0; k < hi - lo; ++k) a = r.combine(a, r.load(p[k * g.inner], k));
  return r.finish(a, hi - lo);
}

}  // namespace cunp::detail
