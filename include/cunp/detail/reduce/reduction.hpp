// cunp/detail/reduce/reduction.hpp: the reduction engine: which elements meet in which output, and the
// cpu backend's evaluation.
//
// The input (an array or a lazy expression) is bound like an element-wise expression over its
// own shape, so sum(a * b) reads a and b once and never materialises a * b. Its dimensions split
// into kept ones (one output element each) and reduced ones; each side is simplified into a
// loop_layout (slot 0: the output, strides 0 along reduced dimensions). Output m reduces the K
// elements at offsets kept(m) + red(r), r in C order, which is the index argmax reports.
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/detail/expr/expr.hpp"
#include "cunp/detail/reduce/reduce_ops.hpp"
#include "cunp/shape.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace cunp {

/// The axes of a reduction: none given (all of them), one, or several (`{0, 2}`).
class axis_arg {
 public:
  axis_arg() = default;
  axis_arg(index_t axis) : axes_{axis}, all_(false) {}  // NOLINT: sum(a, 1)
  axis_arg(int axis) : axes_{axis}, all_(false) {}      // NOLINT
  axis_arg(std::initializer_list<index_t> axes) : axes_(axes), all_(false) {}
  axis_arg(std::vector<index_t> axes) : axes_(std::move(axes)), all_(false) {}  // NOLINT
  [[nodiscard]] bool all() const { return all_; }
  [[nodiscard]] const std::vector<index_t>& axes() const { return axes_; }

 private:
  std::vector<index_t> axes_;
  bool all_ = true;
};

namespace detail {

/// Which dimensions of an ndim-dimensional input a reduction removes (NumPy's axis checks).
inline std::vector<bool> reduced_dims(const axis_arg& axis, std::size_t ndim) {
  std::vector<bool> red(ndim, axis.all());
  if (axis.all()) return red;
  for (const index_t a : axis.axes()) {
    const int d = normalize_axis(a, ndim);
    if (red[d]) throw value_error("duplicate value in 'axis'");
    red[d] = true;
  }
  return red;
}

inline shape_t reduced_shape(const shape_t& shape, const std::vector<bool>& red, bool keepdims) {
  shape_t out;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (!red[d]) out.push_back(shape[d]);
    else if (keepdims) out.push_back(1);
  return out;
}

/// A bound reduction: the input's tree, its slots (slot 0: the output) and both layouts. Built
/// in place from the input, as bound_expr is (a user's lambda in the tree cannot be assigned).
template <class X> struct bound_reduction {
  static constexpr int N = slots_v<X>;
  using tree_type = typename binder<1, X>::type;
  bind_context<N> ctx;  // before the tree: binding the tree fills it
  tree_type tree;
  loop_layout<N> kept, red;

  /// Binds input x for reducing the dimensions `reduced` into out (of reduced_shape(x, reduced,
  /// keepdims)).
  template <class OutT>
  bound_reduction(const ndarray<OutT>& out, const X& x, const std::vector<bool>& reduced, bool keepdims)
      : ctx(operand_shape(x)), tree(binder<1, X>::make(x, ctx)) {
    const shape_t& shape = ctx.out_shape;
    strides_t os(shape.size(), 0);
    for (std::size_t d = 0, o = 0; d < shape.size(); ++d) {
      if (!reduced[d]) os[d] = out.strides()[o++];
      else if (keepdims) ++o;
    }
    ctx.record(0, out, std::move(os));
    shape_t ks, rs;
    std::array<strides_t, N> kst, rst;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      (reduced[d] ? rs : ks).push_back(shape[d]);
      for (int k = 0; k < N; ++k) (reduced[d] ? rst : kst)[k].push_back(ctx.strides[k][d]);
    }
    std::array<const strides_t*, N> kp, rp;
    for (int k = 0; k < N; ++k) kp[k] = &kst[k], rp[k] = &rst[k];
    kept = make_loop_layout<N>(ks, kp);
    red = make_loop_layout<N>(rs, rp);
  }
};

/// Reducer r over elements [lo, hi) of the reduced layout, from the offsets `base`: pairwise
/// (NumPy's summation: blocks of 128 summed in order, halves combined), for its accuracy.
template <class R, class Tree, std::size_t N>
typename R::acc host_pairwise(const R& r, const Tree& tree, const void* const* ptrs,
                              const std::int64_t* base, const loop_layout<N>& red,
                              std::int64_t lo, std::int64_t hi) {
  if (hi - lo > 128) {
    const std::int64_t mid = lo + (hi - lo) / 16 * 8;
    return r.combine(host_pairwise(r, tree, ptrs, base, red, lo, mid),
                     host_pairwise(r, tree, ptrs, base, red, mid, hi));
  }
  std::int64_t offs[N];
  const offset_indexer<int(N)> ix{ptrs, offs};
  auto a = r.identity();
  for (std::int64_t i = lo; i < hi; ++i) {
    for (std::size_t k = 0; k < N; ++k) offs[k] = base[k];
    if (red.shape.ndim == 1)
      for (std::size_t k = 0; k < N; ++k) offs[k] += i * red.strides[k][0];
    else
      add_offsets(i, red, offs);
    a = r.combine(a, r.load(tree.eval(ix), i));
  }
  return a;
}

/// The cpu backend: outputs in parallel; a single output split into ordered chunks.
template <class R, class X>
void reduce_run(host_backend, const bound_reduction<X>& b, const R& r) {
  constexpr int N = bound_reduction<X>::N;
  using out_t = typename R::out;
  out_t* out = static_cast<out_t*>(const_cast<void*>(b.ctx.ptrs[0]));
  const std::int64_t M = b.kept.size, K = b.red.size;
  auto base_of = [&](std::int64_t m, std::int64_t* base) {
    for (int k = 0; k < N; ++k) base[k] = 0;
    add_offsets(m, b.kept, base);
  };
  int threads = 1;
#if defined(_OPENMP)
  if (M * K >= (std::int64_t(1) << 16)) threads = omp_get_max_threads();
#endif
  if (M == 1 && threads > 1) {
    std::int64_t base[N];
    base_of(0, base);
    const std::int64_t chunk = ((K + threads - 1) / threads + 127) / 128 * 128;  // covers K
    std::vector<typename R::acc> part(threads, r.identity());
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads)
#endif
    for (int t = 0; t < threads; ++t) {
      const std::int64_t lo = std::min(K, t * chunk), hi = std::min(K, lo + chunk);
      part[t] = host_pairwise(r, b.tree, b.ctx.ptrs, base, b.red, lo, hi);
    }
    auto a = part[0];
    for (int t = 1; t < threads; ++t) a = r.combine(a, part[t]);
    out[base[0]] = r.finish(a, K);
    return;
  }
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (std::int64_t m = 0; m < M; ++m) {
    std::int64_t base[N];
    base_of(m, base);
    out[base[0]] = r.finish(host_pairwise(r, b.tree, b.ctx.ptrs, base, b.red, 0, K), K);
  }
}

/// Reduces x over `axis` with reducer r into a new array on x's device. `what` names the
/// operation in NumPy's error for an empty reduction without identity.
template <class Backend, class R, class X>
auto reduce(const X& x, const axis_arg& axis, bool keepdims, const R& r) {
  using out_t = typename R::out;
  const shape_t& shape = operand_shape(x);
  const auto red = reduced_dims(axis, shape.size());
  std::int64_t K = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (red[d]) K *= shape[d];
  // NumPy raises for an empty reduced range even when the output is empty too (max of a (0, 0)
  // array over axis 0).
  if (K == 0 && !R::has_identity) {
    if constexpr (std::string_view(R::name).starts_with("arg"))
      throw value_error(std::string("attempt to get ") + R::name + " of an empty sequence");
    else
      throw value_error(std::string("zero-size array to reduction operation ") + R::name +
                        " which has no identity");
  }
  ndarray<out_t> out(reduced_shape(shape, red, keepdims), x.device());
  if (out.size() == 0) return out;
  const bound_reduction<X> b(out, x, red, keepdims);
  dispatch<Backend>(out.device(), [&](auto be) {
    if constexpr (std::is_same_v<decltype(be), host_backend>) {
      require_cpu_for(out.device(), "reductions");
      reduce_run(be, b, r);
    } else {
      reduce_run(be, out.device().index(), b, r);
    }
  });
  return out;
}

}  // namespace detail
}  // namespace cunp
