// cunp/detail/sparse/krylov.hpp: scipy.sparse.linalg's cg and gmres, written once over the
// backends' primitives (detail/cpu/sparse/krylov.hpp; detail/cuda/sparse/krylov.cuh under
// nvcc) and the shared steps (krylov_steps.hpp), so the cpu and a GPU run the same iteration.
// Every scalar stays where the vectors are; the host queues the steps of a batch of iterations
// and then reads the control words once (krylov_read: on a GPU, a wait): the steps it queued
// past the end find their gate set and return at once, so the solve ends where scipy's does.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/sparse/krylov.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/krylov_steps.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Iterations (cg) between two reads of the control words. On a GPU each read is a wait that
/// empties the queue (a few microseconds of idle device); more iterations per read make that
/// rarer but let up to this many - 1 products of the matrix run past convergence (cuSPARSE's
/// SpMV does not read the gate; the other steps return at once). 16 keeps both small against
/// an iteration's own time. The cpu reads after every iteration (a read costs nothing there).
template <class B> inline constexpr index_t krylov_check_every = 16;
template <> inline constexpr index_t krylov_check_every<host_backend> = 1;

/// Partial sums a GPU's dot product writes before its last step adds them (its most blocks).
inline constexpr index_t krylov_partials = 1024;

/// The raw values of a (contiguous) array, as the steps compute in them.
template <class T> math_t<T>* raw(const ndarray<T>& a) {
  return reinterpret_cast<math_t<T>*>(const_cast<T*>(a.data()));
}
/// Row k of a C-ordered 2-d array, as a 1-d array on the same storage.
template <class T> ndarray<T> row_of(const ndarray<T>& a, index_t k) {
  return ndarray<T>(a.storage(), a.offset() + k * a.shape()[1], shape_t{a.shape()[1]},
                    strides_t{1});
}

/// A preconditioner as a solve applies it (z = M r): none, a diagonal d (z = d * r), or a CSR
/// matrix of index type J through the backend's product.
template <class B, class T> struct no_preconditioner { static constexpr bool identity = true; };
template <class B, class T> struct diagonal_preconditioner {
  static constexpr bool identity = false;
  B be;
  ndarray<T> d;
  void apply(const std::int64_t* gate, const ndarray<T>& r, const ndarray<T>& z) const {
    krylov_map(be, d.device(), d.size(),
               krylov::diag_apply<math_t<T>>{gate, raw(d), raw(r), raw(z)});
  }
};
template <class B, class T, class Plan> struct sparse_preconditioner {
  static constexpr bool identity = false;
  Plan plan;
  void apply(const std::int64_t* gate, const ndarray<T>& r, const ndarray<T>& z) const {
    plan.run(gate, r, z);
  }
};

/// What the solvers share: the device, the extent, the control words and scalars, the dot
/// products' partial sums, and A's product.
template <class B, class T, class Plan> struct krylov_state {
  using M = math_t<T>;
  B be;
  cunp::device dev;
  index_t n;
  Plan a;
  ndarray<std::int64_t> c = zeros<std::int64_t>({krylov::ctl_words}, dev);
  ndarray<T> s = zeros<T>({krylov::slots}, dev);
  ndarray<T> partials = ndarray<T>({krylov_partials}, dev);

  std::int64_t* ctl() const { return c.data(); }
  const std::int64_t* gate(krylov::ctl w) const { return c.data() + w; }
  M* slot(int k) const { return raw(s) + k; }
  void dot(krylov::ctl g, const ndarray<T>& x, const ndarray<T>& y, M* out) const {
    krylov_dot(be, dev, n, gate(g), raw(x), raw(y), out, raw(partials));
  }
  template <class F> void map(const F& f) const { krylov_map(be, dev, n, f); }
  template <class F> void scalar(const F& f) const { krylov_scalar(be, dev, f); }
  auto read() const { return krylov_read(be, c); }

  /// r = b - A x (x0 given; scipy: b itself when x is all zeros, the same values) or b, then
  /// ||b||^2, ||r||^2 and scipy's start (b == 0, atol, the first test).
  void start(const ndarray<T>& b, const ndarray<T>& x, bool x0_given, const ndarray<T>& r,
             double rtol, double atol) const {
    using namespace krylov;
    if (x0_given) {
      a.run(gate(done), x, r);
      map(residual_of<M>{gate(done), raw(b), raw(r)});
    } else {
      map(copied<M>{gate(done), raw(b), raw(r)});
    }
    dot(done, b, b, slot(bnrm2));
    dot(done, r, r, slot(rr));
    scalar(solve_start<M>{gate(done), ctl(), raw(s), atol, rtol});
  }
};

/// The outcome of a solve: info as scipy's, and whether b was zero (scipy returns b itself).
struct krylov_outcome {
  index_t info = 0;
  bool zero_b = false;
};

/// scipy's cg on the state's A, with preconditioner pre: x (holding x0 or zeros) is the solution.
template <class B, class T, class Plan, class Pre>
krylov_outcome cg_run(const krylov_state<B, T, Plan>& st, const Pre& pre, const ndarray<T>& b,
                      const ndarray<T>& x, bool x0_given, double rtol, double atol,
                      index_t maxiter) {
  using namespace krylov;
  using M = math_t<T>;
  const index_t n = st.n;
  const ndarray<T> r({n}, st.dev), p({n}, st.dev), q({n}, st.dev);
  const ndarray<T> z = Pre::identity ? r : ndarray<T>({n}, st.dev);
  st.start(b, x, x0_given, r, rtol, atol);
  const std::int64_t* g = st.gate(done);
  // No read before the first batch: the steps of a solve that start() ended return at once.
  std::array<std::int64_t, ctl_words> c{};
  bool read = false;
  for (index_t it = 0; it < maxiter && !c[done];) {
    const index_t end = it + std::min(krylov_check_every<B>, maxiter - it);
    for (; it < end; ++it) {
      const bool first = it == 0;
      if (!first) st.dot(done, r, r, st.slot(rr));
      if constexpr (!Pre::identity) {
        pre.apply(g, r, z);
        st.dot(done, r, z, st.slot(rho));
      }
      st.scalar(cg_check<M>{g, st.ctl(), raw(st.s), first, Pre::identity});
      st.map(cg_direction<M>{g, raw(st.s), raw(z), raw(p), first});
      st.a.run(g, p, q);
      st.dot(done, p, q, st.slot(pq));
      st.scalar(cg_alpha<M>{g, raw(st.s)});
      st.map(cg_update<M>{g, raw(st.s), raw(p), raw(q), raw(x), raw(r)});
    }
    c = st.read();
    read = true;
  }
  if (!read) c = st.read();  // maxiter <= 0: scipy still returns b for b == 0
  return {c[converged] ? 0 : maxiter, c[zero_b] != 0};
}

/// scipy's gmres (restarted, left-preconditioned, with gh-8400's inner tolerance control) on the
/// state's A, restart columns a cycle, maxiter cycles: x (x0 or zeros) becomes the solution. The
/// host reads the control words once a cycle.
template <class B, class T, class Plan, class Pre>
krylov_outcome gmres_run(const krylov_state<B, T, Plan>& st, const Pre& pre, const ndarray<T>& b,
                         const ndarray<T>& x, bool x0_given, double rtol, double atol,
                         index_t restart, index_t maxiter) {
  using namespace krylov;
  using M = math_t<T>;
  const index_t n = st.n;
  const cunp::device dev = st.dev;
  const double eps = std::numeric_limits<real_of<M>>::epsilon();
  const ndarray<T> V({restart + 1, n}, dev), w({n}, dev), r({n}, dev);
  const ndarray<T> z = Pre::identity ? w : ndarray<T>({n}, dev);
  const ndarray<T> H = zeros<T>({restart * (restart + 1)}, dev), G({2 * restart}, dev);
  const ndarray<T> S({restart + 1}, dev), Y({restart}, dev);
  const std::int64_t *g_done = st.gate(done), *g_in = st.gate(inner_stop);
  // scipy computes ||M b|| first; r's start follows.
  if constexpr (Pre::identity) {
    st.dot(done, b, b, st.slot(mbn));
  } else {
    pre.apply(g_done, b, z);
    st.dot(done, z, z, st.slot(mbn));
  }
  st.start(b, x, x0_given, r, rtol, atol);
  st.scalar(gmres_tolerance_start<M>{g_done, raw(st.s)});
  auto c = st.read();
  const ndarray<T> v0 = row_of(V, 0);
  for (index_t it = 0; it < maxiter && !c[done]; ++it) {
    if constexpr (Pre::identity)
      st.map(copied<M>{g_done, raw(r), raw(v0)});
    else
      pre.apply(g_done, r, v0);
    st.dot(done, v0, v0, st.slot(rr));
    st.scalar(gmres_cycle_start<M>{g_done, st.ctl(), raw(st.s), raw(S), restart});
    st.map(scaled<M>{g_in, st.slot(scale), raw(v0), raw(v0)});
    for (index_t col = 0; col < restart; ++col) {
      st.a.run(g_in, row_of(V, col), w);
      if constexpr (!Pre::identity) pre.apply(g_in, w, z);
      M* hc = raw(H) + col * (restart + 1);
      st.dot(inner_stop, z, z, st.slot(h0));
      for (index_t k = 0; k <= col; ++k) {
        const ndarray<T> vk = row_of(V, k);
        st.dot(inner_stop, vk, z, hc + k);
        st.map(minus_projection<M>{g_in, hc + k, raw(vk), raw(z)});
      }
      st.dot(inner_stop, z, z, hc + col + 1);
      st.scalar(
          gmres_column<M>{g_in, st.ctl(), raw(st.s), raw(H), raw(G), raw(S), col, restart, eps});
      const ndarray<T> next = row_of(V, col + 1);
      st.map(scaled<M>{g_in, st.slot(scale), raw(z), raw(next)});
    }
    st.scalar(gmres_solve_y<M>{g_done, st.ctl(), raw(H), raw(S), raw(Y), restart});
    st.map(basis_combination<M>{g_done, st.ctl(), raw(Y), raw(V), n, raw(x)});
    st.a.run(g_done, x, r);
    st.map(residual_of<M>{g_done, raw(b), raw(r)});
    st.dot(done, r, r, st.slot(rr));
    st.scalar(gmres_cycle_end<M>{g_done, st.ctl(), raw(st.s), eps});
    c = st.read();
  }
  return {c[converged] ? 0 : maxiter, c[zero_b] != 0};
}

}  // namespace cunp::detail
