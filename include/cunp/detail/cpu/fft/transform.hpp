// cunp/detail/cpu/fft/transform.hpp: the cpu backend of numpy.fft: a request run as NumPy runs
// it, one axis at a time, each line of the axis gathered into a contiguous buffer (converted,
// cropped or padded with zeros), transformed by the cached plan of its length and written out
// scaled; OpenMP across lines.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cunp/detail/core/layout.hpp"
#include "cunp/detail/cpu/fft/complex_plan.hpp"
#include "cunp/detail/cpu/fft/real_plan.hpp"
#include "cunp/detail/fft/request.hpp"
#include "cunp/device.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cpu_fft {

template <class C> C scaled(const C& v, typename C::value_type s) {
  return C(v.real() * s, v.imag() * s);
}

/// One step from src into dst (C-ordered: src's shape with the axis's extent out_extent), the
/// result multiplied by `scale`. src's axis may be longer than the step reads (cropped) or
/// shorter (padded with zeros).
template <class O, class I>
void run_step(const ndarray<O>& dst, const ndarray<I>& src, const fft_step& s, double scale) {
  using C = fft_complex_t<O>;
  using R = typename C::value_type;
  shape_t line_starts = dst.shape();  // every index of the other axes: the loop layout of
  line_starts[s.axis] = 1;            // the two operands with the axis dropped
  const auto lines = make_loop_layout<2>(line_starts, {&src.strides(), &dst.strides()});
  const index_t m = src.shape()[s.axis];
  const index_t take = m < s.in_extent ? m : s.in_extent;
  const index_t sstep = src.strides()[s.axis], dstep = dst.strides()[s.axis];
  const I* in = src.data();
  O* out = dst.data();
  const R f = static_cast<R>(scale);
  std::shared_ptr<const complex_plan<R>> cplan;
  std::shared_ptr<const real_plan<R>> rplan;
  if (s.kind == fft_kind::c2c) cplan = cached_complex_plan<R>(s.n);
  else rplan = cached_real_plan<R>(s.n);
  const index_t scratch = cplan ? cplan->scratch_size() : rplan->scratch_size();
  const index_t half = s.n / 2 + 1;
#pragma omp parallel if (lines.size > 1)
  {
    std::vector<C> buf(static_cast<std::size_t>(s.kind == fft_kind::c2c ? s.n : half));
    std::vector<R> reals(static_cast<std::size_t>(s.kind == fft_kind::c2c ? 0 : s.n));
    std::vector<C> work(static_cast<std::size_t>(scratch));
#pragma omp for schedule(static)
    for (index_t l = 0; l < lines.size; ++l) {
      std::int64_t offs[2] = {0, 0};
      add_offsets(l, lines, offs);
      const I* line = in + offs[0];
      O* to = out + offs[1];
      if (s.kind == fft_kind::r2c) {
        for (index_t j = 0; j < take; ++j) reals[j] = convert<R>(line[j * sstep]);
        for (index_t j = take; j < s.n; ++j) reals[j] = R(0);
        rplan->forward(reals.data(), buf.data(), work.data());
        for (index_t j = 0; j < half; ++j) to[j * dstep] = convert<O>(scaled(buf[j], f));
        continue;
      }
      for (index_t j = 0; j < take; ++j) buf[j] = convert<C>(line[j * sstep]);
      for (index_t j = take; j < s.in_extent; ++j) buf[j] = C(0);
      if (s.kind == fft_kind::c2c) {
        cplan->run(buf.data(), s.inverse, work.data());
        for (index_t j = 0; j < s.n; ++j) to[j * dstep] = convert<O>(scaled(buf[j], f));
      } else {
        rplan->backward(buf.data(), reals.data(), work.data());
        for (index_t j = 0; j < s.n; ++j) to[j * dstep] = convert<O>(reals[j] * f);
      }
    }
  }
}

}  // namespace cunp::detail::cpu_fft

namespace cunp::detail {

/// The cpu backend of every numpy.fft transform: rq's steps in NumPy's order into `out`
/// (C-ordered, the result's shape); the scale with the last step.
template <class O, class T>
void fft_run(host_backend, const ndarray<O>& out, const ndarray<T>& x, const fft_request& rq) {
  check_same_device(out.device(), x.device(), "fft");
  require_cpu_for(out.device(), "FFTs");
  run_fft_steps<fft_complex_t<O>>(out, x, fft_steps(rq),
                                  [&](const auto& dst, const auto& src, const fft_step& s, bool,
                                      bool last) {
                                    cpu_fft::run_step(dst, src, s, last ? rq.scale : 1);
                                  });
}

}  // namespace cunp::detail
