// cunp/detail/reduce/reduce_options.hpp: NumPy's keyword arguments of reductions beyond axis and
// dtype (keepdims, initial, where, ddof), as option structs.
//
// `cunp::sum(a, 1, {.keepdims = true, .initial = 10, .where = m})` is NumPy's
// `np.sum(a, 1, keepdims=True, initial=10, where=m)`. Each family has its own struct, so that a
// keyword NumPy does not take (mean's initial) does not compile.
#pragma once
#include <complex>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <variant>

#include "cunp/errors.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"

namespace cunp {

/// A C++ number passed at run time as Python passes `initial=`: kept in the widest C++ type of
/// its kind until the reduction knows its dtype.
class number_arg {
 public:
  template <class S>
    requires is_weak_scalar_v<S>
  number_arg(S v) {  // NOLINT(google-explicit-constructor): `.initial = 0`
    if constexpr (std::is_same_v<S, bool>) v_ = v;
    else if constexpr (std::is_integral_v<S> && std::is_signed_v<S>) v_ = std::int64_t(v);
    else if constexpr (std::is_integral_v<S>) v_ = std::uint64_t(v);
    else if constexpr (std::is_floating_point_v<S>) v_ = double(v);
    else v_ = std::complex<double>(v);
  }

  /// The value in dtype T as NumPy converts a Python scalar argument: an integer must fit an
  /// integer T, a complex number needs a complex (or bool) T; otherwise a cast.
  template <class T> [[nodiscard]] T as() const {
    return std::visit([](auto v) -> T {
      using S = decltype(v);
      if constexpr (is_complex_v<S> && !is_complex_v<T> && !std::is_same_v<T, bool>) {
        throw dtype_error(detail::is_integer_v<T> ? "int() argument must be a string, a bytes-like "
                                            "object or a real number, not 'complex'"
                                          : "float() argument must be a string or a real "
                                            "number, not 'complex'");
      } else {
        detail::check_weak_fits<T>(v);
        return detail::convert<T>(v);
      }
    }, v_);
  }

 private:
  std::variant<bool, std::int64_t, std::uint64_t, double, std::complex<double>> v_;
};

/// The keywords of numpy.sum, prod, nansum, nanprod, max, min, amax, amin, nanmax and nanmin.
/// `where` broadcasts to the input's shape; elements where it is false take no part.
struct reduce_options {
  bool keepdims = false;
  std::optional<number_arg> initial{};
  std::optional<ndarray<bool>> where{};
};
/// The keywords of numpy.mean, nanmean, any and all (no `initial`, as in NumPy).
struct mean_options {
  bool keepdims = false;
  std::optional<ndarray<bool>> where{};
};
/// The keywords of numpy.var, std, nanvar and nanstd.
struct var_options {
  double ddof = 0;
  bool keepdims = false;
  std::optional<ndarray<bool>> where{};
};

}  // namespace cunp
