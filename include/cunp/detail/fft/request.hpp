// cunp/detail/fft/request.hpp: one numpy.fft call as both backends receive it (the axes, lengths,
// kind and scale NumPy's argument rules resolved), the dtypes NumPy 2 computes in, and the order
// of the one-axis steps NumPy runs it in.
#pragma once
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "cunp/dtype.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// complex to complex; real to the n/2 + 1 values of a Hermitian spectrum (rfft); and back (irfft).
enum class fft_kind { c2c, r2c, c2r };

/// The complex dtype an FFT of T computes in: NumPy 2 transforms float16 and float32 in single
/// precision (complex64) and everything else, bool and integers included, in double (complex128).
/// bfloat16 is not NumPy's; it goes with float16.
template <class T> struct fft_complex {
  using type = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, float16> ||
                                      std::is_same_v<T, bfloat16> ||
                                      std::is_same_v<T, std::complex<float>>,
                                  std::complex<float>, std::complex<double>>;
};
template <class T> using fft_complex_t = typename fft_complex<T>::type;
/// The real dtype of the same precision (what rfft transforms, what irfft computes).
template <class T> using fft_real_t = typename fft_complex_t<T>::value_type;
/// What irfft and hfft return: NumPy 2 keeps a float16 input's dtype (the transform runs in
/// single precision and is rounded to it); otherwise the real dtype of the transform.
template <class T>
using fft_real_result_t =
    std::conditional_t<std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>, T, fft_real_t<T>>;

/// One N-d transform. NumPy's fftn runs one-axis transforms, the axes in reverse order; rfftn
/// first the real transform along the last of `axes`, then the complex ones; irfftn the complex
/// ones first and the real transform (c2r) along the last axis last.
struct fft_request {
  fft_kind kind = fft_kind::c2c;
  bool inverse = false;       // the sign of the exponent is + (c2c; r2c never, c2r always)
  std::vector<int> axes;      // normalised, in NumPy's order; repeats allowed, as NumPy does
  std::vector<index_t> n;     // the transform length along each of `axes`
  double scale = 1;           // the norm's factor, applied once to the result

  /// Whether axes[i] is the one real axis of an r2c or c2r transform.
  [[nodiscard]] bool real_axis(std::size_t i) const {
    return kind != fft_kind::c2c && i + 1 == axes.size();
  }
  /// The elements a transform along axes[i] reads: n, or the n/2 + 1 of a c2r spectrum.
  [[nodiscard]] index_t input_extent(std::size_t i) const {
    return kind == fft_kind::c2r && real_axis(i) ? n[i] / 2 + 1 : n[i];
  }
  /// The elements it writes: n, or the n/2 + 1 of an r2c spectrum.
  [[nodiscard]] index_t output_extent(std::size_t i) const {
    return kind == fft_kind::r2c && real_axis(i) ? n[i] / 2 + 1 : n[i];
  }
};

/// One one-axis transform of a request.
struct fft_step {
  int axis;
  index_t n;            // the transform length
  index_t in_extent;    // the elements it reads along `axis` (the rest is zero padding)
  index_t out_extent;   // the elements it writes
  fft_kind kind;
  bool inverse;
};

/// The steps of `rq` in NumPy's order (see fft_request).
inline std::vector<fft_step> fft_steps(const fft_request& rq) {
  std::vector<fft_step> steps;
  const std::size_t k = rq.axes.size();
  auto add = [&](std::size_t i, fft_kind kind) {
    steps.push_back({rq.axes[i], rq.n[i], rq.input_extent(i), rq.output_extent(i), kind,
                     kind == fft_kind::c2r || (kind == fft_kind::c2c && rq.inverse)});
  };
  if (rq.kind == fft_kind::r2c && k > 0) add(k - 1, fft_kind::r2c);
  const std::size_t complex_axes = rq.kind == fft_kind::c2c ? k : k - 1;
  for (std::size_t i = complex_axes; i-- > 0;) add(i, fft_kind::c2c);
  if (rq.kind == fft_kind::c2r && k > 0) add(k - 1, fft_kind::c2r);
  return steps;
}

/// The shape of `rq`'s result for an input of shape `in`.
inline shape_t fft_output_shape(shape_t in, const fft_request& rq) {
  for (const fft_step& s : fft_steps(rq)) in[s.axis] = s.out_extent;
  return in;
}

/// Runs `steps` from x into out, through C-ordered complex temporaries (dtype C) on x's device
/// between them: step(dst, src, s, first, last) runs one (first: src is x, the caller's array;
/// last: dst is out). Both backends' one-axis-at-a-time path.
template <class C, class O, class T, class Step>
void run_fft_steps(const ndarray<O>& out, const ndarray<T>& x, const std::vector<fft_step>& steps,
                   Step&& step) {
  if (steps.size() == 1) {
    step(out, x, steps[0], true, true);
    return;
  }
  shape_t shape = x.shape();
  shape[steps[0].axis] = steps[0].out_extent;
  ndarray<C> cur(shape, x.device());
  step(cur, x, steps[0], true, false);
  for (std::size_t i = 1; i + 1 < steps.size(); ++i) {
    shape[steps[i].axis] = steps[i].out_extent;
    ndarray<C> next(shape, x.device());
    step(next, cur, steps[i], false, false);
    cur = next;
  }
  step(out, cur, steps.back(), false, true);
}

}  // namespace cunp::detail
