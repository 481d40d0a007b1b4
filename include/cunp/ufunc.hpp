// cunp/ufunc.hpp: element-wise operations (NumPy's ufuncs and operators), lazy and fused.
//
// Every function here returns an expression; nothing runs until it is materialised (converted
// to ndarray, cunp::eval, an `out` argument, copyto, or a compound assignment), and then the
// whole expression runs as one loop on the cpu or one kernel on the GPU.
#pragma once
#include <complex>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cunp/detail/expr/expr.hpp"
#include "cunp/detail/expr/ufunc_ops.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {
template <class X> struct operand_of { using type = std::remove_cvref_t<X>; };  // arrays, exprs
template <class X>
  requires is_weak_scalar_v<std::remove_cvref_t<X>>
struct operand_of<X> { using type = weak<std::remove_cvref_t<X>>; };
template <class X> using operand_t = typename operand_of<X>::type;

template <class X> operand_t<X> as_operand(X&& x) {
  if constexpr (is_weak_scalar_v<std::remove_cvref_t<X>>) return {x};
  else return std::forward<X>(x);
}
/// Checks of operand values that NumPy makes before it computes, made on the host: no kernel
/// can throw. Only C++ scalars can be checked without reading device memory.
template <class E> void check_values(const E&) {}
template <class A, class S> void check_values(const expr<power_op, A, weak<S>>& e) {
  using L = typename expr<power_op, A, weak<S>>::loop_type;
  if constexpr (is_integer_v<L> && std::is_integral_v<S> && std::is_signed_v<S>)
    if (std::get<1>(e.args()).value < 0)
      throw value_error("Integers to negative integer powers are not allowed.");
}

template <class Op, class... X> auto make_expr(X&&... x) {
  expr<Op, operand_t<X>...> e(Op{}, as_operand(std::forward<X>(x))...);
  check_values(e);
  return e;
}
}  // namespace detail

/// What element-wise functions accept: arrays, expressions and C++ arithmetic or complex scalars.
template <class X> concept operand = array_like<X> || is_weak_scalar_v<std::remove_cvref_t<X>>;

/// numpy.asarray of an expression: materialises it into a new C-ordered array on its device.
template <class Backend = detail::compiled_backend, class Op, class... Args>
[[nodiscard]] auto eval(const detail::expr<Op, Args...>& e) {
  return ndarray<typename detail::expr<Op, Args...>::value_type>(e);
}
/// numpy.asarray of an array: the same handle. By value, as every function here that returns an
/// argument (out=, in-place operators): a reference would dangle when the argument is a
/// temporary (`const auto& r = eval(arange<double>(5));`), and a handle costs a shared_ptr copy.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> eval(const ndarray<T>& a) {
  return a;
}

namespace detail {
/// A bound of clip: a C++ integer beyond the integer dtype C's range on the side it bounds
/// becomes the range's end (it bounds nothing).
template <class C, class X> decltype(auto) clip_bound(X&& x, bool lower) {
  using S = std::remove_cvref_t<X>;
  if constexpr (is_integer_v<C> && is_integer_v<S>) {
    constexpr auto lo = std::numeric_limits<C>::min();
    constexpr auto hi = std::numeric_limits<C>::max();
    if (lower && std::cmp_less(x, lo)) return static_cast<S>(lo);
    if (!lower && std::cmp_greater(x, hi)) return static_cast<S>(hi);
    return static_cast<S>(x);
  } else {
    return std::forward<X>(x);
  }
}

/// A view of the real (part 0) or imaginary (part 1) parts of a complex array.
template <class R> ndarray<R> part_view(const ndarray<std::complex<R>>& a, int part) {
  strides_t st = a.strides();
  for (auto& s : st) s *= 2;
  return ndarray<R>(a.storage(), a.offset() * 2 + part, a.shape(), std::move(st));
}

/// Writes e into `out` (a view is fine) with NumPy's out= rules: e broadcast to out's shape,
/// same device, values cast by 'same_kind'.
template <class Backend, class T, class E> void assign(const ndarray<T>& out, const E& e) {
  using V = typename operand_traits<E>::value_type;
  if constexpr (!can_cast(dtype_of_v<V>, dtype_of_v<T>, casting::same_kind)) {
    throw dtype_error("Cannot cast ufunc '" + std::string(E::op_name()) + "' output from " +
                      dtype_repr(dtype_of_v<V>) + " to " + dtype_repr(dtype_of_v<T>) +
                      " with casting rule 'same_kind'");
  } else {
    if (broadcast_shapes(out.shape(), e.shape()) != out.shape())
      throw shape_error("non-broadcastable output operand with shape " + shape_str(out.shape()) +
                        " doesn't match the broadcast shape " +
                        shape_str(broadcast_shapes(out.shape(), e.shape())));
    check_writeable(out);
    dispatch<Backend>(out.device(), [&](auto be) { evaluate(be, out, e); });
  }
}
}  // namespace detail

// The table of ufuncs: name(args...) returns an expression; name(args..., out) writes into out.
#define CUNP_UFUNC1(NAME, OP)                                                                 \
  template <operand A>                                                                         \
    requires array_like<A>                                                                     \
  [[nodiscard]] auto NAME(A&& a) {                                                             \
    return detail::make_expr<detail::OP>(std::forward<A>(a));                                  \
  }                                                                                            \
  template <class Backend = detail::compiled_backend, operand A, element_type T>               \
    requires array_like<A>                                                                     \
  ndarray<T> NAME(A&& a, const ndarray<T>& out) {                                              \
    detail::assign<Backend>(out, NAME(std::forward<A>(a)));                                    \
    return out;                                                                                \
  }
#define CUNP_UFUNC2(NAME, OP)                                                                 \
  template <operand A, operand B>                                                              \
    requires(array_like<A> || array_like<B>)                                                   \
  [[nodiscard]] auto NAME(A&& a, B&& b) {                                                      \
    return detail::make_expr<detail::OP>(std::forward<A>(a), std::forward<B>(b));              \
  }                                                                                            \
  template <class Backend = detail::compiled_backend, operand A, operand B, element_type T>    \
    requires(array_like<A> || array_like<B>)                                                   \
  ndarray<T> NAME(A&& a, B&& b, const ndarray<T>& out) {                                       \
    detail::assign<Backend>(out, NAME(std::forward<A>(a), std::forward<B>(b)));                \
    return out;                                                                                \
  }

CUNP_UFUNC2(add, add_op)
CUNP_UFUNC2(subtract, subtract_op)
CUNP_UFUNC2(multiply, multiply_op)
CUNP_UFUNC2(divide, divide_op)
CUNP_UFUNC2(true_divide, divide_op)
CUNP_UFUNC2(floor_divide, floor_divide_op)
CUNP_UFUNC2(remainder, remainder_op)
CUNP_UFUNC2(mod, remainder_op)
CUNP_UFUNC2(fmod, fmod_op)
CUNP_UFUNC2(power, power_op)
CUNP_UFUNC2(maximum, maximum_op)
CUNP_UFUNC2(minimum, minimum_op)
CUNP_UFUNC2(fmax, fmax_op)
CUNP_UFUNC2(fmin, fmin_op)
CUNP_UFUNC2(arctan2, arctan2_op)
CUNP_UFUNC2(hypot, hypot_op)
CUNP_UFUNC2(copysign, copysign_op)
CUNP_UFUNC2(equal, equal_op)
CUNP_UFUNC2(not_equal, not_equal_op)
CUNP_UFUNC2(less, less_op)
CUNP_UFUNC2(less_equal, less_equal_op)
CUNP_UFUNC2(greater, greater_op)
CUNP_UFUNC2(greater_equal, greater_equal_op)
CUNP_UFUNC2(logical_and, logical_and_op)
CUNP_UFUNC2(logical_or, logical_or_op)
CUNP_UFUNC2(logical_xor, logical_xor_op)
CUNP_UFUNC2(bitwise_and, bitwise_and_op)
CUNP_UFUNC2(bitwise_or, bitwise_or_op)
CUNP_UFUNC2(bitwise_xor, bitwise_xor_op)
CUNP_UFUNC2(left_shift, left_shift_op)
CUNP_UFUNC2(right_shift, right_shift_op)
CUNP_UFUNC1(negative, negative_op)
CUNP_UFUNC1(positive, positive_op)
CUNP_UFUNC1(absolute, absolute_op)
CUNP_UFUNC1(abs, absolute_op)
CUNP_UFUNC1(fabs, fabs_op)
CUNP_UFUNC1(sign, sign_op)
CUNP_UFUNC1(square, square_op)
CUNP_UFUNC1(reciprocal, reciprocal_op)
CUNP_UFUNC1(sqrt, sqrt_op)
CUNP_UFUNC1(cbrt, cbrt_op)
CUNP_UFUNC1(exp, exp_op)
CUNP_UFUNC1(exp2, exp2_op)
CUNP_UFUNC1(expm1, expm1_op)
CUNP_UFUNC1(log, log_op)
CUNP_UFUNC1(log2, log2_op)
CUNP_UFUNC1(log10, log10_op)
CUNP_UFUNC1(log1p, log1p_op)
CUNP_UFUNC1(sin, sin_op)
CUNP_UFUNC1(cos, cos_op)
CUNP_UFUNC1(tan, tan_op)
CUNP_UFUNC1(arcsin, arcsin_op)
CUNP_UFUNC1(arccos, arccos_op)
CUNP_UFUNC1(arctan, arctan_op)
CUNP_UFUNC1(sinh, sinh_op)
CUNP_UFUNC1(cosh, cosh_op)
CUNP_UFUNC1(tanh, tanh_op)
CUNP_UFUNC1(arcsinh, arcsinh_op)
CUNP_UFUNC1(arccosh, arccosh_op)
CUNP_UFUNC1(arctanh, arctanh_op)
CUNP_UFUNC1(deg2rad, deg2rad_op)
CUNP_UFUNC1(rad2deg, rad2deg_op)
CUNP_UFUNC1(floor, floor_op)
CUNP_UFUNC1(ceil, ceil_op)
CUNP_UFUNC1(trunc, trunc_op)
CUNP_UFUNC1(rint, rint_op)
CUNP_UFUNC1(isnan, isnan_op)
CUNP_UFUNC1(isinf, isinf_op)
CUNP_UFUNC1(isfinite, isfinite_op)
CUNP_UFUNC1(signbit, signbit_op)
CUNP_UFUNC1(logical_not, logical_not_op)
CUNP_UFUNC1(invert, invert_op)
CUNP_UFUNC1(bitwise_not, invert_op)
CUNP_UFUNC1(conjugate, conjugate_op)
CUNP_UFUNC1(conj, conjugate_op)
#undef CUNP_UFUNC1
#undef CUNP_UFUNC2

/// numpy.where(condition, x, y).
template <operand C, operand X, operand Y>
  requires(array_like<C> || array_like<X> || array_like<Y>)
[[nodiscard]] auto where(C&& c, X&& x, Y&& y) {
  return detail::make_expr<detail::where_op>(std::forward<C>(c), std::forward<X>(x), std::forward<Y>(y));
}

/// numpy.clip(a, a_min, a_max): one fused node. A C++ integer bound beyond an integer dtype's
/// range is no bound (NumPy 2: clip(uint8_array, -1, 300) leaves the values alone); one that no
/// value of the dtype could reach still throws.
template <operand A, operand Lo, operand Hi>
  requires(array_like<A> || array_like<Lo> || array_like<Hi>)
[[nodiscard]] auto clip(A&& a, Lo&& a_min, Hi&& a_max) {
  using C = type_of_t<detail::common_dtype<detail::operand_t<A>, detail::operand_t<Lo>,
                                           detail::operand_t<Hi>>()>;
  return detail::make_expr<detail::clip_op>(std::forward<A>(a),
                                            detail::clip_bound<C>(std::forward<Lo>(a_min), true),
                                            detail::clip_bound<C>(std::forward<Hi>(a_max), false));
}
/// numpy.clip(a, None, a_max): minimum(a, a_max).
template <operand A, operand Hi>
  requires(array_like<A> || array_like<Hi>)
[[nodiscard]] auto clip(A&& a, none_t, Hi&& a_max) {
  return minimum(std::forward<A>(a), std::forward<Hi>(a_max));
}
/// numpy.clip(a, a_min, None): maximum(a, a_min).
template <operand A, operand Lo>
  requires(array_like<A> || array_like<Lo>)
[[nodiscard]] auto clip(A&& a, Lo&& a_min, none_t) {
  return maximum(std::forward<A>(a), std::forward<Lo>(a_min));
}
template <class Backend = detail::compiled_backend, operand A, class Lo, class Hi, element_type T>
  requires array_like<A>
ndarray<T> clip(A&& a, Lo&& a_min, Hi&& a_max, const ndarray<T>& out) {
  detail::assign<Backend>(out, clip(std::forward<A>(a), std::forward<Lo>(a_min), std::forward<Hi>(a_max)));
  return out;
}

/// numpy.round(a, decimals): half to even, by NumPy's algorithm (scale by 10**decimals, rint,
/// scale back), so round(2.675, 2) is 2.68 as in NumPy (Python's round gives 2.67). Integers
/// keep their dtype; bool gives float16 for decimals == 0 and throws otherwise, as NumPy does.
template <operand A>
  requires array_like<A>
[[nodiscard]] auto round(A&& a, int decimals = 0) {
  using X = detail::operand_t<A>;
  using C = typename detail::operand_traits<X>::value_type;
  using L = std::conditional_t<std::is_same_v<C, bool>, float16, C>;
  if (std::is_same_v<C, bool> && decimals != 0)
    throw dtype_error(std::string("Cannot cast ufunc '") + (decimals > 0 ? "multiply" : "divide") +
                      "' output from dtype('float64') to dtype('bool') with casting rule "
                      "'same_kind'");
  return detail::expr<detail::round_op<L>, X>(detail::round_op<L>(decimals),
                                              detail::as_operand(std::forward<A>(a)));
}
template <class Backend = detail::compiled_backend, operand A, element_type T>
  requires array_like<A>
ndarray<T> round(A&& a, int decimals, const ndarray<T>& out) {
  detail::assign<Backend>(out, round(std::forward<A>(a), decimals));
  return out;
}

/// numpy.real: the real parts of a complex array as a view (writable, as NumPy's); a real array
/// itself.
template <element_type T> [[nodiscard]] auto real(const ndarray<T>& a) {
  if constexpr (is_complex_v<T>) return detail::part_view(a, 0);
  else return a;
}
/// numpy.real of an expression: lazy, fused.
template <class Op, class... Args> [[nodiscard]] auto real(const detail::expr<Op, Args...>& e) {
  return detail::make_expr<detail::real_op>(e);
}
/// numpy.imag: the imaginary parts of a complex array as a view; zeros for a real array (NumPy
/// returns a read-only array of zeros: here a lazy expression).
template <element_type T> [[nodiscard]] auto imag(const ndarray<T>& a) {
  if constexpr (is_complex_v<T>) return detail::part_view(a, 1);
  else return detail::make_expr<detail::imag_op>(a);
}
template <class Op, class... Args> [[nodiscard]] auto imag(const detail::expr<Op, Args...>& e) {
  return detail::make_expr<detail::imag_op>(e);
}

/// numpy.angle(z, deg): arctan2(z.imag, z.real), in degrees if `deg`.
template <operand A>
  requires array_like<A>
[[nodiscard]] auto angle(A&& z, bool deg = false) {
  using X = detail::operand_t<A>;
  using L = detail::angle_loop_t<typename detail::operand_traits<X>::value_type>;
  return detail::expr<detail::angle_op<L>, X>(detail::angle_op<L>{deg},
                                              detail::as_operand(std::forward<A>(z)));
}

/// numpy.copyto(dst, expression): evaluates the expression straight into dst (one pass, no
/// temporary), with copyto's broadcasting and casting rules.
template <class Backend = detail::compiled_backend, element_type D, class Op, class... Args>
void copyto(const ndarray<D>& dst, const detail::expr<Op, Args...>& e, casting rule = casting::same_kind) {
  using V = typename detail::expr<Op, Args...>::value_type;
  detail::check_same_device(dst.device(), e.device(), "copyto");
  detail::check_copy_cast(dtype_of_v<V>, dtype_of_v<D>, rule);
  detail::check_writeable(dst);
  if (broadcast_shapes(dst.shape(), e.shape()) != dst.shape())
    throw shape_error("could not broadcast input array from shape " +
                      detail::shape_str_compact(e.shape()) + " into shape " +
                      detail::shape_str_compact(dst.shape()));
  detail::dispatch<Backend>(dst.device(), [&](auto be) { evaluate(be, dst, astype<D>(e)); });
}

/// x.astype(T) inside an expression: fuses with the rest (ndarray::astype materialises).
template <element_type T, operand A>
  requires array_like<A>
[[nodiscard]] auto astype(A&& a) {
  return detail::make_expr<detail::cast_op<T>>(std::forward<A>(a));
}

/// cupy.ElementwiseKernel / numba.vectorize for C++: f applied element by element to the operands
/// (arrays, expressions, C++ scalars), broadcast and promoted to their common dtype as a ufunc's
/// (float16/bfloat16 reach f as float); the result's dtype is f's return type. Lazy and fused like
/// any ufunc, with no run-time compilation. f must run on host and device: a functor with CUNP_HD
/// members, or a `[] __host__ __device__ (float x, float y) { ... }` lambda in an nvcc TU.
template <class F, operand... X>
  requires(sizeof...(X) > 0 && (array_like<X> || ...))
[[nodiscard]] auto elementwise(F f, X&&... x) {
#if defined(__NVCC__)
  static_assert(!__nv_is_extended_device_lambda_closure_type(F),
                "cunp::elementwise needs a __host__ __device__ lambda: the cpu backend calls it too, "
                "and host code cannot see a __device__ lambda's return type");
#endif
  using op = detail::user_op<F, int(sizeof...(X))>;
  return detail::expr<op, detail::operand_t<X>...>(op{{}, f},
                                                  detail::as_operand(std::forward<X>(x))...);
}

// Operators: the same ufuncs.
#define CUNP_OPERATOR2(SYM, NAME)                                                 \
  template <operand A, operand B>                                                 \
    requires(array_like<A> || array_like<B>)                                      \
  [[nodiscard]] auto operator SYM(A&& a, B&& b) {                                 \
    return NAME(std::forward<A>(a), std::forward<B>(b));                          \
  }
CUNP_OPERATOR2(+, add)
CUNP_OPERATOR2(-, subtract)
CUNP_OPERATOR2(*, multiply)
CUNP_OPERATOR2(/, divide)
CUNP_OPERATOR2(==, equal)
CUNP_OPERATOR2(!=, not_equal)
CUNP_OPERATOR2(<, less)
CUNP_OPERATOR2(<=, less_equal)
CUNP_OPERATOR2(>, greater)
CUNP_OPERATOR2(>=, greater_equal)
CUNP_OPERATOR2(%, remainder)
CUNP_OPERATOR2(&, bitwise_and)
CUNP_OPERATOR2(|, bitwise_or)
CUNP_OPERATOR2(^, bitwise_xor)
CUNP_OPERATOR2(<<, left_shift)
CUNP_OPERATOR2(>>, right_shift)
CUNP_OPERATOR2(&&, logical_and)
CUNP_OPERATOR2(||, logical_or)
#undef CUNP_OPERATOR2
#define CUNP_OPERATOR1(SYM, NAME)                                                 \
  template <operand A>                                                            \
    requires array_like<A>                                                        \
  [[nodiscard]] auto operator SYM(A&& a) {                                        \
    return NAME(std::forward<A>(a));                                              \
  }
CUNP_OPERATOR1(-, negative)
CUNP_OPERATOR1(+, positive)
CUNP_OPERATOR1(~, invert)
CUNP_OPERATOR1(!, logical_not)
#undef CUNP_OPERATOR1

// In-place operators write into the left operand (NumPy's a += b: out=a, same_kind casting).
#define CUNP_INPLACE(SYM, NAME)                                                   \
  template <element_type T, operand B, class Backend = detail::compiled_backend>  \
  ndarray<T> operator SYM##=(const ndarray<T>& a, B&& b) {                        \
    return NAME<Backend>(a, std::forward<B>(b), a);                               \
  }
CUNP_INPLACE(+, add)
CUNP_INPLACE(-, subtract)
CUNP_INPLACE(*, multiply)
CUNP_INPLACE(/, divide)
CUNP_INPLACE(%, remainder)
CUNP_INPLACE(&, bitwise_and)
CUNP_INPLACE(|, bitwise_or)
CUNP_INPLACE(^, bitwise_xor)
CUNP_INPLACE(<<, left_shift)
CUNP_INPLACE(>>, right_shift)
#undef CUNP_INPLACE

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/expr/elementwise.cuh"
#endif
