// cunp/detail/reduce/reduce_keywords.hpp: what NumPy's reduction keywords (reduce_options.hpp)
// add to a reduction: where= masks bound beside the input, initial= folded into the reducer,
// out= written through the reduction engine.
#pragma once
#include <optional>
#include <string>
#include <type_traits>

#include "cunp/detail/expr/expr.hpp"
#include "cunp/detail/reduce/reduce_ops.hpp"
#include "cunp/detail/reduce/reduce_options.hpp"
#include "cunp/detail/reduce/reduction.hpp"
#include "cunp/view.hpp"

namespace cunp {
namespace detail {

/// An element of a where= reduction: its value and whether the mask selects it.
template <class M> struct masked_value {
  M value;
  bool keep;
};

/// where= inside a reduction: pairs each element with the mask's (read as bool and kept out of
/// promotion, as where's condition), so that one pass reads both.
struct mask_op {
  static constexpr const char* name = "where";
  static constexpr int passthrough = 1;
  template <class C, class...> using loop_for = C;
  template <class L> using out = masked_value<math_t<L>>;
  template <class> static constexpr bool accepts = true;
  template <class M> CUNP_HD masked_value<M> operator()(bool keep, M v) const { return {v, keep}; }
};

/// Whether reducer R takes initial= (gives the accumulator of a result value), and whether its
/// first element is combined into it otherwise than by combine (load_after).
template <class R>
concept takes_initial = requires(const R& r, const typename R::out& o) { r.from_out(o); };
template <class R, class X>
concept loads_after = requires(const R& r, const typename R::acc& a, const X& x) {
  r.load_after(a, x);
};

/// Reducer R over the masked elements of input type V: an element the mask drops is R's
/// identity (for reducers without one, "nothing yet": the caller then requires initial=).
/// R is held, not inherited, so that R's batch loads (which take plain V) never apply.
template <class R, class V> struct masked_reducer {
  using acc = typename R::acc;
  using out = typename R::out;
  using value = masked_value<math_t<V>>;
  static constexpr const char* name = R::name;
  static constexpr bool has_identity = R::has_identity;
  R r;
  CUNP_HD acc identity() const { return r.identity(); }
  CUNP_HD acc load(const value& x, std::int64_t i) const {
    return x.keep ? r.load(convert<V>(x.value), i) : r.identity();
  }
  CUNP_HD acc load_after(const acc& initial, const value& x) const
    requires loads_after<R, V>
  {
    return x.keep ? r.load_after(initial, convert<V>(x.value)) : initial;
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const { return r.combine(a, b); }
  CUNP_HD out finish(const acc& a, std::int64_t n) const { return r.finish(a, n); }
};

/// Reducer R started from `initial` (NumPy's initial=, in the result's dtype): the first element
/// of every output is combined into it, as NumPy's loop starts from it (a reducer whose first
/// element is special, the complex product, says how by load_after), and an empty output is it.
template <class R> struct initial_reducer {
  using acc = typename R::acc;
  using out = typename R::out;
  static constexpr const char* name = R::name;
  static constexpr bool has_identity = true;
  R r;
  acc initial;
  CUNP_HD acc identity() const { return r.identity(); }
  template <class X> CUNP_HD acc load(const X& x, std::int64_t i) const {
    if (i != 0) return r.load(x, i);
    if constexpr (loads_after<R, X>)
      return r.load_after(initial, x);
    else
      return r.combine(initial, r.load(x, 0));
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const { return r.combine(a, b); }
  CUNP_HD out finish(const acc& a, std::int64_t n) const { return r.finish(n == 0 ? initial : a, n); }
};

/// x with where= bound beside it, after NumPy's checks: the mask broadcasts to x's shape.
template <class X> auto masked_input(const X& x, const ndarray<bool>& m) {
  const shape_t& xs = operand_shape(x);
  if (m.ndim() > static_cast<int>(xs.size()))
    throw value_error("input operand has more dimensions than allowed by the axis remapping");
  bool fits = true;
  const std::size_t lead = xs.size() - m.shape().size();
  for (std::size_t d = 0; d < m.shape().size(); ++d)
    fits = fits && (m.shape()[d] == 1 || m.shape()[d] == xs[lead + d]);
  if (!fits)
    throw value_error("operands could not be broadcast together with remapped shapes "
                      "[original->remapped]: " + shape_str_compact(xs) + " " +
                      shape_str_compact(m.shape()) + " ");
  return expr<mask_op, ndarray<bool>, X>(mask_op{}, m, x);
}

/// The result dtype of a reduction with dtype= (void: none given, Default).
template <class Dtype, class Default>
using dtype_or_t = std::conditional_t<std::is_void_v<Dtype>, Default, Dtype>;
template <class Dtype>
inline constexpr bool valid_dtype_arg_v = std::is_void_v<Dtype> || is_dtype_v<Dtype>;
template <class Dtype>
inline constexpr bool inexact_dtype_arg_v =
    std::is_void_v<Dtype> || (is_dtype_v<Dtype> && !is_integer_v<Dtype> &&
                              !std::is_same_v<Dtype, bool>);

/// The dtype a reduction with out= of dtype T computes in: dtype= when given, else T when the
/// input V casts to it safely and the reduction takes it (Allowed), else the Default (NumPy picks
/// its loop from the output's dtype so: a uint64 sum into float64 does not wrap).
template <class Dtype, class Default, class V, class T, bool Allowed>
using out_loop_t = std::conditional_t<
    !std::is_void_v<Dtype>, Dtype,
    std::conditional_t<Allowed && safe_cast(dtype_of_v<V>, dtype_of_v<T>), T, Default>>;

/// Reduces x as reduce() does, into `out` (NumPy's out=: the result's shape, any dtype, cast
/// unsafely as NumPy's reductions do): straight into it when it has the reducer's dtype and no
/// input shares its memory, else through a temporary.
template <class Backend, class T, class R, class X>
void reduce_out(const ndarray<T>& out, const X& x, const axis_arg& axis, bool keepdims,
                const R& r) {
  const shape_t& shape = operand_shape(x);
  const auto red = reduced_dims(axis, shape.size());
  const shape_t want = reduced_shape(shape, red, keepdims);
  if (out.shape().size() != want.size())
    throw value_error(std::string("output parameter for reduction operation ") + R::name +
                      " has the wrong number of dimensions: Found " +
                      std::to_string(out.ndim()) + " but expected " + std::to_string(want.size()) +
                      (keepdims ? " (must match the operand's when keepdims=True)" : ""));
  if (out.shape() != want) {
    std::string remapped = "(";  // out's axes placed among the input's, as NumPy reports them
    for (std::size_t d = 0, o = 0; d < shape.size(); ++d) {
      if (d) remapped += ",";
      remapped += red[d] && !keepdims ? "newaxis" : std::to_string(out.shape()[o]);
      if (!red[d] || keepdims) ++o;
    }
    throw value_error("operands could not be broadcast together with remapped shapes "
                      "[original->remapped]: " + shape_str_compact(out.shape()) + "->" +
                      remapped + ") " + shape_str_compact(shape) + " ");
  }
  check_same_device(out.device(), x.device(), R::name);
  check_writeable(out);
  check_identity<R>(shape, red);
  if constexpr (std::is_same_v<T, typename R::out>)
    if (reduce_into<Backend>(out, x, red, keepdims, r)) return;
  copyto<Backend>(out, reduce<Backend>(x, axis, keepdims, r), casting::unsafe);
}

/// Reducer r on input x with where= and initial= applied, handed to k(input, reducer): the
/// input with the mask bound beside it, the reducer started from initial.
template <class V, class R, class X, class K>
decltype(auto) with_keywords(const X& x, const std::optional<ndarray<bool>>& where,
                             const std::optional<number_arg>& initial, const R& r, K&& k) {
  auto start = [&](const auto& in, const auto& rr) -> decltype(auto) {
    if constexpr (takes_initial<R>) {
      if (initial) {
        using RR = std::remove_cvref_t<decltype(rr)>;
        return k(in, initial_reducer<RR>{rr, r.from_out(initial->template as<typename R::out>())});
      }
    }
    return k(in, rr);
  };
  if (!where) return start(x, r);
  if (!R::has_identity && !initial)
    throw value_error(std::string("reduction operation '") + R::name +
                      "' does not have an identity, so to use a where mask one has to specify "
                      "'initial'");
  return start(masked_input(x, *where), masked_reducer<R, V>{r});
}

/// A reduction with its keywords: into a new array, or into `out`.
template <class Backend, class V, class R, class X>
auto reduce_kw(const X& x, const axis_arg& axis, bool keepdims,
               const std::optional<ndarray<bool>>& where, const std::optional<number_arg>& initial,
               const R& r) {
  return with_keywords<V>(x, where, initial, r, [&](const auto& in, const auto& rr) {
    return reduce<Backend>(in, axis, keepdims, rr);
  });
}
template <class Backend, class V, class T, class R, class X>
void reduce_kw_out(const ndarray<T>& out, const X& x, const axis_arg& axis, bool keepdims,
                   const std::optional<ndarray<bool>>& where,
                   const std::optional<number_arg>& initial, const R& r) {
  with_keywords<V>(x, where, initial, r, [&](const auto& in, const auto& rr) {
    reduce_out<Backend>(out, in, axis, keepdims, rr);
  });
}

}  // namespace detail
}  // namespace cunp
