// cunp/detail/reduce/reduction.hpp: the reduction engine: which elements meet in which output, and
// the one dispatch to a backend (the cpu's: detail/cpu/reduce/reduce.hpp; the CUDA one:
// detail/cuda/reduce/reduce.cuh, with reduce.hpp under nvcc).
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

namespace cunp {

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

/// NumPy's error for an empty reduced range of a reducer without identity, raised even when the
/// output is empty too (max of a (0, 0) array over axis 0).
template <class R> void check_identity(const shape_t& shape, const std::vector<bool>& red) {
  std::int64_t K = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (red[d]) K *= shape[d];
  if (K == 0 && !R::has_identity) {
    if constexpr (std::string_view(R::name).starts_with("arg"))
      throw value_error(std::string("attempt to get ") + R::name + " of an empty sequence");
    else
      throw value_error(std::string("zero-size array to reduction operation ") + R::name +
                        " which has no identity");
  }
}

/// Reduces x over the dimensions `red` into out (of reduced_shape(x, red, keepdims)). Returns
/// false, having written nothing, when an input shares memory with out (the caller then
/// reduces into a temporary).
template <class Backend, class R, class X>
bool reduce_into(const ndarray<typename R::out>& out, const X& x, const std::vector<bool>& red,
                 bool keepdims, const R& r) {
  if (out.size() == 0) return true;
  const bound_reduction<X> b(out, x, red, keepdims);
  for (int k = 1; k < bound_reduction<X>::N; ++k)
    if (b.ctx.bytes[k].overlaps(b.ctx.bytes[0])) return false;
  dispatch<Backend>(out.device(), [&](auto be) {
    if constexpr (std::is_same_v<decltype(be), host_backend>) {
      require_cpu_for(out.device(), "reductions");
      reduce_run(be, b, r);
    } else {
      reduce_run(be, out.device().index(), b, r);
    }
  });
  return true;
}

/// Reduces x over `axis` with reducer r into a new array on x's device.
template <class Backend, class R, class X>
auto reduce(const X& x, const axis_arg& axis, bool keepdims, const R& r) {
  const shape_t& shape = operand_shape(x);
  const auto red = reduced_dims(axis, shape.size());
  check_identity<R>(shape, red);
  ndarray<typename R::out> out(reduced_shape(shape, red, keepdims), x.device());
  reduce_into<Backend>(out, x, red, keepdims, r);  // a new array shares no input's memory
  return out;
}

}  // namespace detail
}  // namespace cunp

// The cpu backend (reduce_run's host overload, found when reduce() is instantiated).
#include "cunp/detail/cpu/reduce/reduce.hpp"
