// cunp/detail/cpu/sparse/krylov.hpp: the cpu backend of the iterative solvers' primitives
// (detail/sparse/krylov.hpp runs the algorithms on them; detail/cuda/sparse/krylov.cuh is the
// GPU's): an element-wise step over n entries, a scalar step, a dot product into a scalar, the
// control words read back, and the solve's sparse matrix-vector product. Each returns at once
// when its gate (a control word) is set, as the GPU's kernels do.
#pragma once
#include <array>
#include <cstdint>

#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cpu/sparse/products.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/krylov_steps.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// f(i) for i in [0, n) unless *f.gate.
template <class F> void krylov_map(host_backend, cunp::device, index_t n, const F& f) {
  if (*f.gate) return;
  const int threads = host_sparse::threads_for(n);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (index_t i = 0; i < n; ++i) f(i);
}

/// f() unless *f.gate.
template <class F> void krylov_scalar(host_backend, cunp::device, const F& f) {
  if (!*f.gate) f();
}

/// *out = sum of conj(x_i) y_i (NumPy's vdot; dot for real values) unless *gate.
template <class M>
void krylov_dot(host_backend, cunp::device, index_t n, const std::int64_t* gate, const M* x,
                const M* y, M* out, M*) {
  if (*gate) return;
  using R = krylov::real_of<M>;
  R re = 0, im = 0;
  const int threads = host_sparse::threads_for(n);
  if constexpr (is_complex_v<M>) {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : re, im) \
    if (threads > 1)
    for (index_t i = 0; i < n; ++i) {
      const M t = krylov::k_conj(x[i]) * y[i];
      re += t.re;
      im += t.im;
    }
    *out = M(re, im);
  } else {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : re) if (threads > 1)
    for (index_t i = 0; i < n; ++i) re += x[i] * y[i];
    *out = M(re);
  }
}

/// The control words, as the host reads them between batches of steps.
inline std::array<std::int64_t, krylov::ctl_words> krylov_read(host_backend,
                                                               const ndarray<std::int64_t>& c) {
  std::array<std::int64_t, krylov::ctl_words> out{};
  for (int k = 0; k < krylov::ctl_words; ++k) out[k] = c.data()[k];
  return out;
}

/// The solve's y = A x for a CSR matrix A (B's sparse_matvec: scipy's order of terms).
template <class T, class I> class krylov_spmv_host {
 public:
  krylov_spmv_host(index_t n, cs_arrays<T, I> a) : n_(n), a_(std::move(a)) {
    require_cpu_for(a_.indptr.device(), "an iterative solver");
  }
  void run(const std::int64_t* gate, const ndarray<T>& x, const ndarray<T>& y) const {
    if (!*gate) sparse_matvec(host_backend{}, n_, n_, a_, false, x, y);
  }

 private:
  index_t n_;
  cs_arrays<T, I> a_;
};
template <class T, class I>
krylov_spmv_host<T, I> make_krylov_spmv(host_backend, index_t n, const cs_arrays<T, I>& a,
                                        const ndarray<T>&, const ndarray<T>&) {
  return krylov_spmv_host<T, I>(n, a);
}

}  // namespace cunp::detail
