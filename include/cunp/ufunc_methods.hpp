// cunp/ufunc_methods.hpp: the reduce, accumulate and reduceat methods of the ufunc objects
// (cunp::ufunc::add.reduce(a, axis), ufunc.hpp declares them), for the associative binary ufuncs.
//
// reduce runs on the reduction engine (reduce.hpp: fused with an expression input, NumPy's
// keywords), accumulate on the scans' (scan.hpp), reduceat on its own loop (the cpu's:
// detail/cpu/reduce/reduceat.hpp; the GPU's: detail/cuda/reduce/reduceat.cuh).
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/reduce/reduceat.hpp"
#include "cunp/reduce.hpp"
#include "cunp/scan.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

namespace detail {

/// How an associative ufunc reduces: NumPy's result dtype on input V and the reducer with
/// result dtype D. Other ufuncs have no reduce method here (their order matters: subtract).
template <class Op> struct ufunc_reduction {
  static constexpr bool associative = false;
};
#define CUNP_ASSOCIATIVE(OP, RESULT, ...)                        \
  template <> struct ufunc_reduction<OP> {                       \
    static constexpr bool associative = true;                    \
    template <class V> using result = RESULT;                    \
    template <class V, class D> using reducer = __VA_ARGS__;     \
  };
CUNP_ASSOCIATIVE(add_op, sum_result_t<V>, sum_reducer<V, false, false, D>)
CUNP_ASSOCIATIVE(multiply_op, sum_result_t<V>, prod_reducer<V, false, D>)
CUNP_ASSOCIATIVE(maximum_op, V, extreme_reducer<V, true, false>)
CUNP_ASSOCIATIVE(minimum_op, V, extreme_reducer<V, false, false>)
CUNP_ASSOCIATIVE(fmax_op, V, extreme_reducer<V, true, true>)
CUNP_ASSOCIATIVE(fmin_op, V, extreme_reducer<V, false, true>)
CUNP_ASSOCIATIVE(logical_and_op, bool, logical_reducer<V, true>)
CUNP_ASSOCIATIVE(logical_or_op, bool, logical_reducer<V, false>)
CUNP_ASSOCIATIVE(logical_xor_op, bool, ufunc_reducer<V, logical_xor_op, false>)
CUNP_ASSOCIATIVE(bitwise_and_op, V, ufunc_reducer<V, bitwise_and_op, true>)
CUNP_ASSOCIATIVE(bitwise_or_op, V, ufunc_reducer<V, bitwise_or_op, false>)
CUNP_ASSOCIATIVE(bitwise_xor_op, V, ufunc_reducer<V, bitwise_xor_op, false>)
#undef CUNP_ASSOCIATIVE

/// The input a method computes on: x, or x cast to dtype= (NumPy casts the operand to the loop's
/// dtype, which dtype= names).
template <class Dtype, class X> auto method_input(const X& x) {
  if constexpr (std::is_void_v<Dtype>) return x;
  else return astype<Dtype>(x);
}

template <class Op, int Arity, class Dtype, class V> constexpr void check_method() {
  static_assert(Arity == 2, "reduce, accumulate and reduceat only supported for binary functions");
  static_assert(ufunc_reduction<Op>::associative,
                "cunp has reduce, accumulate and reduceat for the associative ufuncs only (add, "
                "multiply, maximum, minimum, fmax, fmin, logical_and/or/xor, bitwise_and/or/xor)");
  static_assert(valid_dtype_arg_v<Dtype>, "dtype= must be a cunp dtype");
  static_assert(Op::template accepts<V>, "this ufunc does not support this dtype");
}

/// NumPy reduces a 0-d array over axis 0 as over no axis.
template <class X> axis_arg method_axis(const X& x, const axis_arg& axis) {
  if (operand_shape(x).empty() && !axis.all() && axis.axes().size() == 1 &&
      (axis.axes()[0] == 0 || axis.axes()[0] == -1))
    return {};
  return axis;
}

/// reduceat of the C-ordered x along axis: NumPy's index checks, then one backend call.
template <class Backend, class R, class T>
ndarray<typename R::out> reduceat(const ndarray<T>& x, const std::vector<index_t>& indices,
                                  index_t axis, const R& r) {
  if (x.ndim() == 0) throw dtype_error("cannot reduceat on a scalar");
  const int ax = normalize_axis(axis, x.ndim());
  reduceat_geometry g;
  g.n = x.shape()[ax];
  g.m = static_cast<index_t>(indices.size());
  for (int d = 0; d < ax; ++d) g.outer *= x.shape()[d];
  for (int d = ax + 1; d < x.ndim(); ++d) g.inner *= x.shape()[d];
  for (const index_t i : indices)
    if (i < 0 || i >= g.n)
      throw index_error("index " + std::to_string(i) + " out-of-bounds in " + R::name +
                        ".reduceat [0, " + std::to_string(g.n) + ")");
  shape_t shape = x.shape();
  shape[ax] = g.m;
  ndarray<typename R::out> out(shape, x.device());
  if (out.size() == 0) return out;
  const ndarray<T> in = x.is_contiguous() ? x : x.copy();
  const ndarray<index_t> idx = asarray(indices, {g.m}, x.device());
  dispatch<Backend>(out.device(), [&](auto be) { reduceat_run(be, out, in, idx, g, r); });
  return out;
}

}  // namespace detail

template <class Op, int Arity>
template <class Dtype, class Backend, array_like X>
auto ufunc_object<Op, Arity>::reduce(const X& x, const axis_arg& axis, bool keepdims) const {
  return reduce<Dtype, Backend>(x, axis, reduce_options{.keepdims = keepdims});
}

template <class Op, int Arity>
template <class Dtype, class Backend, array_like X>
auto ufunc_object<Op, Arity>::reduce(const X& x, const axis_arg& axis,
                                     const reduce_options& o) const {
  const auto in = detail::method_input<Dtype>(x);
  using V = detail::input_t<decltype(in)>;
  detail::check_method<Op, Arity, Dtype, V>();
  using M = detail::ufunc_reduction<Op>;
  using D = detail::dtype_or_t<Dtype, typename M::template result<V>>;
  return detail::reduce_kw<Backend, V>(in, detail::method_axis(x, axis), o.keepdims, o.where,
                                       o.initial, typename M::template reducer<V, D>{});
}

template <class Op, int Arity>
template <class Dtype, class Backend, array_like X, element_type T>
ndarray<T> ufunc_object<Op, Arity>::reduce(const X& x, const axis_arg& axis,
                                           const reduce_options& o, const ndarray<T>& out) const {
  const auto in = detail::method_input<Dtype>(x);
  using V = detail::input_t<decltype(in)>;
  detail::check_method<Op, Arity, Dtype, V>();
  using M = detail::ufunc_reduction<Op>;
  using D = detail::dtype_or_t<Dtype, typename M::template result<V>>;
  detail::reduce_kw_out<Backend, V>(out, in, detail::method_axis(x, axis), o.keepdims, o.where,
                                    o.initial, typename M::template reducer<V, D>{});
  return out;
}

template <class Op, int Arity>
template <class Dtype, class Backend, array_like X>
auto ufunc_object<Op, Arity>::accumulate(const X& x, index_t axis) const {
  const auto in = detail::method_input<Dtype>(x);
  using V = detail::input_t<decltype(in)>;
  detail::check_method<Op, Arity, Dtype, V>();
  using R = detail::dtype_or_t<Dtype, typename detail::ufunc_reduction<Op>::template result<V>>;
  if (detail::operand_shape(x).empty()) throw dtype_error("cannot accumulate on a scalar");
  return detail::scan<R, Op, false, Backend>(in, axis);
}

template <class Op, int Arity>
template <class Dtype, class Backend, array_like X>
auto ufunc_object<Op, Arity>::reduceat(const X& x, const std::vector<index_t>& indices,
                                       index_t axis) const {
  const auto in = detail::method_input<Dtype>(x);
  using V = detail::input_t<decltype(in)>;
  detail::check_method<Op, Arity, Dtype, V>();
  using M = detail::ufunc_reduction<Op>;
  using D = detail::dtype_or_t<Dtype, typename M::template result<V>>;
  return detail::reduceat<Backend>(eval<Backend>(in), indices, axis,
                                   typename M::template reducer<V, D>{});
}

}  // namespace cunp

// The CUDA backend of reduceat, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/reduce/reduceat.cuh"
#endif
