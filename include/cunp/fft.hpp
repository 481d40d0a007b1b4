// cunp/fft.hpp: numpy.fft. Every transform is NumPy's arguments resolved into one request
// (detail/fft/request.hpp) and one backend call: the cpu backend's own mixed-radix and Bluestein
// transforms (detail/cpu/fft/), cuFFT on a GPU (detail/cuda/fft/, nvcc translation units).
#pragma once
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/fft/transform.hpp"
#include "cunp/detail/fft/request.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/rearranging.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::fft {

/// numpy.fft's norm=: which direction is scaled, by 1/n (backward: the inverse, NumPy's default;
/// forward: the forward transform) or both by 1/sqrt(n) (ortho).
enum class norm { backward, ortho, forward };

}  // namespace cunp::fft

namespace cunp::detail {

template <class A> using fft_input_t = typename operand_traits<std::remove_cvref_t<A>>::value_type;
/// NumPy's out= of a transform whose result dtype is T (not deduced from the argument: the
/// result dtype comes from the input).
template <class T> using fft_out = std::optional<ndarray<std::type_identity_t<T>>>;

/// NumPy's _swap_direction: hfft and ihfft are irfft and rfft with the scaled direction swapped.
inline fft::norm swapped(fft::norm nm) {
  return nm == fft::norm::backward  ? fft::norm::forward
         : nm == fft::norm::forward ? fft::norm::backward
                                    : nm;
}

/// The norm's factor of a transform of `points` points (the product of its lengths).
inline double fft_scale(fft::norm nm, double points, bool inverse) {
  if (nm == fft::norm::ortho) return 1 / std::sqrt(points);
  return (nm == fft::norm::backward) == inverse ? 1 / points : 1;
}

inline void check_fft_points(index_t n) {
  if (n < 1)
    throw value_error("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
}

/// NumPy's _cook_nd_args: s and axes completed from each other and the input's shape (s alone:
/// the last len(s) axes; axes alone: their extents; neither: every axis), s[i] = -1 meaning the
/// input's extent, and for an inverse real transform without s the last length 2 (m - 1).
inline fft_request cook_request(const shape_t& shape, const std::optional<shape_t>& s,
                                const std::optional<std::vector<index_t>>& axes, fft_kind kind) {
  const auto nd = static_cast<index_t>(shape.size());
  std::vector<index_t> ax;
  if (axes)
    ax = *axes;
  else
    for (index_t i = s ? -static_cast<index_t>(s->size()) : -nd; i < 0; ++i) ax.push_back(i);
  if (s && s->size() != ax.size()) throw value_error("Shape and axes have different lengths.");
  fft_request rq;
  rq.kind = kind;
  rq.inverse = kind == fft_kind::c2r;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    const int a = normalize_axis(ax[i], shape.size());
    rq.axes.push_back(a);
    index_t n = s ? (*s)[i] : shape[a];
    if (s && n == -1) n = shape[a];
    if (!s && kind == fft_kind::c2r && i + 1 == ax.size()) n = (shape[a] - 1) * 2;
    check_fft_points(n);
    rq.n.push_back(n);
  }
  if (kind != fft_kind::c2c && rq.axes.empty())
    throw value_error("at least one axis must be transformed by a real FFT");
  return rq;
}

/// The one-axis request of fft, ifft, rfft, irfft: n defaults to the input's extent (irfft:
/// 2 (m - 1)).
inline fft_request one_axis_request(const shape_t& shape, std::optional<index_t> n, index_t axis,
                                    fft_kind kind) {
  const int a = normalize_axis(axis, shape.size());
  return cook_request(shape, n ? std::optional<shape_t>(shape_t{*n}) : std::nullopt,
                      std::vector<index_t>{a}, kind);
}

inline double request_points(const fft_request& rq) {
  double p = 1;
  for (const index_t n : rq.n) p *= static_cast<double>(n);
  return p;
}

/// Runs `rq` on x into `out` (NumPy's out=: the result's shape and dtype; written through a
/// C-ordered temporary when it is not C-ordered or shares memory with x), or into a new array.
template <class R, class Backend, class T>
ndarray<R> run_fft(const ndarray<T>& x, fft_request rq, fft::norm nm,
                   const std::optional<ndarray<R>>& out) {
  rq.scale = fft_scale(nm, request_points(rq), rq.inverse);
  const shape_t shape = fft_output_shape(x.shape(), rq);
  auto transform = [&](const ndarray<R>& dst) {
    if (dst.size() == 0) return;
    if (rq.axes.empty())
      copyto<Backend>(dst, x);  // fftn over no axes: the input, as NumPy
    else
      dispatch<Backend>(x.device(), [&](auto be) { fft_run(be, dst, x, rq); });
  };
  if (out) {
    check_same_device(out->device(), x.device(), "fft");
    if (out->shape() != shape)
      throw shape_error("out has shape " + shape_str(out->shape()) + ", the result " +
                        shape_str(shape));
    check_writeable(*out);
    if (out->is_contiguous() && !may_share_memory(*out, x)) {
      transform(*out);
      return *out;
    }
  }
  ndarray<R> result(shape, x.device());
  transform(result);
  if (out) {
    copyto<Backend>(*out, result);
    return *out;
  }
  return result;
}

/// The host backend has no fused route for fft of an expression: it evaluates it first.
template <class C, class E>
std::optional<ndarray<C>> fft_of_expression(host_backend, const E&, double) {
  return std::nullopt;
}

/// fft(a) of an unevaluated 1-d expression `a` straight from its operands, where the backend has
/// a route that reads them inside the transform (the CUDA backend's four-step split for
/// complex64, detail/cuda/fft/four_step.cuh); nullopt where it has none, and the caller
/// evaluates first. n other than the length, an out= or another shape take the general path.
template <class C, class Backend, class A>
std::optional<ndarray<C>> fused_fft(const A& a, std::optional<index_t> n, index_t axis,
                                    fft::norm nm, const fft_out<C>& out) {
  if constexpr (std::is_same_v<std::remove_cvref_t<A>, ndarray<fft_input_t<A>>>) {
    return std::nullopt;  // an array: nothing to fuse
  } else {
    const shape_t& shape = a.shape();
    if (out || shape.size() != 1 || (n && *n != shape[0]) || (axis != -1 && axis != 0) ||
        shape[0] < 1)
      return std::nullopt;
    const double scale = fft_scale(nm, static_cast<double>(shape[0]), false);
    return dispatch<Backend>(a.device(),
                             [&](auto be) { return fft_of_expression<C>(be, a, scale); });
  }
}

/// conj(a) as an array (hfft's input), a itself when it is real.
template <class Backend, class A>
auto conjugated(const A& a) {
  if constexpr (is_complex_v<fft_input_t<A>>)
    return eval<Backend>(conjugate(a));
  else
    return eval<Backend>(a);
}

/// x rolled by sign * (n/2) along `axes` (default every axis): fftshift (+1) and ifftshift (-1).
template <class T>
ndarray<T> fft_shifted(const ndarray<T>& x, const axis_arg& axes, int sign) {
  std::vector<index_t> ax = axes.axes(), shift;
  if (axes.all())
    for (int d = 0; d < x.ndim(); ++d) ax.push_back(d);
  if (ax.empty()) return x.copy();
  for (const index_t a : ax)
    shift.push_back(sign * (x.shape()[normalize_axis(a, x.shape().size())] / 2));
  return roll(x, shift, axis_arg(ax));
}

}  // namespace cunp::detail

/// rfft, ihfft, rfftn, rfft2 of a complex input (NumPy: TypeError).
#define CUNP_FFT_REAL_INPUT_MESSAGE \
  "this transform takes a real input (NumPy raises TypeError for a complex one): use fft/fftn"

namespace cunp::fft {

/// The complex dtype a transform of T returns (numpy.fft: complex64 for float16/float32/complex64,
/// complex128 for everything else) and the real dtype irfft and hfft return.
template <class T> using complex_result_t = detail::fft_complex_t<T>;
template <class T> using real_result_t = detail::fft_real_result_t<T>;

// The one-axis transforms. n: the transform length (the input cropped or padded with zeros along
// `axis`; default its extent, for irfft and hfft 2 (m - 1)); out: NumPy's out=, of the result's
// shape and dtype. A lazy expression as input is evaluated once.

/// numpy.fft.fft(a, n, axis, norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> fft(const A& a, std::optional<index_t> n = std::nullopt, index_t axis = -1,
                             norm nm = norm::backward,
                             const detail::fft_out<C>& out = std::nullopt) {
  if (auto fused = detail::fused_fft<C, Backend>(a, n, axis, nm, out)) return std::move(*fused);
  const auto x = eval<Backend>(a);
  return detail::run_fft<C, Backend>(
      x, detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::c2c), nm, out);
}

/// numpy.fft.ifft(a, n, axis, norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> ifft(const A& a, std::optional<index_t> n = std::nullopt,
                              index_t axis = -1, norm nm = norm::backward,
                              const detail::fft_out<C>& out = std::nullopt) {
  const auto x = eval<Backend>(a);
  auto rq = detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::c2c);
  rq.inverse = true;
  return detail::run_fft<C, Backend>(x, rq, nm, out);
}

/// numpy.fft.rfft(a, n, axis, norm, out): the n/2 + 1 non-negative frequencies of a real input
/// (a complex input does not compile: NumPy raises TypeError).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> rfft(const A& a, std::optional<index_t> n = std::nullopt,
                              index_t axis = -1, norm nm = norm::backward,
                              const detail::fft_out<C>& out = std::nullopt) {
  static_assert(!is_complex_v<detail::fft_input_t<A>>, CUNP_FFT_REAL_INPUT_MESSAGE);
  const auto x = eval<Backend>(a);
  return detail::run_fft<C, Backend>(
      x, detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::r2c), nm, out);
}

/// numpy.fft.irfft(a, n, axis, norm, out): n real points from the n/2 + 1 values of a Hermitian
/// spectrum (the imaginary parts of the zero and, for even n, the Nyquist frequency are ignored).
template <class Backend = detail::compiled_backend, array_like A,
          class R = real_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<R> irfft(const A& a, std::optional<index_t> n = std::nullopt,
                               index_t axis = -1, norm nm = norm::backward,
                               const detail::fft_out<R>& out = std::nullopt) {
  const auto x = eval<Backend>(a);
  return detail::run_fft<R, Backend>(
      x, detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::c2r), nm, out);
}

/// numpy.fft.hfft(a, n, axis, norm, out): the real spectrum of a signal with Hermitian symmetry
/// given by its first half (irfft of conj(a) with the scaled direction swapped).
template <class Backend = detail::compiled_backend, array_like A,
          class R = real_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<R> hfft(const A& a, std::optional<index_t> n = std::nullopt,
                              index_t axis = -1, norm nm = norm::backward,
                              const detail::fft_out<R>& out = std::nullopt) {
  const auto x = detail::conjugated<Backend>(a);
  return detail::run_fft<R, Backend>(
      x, detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::c2r), detail::swapped(nm),
      out);
}

/// numpy.fft.ihfft(a, n, axis, norm, out): conj(rfft(a)) with the scaled direction swapped.
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> ihfft(const A& a, std::optional<index_t> n = std::nullopt,
                               index_t axis = -1, norm nm = norm::backward,
                               const detail::fft_out<C>& out = std::nullopt) {
  static_assert(!is_complex_v<detail::fft_input_t<A>>, CUNP_FFT_REAL_INPUT_MESSAGE);
  const auto x = eval<Backend>(a);
  ndarray<C> r = detail::run_fft<C, Backend>(
      x, detail::one_axis_request(x.shape(), n, axis, detail::fft_kind::r2c), detail::swapped(nm),
      out);
  detail::assign<Backend>(r,
                          conjugate(r));  // element by element in place: each reads what it writes
  return r;
}

// The N-d transforms. s: the transform lengths (as n, one per axis; -1 keeps the input's
// extent); axes: default the last len(s) axes, or every axis; repeated axes are transformed
// again, as NumPy does.

/// numpy.fft.fftn(a, s, axes, norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> fftn(const A& a, const std::optional<shape_t>& s = std::nullopt,
                              const std::optional<std::vector<index_t>>& axes = std::nullopt,
                              norm nm = norm::backward,
                              const detail::fft_out<C>& out = std::nullopt) {
  const auto x = eval<Backend>(a);
  return detail::run_fft<C, Backend>(
      x, detail::cook_request(x.shape(), s, axes, detail::fft_kind::c2c), nm, out);
}

/// numpy.fft.ifftn(a, s, axes, norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> ifftn(const A& a, const std::optional<shape_t>& s = std::nullopt,
                               const std::optional<std::vector<index_t>>& axes = std::nullopt,
                               norm nm = norm::backward,
                               const detail::fft_out<C>& out = std::nullopt) {
  const auto x = eval<Backend>(a);
  auto rq = detail::cook_request(x.shape(), s, axes, detail::fft_kind::c2c);
  rq.inverse = true;
  return detail::run_fft<C, Backend>(x, rq, nm, out);
}

/// numpy.fft.rfftn(a, s, axes, norm, out): rfft along the last of `axes`, fft along the others.
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> rfftn(const A& a, const std::optional<shape_t>& s = std::nullopt,
                               const std::optional<std::vector<index_t>>& axes = std::nullopt,
                               norm nm = norm::backward,
                               const detail::fft_out<C>& out = std::nullopt) {
  static_assert(!is_complex_v<detail::fft_input_t<A>>, CUNP_FFT_REAL_INPUT_MESSAGE);
  const auto x = eval<Backend>(a);
  return detail::run_fft<C, Backend>(
      x, detail::cook_request(x.shape(), s, axes, detail::fft_kind::r2c), nm, out);
}

/// numpy.fft.irfftn(a, s, axes, norm, out): ifft along all of `axes` but the last, irfft along
/// it (its length, without s, 2 (m - 1)).
template <class Backend = detail::compiled_backend, array_like A,
          class R = real_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<R> irfftn(const A& a, const std::optional<shape_t>& s = std::nullopt,
                                const std::optional<std::vector<index_t>>& axes = std::nullopt,
                                norm nm = norm::backward,
                                const detail::fft_out<R>& out = std::nullopt) {
  const auto x = eval<Backend>(a);
  return detail::run_fft<R, Backend>(
      x, detail::cook_request(x.shape(), s, axes, detail::fft_kind::c2r), nm, out);
}

/// numpy.fft.fft2(a, s, axes=(-2, -1), norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> fft2(const A& a, const std::optional<shape_t>& s = std::nullopt,
                              const std::vector<index_t>& axes = {-2, -1}, norm nm = norm::backward,
                              const detail::fft_out<C>& out = std::nullopt) {
  return fftn<Backend>(a, s, axes, nm, out);
}
/// numpy.fft.ifft2(a, s, axes=(-2, -1), norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> ifft2(const A& a, const std::optional<shape_t>& s = std::nullopt,
                               const std::vector<index_t>& axes = {-2, -1},
                               norm nm = norm::backward,
                               const detail::fft_out<C>& out = std::nullopt) {
  return ifftn<Backend>(a, s, axes, nm, out);
}
/// numpy.fft.rfft2(a, s, axes=(-2, -1), norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class C = complex_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<C> rfft2(const A& a, const std::optional<shape_t>& s = std::nullopt,
                               const std::vector<index_t>& axes = {-2, -1},
                               norm nm = norm::backward,
                               const detail::fft_out<C>& out = std::nullopt) {
  return rfftn<Backend>(a, s, axes, nm, out);
}
/// numpy.fft.irfft2(a, s, axes=(-2, -1), norm, out).
template <class Backend = detail::compiled_backend, array_like A,
          class R = real_result_t<detail::fft_input_t<A>>>
[[nodiscard]] ndarray<R> irfft2(const A& a, const std::optional<shape_t>& s = std::nullopt,
                                const std::vector<index_t>& axes = {-2, -1},
                                norm nm = norm::backward,
                                const detail::fft_out<R>& out = std::nullopt) {
  return irfftn<Backend>(a, s, axes, nm, out);
}

/// numpy.fft.fftfreq(n, d, device): the sample frequencies [0, 1, ..., -(n/2), ..., -1] / (d n),
/// float64.
[[nodiscard]] inline ndarray<double> fftfreq(index_t n, double d = 1.0,
                                             device dev = default_device()) {
  if (n < 0) throw value_error("negative dimensions are not allowed");
  if (n == 0 || d == 0) throw value_error("float division by zero");
  const ndarray<double> i = arange<double>(0, static_cast<double>(n), 1, dev);
  const double positive = static_cast<double>((n - 1) / 2 + 1);
  return ndarray<double>(where(i < positive, i, i - static_cast<double>(n)) *
                         (1.0 / (static_cast<double>(n) * d)));
}

/// numpy.fft.rfftfreq(n, d, device): [0, 1, ..., n/2] / (d n), float64.
[[nodiscard]] inline ndarray<double> rfftfreq(index_t n, double d = 1.0,
                                              device dev = default_device()) {
  if (n < 0) throw value_error("negative dimensions are not allowed");
  if (n == 0 || d == 0) throw value_error("float division by zero");
  return ndarray<double>(arange<double>(0, static_cast<double>(n / 2 + 1), 1, dev) *
                         (1.0 / (static_cast<double>(n) * d)));
}

/// numpy.fft.fftshift(x, axes): the zero frequency moved to the centre (a roll by n/2 along each
/// of `axes`, default every axis), a new array.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] auto fftshift(const A& x, const axis_arg& axes = {}) {
  return detail::fft_shifted(eval<Backend>(x), axes, 1);
}
/// numpy.fft.ifftshift(x, axes): fftshift's inverse (a roll by -(n/2)).
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] auto ifftshift(const A& x, const axis_arg& axes = {}) {
  return detail::fft_shifted(eval<Backend>(x), axes, -1);
}

}  // namespace cunp::fft

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/fft/four_step.cuh"
#include "cunp/detail/cuda/fft/transform.cuh"
#endif
