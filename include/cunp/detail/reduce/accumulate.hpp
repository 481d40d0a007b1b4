// cunp/detail/reduce/accumulate.hpp: NumPy's dtypes for sums and products, shared by reductions (sum,
// prod, mean) and scans (cumsum, cumprod).
#pragma once
#include <cstdint>
#include <type_traits>

#include "cunp/detail/core/math.hpp"

namespace cunp::detail {

/// numpy.sum/prod/cumsum/cumprod's result dtype on T: bool and signed integers give int64 (the
/// platform long), unsigned integers uint64; floating and complex types keep their dtype.
template <class T>
using sum_result_t =
    std::conditional_t<std::is_same_v<T, bool> || (std::is_signed_v<T> && is_integer_v<T>),
                       std::int64_t,
                       std::conditional_t<is_integer_v<T>, std::uint64_t, T>>;

/// numpy.mean's result dtype: integers and bool give float64, others keep their dtype.
template <class T>
using mean_result_t = std::conditional_t<is_integer_v<T> || std::is_same_v<T, bool>, double, T>;

}  // namespace cunp::detail
