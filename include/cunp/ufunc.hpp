// cunp/ufunc.hpp: element-wise operations (NumPy's ufuncs and operators), lazy and fused.
//
// Every function here returns an expression; nothing runs until it is materialised (converted
// to ndarray, cunp::eval, an `out` argument, copyto, or a compound assignment), and then the
// whole expression runs as one loop on the cpu or one kernel on the GPU.
#pragma once
#include <type_traits>

#include "cunp/detail/expr.hpp"
#include "cunp/detail/ufunc_ops.hpp"
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
template <class Op, class... X> auto make_expr(X&&... x) {
  return expr<Op, operand_t<X>...>(Op{}, as_operand(std::forward<X>(x))...);
}
}  // namespace detail

/// What element-wise functions accept: arrays, expressions and C++ arithmetic or complex scalars.
template <class X> concept operand = array_like<X> || is_weak_scalar_v<std::remove_cvref_t<X>>;

/// numpy.asarray of an expression: materialises it into a new C-ordered array on its device.
template <class Backend = detail::compiled_backend, class Op, class... Args>
[[nodiscard]] auto eval(const detail::expr<Op, Args...>& e) {
  return ndarray<typename detail::expr<Op, Args...>::value_type>(e);
}
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] const ndarray<T>& eval(const ndarray<T>& a) {
  return a;
}

namespace detail {
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
    evaluate(Backend{}, out, e);
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
  const ndarray<T>& NAME(A&& a, const ndarray<T>& out) {                                       \
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
  const ndarray<T>& NAME(A&& a, B&& b, const ndarray<T>& out) {                                \
    detail::assign<Backend>(out, NAME(std::forward<A>(a), std::forward<B>(b)));                \
    return out;                                                                                \
  }

CUNP_UFUNC2(add, add_op)
CUNP_UFUNC2(subtract, subtract_op)
CUNP_UFUNC2(multiply, multiply_op)
CUNP_UFUNC2(divide, divide_op)
CUNP_UFUNC2(true_divide, divide_op)
CUNP_UFUNC2(maximum, maximum_op)
CUNP_UFUNC2(minimum, minimum_op)
CUNP_UFUNC2(equal, equal_op)
CUNP_UFUNC2(not_equal, not_equal_op)
CUNP_UFUNC2(less, less_op)
CUNP_UFUNC2(less_equal, less_equal_op)
CUNP_UFUNC2(greater, greater_op)
CUNP_UFUNC2(greater_equal, greater_equal_op)
CUNP_UFUNC1(negative, negative_op)
CUNP_UFUNC1(sqrt, sqrt_op)
CUNP_UFUNC1(exp, exp_op)
CUNP_UFUNC1(log, log_op)
CUNP_UFUNC1(sin, sin_op)
CUNP_UFUNC1(cos, cos_op)
CUNP_UFUNC1(tanh, tanh_op)
#undef CUNP_UFUNC1
#undef CUNP_UFUNC2

/// numpy.where(condition, x, y).
template <operand C, operand X, operand Y>
  requires(array_like<C> || array_like<X> || array_like<Y>)
[[nodiscard]] auto where(C&& c, X&& x, Y&& y) {
  return detail::make_expr<detail::where_op>(std::forward<C>(c), std::forward<X>(x), std::forward<Y>(y));
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
  evaluate(Backend{}, dst, astype<D>(e));  // unqualified: ADL finds the CUDA overload under nvcc
}

/// x.astype(T) inside an expression: fuses with the rest (ndarray::astype materialises).
template <element_type T, operand A>
  requires array_like<A>
[[nodiscard]] auto astype(A&& a) {
  return detail::make_expr<detail::cast_op<T>>(std::forward<A>(a));
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
#undef CUNP_OPERATOR2
template <operand A>
  requires array_like<A>
[[nodiscard]] auto operator-(A&& a) {
  return negative(std::forward<A>(a));
}

// In-place operators write into the left operand (NumPy's a += b: out=a, same_kind casting).
#define CUNP_INPLACE(SYM, NAME)                                                   \
  template <element_type T, operand B, class Backend = detail::compiled_backend>  \
  const ndarray<T>& operator SYM##=(const ndarray<T>& a, B&& b) {                 \
    return NAME<Backend>(a, std::forward<B>(b), a);                               \
  }
CUNP_INPLACE(+, add)
CUNP_INPLACE(-, subtract)
CUNP_INPLACE(*, multiply)
CUNP_INPLACE(/, divide)
#undef CUNP_INPLACE

}  // namespace cunp
