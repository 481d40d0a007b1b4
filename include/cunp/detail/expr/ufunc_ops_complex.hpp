// cunp/detail/expr/ufunc_ops_complex.hpp: the parts of complex numbers (see ufunc_ops.hpp). real and
// imag of arrays are views (cunp/ufunc.hpp); these functors serve expressions.
#pragma once
#include <type_traits>

namespace cunp::detail {

struct real_op : ufunc_loops<all_loops, part_t> {
  static constexpr const char* name = "real";
  template <class M>
  CUNP_HD auto operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return a.re;
    else
      return a;
  }
};
/// The imaginary part: 0 for real dtypes.
struct imag_op : ufunc_loops<all_loops, part_t> {
  static constexpr const char* name = "imag";
  template <class M>
  CUNP_HD auto operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return a.im;
    else
      return M(0);
  }
};
/// conjugate of bool computes in int8, as NumPy's (it has no bool loop).
struct conjugate_op : ufunc_loops<number_loops> {
  static constexpr const char* name = "conjugate";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return {a.re, -a.im};
    else
      return a;
  }
};

/// numpy.angle's loop for input dtype C: arctan2(0, x) of a real x, where the 0 is a Python int
/// (bool: float64; integers: the float they cast to; complex: the part's precision).
template <class C>
using angle_loop_t = std::conditional_t<
    std::is_same_v<C, bool>, double,
    std::conditional_t<is_complex_v<C>, C, typename ufunc_loops<real_loops>::template loop<C>>>;

/// numpy.angle(z, deg) on loop type L: arctan2(imag, real); in degrees, the radians are rounded
/// to L first and multiplied by 180/pi in L, as NumPy's `a *= 180 / pi`.
template <class L>
struct angle_op {
  static constexpr const char* name = "angle";
  template <class, class...>
  using loop_for = L;
  template <class>
  using out = part_t<L>;
  template <class>
  static constexpr bool accepts = true;
  bool deg;
  template <class M>
  CUNP_HD auto operator()(M z) const {
    using P = part_t<L>;
    using R = math_t<P>;
    R a;
    if constexpr (is_complex_v<M>)
      a = c_arg(z);
    else
      a = real_atan2(R(0), z);
    if (!deg) return a;
    return convert<R>(convert<P>(a)) * convert<R>(convert<P>(180 / pi_v<double>));
  }
};

}  // namespace cunp::detail
