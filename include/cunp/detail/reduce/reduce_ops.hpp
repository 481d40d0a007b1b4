// cunp/detail/reduce/reduce_ops.hpp: the reducers behind NumPy's reductions, shared by every backend.
//
// A reducer on input type V names its accumulator `acc` and result `out` and gives
//   identity()       the accumulator of no elements (or of "nothing yet": has_identity says
//                    whether an empty reduction is allowed, as NumPy's identity does),
//   load(v, i)       the accumulator of element v at index i of the reduced elements (C order),
//   combine(a, b)    the accumulator of both; commutative as well as associative, so that any
//                    tree (pairwise on the cpu, blocks and warps on the GPU) gives NumPy's answer:
//                    ties in argmax keep the smaller index, the first NaN wins by index,
//   finish(a, n)     the result of n reduced elements.
// and may give, for the GPU's inner loops where the general combine costs more than the memory
// traffic allows (fold_in and batch_reducer below use them):
//   fold(a, v, i)    combine(a, load(v, i)) for an element v that comes after every element of a,
//   load_batch(x)    the accumulator of the B consecutive elements x[0], ..., x[B - 1],
//   fold_batch<W>(a, x, i, stride)
//                    a folded with B elements that come after every element of a, in runs of W
//                    consecutive ones: x[k] is element i + k / W * stride + k % W.
// Adding a reduction is one reducer here and one line in reduce.hpp.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/detail/reduce/accumulate.hpp"
#include "cunp/detail/core/math.hpp"

namespace cunp::detail {

template <class M>
CUNP_HD constexpr bool nan_any(const M& x) {
  if constexpr (is_complex_v<M>)
    return x.re != x.re || x.im != x.im;
  else if constexpr (std::is_floating_point_v<M>)
    return x != x;
  else
    return false;
}
/// NumPy's order: complex numbers compare by real part, then imaginary part.
template <class M>
CUNP_HD constexpr bool less(const M& a, const M& b) {
  if constexpr (is_complex_v<M>)
    return a.re < b.re || (a.re == b.re && a.im < b.im);
  else
    return a < b;
}
template <class M>
CUNP_HD constexpr bool nonzero(const M& x) {
  if constexpr (is_complex_v<M>)
    return x.re != 0 || x.im != 0;
  else
    return x != M(0);
}
/// a / n for the accumulators of means. NumPy divides a complex sum by the complex count (n, 0)
/// (Smith's algorithm): (-inf - 2j) / 2 is (-inf, nan), not (-inf, -1).
template <class A>
CUNP_HD A div_count(const A& a, std::int64_t n) {
  if constexpr (is_complex_v<A>) {
    using R = decltype(a.re);
    return a / A(R(n), R(0));
  } else {
    return a / A(n);
  }
}
template <class M>
CUNP_HD constexpr bool all_finite(const M& x) {
  if constexpr (is_complex_v<M>)
    return is_finite(x.re) && is_finite(x.im);
  else
    return is_finite(x);
}
template <class A>
CUNP_HD auto abs2(const A& a) {
  if constexpr (is_complex_v<A>)
    return a.re * a.re + a.im * a.im;
  else
    return a * a;
}

/// combine(a, load(v, i)), through the reducer's cheaper fold when it has one (i must come after
/// every element that a holds).
template <class R, class V>
CUNP_HD typename R::acc fold_in(const R& r, const typename R::acc& a, const V& v, std::int64_t i) {
  if constexpr (requires { r.fold(a, v, i); })
    return r.fold(a, v, i);
  else
    return r.combine(a, r.load(v, i));
}
/// Whether the reducer takes B consecutive elements of type T at once (load_batch).
template <class R, class T, int B>
concept batch_reducer = requires(const R& r, const T (&x)[B]) { r.load_batch(x); };
/// Whether the reducer folds batches of elements of type T at once (fold_batch, which takes
/// batches and runs of any length).
template <class R, class T>
concept run_batch_reducer = requires(const R& r, const typename R::acc& a, const T (&x)[1]) {
  r.template fold_batch<1>(a, x, std::int64_t(0), std::int64_t(0));
};

/// Sums and products run in the result's math type; integer ones in uint64, which wraps as
/// NumPy's int64 does without C++'s signed overflow.
template <class Out>
using sum_acc_t = std::conditional_t<is_integer_v<Out>, std::uint64_t, math_t<Out>>;
template <class Acc, class V>
CUNP_HD Acc to_acc(const V& v) {
  if constexpr (std::is_same_v<Acc, std::uint64_t> && std::is_integral_v<V>)
    return static_cast<Acc>(static_cast<std::conditional_t<std::is_signed_v<V>, std::int64_t,
                                                           std::uint64_t>>(v));
  else
    return convert<Acc>(convert<math_t<V>>(v));
}
template <class Out, class Acc>
CUNP_HD Out from_acc(const Acc& a) {
  if constexpr (std::is_same_v<Acc, std::uint64_t>)
    return static_cast<Out>(a);
  else
    return convert<Out>(a);
}

/// sum (Prod = false) and prod; SkipNaN: nansum/nanprod (NaN counts as the identity). Out: the
/// result dtype (NumPy's dtype=), which every element is converted to before it is added, as
/// NumPy casts the input to the loop's dtype.
template <class V, bool Prod, bool SkipNaN, class Out = sum_result_t<V>>
struct sum_reducer {
  using out = Out;
  using acc = sum_acc_t<out>;
  static constexpr const char* name = Prod ? "multiply" : "add";
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const { return acc(Prod ? 1 : 0); }
  /// The accumulator of a result value (initial=).
  CUNP_HD acc from_out(const out& o) const { return to_acc<acc>(o); }
  CUNP_HD acc load(const V& v, std::int64_t) const {
    const acc a = to_acc<acc>(convert<out>(v));
    if constexpr (SkipNaN)
      if (nan_any(a)) return identity();
    return a;
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    if constexpr (Prod)
      return a * b;
    else
      return a + b;
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const { return from_acc<out>(a); }
};

/// prod and nanprod of complex numbers. NumPy multiplies sequentially from the identity, and
/// with infinities the textbook product is not associative: (1 + 0j) * (inf + 2j) is inf + nanj
/// (0 * inf). So the identity is multiplied into element 0 only, as NumPy does (and into every
/// NaN of nanprod, which NumPy replaces by 1 + 0j); a split range (a GPU block, a pairwise half)
/// starts from its first element instead of from 1 + 0j, which NumPy never multiplies by there.
template <class V, bool SkipNaN, class Out = sum_result_t<V>>
struct complex_prod_reducer {
  using out = Out;
  using value = math_t<out>;
  struct acc {
    value v;
    bool empty;  // nothing multiplied in yet: the identity, never multiplied by
  };
  static constexpr const char* name = "multiply";
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const { return {value(1), true}; }
  CUNP_HD acc from_out(const out& o) const { return {convert<value>(o), false}; }
  CUNP_HD acc load(const V& x, std::int64_t i) const {
    const value a = plain(x);
    return {i == 0 ? value(1) * a : a, false};
  }
  /// Element 0 multiplied into initial= (NumPy's loop starts from it instead of the identity).
  CUNP_HD acc load_after(const acc& initial, const V& x) const {
    return {initial.v * plain(x), false};
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    if (a.empty) return b;
    if (b.empty) return a;
    return {a.v * b.v, false};
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const { return convert<out>(a.v); }

 private:
  CUNP_HD value plain(const V& x) const {
    const value a = convert<value>(convert<math_t<V>>(x));
    if constexpr (SkipNaN)
      if (nan_any(a)) return value(1);
    return a;
  }
};
template <class V, bool SkipNaN, class Out = sum_result_t<V>>
using prod_reducer = std::conditional_t<is_complex_v<Out>, complex_prod_reducer<V, SkipNaN, Out>,
                                        sum_reducer<V, true, SkipNaN, Out>>;

/// mean and nanmean: the sum in the result's math type (float32 for float16, as NumPy's mean)
/// and the count of the elements summed. Out: the result dtype (dtype=, an inexact one).
template <class V, bool SkipNaN, class Out = mean_result_t<V>>
struct mean_reducer {
  using out = Out;
  using sum_type = math_t<out>;
  struct acc {
    sum_type sum;
    std::int64_t n;
  };
  static constexpr const char* name = "add";
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const { return {sum_type(0), 0}; }
  CUNP_HD acc load(const V& v, std::int64_t) const {
    const auto s = convert<sum_type>(convert<math_t<V>>(v));
    if constexpr (SkipNaN)
      if (nan_any(s)) return identity();
    return {s, 1};
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const { return {a.sum + b.sum, a.n + b.n}; }
  CUNP_HD out finish(const acc& a, std::int64_t) const {
    return convert<out>(div_count(a.sum, a.n));
  }
};

template <class M, bool Max>
CUNP_HD constexpr M extreme_identity() {
  if constexpr (is_complex_v<M>) {
    using R = decltype(M().re);
    const R e = Max ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity();
    return M(e, e);
  } else if constexpr (std::is_floating_point_v<M>) {
    return Max ? -std::numeric_limits<M>::infinity() : std::numeric_limits<M>::infinity();
  } else {
    return Max ? std::numeric_limits<M>::lowest() : std::numeric_limits<M>::max();
  }
}
/// The larger (Max) or smaller of a and b; a NaN wins, or loses when SkipNaN.
template <bool Max, bool SkipNaN, class M>
CUNP_HD M pick_extreme(const M& a, const M& b) {
  if (nan_any(a)) return SkipNaN ? b : a;
  if (nan_any(b)) return SkipNaN ? a : b;
  return (Max ? less(a, b) : less(b, a)) ? b : a;
}

/// max/amax and min/amin; SkipNaN: nanmax/nanmin (NaN means "nothing yet", so an all-NaN slice
/// gives NaN, as NumPy's).
template <class V, bool Max, bool SkipNaN>
struct extreme_reducer {
  using out = V;
  using acc = math_t<V>;
  // NumPy's nanmax reduces with fmax, whose name its empty-reduction error shows.
  static constexpr const char* name =
      SkipNaN ? (Max ? "fmax" : "fmin") : (Max ? "maximum" : "minimum");
  static constexpr bool has_identity = false;
  CUNP_HD acc from_out(const out& o) const { return convert<acc>(o); }
  CUNP_HD acc identity() const {
    if constexpr (SkipNaN && !std::is_integral_v<acc>)
      return convert<acc>(std::numeric_limits<double>::quiet_NaN());
    else
      return extreme_identity<acc, Max>();
  }
  CUNP_HD acc load(const V& v, std::int64_t) const { return convert<acc>(v); }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    return pick_extreme<Max, SkipNaN>(a, b);
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const { return convert<out>(a); }
};

/// argmax and argmin; SkipNaN: nanargmax/nanargmin, which NumPy computes as argmax of the input
/// with NaN replaced by -inf (argmin: +inf), so that a NaN ties with an infinity and the first of
/// them wins. A slice without a non-NaN element gives index -1, which the caller reports as
/// NumPy's "All-NaN slice encountered".
template <class V, bool Max, bool SkipNaN>
struct arg_reducer {
  using out = std::int64_t;
  using value = math_t<V>;
  struct plain_acc {
    value v;
    std::int64_t i;  // -1: no element
  };
  struct nan_acc {
    value v;
    bool real;  // a non-NaN element was met
    std::int64_t i;
  };
  using acc = std::conditional_t<SkipNaN, nan_acc, plain_acc>;
  static constexpr const char* name = Max ? "argmax" : "argmin";
  static constexpr bool has_identity = false;
  CUNP_HD acc identity() const {
    if constexpr (SkipNaN)
      return {value{}, false, -1};
    else
      return {value{}, -1};
  }
  CUNP_HD acc load(const V& v, std::int64_t i) const {
    const auto x = convert<value>(v);
    if constexpr (SkipNaN) {
      if (nan_any(x)) return {convert<value>(Max ? -inf_v<double> : inf_v<double>), false, i};
      return {x, true, i};
    } else {
      return {x, i};
    }
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    acc r = takes_b(a, b) ? b : a;
    if constexpr (SkipNaN) r.real = a.real || b.real;
    return r;
  }
  /// A later element wins only strictly (ties keep the first), and a NaN wins unless a holds one:
  /// a third of combine's work, which kept argmax of 2^28 float32 at 0.78 of copy on the H200.
  CUNP_HD acc fold(const acc& a, const V& v, std::int64_t i) const {
    const acc b = load(v, i);
    const bool better = Max ? less(a.v, b.v) : less(b.v, a.v);
    acc r = (a.i < 0) | (!nan_any(a.v) & (nan_any(b.v) | better)) ? b : a;
    if constexpr (SkipNaN) r.real = a.real || b.real;
    return r;
  }
  /// The batch's extreme by value alone (NaN wins for argmax, is skipped for nanargmax), and the
  /// element-wise fold only where that can change a: a compare and a select an element, where
  /// fold also tracks the index and NaNs of a.
  template <int W, int B>
  CUNP_HD acc fold_batch(const acc& a, const V (&x)[B], std::int64_t i,
                         std::int64_t stride) const {
    value m = convert<value>(x[0]);
    for (int k = 1; k < B; ++k) {
      const value v = convert<value>(x[k]);
      const bool better = Max ? less(m, v) : less(v, m);
      m = (SkipNaN ? nan_any(m) : nan_any(v)) | better ? v : m;
    }
    bool changes = (a.i < 0) | nan_any(m) | (Max ? less(a.v, m) : less(m, a.v));
    if constexpr (SkipNaN) changes = changes | !a.real;
    if (!changes) return a;
    acc r = a;
    for (int k = 0; k < B; ++k) r = fold(r, x[k], i + k / W * stride + k % W);
    return r;
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const {
    if constexpr (SkipNaN)
      return a.real ? a.i : -1;
    else
      return a.i;
  }

 private:
  // A flag and one select rather than a reference to the winner: the GPU keeps the
  // accumulators in registers (returning `const acc&` put them in local memory: argmax of 2^28
  // float32 ran at 0.14 of copy bandwidth). Bitwise operators and selects rather than early
  // returns, so that the GPU's inner loop does not branch per element.
  CUNP_HD bool takes_b(const acc& a, const acc& b) const {
    const bool na = nan_any(a.v), nb = nan_any(b.v);  // a NaN wins (never met by SkipNaN)
    const bool first = b.i < a.i;                     // ties go to the first
    const bool better = Max ? less(a.v, b.v) : less(b.v, a.v);
    const bool worse = Max ? less(b.v, a.v) : less(a.v, b.v);
    const bool by_value = better | (!worse & first);
    const bool by_nan = na ? (nb & first) : nb;
    return (a.i < 0) | ((b.i >= 0) & ((na | nb) ? by_nan : by_value));  // a side may be empty
  }
};

/// any (All = false) and all.
template <class V, bool All>
struct logical_reducer {
  using out = bool;
  using acc = bool;
  static constexpr const char* name = All ? "logical_and" : "logical_or";
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const { return All; }
  CUNP_HD acc from_out(out o) const { return o; }
  CUNP_HD acc load(const V& v, std::int64_t) const { return nonzero(convert<math_t<V>>(v)); }
  CUNP_HD acc combine(acc a, acc b) const { return All ? (a && b) : (a || b); }
  CUNP_HD out finish(acc a, std::int64_t) const { return a; }
};

/// The reduce method of the bitwise ufuncs and logical_xor (Op, whose loop is V): Op itself from
/// NumPy's identity, all ones for bitwise_and (AllOnes), zero (false) for the others.
template <class V, class Op, bool AllOnes>
struct ufunc_reducer {
  using out = typename Op::template out<V>;
  using acc = math_t<out>;
  static constexpr const char* name = Op::name;
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const {
    if constexpr (std::is_same_v<acc, bool>) return AllOnes;  // (~ on a bool is an int)
    else return AllOnes ? acc(~acc(0)) : acc(0);
  }
  CUNP_HD acc from_out(const out& o) const { return convert<acc>(o); }
  CUNP_HD acc load(const V& v, std::int64_t) const { return convert<acc>(v); }
  CUNP_HD acc combine(acc a, acc b) const { return convert<acc>(Op{}(a, b)); }
  CUNP_HD out finish(acc a, std::int64_t) const { return convert<out>(a); }
};

template <class V>
struct count_nonzero_reducer {
  using out = std::int64_t;
  using acc = std::int64_t;
  static constexpr const char* name = "count_nonzero";
  static constexpr bool has_identity = true;
  CUNP_HD acc identity() const { return 0; }
  CUNP_HD acc load(const V& v, std::int64_t) const { return nonzero(convert<math_t<V>>(v)); }
  CUNP_HD acc combine(acc a, acc b) const { return a + b; }
  CUNP_HD out finish(acc a, std::int64_t) const { return a; }
};

/// ptp: max - min in one pass, the difference taken in V as NumPy's (int8 wraps).
template <class V>
struct ptp_reducer {
  using out = V;
  using value = math_t<V>;
  struct acc {
    value lo, hi;
  };
  static constexpr const char* name = "maximum";
  static constexpr bool has_identity = false;
  CUNP_HD acc identity() const {
    return {extreme_identity<value, false>(), extreme_identity<value, true>()};
  }
  CUNP_HD acc load(const V& v, std::int64_t) const {
    const auto x = convert<value>(v);
    return {x, x};
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    return {pick_extreme<false, false>(a.lo, b.lo), pick_extreme<true, false>(a.hi, b.hi)};
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const {
    if constexpr (is_integer_v<V>)
      return static_cast<V>(static_cast<wide_bits_t<V>>(a.hi) - static_cast<wide_bits_t<V>>(a.lo));
    else
      return convert<out>(a.hi - a.lo);
  }

 private:
  template <class I>
  using wide_bits_t = std::conditional_t<sizeof(I) <= 4, std::uint32_t, std::uint64_t>;
};

/// var and std (Sqrt), nanvar and nanstd: Welford's running mean and sum of squared deviations,
/// merged by Chan et al.'s formula, in one pass (NumPy makes two; the results agree to rounding).
/// D: the dtype the mean is computed in (dtype=, an inexact one); the result is its real type.
template <class V, bool Sqrt, bool SkipNaN, class D = mean_result_t<V>>
struct var_reducer {
  using out = typename complex_parts<D>::type;
  using real = math_t<out>;
  using mean_type = math_t<D>;
  struct acc {
    mean_type mean;
    real m2;
    std::int64_t n;
  };
  static constexpr const char* name = "add";
  static constexpr bool has_identity = true;
  double ddof = 0;
  CUNP_HD acc identity() const { return {mean_type(0), real(0), 0}; }
  CUNP_HD acc load(const V& v, std::int64_t) const {
    const auto x = convert<mean_type>(convert<math_t<V>>(v));
    if constexpr (SkipNaN)
      if (nan_any(x)) return identity();
    return {x, real(0), 1};
  }
  CUNP_HD acc combine(const acc& a, const acc& b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const std::int64_t n = a.n + b.n;
    // The weight in the result's precision: a double division per element held var over rows
    // of float32 at 0.46 of copy bandwidth on the H200.
    const real fb = real(b.n) / real(n);
    const mean_type d = b.mean - a.mean;
    mean_type mean;
    if constexpr (is_complex_v<mean_type>)
      mean = mean_type(a.mean.re + d.re * fb, a.mean.im + d.im * fb);
    else
      mean = a.mean + d * fb;
    return {mean, a.m2 + b.m2 + abs2(d) * real(a.n) * fb, n};
  }
  /// Two passes over B elements held in registers (their mean, then their squared deviations),
  /// merged into a running accumulator by one combine: combine's division for every element
  /// held var over rows of float32 at 0.52 of copy on the H200. (nanvar: NaNs need the count.)
  template <class T, int B>
    requires(!SkipNaN)
  CUNP_HD acc load_batch(const T (&x)[B]) const {
    mean_type v[B], sum = mean_type(0);
    for (int k = 0; k < B; ++k) {
      v[k] = convert<mean_type>(convert<math_t<V>>(x[k]));
      sum = sum + v[k];
    }
    const mean_type mean = div_count(sum, B);
    real m2 = real(0);
    for (int k = 0; k < B; ++k) m2 = m2 + abs2(v[k] - mean);
    return {mean, m2, B};
  }
  CUNP_HD out finish(const acc& a, std::int64_t) const {
    const double dof = double(a.n) - ddof;
    real v = a.m2 / real(dof > 0 ? dof : 0);
    // NumPy subtracts the mean from every element: an infinity gives inf - inf, so the variance
    // is NaN, whichever order the merges met the elements in ([1, inf] would merge to inf).
    if (!all_finite(a.mean)) v = nan_v<real>;
    // numpy.nanvar of floating input makes a slice with no degrees of freedom NaN (numpy.var,
    // and nanvar of integers, divide by zero: inf).
    if constexpr (SkipNaN && !std::is_integral_v<V>)
      if (dof <= 0) v = nan_v<real>;
    if constexpr (Sqrt) v = real_sqrt(v);
    return convert<out>(v);
  }
};

}  // namespace cunp::detail
