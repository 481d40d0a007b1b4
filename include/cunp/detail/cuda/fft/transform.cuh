// cunp/detail/cuda/fft/transform.cuh: the CUDA backend of numpy.fft on cuFFT. A request whose
// axes are consecutive, distinct and at most 3 (the real one, if any, their last) runs as one
// rank-k plan; any other runs NumPy's steps one axis at a time, each a rank-1 plan. A plan's
// advanced layout (stride and distance) walks its axes where they lie: transforms one after
// another (the block of axes last), strided and batched over the elements after the block
// (the block first), or, in between, a loop of executions over the smaller of the two groups
// (the indices before the block, those after it), each batched over the other. cuFFT reads a
// C-ordered buffer of the transform's dtype: the input itself when it is one, else a copy that
// converts, crops or pads with zeros, and multiplies by the norm's factor on the way (so the
// scale costs no pass of its own); a complex-to-real transform always reads a copy, as cuFFT
// overwrites its input. Plans come from the device's plan cache, keyed by their whole layout.
#pragma once
#include <cufft.h>
#include <cufftXt.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/cuda/core/cufft.cuh"
#include "cunp/detail/fft/request.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail::cuda {

/// cuFFT's transform type of a step over real type R (float or double).
template <class R> cufftType fft_type(fft_kind kind) {
  constexpr bool single = std::is_same_v<R, float>;
  switch (kind) {
    case fft_kind::r2c: return single ? CUFFT_R2C : CUFFT_D2Z;
    case fft_kind::c2r: return single ? CUFFT_C2R : CUFFT_Z2D;
    default: return single ? CUFFT_C2C : CUFFT_Z2Z;
  }
}

/// A cuFFT plan's layout (cufftMakePlanMany64's arguments): `rank` lengths, the embedded
/// extents of input and output, element stride and distance between batch members.
struct fft_layout {
  std::vector<long long> n, inembed, onembed;
  long long istride = 1, idist = 0, ostride = 1, odist = 0, batch = 1;
};

/// Executes `layout` of `kind` (inverse: the c2c direction) from `in` to `out`, `repeats` times
/// with the pointers advanced by in_step / out_step elements each time.
template <class R, class I, class O>
void exec_fft(int dev, fft_kind kind, bool inverse, fft_layout layout, const I* in, O* out,
              index_t repeats = 1, index_t in_step = 0, index_t out_step = 0) {
  const cufftType type = fft_type<R>(kind);
  core::plan_key key("fft");
  key.add(static_cast<int>(type))
      .add_all(layout.n)
      .add_all(layout.inembed)
      .add_all(layout.onembed)
      .add(layout.istride)
      .add(layout.idist)
      .add(layout.ostride)
      .add(layout.odist)
      .add(layout.batch);
  auto plan = cufft_plan::cached(dev, key, "cufftMakePlanMany64",
                                 [&](cufftHandle h, std::size_t* work) {
                                   return cufftMakePlanMany64(
                                       h, static_cast<int>(layout.n.size()), layout.n.data(),
                                       layout.inembed.data(), layout.istride, layout.idist,
                                       layout.onembed.data(), layout.ostride, layout.odist, type,
                                       layout.batch, work);
                                 });
  for (index_t r = 0; r < repeats; ++r) {
    // cuFFT takes non-const input pointers; only c2r writes through them, into our own copy.
    auto* i = const_cast<I*>(in + r * in_step);
    O* o = out + r * out_step;
    // cufftXtExec runs a plan of any type and precision (the direction is ignored by r2c/c2r).
    plan->run("cufftXtExec", [&](cufftHandle h) {
      return cufftXtExec(h, i, o, inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
    });
  }
}

/// Whether p may be handed to cuFFT for a transform over complex type C: cuFFT reads and writes
/// even real data in pairs, so every pointer must be aligned as a C is.
template <class C, class T> bool fft_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % sizeof(C) == 0;
}

/// The array cuFFT reads for a transform of `axes` whose input extents are `extents`: x itself
/// when it is C-ordered, of dtype In, already of those extents, and may be read in place
/// (`readonly_ok`); else a C-ordered copy, converted, cropped or padded with zeros, times
/// `scale` (*scaled is set when it was applied).
template <class In, class T>
ndarray<In> fft_source(const ndarray<T>& x, const std::vector<int>& axes,
                       const std::vector<index_t>& extents, bool readonly_ok, double scale,
                       bool* scaled) {
  shape_t shape = x.shape(), take = x.shape();
  bool fits = true;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    shape[axes[i]] = extents[i];
    if (take[axes[i]] > extents[i]) take[axes[i]] = extents[i];
    fits = fits && x.shape()[axes[i]] == extents[i];
  }
  *scaled = false;
  if constexpr (std::is_same_v<In, T>) {
    if (fits && readonly_ok && x.is_contiguous() && fft_aligned<fft_complex_t<In>>(x.data()))
      return x;
  }
  ndarray<In> buf = take == shape ? ndarray<In>(shape, x.device()) : zeros<In>(shape, x.device());
  const ndarray<In> into(buf.storage(), buf.offset(), take, buf.strides());
  const ndarray<T> from(x.storage(), x.offset(), take, x.strides());
  using V = typename fft_complex_t<In>::value_type;
  if (scale != 1) {
    copyto(into, astype<In>(from) * static_cast<V>(scale));
    *scaled = true;
  } else {
    copyto(into, from);
  }
  return buf;
}

/// A transform over the consecutive axes [first, first + n.size()) of a C-ordered array, at
/// most 3 (cuFFT's largest rank): one plan.
struct fft_block {
  int first;
  std::vector<long long> n;  // the lengths, axis by axis
  fft_kind kind;
  bool inverse;

  [[nodiscard]] int last() const { return first + static_cast<int>(n.size()) - 1; }
  /// The extents along the block that cuFFT reads (input) or writes: n, the Hermitian side's
  /// last one n/2 + 1.
  [[nodiscard]] std::vector<long long> extents(bool input) const {
    std::vector<long long> e = n;
    if (kind == (input ? fft_kind::c2r : fft_kind::r2c)) e.back() = e.back() / 2 + 1;
    return e;
  }
};

inline long long product(const std::vector<long long>& v) {
  long long p = 1;
  for (const long long x : v) p *= x;
  return p;
}

/// rq as one block, when its axes are distinct, consecutive, at most 3, and for a real
/// transform the real axis is the block's last.
inline std::optional<fft_block> request_block(const fft_request& rq) {
  const int k = static_cast<int>(rq.axes.size());
  if (k < 1 || k > 3) return std::nullopt;
  const int first = *std::min_element(rq.axes.begin(), rq.axes.end());
  fft_block b{first, std::vector<long long>(k, 0), rq.kind, rq.inverse};
  for (int i = 0; i < k; ++i) {
    const int d = rq.axes[i] - first;
    if (d >= k || b.n[d] != 0) return std::nullopt;  // not consecutive, or repeated
    b.n[d] = rq.n[i];
  }
  if (rq.kind != fft_kind::c2c && rq.axes.back() != b.last()) return std::nullopt;
  return b;
}

inline fft_block step_block(const fft_step& s) { return {s.axis, {s.n}, s.kind, s.inverse}; }

/// The elements before a block of a C-ordered array of `shape` (outer) and after it (inner).
inline void around(const shape_t& shape, const fft_block& b, index_t& outer, index_t& inner) {
  outer = inner = 1;
  for (int d = 0; d < b.first; ++d) outer *= shape[d];
  for (int d = b.last() + 1; d < static_cast<int>(shape.size()); ++d) inner *= shape[d];
}

/// Whether run_block can run `b` on an output of `shape`: a real transform with elements on
/// both sides of its block starts one execution per outer index, each of whose real pointers
/// must stay aligned to a complex element (cuFFT: CUFFT_INVALID_VALUE).
inline bool block_aligned(const shape_t& shape, const fft_block& b) {
  index_t outer = 0, inner = 0;
  around(shape, b, outer, inner);
  if (b.kind == fft_kind::c2c || outer == 1 || inner == 1) return true;
  return product(b.extents(b.kind == fft_kind::r2c)) * inner % 2 == 0;
}

/// The transform `b` of the C-ordered `src` (its extents along the block b.extents(true)) into
/// the C-ordered `dst`. After the block, elements `inner` apart: cuFFT's layout has one batch
/// distance, so one of the two groups of transforms is a loop of executions, the smaller one:
/// batched over the axes after the block (neighbours 1 apart), once per index of the axes
/// before it, or the other way round. A real transform takes the first (the second would start
/// its executions one real apart).
template <class R, class I, class O>
void run_block(const ndarray<O>& dst, const ndarray<I>& src, const fft_block& b) {
  index_t outer = 0, inner = 0;
  around(dst.shape(), b, outer, inner);
  fft_layout L;
  L.n = b.n;
  L.inembed = b.extents(true);
  L.onembed = b.extents(false);
  const long long in_count = product(L.inembed), out_count = product(L.onembed);
  const int dev = dst.device().index();
  if (inner == 1) {  // the transforms one after another
    L.idist = in_count;
    L.odist = out_count;
    L.batch = outer;
    exec_fft<R>(dev, b.kind, b.inverse, L, src.data(), dst.data());
    return;
  }
  L.istride = L.ostride = inner;
  if (outer <= inner || b.kind != fft_kind::c2c) {
    L.idist = L.odist = 1;
    L.batch = inner;
    exec_fft<R>(dev, b.kind, b.inverse, L, src.data(), dst.data(), outer, in_count * inner,
                out_count * inner);
  } else {
    L.idist = in_count * inner;
    L.odist = out_count * inner;
    L.batch = outer;
    exec_fft<R>(dev, b.kind, b.inverse, L, src.data(), dst.data(), inner, 1, 1);
  }
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

namespace cuda {

/// One step of the one-axis path from src into dst (C-ordered), reading src in place where it
/// may (`owned`: src is this call's own temporary, which a c2r transform may overwrite), the
/// norm's factor applied by the copy if one is made: returns whether it was.
template <class C, class D, class S>
bool step_into(const ndarray<D>& dst, const ndarray<S>& src, const fft_step& s, bool owned,
               double scale) {
  using R = typename C::value_type;
  const fft_block b = step_block(s);
  if (!block_aligned(dst.shape(), b)) {
    // The axis moved last, through a transform of a copy into a temporary, then copied back.
    const int last = dst.ndim() - 1;
    const ndarray<S> moved = moveaxis(src, s.axis, last);
    const ndarray<D> into(moveaxis(dst, s.axis, last).shape(), dst.device());
    fft_step t = s;
    t.axis = last;
    const bool scaled = step_into<C>(into, moved, t, owned, scale);
    copyto(dst, moveaxis(into, last, s.axis));
    return scaled;
  }
  bool scaled = false;
  const std::vector<int> axis{s.axis};
  const std::vector<index_t> extent{s.in_extent};
  if constexpr (!is_complex_v<D>) {
    run_block<R>(dst, fft_source<C>(src, axis, extent, owned, scale, &scaled), b);
  } else if (s.kind == fft_kind::r2c) {
    if constexpr (!is_complex_v<S>)
      run_block<R>(dst, fft_source<R>(src, axis, extent, true, scale, &scaled), b);
  } else {
    run_block<R>(dst, fft_source<C>(src, axis, extent, true, scale, &scaled), b);
  }
  return scaled;
}

/// fft_run into `dst`, of the transform's own dtype (C, or R for a c2r transform).
template <class C, class D, class T>
void fft_run_into(const ndarray<D>& dst, const ndarray<T>& x, const fft_request& rq) {
  using R = typename C::value_type;
  bool scaled = false;
  const std::optional<fft_block> block = request_block(rq);
  if (block && block_aligned(dst.shape(), *block)) {
    std::vector<index_t> extents;
    for (std::size_t i = 0; i < rq.axes.size(); ++i) extents.push_back(rq.input_extent(i));
    if constexpr (!is_complex_v<D>) {
      run_block<R>(dst, fft_source<C>(x, rq.axes, extents, false, rq.scale, &scaled), *block);
    } else if (rq.kind == fft_kind::r2c) {
      if constexpr (!is_complex_v<T>)
        run_block<R>(dst, fft_source<R>(x, rq.axes, extents, true, rq.scale, &scaled), *block);
    } else {
      run_block<R>(dst, fft_source<C>(x, rq.axes, extents, true, rq.scale, &scaled), *block);
    }
  } else {
    double pending = rq.scale;  // the norm's factor until a copy has applied it
    run_fft_steps<C>(dst, x, fft_steps(rq),
                     [&](const auto& to, const auto& from, const fft_step& s, bool first, bool) {
                       if (step_into<C>(to, from, s, !first, pending)) pending = 1;
                     });
    scaled = pending == 1;
  }
  if (!scaled && rq.scale != 1) {
    using V = typename C::value_type;
    assign<cuda_backend>(dst, dst * static_cast<V>(rq.scale));
  }
}

}  // namespace cuda

/// The CUDA backend of every numpy.fft transform (see this file's opening comment): into `out`
/// (C-ordered, the result's shape), through a temporary for a float16 result or an `out` that
/// cuFFT cannot write (a real view not aligned to a complex element).
template <class O, class T>
void fft_run(cuda_backend, const ndarray<O>& out, const ndarray<T>& x, const fft_request& rq) {
  check_same_device(out.device(), x.device(), "fft");
  using C = fft_complex_t<O>;
  using R = typename C::value_type;
  if constexpr (std::is_same_v<O, C> || std::is_same_v<O, R>) {
    if (cuda::fft_aligned<C>(out.data())) {
      cuda::fft_run_into<C>(out, x, rq);
      return;
    }
  }
  using W = std::conditional_t<is_complex_v<O>, C, R>;  // the transform's own output dtype
  const ndarray<W> wide(out.shape(), out.device());
  cuda::fft_run_into<C>(wide, x, rq);
  copyto(out, wide);
}

}  // namespace cunp::detail
