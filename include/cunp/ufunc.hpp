// cunp/ufunc.hpp: element-wise operations (NumPy's ufuncs and operators), lazy and fused.
//
// Every function here returns an expression; nothing runs until it is materialised (converted
// to ndarray, cunp::eval, an `out` argument, copyto, or a compound assignment), and then the
// whole expression runs as one loop on the cpu or one kernel on the GPU.
#pragma once
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <variant>

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

/// NumPy converts a Python int exponent of ldexp to int32, the exponent of its first loops.
template <class A, class S> void check_values(const expr<ldexp_op, A, weak<S>>& e) {
  if constexpr (std::is_integral_v<S> && !std::is_same_v<S, bool>)
    if (!std::in_range<std::int32_t>(std::get<1>(e.args()).value))
      throw value_error("Python integer " + std::to_string(std::get<1>(e.args()).value) +
                        " out of bounds for int32");
}

template <class Op, class... X> auto make_expr(X&&... x) {
  expr<Op, operand_t<X>...> e(Op{}, as_operand(std::forward<X>(x))...);
  check_values(e);
  return e;
}
}  // namespace detail

/// What element-wise functions accept: arrays, expressions and C++ arithmetic or complex scalars.
template <class X> concept operand = array_like<X> || is_weak_scalar_v<std::remove_cvref_t<X>>;

/// numpy.asarray of an expression: materialises it into a new C-ordered array on its device,
/// through Backend (the one place every function turns an expression argument into an array).
template <class Backend = detail::compiled_backend, class Op, class... Args>
[[nodiscard]] auto eval(const detail::expr<Op, Args...>& e) {
  ndarray<typename detail::expr<Op, Args...>::value_type> x(e.shape(), e.device());
  detail::dispatch<Backend>(x.device(), [&](auto be) { evaluate(be, x, e); });
  return x;
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
/// same device, values cast by 'same_kind'. With a mask (NumPy's where=, a bool array or
/// expression broadcast to out's shape) only out's elements where it is true are written; the
/// others keep their values (one pass: where(mask, e, out) into out).
template <class Backend, class T, class E, class... Mask>
void assign(const ndarray<T>& out, const E& e, const Mask&... where) {
  static_assert(sizeof...(Mask) <= 1);
  static_assert((std::is_same_v<typename operand_traits<Mask>::value_type, bool> && ...),
                "where= takes a bool array or expression");
  using V = typename operand_traits<E>::value_type;
  if constexpr (!can_cast(dtype_of_v<V>, dtype_of_v<T>, casting::same_kind)) {
    throw dtype_error("Cannot cast ufunc '" + std::string(E::op_name()) + "' output from " +
                      dtype_repr(dtype_of_v<V>) + " to " + dtype_repr(dtype_of_v<T>) +
                      " with casting rule 'same_kind'");
  } else {
    shape_t shape = broadcast_shapes(out.shape(), e.shape());
    ((shape = broadcast_shapes(shape, where.shape())), ...);
    if (shape != out.shape())
      throw shape_error("non-broadcastable output operand with shape " + shape_str(out.shape()) +
                        " doesn't match the broadcast shape " + shape_str(shape));
    check_writeable(out);
    dispatch<Backend>(out.device(), [&](auto be) {
      if constexpr (sizeof...(Mask) == 0) evaluate(be, out, e);
      else evaluate(be, out, make_expr<where_op>(where..., e, out));
    });
  }
}
}  // namespace detail

struct reduce_options;

/// A ufunc as NumPy's object, cunp::ufunc::<name> for each function of the table below. Called,
/// it is the function (`cunp::ufunc::add(a, b)` is `cunp::add(a, b)`); its methods are NumPy's:
/// outer (every binary ufunc), in ufunc_methods.hpp reduce, accumulate and reduceat (the
/// associative binary ufuncs: add, multiply, maximum, minimum, fmax, fmin, logical_and,
/// logical_or, logical_xor, bitwise_and, bitwise_or, bitwise_xor), and in indexing.hpp at (add,
/// subtract, multiply, maximum, minimum). Their axis is 0 by default, as NumPy's; `{}` is
/// axis=None.
template <class Op, int Arity> struct ufunc_object {
  static constexpr const char* name = Op::name;

  template <operand... X>
    requires(sizeof...(X) == Arity && (array_like<X> || ...))
  [[nodiscard]] auto operator()(X&&... x) const {
    return detail::make_expr<Op>(std::forward<X>(x)...);
  }

  /// ufunc.outer(a, b): op(a[i..., None...], b[j...]) with a's axes first; lazy, fused with
  /// what consumes it (an expression operand is materialised once).
  template <array_like A, array_like B> [[nodiscard]] auto outer(const A& a, const B& b) const {
    static_assert(Arity == 2, "outer product only supported for binary functions");
    const auto x = eval(a);
    const auto y = eval(b);
    shape_t shape = x.shape();
    strides_t strides = x.strides();
    shape.resize(shape.size() + y.shape().size(), 1);
    strides.resize(shape.size(), 0);
    using T = typename decltype(x)::value_type;
    return detail::make_expr<Op>(ndarray<T>(x.storage(), x.offset(), shape, strides), y);
  }

  /// ufunc.reduce(a, axis = 0, dtype, out, keepdims, initial, where), as cunp::sum takes them.
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>
  [[nodiscard]] auto reduce(const X& x, const axis_arg& axis = 0, bool keepdims = false) const;
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>
  [[nodiscard]] auto reduce(const X& x, const axis_arg& axis, const reduce_options& o) const;
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X,
            element_type T>
  ndarray<T> reduce(const X& x, const axis_arg& axis, const reduce_options& o,
                    const ndarray<T>& out) const;
  /// ufunc.accumulate(a, axis = 0, dtype): the running results along one axis.
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>
  [[nodiscard]] auto accumulate(const X& x, index_t axis = 0) const;
  /// ufunc.reduceat(a, indices, axis = 0, dtype): reductions of the slices [indices[i],
  /// indices[i + 1]) along axis (the last to the end), or a[indices[i]] where the next index is
  /// not larger.
  template <class Dtype = void, class Backend = detail::compiled_backend, array_like X>
  [[nodiscard]] auto reduceat(const X& x, const std::vector<index_t>& indices,
                              index_t axis = 0) const;
  /// ufunc.at(a, indices, v): a[indices] = op(a[indices], v) unbuffered, a repeated index
  /// applied once per occurrence (add, subtract, multiply, maximum, minimum: indexing.hpp's
  /// add_at family, which defines it).
  template <class Backend = detail::compiled_backend, element_type T, element_type I, class V>
  void at(const ndarray<T>& a, const ndarray<I>& indices, const V& v) const;
};

// The table of ufuncs: name(args...) returns an expression; name(args..., out) writes into out,
// name(args..., out, where) only where the bool mask `where` is true (NumPy's where=);
// cunp::ufunc::name is its object.
#define CUNP_UFUNC1(NAME, OP)                                                                 \
  namespace ufunc {                                                                            \
  inline constexpr ufunc_object<detail::OP, 1> NAME{};                                         \
  }                                                                                            \
  template <operand A>                                                                         \
    requires array_like<A>                                                                     \
  [[nodiscard]] auto NAME(A&& a) {                                                             \
    return detail::make_expr<detail::OP>(std::forward<A>(a));                                  \
  }                                                                                            \
  template <class Backend = detail::compiled_backend, operand A, element_type T,              \
            array_like... Where>                                                               \
    requires(array_like<A> && sizeof...(Where) <= 1)                                           \
  ndarray<T> NAME(A&& a, const ndarray<T>& out, const Where&... where) {                       \
    detail::assign<Backend>(out, NAME(std::forward<A>(a)), where...);                          \
    return out;                                                                                \
  }
#define CUNP_UFUNC2(NAME, OP)                                                                 \
  namespace ufunc {                                                                            \
  inline constexpr ufunc_object<detail::OP, 2> NAME{};                                         \
  }                                                                                            \
  template <operand A, operand B>                                                              \
    requires(array_like<A> || array_like<B>)                                                   \
  [[nodiscard]] auto NAME(A&& a, B&& b) {                                                      \
    return detail::make_expr<detail::OP>(std::forward<A>(a), std::forward<B>(b));              \
  }                                                                                            \
  template <class Backend = detail::compiled_backend, operand A, operand B, element_type T,   \
            array_like... Where>                                                               \
    requires((array_like<A> || array_like<B>) && sizeof...(Where) <= 1)                        \
  ndarray<T> NAME(A&& a, B&& b, const ndarray<T>& out, const Where&... where) {                \
    detail::assign<Backend>(out, NAME(std::forward<A>(a), std::forward<B>(b)), where...);      \
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
CUNP_UFUNC2(logaddexp, logaddexp_op)
CUNP_UFUNC2(logaddexp2, logaddexp2_op)
CUNP_UFUNC2(heaviside, heaviside_op)
CUNP_UFUNC2(nextafter, nextafter_op)
CUNP_UFUNC2(float_power, float_power_op)
CUNP_UFUNC2(gcd, gcd_op)
CUNP_UFUNC2(lcm, lcm_op)
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
CUNP_UFUNC2(bitwise_left_shift, left_shift_op)
CUNP_UFUNC2(bitwise_right_shift, right_shift_op)
CUNP_UFUNC2(pow, power_op)
CUNP_UFUNC2(atan2, arctan2_op)
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
CUNP_UFUNC1(asin, arcsin_op)
CUNP_UFUNC1(acos, arccos_op)
CUNP_UFUNC1(atan, arctan_op)
CUNP_UFUNC1(asinh, arcsinh_op)
CUNP_UFUNC1(acosh, arccosh_op)
CUNP_UFUNC1(atanh, arctanh_op)
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
CUNP_UFUNC1(spacing, spacing_op)
CUNP_UFUNC1(logical_not, logical_not_op)
CUNP_UFUNC1(invert, invert_op)
CUNP_UFUNC1(bitwise_not, invert_op)
CUNP_UFUNC1(bitwise_invert, invert_op)
CUNP_UFUNC1(bitwise_count, bitwise_count_op)
CUNP_UFUNC1(conjugate, conjugate_op)
CUNP_UFUNC1(conj, conjugate_op)
// numpy.sinc and numpy.i0 are Python functions: here lazy element-wise ones (i0 of complex
// does not compile: NumPy raises TypeError).
CUNP_UFUNC1(sinc, sinc_op)
CUNP_UFUNC1(i0, i0_op)
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
/// numpy.clip(a, None, None) (NumPy 2.1+): positive(a), the values unchanged (bool: NumPy's
/// error, positive has no bool loop).
template <operand A>
  requires array_like<A>
[[nodiscard]] auto clip(A&& a, none_t, none_t) {
  return positive(std::forward<A>(a));
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

namespace detail {
/// ldexp's exponent: an integer that casts safely to int64 (bool too), array or C++ scalar.
template <class B>
concept ldexp_exponent = std::is_integral_v<typename operand_traits<operand_t<B>>::value_type> &&
                         safe_cast(dtype_of_v<typename operand_traits<operand_t<B>>::value_type>,
                                   dtype::int64);
}  // namespace detail

/// numpy.ldexp(x1, x2): x1 * 2**x2, in the first float type x1 casts to safely (integers: as
/// NumPy's loops). x2 must be integer (a float exponent does not compile, NumPy's TypeError);
/// a C++ integer must fit int32, as NumPy converts a Python int. A C++ integer x1 is counted as
/// int64 (float64 loop); NumPy 2 picks float16 there.
template <operand A, operand B>
  requires(array_like<A> || array_like<B>) && detail::ldexp_exponent<B>
[[nodiscard]] auto ldexp(A&& x1, B&& x2) {
  return detail::make_expr<detail::ldexp_op>(std::forward<A>(x1), std::forward<B>(x2));
}
template <class Backend = detail::compiled_backend, operand A, operand B, element_type T>
  requires(array_like<A> || array_like<B>) && detail::ldexp_exponent<B>
ndarray<T> ldexp(A&& x1, B&& x2, const ndarray<T>& out) {
  detail::assign<Backend>(out, ldexp(std::forward<A>(x1), std::forward<B>(x2)));
  return out;
}

// numpy.isposinf, numpy.isneginf: bool and integers are never infinite; complex input does not
// compile, as NumPy 2 raises TypeError for it.
#define CUNP_SIGNED_INF(NAME)                                                                  \
  template <operand A>                                                                         \
    requires array_like<A>                                                                     \
  [[nodiscard]] auto NAME(A&& x) {                                                             \
    using V = typename detail::operand_traits<detail::operand_t<A>>::value_type;               \
    static_assert(!is_complex_v<V>, #NAME ": This operation is not supported for complex "     \
                                    "values because it would be ambiguous.");                  \
    return detail::make_expr<detail::NAME##_op>(std::forward<A>(x));                           \
  }                                                                                            \
  template <class Backend = detail::compiled_backend, operand A, element_type T>               \
    requires array_like<A>                                                                     \
  ndarray<T> NAME(A&& x, const ndarray<T>& out) {                                              \
    detail::assign<Backend>(out, NAME(std::forward<A>(x)));                                    \
    return out;                                                                                \
  }
CUNP_SIGNED_INF(isposinf)
CUNP_SIGNED_INF(isneginf)
#undef CUNP_SIGNED_INF

namespace detail {
/// Whether evaluating x reads memory of `out` (an array leaf overlapping it).
template <class T, class X> bool reads_memory_of(const X& x, const ndarray<T>& out) {
  if constexpr (requires { x.args(); })
    return std::apply([&](const auto&... a) { return (reads_memory_of(a, out) || ...); },
                      x.args());
  else if constexpr (requires { x.data(); })
    return bytes_of(x).overlaps(bytes_of(out));
  else
    return false;
}
/// The out= of a two-output ufunc: e1 into o1 and e2 into o2, one pass each (the inputs are read
/// twice). NumPy computes both outputs from the same input elements, so when o1 overlaps an
/// input of e2 the first output is computed into a temporary and copied last.
template <class Backend, class T1, class T2, class E1, class E2>
void assign_both(const ndarray<T1>& o1, const E1& e1, const ndarray<T2>& o2, const E2& e2) {
  if (!reads_memory_of(e2, o1)) {
    assign<Backend>(o1, e1);
    assign<Backend>(o2, e2);
    return;
  }
  check_writeable(o1);
  const ndarray<T1> first(o1.shape(), o1.device());
  assign<Backend>(first, e1);  // o1's dtype and shape: o1's checks
  assign<Backend>(o2, e2);
  assign<Backend>(o1, astype<T1>(first));
}
}  // namespace detail

/// numpy.divmod(x1, x2): (floor_divide(x1, x2), remainder(x1, x2)) as two lazy expressions, so
/// `auto [q, r] = cunp::divmod(a, b);` and each fuses into what consumes it. Materialising both
/// reads the inputs twice.
template <operand A, operand B>
  requires(array_like<A> || array_like<B>)
[[nodiscard]] auto divmod(A&& x1, B&& x2) {
  auto q = detail::make_expr<detail::divmod_quotient_op>(x1, x2);
  return std::pair(std::move(q), detail::make_expr<detail::divmod_remainder_op>(
                                     std::forward<A>(x1), std::forward<B>(x2)));
}
/// numpy.divmod(x1, x2, out=(q, r)): writes both (see detail::assign_both) and returns them.
template <class Backend = detail::compiled_backend, operand A, operand B, element_type Q,
          element_type R>
  requires(array_like<A> || array_like<B>)
std::pair<ndarray<Q>, ndarray<R>> divmod(A&& x1, B&& x2, const ndarray<Q>& q, const ndarray<R>& r) {
  const auto [eq, er] = divmod(std::forward<A>(x1), std::forward<B>(x2));
  detail::assign_both<Backend>(q, eq, r, er);
  return {q, r};
}

/// numpy.modf(x): (fractional part, integral part), both with x's sign, as two lazy expressions
/// (see divmod).
template <operand A>
  requires array_like<A>
[[nodiscard]] auto modf(A&& x) {
  auto f = detail::make_expr<detail::modf_fractional_op>(x);
  return std::pair(std::move(f), detail::make_expr<detail::modf_integral_op>(std::forward<A>(x)));
}
template <class Backend = detail::compiled_backend, operand A, element_type F, element_type I>
  requires array_like<A>
std::pair<ndarray<F>, ndarray<I>> modf(A&& x, const ndarray<F>& frac, const ndarray<I>& integral) {
  const auto [ef, ei] = modf(std::forward<A>(x));
  detail::assign_both<Backend>(frac, ef, integral, ei);
  return {frac, integral};
}

/// numpy.frexp(x): (mantissa of x's float type, exponent as int32), x = mantissa * 2**exponent,
/// as two lazy expressions (see divmod).
template <operand A>
  requires array_like<A>
[[nodiscard]] auto frexp(A&& x) {
  auto m = detail::make_expr<detail::frexp_mantissa_op>(x);
  return std::pair(std::move(m), detail::make_expr<detail::frexp_exponent_op>(std::forward<A>(x)));
}
template <class Backend = detail::compiled_backend, operand A, element_type M, element_type E>
  requires array_like<A>
std::pair<ndarray<M>, ndarray<E>> frexp(A&& x, const ndarray<M>& mantissa,
                                        const ndarray<E>& exponent) {
  const auto [em, ee] = frexp(std::forward<A>(x));
  detail::assign_both<Backend>(mantissa, em, exponent, ee);
  return {mantissa, exponent};
}

/// A replacement value of nan_to_num: a number, or none (std::nullopt) for the default.
struct value_or_none {
  std::optional<double> value;
  value_or_none(double v) : value(v) {}  // NOLINT: implicit, as Python's argument
  value_or_none(none_t) {}               // NOLINT
  value_or_none(std::nullopt_t) {}       // NOLINT
};

/// numpy.nan_to_num(x, nan=0.0, posinf=None, neginf=None), lazy: NaN, +inf and -inf replaced
/// in each real part (complex: real and imaginary parts alike); posinf and neginf default to
/// the part dtype's largest and lowest finite values. Bool and integers pass unchanged. NumPy's
/// copy= has no counterpart: materialise into x (out=, copyto) for copy=False.
template <operand A>
  requires array_like<A>
[[nodiscard]] auto nan_to_num(A&& x, double nan = 0.0, value_or_none posinf = none,
                              value_or_none neginf = none) {
  using X = detail::operand_t<A>;
  using L = typename detail::operand_traits<X>::value_type;
  return detail::expr<detail::nan_to_num_op<L>, X>(
      detail::nan_to_num_op<L>(nan, posinf.value, neginf.value),
      detail::as_operand(std::forward<A>(x)));
}

/// numpy.real_if_close(a, tol=100): for complex a, the real parts (a view, as NumPy's a.real)
/// when every imaginary part is below tol (tol > 1: tol machine epsilons of the part type),
/// else a itself. C++ needs one return type, and which one is known only after looking at the
/// values, so complex input gives a std::variant<ndarray<R>, ndarray<complex<R>>> (index 0:
/// real); real input is returned as is, as NumPy does. Not lazy: the test is a reduction whose
/// result the host waits for.
template <class R>
[[nodiscard]] std::variant<ndarray<R>, ndarray<std::complex<R>>> real_if_close(
    const ndarray<std::complex<R>>& a, double tol = 100) {
  if (tol > 1) tol *= std::numeric_limits<R>::epsilon();
  const ndarray<R> im = detail::part_view(a, 1);
  // all_of (reduce.hpp, which includes this header) is found when this is instantiated.
  if (all_of(less(absolute(im), tol)).item()) return detail::part_view(a, 0);
  return a;
}
template <element_type T>
  requires(!is_complex_v<T>)
[[nodiscard]] ndarray<T> real_if_close(const ndarray<T>& a, double = 100) {
  return a;
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
