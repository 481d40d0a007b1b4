// cunp/detail/expr/expr.hpp: lazy element-wise expressions and their binding for evaluation.
//
// `a * b + sin(c)` builds an expr tree that holds its operands by value (array handles, C++
// scalars), so it never dangles. Materialising it binds the tree into a device-friendly form:
// every array leaf becomes a numbered slot (slot 0 is the output), scalars keep their value, and
// one loop (cpu) or one kernel (cuda) evaluates the whole tree per element.
#pragma once
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cunp/detail/core/math.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"

namespace cunp {

namespace detail {

/// A C++ scalar in an expression: weak, like a Python scalar (NEP 50).
template <class S> struct weak {
  S value;
};

template <class Op, class... Args> class expr;

template <class X> struct operand_traits;
template <class T> struct operand_traits<ndarray<T>> {
  using value_type = T;
  static constexpr int weak_kind = -1;  // strong
  static constexpr int leaves = 1;
};
template <class S> struct operand_traits<weak<S>> {
  using value_type = S;
  static constexpr int weak_kind = scalar_kind_v<S>;
  static constexpr int leaves = 0;
};
template <class Op, class... Args> struct operand_traits<expr<Op, Args...>> {
  using value_type = typename expr<Op, Args...>::value_type;
  static constexpr int weak_kind = -1;
  static constexpr int leaves = (operand_traits<Args>::leaves + ... + 0);
};

template <class X> struct is_expr_operand : std::false_type {};
template <class T> struct is_expr_operand<ndarray<T>> : std::true_type {};
template <class Op, class... Args> struct is_expr_operand<expr<Op, Args...>> : std::true_type {};
}  // namespace detail

/// Arrays and lazy expressions: what element-wise operations accept besides C++ scalars.
template <class X> concept array_like = detail::is_expr_operand<std::remove_cvref_t<X>>::value;

namespace detail {

/// NumPy's result_type over operands with NEP 50's weak scalars. All weak: the default types.
template <class... Args> constexpr dtype common_dtype() {
  bool any_strong = false;
  dtype strong = dtype::bool_;
  int weak_kind = -1;
  auto add = [&](dtype d, int wk) {
    if (wk < 0) {
      strong = any_strong ? promote(strong, d) : d;
      any_strong = true;
    } else if (wk > weak_kind) {
      weak_kind = wk;
    }
  };
  (add(dtype_of_v<typename operand_traits<Args>::value_type>, operand_traits<Args>::weak_kind), ...);
  if (!any_strong)
    return weak_kind == 0 ? dtype::bool_ : weak_kind == 2 ? dtype::int64
           : weak_kind == 3 ? dtype::float64 : dtype::complex128;
  return weak_kind < 0 ? strong : promote_weak(strong, weak_kind);
}

// Ops may keep leading arguments out of promotion (where's condition): Op::passthrough of them.
template <class Op> constexpr int passthrough_v = 0;
template <class Op>
  requires requires { Op::passthrough; }
constexpr int passthrough_v<Op> = Op::passthrough;

template <class Op, class Tuple, std::size_t... I>
constexpr dtype promoted_dtype(std::index_sequence<I...>) {
  return common_dtype<std::tuple_element_t<I + passthrough_v<Op>, Tuple>...>();
}

// The loop type: Op::loop_for<Common, In...>, with each operand's dtype (weak scalars: Common), so
// that ops can resolve like NumPy's type resolver (the first loop that every operand casts to:
// arctan2(int8, uint16) computes in float32, not in the float64 of their int32). Every op spells
// loop_for out: nvcc's front end ignores a requires-detected member alias template of a base
// class, and a host stub naming another loop type than the device image is a launch failure.
template <class Op, class Common, class... In> struct loop_of {
  using type = typename Op::template loop_for<Common, In...>;
};
template <class X, class Common>
using loop_operand_t = std::conditional_t<(operand_traits<X>::weak_kind >= 0), Common,
                                          typename operand_traits<X>::value_type>;
template <class Op, class Common, class Tuple, std::size_t... I>
auto loop_type(std::index_sequence<I...>) -> typename loop_of<
    Op, Common,
    loop_operand_t<std::tuple_element_t<I + passthrough_v<Op>, Tuple>, Common>...>::type;

// The loop type (inputs are converted to it) and the output type of a node.
template <class Op, class... Args> struct node_types {
  using args = std::tuple<Args...>;
  using operands = std::make_index_sequence<sizeof...(Args) - passthrough_v<Op>>;
  using common = type_of_t<promoted_dtype<Op, args>(operands())>;
  using loop = decltype(loop_type<Op, common, args>(operands()));
  using out = typename Op::template out<loop>;
};

template <class X> shape_t operand_shape(const X& x) {
  if constexpr (requires { x.shape(); }) return x.shape();
  else return {};
}
template <class X> void collect_device(const X& x, std::optional<cunp::device>& dev, const char* op) {
  if constexpr (requires { x.device(); }) {
    if (dev) check_same_device(*dev, x.device(), op);
    else dev = x.device();
  }
}


/// An unevaluated element-wise operation: Op applied to Args (arrays, weak scalars, exprs).
template <class Op, class... Args> class expr {
  using types = node_types<Op, Args...>;

 public:
  using loop_type = typename types::loop;
  using value_type = typename types::out;

  expr(Op op, Args... args) : op_(op), args_(std::move(args)...) {
    static_assert(Op::template accepts<loop_type>, "this ufunc does not support this dtype");
    std::optional<cunp::device> dev;
    std::apply([&](const auto&... a) {
      ((shape_ = broadcast_shapes(shape_, operand_shape(a))), ...);
      (collect_device(a, dev, Op::name), ...);
      (check_weak(a), ...);
    }, args_);
    device_ = dev.value_or(cunp::cpu);
  }

  [[nodiscard]] const shape_t& shape() const { return shape_; }
  [[nodiscard]] int ndim() const { return static_cast<int>(shape_.size()); }
  [[nodiscard]] index_t size() const { return shape_size(shape_); }
  [[nodiscard]] cunp::device device() const { return device_; }
  [[nodiscard]] const Op& op() const { return op_; }
  static constexpr const char* op_name() { return Op::name; }
  [[nodiscard]] const std::tuple<Args...>& args() const { return args_; }

 private:
  template <class X> static void check_weak(const X&) {}
  // NumPy converts a Python scalar to the dtype of the loop it resolved, which may not be the
  // common dtype: arctan2(int8, 300) computes in float16, logical_and(int8, 300) in bool.
  template <class S> static void check_weak(const weak<S>& w) {
    check_weak_fits<typename types::loop>(w.value);
  }

  Op op_;
  std::tuple<Args...> args_;
  shape_t shape_;
  cunp::device device_;
};

// ---------------------------------------------------------------------------------------------
// Binding: the tree as evaluators see it. Leaves read through an indexer:
// ix.template get<Slot, T>() is the current element of operand `Slot`.

template <class T, int Slot> struct slot_leaf {
  using value_type = T;
  template <class Ix> CUNP_HD T eval(const Ix& ix) const { return ix.template get<Slot, T>(); }
};
template <class T> struct scalar_leaf {
  using value_type = T;
  T value;
  template <class Ix> CUNP_HD T eval(const Ix&) const { return value; }
};

/// A tuple that works in device code (std::tuple's members are not __device__).
template <class... T> struct hd_tuple {};
template <class H, class... T> struct hd_tuple<H, T...> {
  H head;
  hd_tuple<T...> tail;
};
template <std::size_t I, class H, class... T> CUNP_HD constexpr const auto& tget(const hd_tuple<H, T...>& t) {
  if constexpr (I == 0) return t.head;
  else return tget<I - 1>(t.tail);
}
template <std::size_t I, class H, class... T> CUNP_HD constexpr auto& tget(hd_tuple<H, T...>& t) {
  if constexpr (I == 0) return t.head;
  else return tget<I - 1>(t.tail);
}

template <class Op, class Loop, class Out, int Pass, class... Args> struct bound_node {
  using value_type = Out;
  Op op;
  hd_tuple<Args...> args;
  template <class Ix> CUNP_HD Out eval(const Ix& ix) const {
    return apply(ix, std::make_index_sequence<sizeof...(Args)>());
  }

 private:
  // Promoted arguments are converted to the loop type, then to its math type (float16 -> float).
  template <std::size_t I, class Ix> CUNP_HD auto arg(const Ix& ix) const {
    const auto v = tget<I>(args).eval(ix);
    if constexpr (int(I) < Pass) return convert<bool>(v);
    else return convert<math_t<Loop>>(convert<Loop>(v));
  }
  template <class Ix, std::size_t... I> CUNP_HD Out apply(const Ix& ix, std::index_sequence<I...>) const {
    return convert<Out>(op(arg<I>(ix)...));
  }
};

template <class H, class... T> CUNP_HD constexpr hd_tuple<H, T...> make_hd_tuple(H h, T... t) {
  if constexpr (sizeof...(T) == 0) return {h, {}};
  else return {h, make_hd_tuple(t...)};
}

/// Array leaves before argument I of a node: argument I's first slot is the node's + this.
template <std::size_t I, class... Args> constexpr int leaves_before() {
  int n = 0, k = 0;
  ((n += (k++ < int(I) ? operand_traits<Args>::leaves : 0)), ...);
  return n;
}

/// Where binding records each slot: element pointer, strides broadcast to the output's shape, and
/// the memory and element size it has (for the overlap check). Slot 0 is the output.
template <int N> struct bind_context {
  explicit bind_context(shape_t shape) : out_shape(std::move(shape)) {}
  template <class T> void record(int slot, const ndarray<T>& a, strides_t st) {
    ptrs[slot] = a.data();
    strides[slot] = std::move(st);
    bytes[slot] = bytes_of(a);
    itemsize[slot] = sizeof(T);
  }
  shape_t out_shape;
  const void* ptrs[N] = {};
  strides_t strides[N];
  byte_range bytes[N];
  std::size_t itemsize[N] = {};
};

/// a's strides seen through broadcasting to `shape` (NumPy's broadcast_to: 0 where extended).
template <class T> strides_t broadcast_strides(const ndarray<T>& a, const shape_t& shape) {
  strides_t st(shape.size(), 0);
  const std::size_t lead = shape.size() - a.shape().size();
  for (std::size_t d = 0; d < a.shape().size(); ++d)
    if (a.shape()[d] != 1) st[lead + d] = a.strides()[d];
  return st;
}

/// binder<Slot, X>: the bound type of operand X whose first array leaf takes slot `Slot`;
/// make() records every array leaf in the bind context.
template <int Slot, class X> struct binder;
template <int Slot, class T> struct binder<Slot, ndarray<T>> {
  using type = slot_leaf<T, Slot>;
  template <int N> static type make(const ndarray<T>& a, bind_context<N>& ctx) {
    ctx.record(Slot, a, broadcast_strides(a, ctx.out_shape));
    return {};
  }
};
template <int Slot, class S> struct binder<Slot, weak<S>> {
  using type = scalar_leaf<S>;
  template <int N> static type make(const weak<S>& w, bind_context<N>&) { return {w.value}; }
};
template <int Slot, class Op, class... Args> struct binder<Slot, expr<Op, Args...>> {
  using E = expr<Op, Args...>;
  template <std::size_t I>
  using arg_binder =
      binder<Slot + leaves_before<I, Args...>(), std::tuple_element_t<I, std::tuple<Args...>>>;
  template <class Seq> struct impl;
  template <std::size_t... I> struct impl<std::index_sequence<I...>> {
    using type = bound_node<Op, typename E::loop_type, typename E::value_type, passthrough_v<Op>,
                            typename arg_binder<I>::type...>;
    template <int N> static type make(const E& e, bind_context<N>& ctx) {
      return {e.op(), make_hd_tuple(arg_binder<I>::make(std::get<I>(e.args()), ctx)...)};
    }
  };
  using seq = impl<std::make_index_sequence<sizeof...(Args)>>;
  using type = typename seq::type;
  template <int N> static type make(const E& e, bind_context<N>& ctx) { return seq::make(e, ctx); }
};

/// Slots of a materialisation: the output, then the expression's array leaves.
template <class E> inline constexpr int slots_v = 1 + operand_traits<E>::leaves;

/// A bound expression ready to run: the tree, the slots' pointers and their loop layout. The
/// tree is built from the expression in place, never default-constructed and assigned: a user's
/// callable in it (a lambda) may have neither a default constructor nor an assignment.
template <class E> struct bound_expr {
  static constexpr int N = slots_v<E>;
  using tree_type = typename binder<1, E>::type;
  bind_context<N> ctx;  // before the tree: binding the tree fills it
  tree_type tree;
  loop_layout<N> layout;

  /// Binds e for writing into out (of e's shape).
  template <class OutT>
  bound_expr(const ndarray<OutT>& out, const E& e) : ctx(out.shape()), tree(binder<1, E>::make(e, ctx)) {
    ctx.record(0, out, out.strides());
    std::array<const strides_t*, N> st;
    for (int k = 0; k < N; ++k) st[k] = &ctx.strides[k];
    layout = make_loop_layout<N>(out.shape(), st);
  }

  /// Whether the output overlaps an input in a way that an element-by-element loop could read an
  /// already-written element; then the caller evaluates into a temporary first (NumPy's semantics
  /// for a += a[::-1]). An input that is the output itself, element for element, is safe.
  [[nodiscard]] bool output_overlaps_input() const {
    for (int k = 1; k < N; ++k) {
      const bool same_elements = ctx.ptrs[k] == ctx.ptrs[0] && ctx.strides[k] == ctx.strides[0] &&
                                 ctx.itemsize[k] == ctx.itemsize[0];
      if (ctx.bytes[k].overlaps(ctx.bytes[0]) && !same_elements) return true;
    }
    return false;
  }
};

/// The strided indexer: the current element of each slot is ptrs[slot][offs[slot]] (Off: 32-bit
/// offsets where every operand's reach allows).
template <int N, class Off = std::int64_t> struct offset_indexer {
  const void* const* ptrs;
  const Off* offs;
  template <int Slot, class T> CUNP_HD T get() const { return static_cast<const T*>(ptrs[Slot])[offs[Slot]]; }
};

}  // namespace detail
}  // namespace cunp

// The cpu backend's evaluation (the CUDA one, detail/cuda/expr/elementwise.cuh, comes with
// ufunc.hpp under nvcc).
#include "cunp/detail/cpu/expr/evaluate.hpp"
