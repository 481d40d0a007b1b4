// cunp/detail/cpu/fft/real_plan.hpp: the cpu backend's real FFTs (numpy.fft.rfft, irfft) of
// any length on top of complex_plan.hpp, and their plan cache.
#pragma once
#include <algorithm>
#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

#include "cunp/detail/cpu/fft/complex_plan.hpp"

namespace cunp::detail::cpu_fft {

/// A real FFT of one length. Even n = 2h packs the reals as h complex values z_j = x_{2j} +
/// i x_{2j+1}, so a transform of half the length does the work; with Z its transform,
/// X_k = (Z_k + conj Z_{h-k}) / 2 + w_k (Z_k - conj Z_{h-k}) / 2, w_k = -i exp(-2 pi i k / n),
/// and X_{h-k} comes from the same two values. Odd n runs the complex transform of length n on
/// the reals widened to complex: twice the work of a real-input algorithm, kept for simplicity.
/// Immutable once made, as complex_plan.
template <class R> class real_plan {
  using C = std::complex<R>;

 public:
  explicit real_plan(index_t n)
      : n_(n), half_(n % 2 == 0 ? n / 2 : 0), sub_(cached_complex_plan<R>(half_ ? half_ : n)) {
    for (index_t k = 0; half_ && k <= half_ / 2; ++k) {
      const C r = unit_root<R>(k, n);
      w_.push_back({r.imag(), -r.real()});
    }
  }

  [[nodiscard]] index_t size() const noexcept { return n_; }
  /// std::complex<R> elements: the complex transform's scratch, after the half spectrum that
  /// backward builds (even n) or the whole complex sequence (odd n).
  [[nodiscard]] index_t scratch_size() const noexcept {
    return (half_ ? half_ : n_) + sub_->scratch_size();
  }
  /// The bytes of the plan's own table (the complex plan is counted by its own cache).
  [[nodiscard]] std::size_t bytes() const noexcept { return w_.size() * sizeof(C); }

  /// numpy.fft.rfft unscaled: n reals -> n/2 + 1 complex values.
  void forward(const R* in, C* out, C* scratch) const {
    const bool parallel = n_ >= parallel_from;
    if (!half_) {
      for_ranges(n_, parallel, [&](index_t b, index_t e) {
        for (index_t i = b; i < e; ++i) scratch[i] = C(in[i], R(0));
      });
      sub_->run(scratch, false, scratch + n_);
      std::copy(scratch, scratch + n_ / 2 + 1, out);
      return;
    }
    const index_t h = half_;
    for_ranges(h, parallel, [&](index_t b, index_t e) {
      for (index_t j = b; j < e; ++j) out[j] = C(in[2 * j], in[2 * j + 1]);
    });
    sub_->run(out, false, scratch);
    const C z0 = out[0];
    out[0] = C(z0.real() + z0.imag(), R(0));
    out[h] = C(z0.real() - z0.imag(), R(0));
    for_ranges(h / 2, parallel, [&](index_t b, index_t e) {
      for (index_t k = b + 1; k <= e; ++k) {
        const C a = out[k], c = std::conj(out[h - k]);
        const C sum = a + c, t = twiddle<false>(a - c, w_[k]);
        out[k] = (sum + t) * R(0.5);
        out[h - k] = std::conj(sum - t) * R(0.5);
      }
    });
  }

  /// numpy.fft.irfft times n: the n/2 + 1 complex values of a Hermitian spectrum -> n reals; the
  /// imaginary part of in[0] and, for even n, of in[n/2] are ignored, as NumPy (pocketfft) does.
  void backward(const C* in, R* out, C* scratch) const {
    const bool parallel = n_ >= parallel_from;
    if (!half_) {
      scratch[0] = C(in[0].real(), R(0));
      for_ranges(n_ / 2, parallel, [&](index_t b, index_t e) {
        for (index_t k = b + 1; k <= e; ++k) {
          scratch[k] = in[k];
          scratch[n_ - k] = std::conj(in[k]);
        }
      });
      sub_->run(scratch, true, scratch + n_);
      for_ranges(n_, parallel, [&](index_t b, index_t e) {
        for (index_t i = b; i < e; ++i) out[i] = scratch[i].real();
      });
      return;
    }
    // The forward butterfly run back: 2 Z_k and 2 Z_{h-k} from X_k and X_{h-k}, so the
    // unscaled inverse of length h gives n x.
    const index_t h = half_;
    C* z = scratch;
    z[0] = C(in[0].real() + in[h].real(), in[0].real() - in[h].real());
    for_ranges(h / 2, parallel, [&](index_t b, index_t e) {
      for (index_t k = b + 1; k <= e; ++k) {
        const C a = in[k], c = std::conj(in[h - k]);
        const C sum = a + c, t = twiddle<true>(a - c, w_[k]);
        z[k] = sum + t;
        z[h - k] = std::conj(sum - t);
      }
    });
    sub_->run(z, true, scratch + h);
    for_ranges(h, parallel, [&](index_t b, index_t e) {
      for (index_t j = b; j < e; ++j) {
        out[2 * j] = z[j].real();
        out[2 * j + 1] = z[j].imag();
      }
    });
  }

 private:
  index_t n_, half_;  // half_: n / 2 for even n, 0 for odd n
  std::shared_ptr<const complex_plan<R>> sub_;
  std::vector<C> w_;  // w_k of the even case, k <= h / 2
};

/// The real plan of length n from a process-wide cache (its complex plan from the complex one).
template <class R> std::shared_ptr<const real_plan<R>> cached_real_plan(index_t n) {
  return cached_of_length<real_plan<R>>(n);
}

}  // namespace cunp::detail::cpu_fft
