// The ufunc table against NumPy: result dtypes of every ufunc for every dtype, values for each
// dtype family (special values, integer extremes, branch cuts), broadcasting, empty and 0-d
// operands, operators, in-place operators and the value errors.
//
// Tolerances: integer, bool, rounding, comparison, extrema, sign and real division/modulo results
// are exact (bit for bit, with the sign of zero). Functions computed by the C library differ
// between glibc, NumPy's SIMD loops and CUDA's math library by a few ulp each: float32 and float64
// results may differ from NumPy's by kFewUlps units of the type's epsilon; float16/bfloat16
// results, computed in float and rounded once, by one unit of theirs. Complex results compare
// normwise (each part within the tolerance times |expected|): products, which NumPy's SIMD loops
// fuse into fma, within kFewUlps; functions, which combine several real ones, within kComplexUlps.
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "cunp_test.hpp"
#include "ulps.hpp"

using namespace cunp_test;
using cunp::bfloat16;
using cunp::complex128;
using cunp::complex64;
using cunp::cpu;
using cunp::float16;
using std::int8_t, std::int16_t, std::int32_t, std::int64_t;
using std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t;

namespace {

// NumPy's SIMD loops and CUDA's math library are each within about 4 ulp on real functions.
constexpr int kFewUlps = 8;
// A complex function combines up to three real ones (CUDA: up to 4 ulp each) and NumPy's
// (glibc's) result has its own few ulp. The cpu backend measured within 3 ulp of NumPy.
constexpr int kComplexUlps = 16;

std::string golden_name(const std::string& name) { return "um_" + name; }
[[maybe_unused]] bool have_golden(const std::string& name) {
  return std::filesystem::exists(golden_dir() / (golden_name(name) + ".npy"));
}
template <class T>
ndarray<T> um(const std::string& name) {
  return golden<T>(golden_name(name));
}

/// Runs f on the case's inputs (moved to dev) and compares with NumPy's output, whose dtype
/// must be the expression's.
template <class... In, class F>
void check(cunp::device dev, const std::string& name, F f, int ulps = 0, bool zero_sign = true) {
  if (!have_golden(name + "_out")) {
    WARN(name << ": no golden data (bfloat16 cases need ml_dtypes)");
    return;
  }
  try {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      const auto got = cunp::eval(f(um<In>(name + "_" + std::to_string(K)).to(dev)...));
      using V = typename std::decay_t<decltype(got)>::value_type;
      CHECK(got.device() == dev);
      compare<V>(name, got, um<V>(name + "_out"), ulps, zero_sign);
    }
    (std::index_sequence_for<In...>());
  } catch (const std::exception& e) {
    FAIL_CHECK(name << ": " << e.what());
  }
}

/// Complex power a**b is exp(b log a): the relative error of log a (a few ulp, on either side) is
/// multiplied by |b log a| in the result, so results agree only to that factor more units.
template <class C>
void check_power(cunp::device dev, const std::string& name, bool zero_sign = true) {
  if (!have_golden(name + "_out")) return;
  const auto a = um<C>(name + "_0"), b = um<C>(name + "_1");
  const auto av = a.to_vector(), bv = b.to_vector();
  std::vector<double> scale(av.size());
  for (std::size_t i = 0; i < av.size(); ++i) {
    const auto z = as_complex(av[i]), e = as_complex(bv[i]);
    const double amp = std::abs(e) * std::abs(std::complex<double>(std::log(std::abs(z)), std::arg(z)));
    scale[i] = std::isfinite(amp) ? std::max(1.0, amp) : 1.0;
  }
  const auto got = cunp::eval(cunp::power(a.to(dev), b.to(dev)));
  CHECK(got.device() == dev);
  compare<C>(name, got, um<C>(name + "_out"), kComplexUlps, zero_sign, &scale);
}

template <class T>
std::string case_name(const char* ufunc) {
  return std::string(ufunc) + "_" + std::string(cunp::dtype_name_v<T>);
}
/// check() of "<ufunc>_<dtype>" for each dtype T, with one or two operands of type T.
template <class... T, class F>
void unary(cunp::device dev, const char* ufunc, F f, int ulps = 0) {
  (check<T>(dev, case_name<T>(ufunc), f, ulps), ...);
}
template <class... T, class F>
void binary(cunp::device dev, const char* ufunc, F f, int ulps = 0, bool zero_sign = true) {
  (check<T, T>(dev, case_name<T>(ufunc), f, ulps, zero_sign), ...);
}

#define UF(F) [](const auto&... x) { return F(x...); }

// ---------------------------------------------------------------------------------------------
// Result dtypes, decided at compile time, against NumPy's for every input dtype.

using all_types = std::tuple<bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                             uint64_t, float16, bfloat16, float, double, complex64, complex128>;
constexpr std::size_t n_types = std::tuple_size_v<all_types>;

/// cunp's result dtype of Op on operands X (as cunp::dtype's number), or -1 if it does not compile.
template <class Op, class... X>
constexpr int result_code() {
  using types = cunp::detail::node_types<Op, X...>;
  if constexpr (Op::template accepts<typename types::loop>)
    return int(cunp::dtype_of_v<typename types::out>);
  else
    return -1;
}
template <class T>
using arr = ndarray<T>;
template <class S>
using weak = cunp::detail::weak<S>;

template <class Op>
std::vector<int> unary_codes() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<int>{result_code<Op, arr<std::tuple_element_t<I, all_types>>>()...};
  }
  (std::make_index_sequence<n_types>());
}
/// Rows: the first operand's dtype; columns: the second's, then the weak scalars True, 1, 1.0, 1j.
template <class Op, int Extra = 0>
std::vector<int> binary_codes() {
  std::vector<int> out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto row = [&]<class A>(A*) {
      const auto rest =
          [&](auto... b) {  // b: std::type_identity of the second operand
            if constexpr (Extra == 0) {
              return std::vector<int>{result_code<Op, arr<A>, typename decltype(b)::type>()...};
            } else {
              return std::vector<int>{result_code<Op, arr<A>, typename decltype(b)::type,
                                                  typename decltype(b)::type>()...};
            }
          }(std::type_identity<arr<std::tuple_element_t<I, all_types>>>()...,
            std::type_identity<weak<bool>>(), std::type_identity<weak<int>>(),
            std::type_identity<weak<double>>(), std::type_identity<weak<complex128>>());
      out.insert(out.end(), rest.begin(), rest.end());
    };
    (row(static_cast<std::tuple_element_t<I, all_types>*>(nullptr)), ...);
  }
  (std::make_index_sequence<n_types>());
  return out;
}

/// skip_bfloat16: ml_dtypes has no loop for the ufunc (NumPy computes bfloat16 in float32).
[[maybe_unused]] void require_codes(const std::string& ufunc, const std::vector<int>& ours,
                   bool skip_bfloat16 = false) {
  const auto numpy = um<int8_t>("types_" + ufunc).to_vector();
  REQUIRE(numpy.size() == ours.size());
  const std::size_t cols = numpy.size() == n_types ? 1 : n_types + 4;
  constexpr std::size_t bf16 = std::size_t(cunp::dtype::bfloat16);
  for (std::size_t i = 0; i < numpy.size(); ++i) {
    if (numpy[i] == -2) continue;  // bfloat16 without ml_dtypes, or weak with bfloat16
    if (skip_bfloat16 && (i / cols == bf16 || (cols > 1 && i % cols == bf16))) continue;
    const auto name = [](std::size_t k) {
      return k < n_types ? std::string(cunp::dtype_name(cunp::dtype(k)))
                         : "weak " + std::to_string(k - n_types);
    };
    INFO(ufunc << "(" << name(i / cols) << (cols > 1 ? ", " + name(i % cols) : "") << ")");
    CHECK(ours[i] == numpy[i]);
  }
}

}  // namespace

// Test cases are spread over four parts (harness/parts.hpp), in file order.
#if CUNP_IN_PART(0)
TEST_CASE("ufunc result dtypes match NumPy's for every dtype and weak scalar",
          "[ufunc_math][types]") {
  namespace d = cunp::detail;
  static_assert(int(cunp::dtype::bool_) == 0 && int(cunp::dtype::complex128) == 14);
  require_codes("negative", unary_codes<d::negative_op>());
  require_codes("positive", unary_codes<d::positive_op>());
  require_codes("absolute", unary_codes<d::absolute_op>());
  require_codes("fabs", unary_codes<d::fabs_op>());
  require_codes("sign", unary_codes<d::sign_op>());
  require_codes("sqrt", unary_codes<d::sqrt_op>());
  require_codes("cbrt", unary_codes<d::cbrt_op>());
  require_codes("square", unary_codes<d::square_op>());
  require_codes("reciprocal", unary_codes<d::reciprocal_op>());
  require_codes("deg2rad", unary_codes<d::deg2rad_op>());
  require_codes("rad2deg", unary_codes<d::rad2deg_op>());
  require_codes("floor", unary_codes<d::floor_op>());
  require_codes("ceil", unary_codes<d::ceil_op>());
  require_codes("trunc", unary_codes<d::trunc_op>());
  require_codes("rint", unary_codes<d::rint_op>());
  require_codes("isnan", unary_codes<d::isnan_op>());
  require_codes("isinf", unary_codes<d::isinf_op>());
  require_codes("isfinite", unary_codes<d::isfinite_op>());
  require_codes("signbit", unary_codes<d::signbit_op>());
  require_codes("logical_not", unary_codes<d::logical_not_op>());
  require_codes("invert", unary_codes<d::invert_op>());
  require_codes("conjugate", unary_codes<d::conjugate_op>());
  require_codes("exp", unary_codes<d::exp_op>());
  require_codes("exp2", unary_codes<d::exp2_op>());
  require_codes("expm1", unary_codes<d::expm1_op>());
  require_codes("log", unary_codes<d::log_op>());
  require_codes("log2", unary_codes<d::log2_op>());
  require_codes("log10", unary_codes<d::log10_op>());
  require_codes("log1p", unary_codes<d::log1p_op>());
  require_codes("sin", unary_codes<d::sin_op>());
  require_codes("cos", unary_codes<d::cos_op>());
  require_codes("tan", unary_codes<d::tan_op>());
  require_codes("arcsin", unary_codes<d::arcsin_op>());
  require_codes("arccos", unary_codes<d::arccos_op>());
  require_codes("arctan", unary_codes<d::arctan_op>());
  require_codes("sinh", unary_codes<d::sinh_op>());
  require_codes("cosh", unary_codes<d::cosh_op>());
  require_codes("tanh", unary_codes<d::tanh_op>());
  require_codes("arcsinh", unary_codes<d::arcsinh_op>());
  require_codes("arccosh", unary_codes<d::arccosh_op>());
  require_codes("arctanh", unary_codes<d::arctanh_op>());
  require_codes("real", unary_codes<d::real_op>());
  require_codes("imag", unary_codes<d::imag_op>());
  // round and angle choose their loop from the input's dtype.
  std::vector<int> round_codes, angle_codes;
  [&]<class... T>(std::tuple<T...>*) {
    round_codes = {
        int(cunp::dtype_of_v<typename decltype(cunp::round(ndarray<T>()))::value_type>)...};
    angle_codes = {
        int(cunp::dtype_of_v<typename decltype(cunp::angle(ndarray<T>()))::value_type>)...};
  }(static_cast<all_types*>(nullptr));
  require_codes("round", round_codes);
  require_codes("angle", angle_codes);

  require_codes("add", binary_codes<d::add_op>());
  require_codes("subtract", binary_codes<d::subtract_op>());
  require_codes("multiply", binary_codes<d::multiply_op>());
  require_codes("divide", binary_codes<d::divide_op>());
  require_codes("floor_divide", binary_codes<d::floor_divide_op>());
  require_codes("remainder", binary_codes<d::remainder_op>());
  require_codes("fmod", binary_codes<d::fmod_op>());
  require_codes("power", binary_codes<d::power_op>());
  require_codes("arctan2", binary_codes<d::arctan2_op>());
  require_codes("hypot", binary_codes<d::hypot_op>());
  require_codes("copysign", binary_codes<d::copysign_op>());
  require_codes("maximum", binary_codes<d::maximum_op>());
  require_codes("minimum", binary_codes<d::minimum_op>());
  require_codes("fmax", binary_codes<d::fmax_op>());
  require_codes("fmin", binary_codes<d::fmin_op>());
  require_codes("logical_and", binary_codes<d::logical_and_op>());
  require_codes("logical_or", binary_codes<d::logical_or_op>());
  require_codes("logical_xor", binary_codes<d::logical_xor_op>());
  require_codes("bitwise_and", binary_codes<d::bitwise_and_op>());
  require_codes("bitwise_or", binary_codes<d::bitwise_or_op>());
  require_codes("bitwise_xor", binary_codes<d::bitwise_xor_op>());
  require_codes("left_shift", binary_codes<d::left_shift_op>());
  require_codes("right_shift", binary_codes<d::right_shift_op>());
  require_codes("equal", binary_codes<d::equal_op>());
  require_codes("less", binary_codes<d::less_op>());
  require_codes("clip", binary_codes<d::clip_op, 1>(), true);
}
#endif

#if CUNP_IN_PART(1)
// NumPy's per-operand loop resolution, seen alike by g++ and by nvcc's host and device passes
// (a disagreement is a kernel the device image does not hold).
static_assert(std::is_same_v<decltype(cunp::arctan2(std::declval<ndarray<int8_t>>(),
                                                    std::declval<ndarray<uint16_t>>()))::loop_type,
                             float>);

TEST_CASE("arithmetic ufuncs match NumPy", "[ufunc_math][arith]") {
  on_every_backend([](cunp::device dev) {
    binary<bool, int32_t, uint8_t, float, complex64>(dev, "add", UF(cunp::add));
    binary<int8_t, uint16_t, double, complex128>(dev, "subtract", UF(cunp::subtract));
    binary<bool, int64_t, float16>(dev, "multiply", UF(cunp::multiply));
    binary<bool, int32_t, float>(dev, "divide", UF(cunp::divide));
    // NumPy's SIMD loops fuse complex products (fma): the last bits differ by platform.
    binary<complex64>(dev, "multiply", UF(cunp::multiply), kFewUlps);
    binary<complex128>(dev, "divide", UF(cunp::divide), kFewUlps);
    binary<bool, int8_t, int64_t, uint32_t, float16, float, double>(dev, "floor_divide",
                                                                    UF(cunp::floor_divide));
    binary<int8_t, int64_t, uint8_t, float16, float, double>(dev, "remainder", UF(cunp::remainder));
    binary<int16_t, uint64_t, float, double>(dev, "fmod", UF(cunp::fmod));
    binary<bool, int8_t, int64_t, uint8_t>(dev, "power", UF(cunp::power));
    binary<float16, float, double>(dev, "power", UF(cunp::power), kFewUlps);
    // Zeros made from a NaN by copysign take the NaN's sign, which the platform chooses.
    check_power<complex64>(dev, "power_complex64", false);
    check_power<complex128>(dev, "power_complex128", false);
    check_power<complex64>(dev, "power_small_complex64");
    check_power<complex128>(dev, "power_small_complex128");
    unary<int8_t, uint8_t, float, complex64>(dev, "negative", UF(cunp::negative));
    unary<int16_t, complex128>(dev, "positive", UF(cunp::positive));
    unary<bool, int8_t, int64_t, uint16_t, float16, double>(dev, "absolute", UF(cunp::absolute));
    unary<complex64, complex128>(dev, "absolute", UF(cunp::abs), kFewUlps);
    unary<float, int16_t>(dev, "fabs", UF(cunp::fabs));
    unary<int32_t, uint8_t, float16, double>(dev, "sign", UF(cunp::sign));
    unary<complex64, complex128>(dev, "sign", UF(cunp::sign), kFewUlps);
    unary<bool, int32_t, float>(dev, "square", UF(cunp::square));
    unary<complex128>(dev, "square", UF(cunp::square), kFewUlps);
    unary<int32_t, uint8_t, double>(dev, "reciprocal", UF(cunp::reciprocal));
    unary<complex64, complex128>(dev, "reciprocal", UF(cunp::reciprocal), kFewUlps);
  });
}

TEST_CASE("extrema and clip match NumPy, NaN rules included", "[ufunc_math][extrema]") {
  on_every_backend([](cunp::device dev) {
    // NumPy's SIMD loops pick either zero for maximum(+0.0, -0.0): zero signs are not compared.
    binary<bool, int8_t, uint64_t, float, double, complex64>(dev, "maximum", UF(cunp::maximum), 0,
                                                             false);
    binary<int16_t, float16, double, complex128>(dev, "minimum", UF(cunp::minimum), 0, false);
    binary<int32_t, float, double, complex128>(dev, "fmax", UF(cunp::fmax), 0, false);
    binary<uint8_t, double, complex64>(dev, "fmin", UF(cunp::fmin), 0, false);
    check<bool, bool, bool>(dev, "clip_bool", UF(cunp::clip));
    check<int8_t, int8_t, int8_t>(dev, "clip_int8", UF(cunp::clip));
    check<double, double, double>(dev, "clip_float64", UF(cunp::clip), 0, false);
    check<complex128, complex128, complex128>(dev, "clip_complex128", UF(cunp::clip), 0, false);
    check<float>(dev, "clip_float32_scalars",
                 [](const auto& a) { return cunp::clip(a, 0.5, 2.5); });
    check<uint8_t>(dev, "clip_uint8_wide", [](const auto& a) { return cunp::clip(a, -1, 300); });
    check<int16_t>(dev, "clip_int16_scalars", [](const auto& a) { return cunp::clip(a, -100, 7); });
    const auto x = cunp::asarray<float>({-3, 0.5f, 9}, {3}, dev);
    require_values<float>(cunp::eval(cunp::clip(x, cunp::none, 1.0f)), {-3, 0.5f, 1}, {3});
    require_values<float>(cunp::eval(cunp::clip(x, 0.0f, cunp::none)), {0, 0.5f, 9}, {3});
  });
}

TEST_CASE("rounding matches NumPy: half to even, decimals by NumPy's algorithm",
          "[ufunc_math][round]") {
  on_every_backend([](cunp::device dev) {
    unary<int8_t, float, double, complex64>(dev, "rint", UF(cunp::rint));
    unary<bool, int32_t, float16, float, double>(dev, "floor", UF(cunp::floor));
    unary<uint16_t, float, double>(dev, "ceil", UF(cunp::ceil));
    unary<int64_t, float, double>(dev, "trunc", UF(cunp::trunc));
    const auto rounded = [&]<class T>(T*, std::initializer_list<int> decimals) {
      for (const int n : decimals) {
        const std::string name =
            case_name<T>("round") + "_" + (n < 0 ? "m" : "") + std::to_string(std::abs(n));
        check<T>(dev, name, [n](const auto& a) { return cunp::round(a, n); });
      }
    };
    rounded(static_cast<double*>(nullptr),
            {0, 1, 2, 3, -1, -2, 5, 17, 22, 23, -22, -23, 300, 308, 309, 400, -308, -309, -400});
    rounded(static_cast<float*>(nullptr), {0, 1, 2, -1, 3, 38, 39, -39, 40});
    rounded(static_cast<float16*>(nullptr), {0, 1, 2, -1, -4, 5});
    rounded(static_cast<bfloat16*>(nullptr), {0, 1, -1});
    rounded(static_cast<complex128*>(nullptr), {0, 1, -1, 23, 309, -309});
    rounded(static_cast<int64_t*>(nullptr), {0, 3, -1, -2, -18, -22, -23, 400});
    rounded(static_cast<uint8_t*>(nullptr), {-1, -2});
    rounded(static_cast<int8_t*>(nullptr), {-1});
    rounded(static_cast<bool*>(nullptr), {0});
    const auto h = cunp::asarray<double>({0.5, 1.5, 2.5, -0.5, -1.5, 2.675}, {6}, dev);
    require_values<double>(cunp::eval(cunp::round(h)), {0, 2, 2, -0.0, -2, 3}, {6});
    // 2.675 * 100 rounds to 267.5: NumPy gives 2.68 where Python's round gives 2.67.
    require_values<double>(cunp::eval(cunp::round(h, 2)), {0.5, 1.5, 2.5, -0.5, -1.5, 2.68}, {6});
  });
}

TEST_CASE("round with decimals at the ends of int gives NumPy's NaN at once",
          "[ufunc_math][round][errors]") {
  on_every_backend([](cunp::device dev) {
    constexpr int lowest = std::numeric_limits<int>::min();
    constexpr int highest = std::numeric_limits<int>::max();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto x = cunp::asarray<double>({1.5, -2.5, 0.0, INFINITY, NAN, 1e300}, {6}, dev);
    const auto z = cunp::asarray<complex128>({{1.5, 2}, {0, -1e300}}, {2}, dev);
    const auto i = cunp::asarray<int64_t>({-7, 0, 12345, int64_t(1) << 62}, {4}, dev);
    const auto i8 = cunp::asarray<int8_t>({-7, 0, 125}, {3}, dev);
    // 10**|decimals| is inf beyond 308 in NumPy's float64 factor: x * inf / inf and
    // x / inf * inf are NaN, also for 0.
    for (const int n : {highest, -highest, lowest}) {
      INFO("decimals " << n);
      const auto start = std::chrono::steady_clock::now();
      require_values<double>(cunp::eval(cunp::round(x, n)), std::vector<double>(6, nan), {6});
      // NumPy multiplies its factor up to 10**(2**31 - 1) one step at a time (seconds).
      CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
      require_values<float>(cunp::eval(cunp::round(x.astype<float>(), n)),
                            std::vector<float>(6, float(nan)), {6});
      require_values<float16>(cunp::eval(cunp::round(x.astype<float16>(), n)),
                              std::vector<float16>(6, float16(nan)), {6});
      require_values<complex128>(cunp::eval(cunp::round(z, n)),
                                 std::vector<complex128>(2, complex128(nan, nan)), {2});
    }
    // Integers are unchanged for decimals >= 0; below, NaN becomes 0 as in every cunp cast
    // (NumPy's NaN-to-integer cast depends on the CPU: int64 min on x86, 0 for int8).
    require_values<int64_t>(cunp::eval(cunp::round(i, highest)), i.to_vector(), {4});
    require_values<int64_t>(cunp::eval(cunp::round(i, -highest)), {0, 0, 0, 0}, {4});
    require_values<int64_t>(cunp::eval(cunp::round(i, lowest)), {0, 0, 0, 0}, {4});
    require_values<int8_t>(cunp::eval(cunp::round(i8, lowest)), {0, 0, 0}, {3});
  });
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("exponential, logarithmic and trigonometric ufuncs match NumPy",
          "[ufunc_math][transcendental]") {
  on_every_backend([](cunp::device dev) {
    unary<float, double>(dev, "sqrt", UF(cunp::sqrt), kFewUlps);
    unary<complex64, complex128>(dev, "sqrt", UF(cunp::sqrt), kComplexUlps);
    unary<float, double>(dev, "exp", UF(cunp::exp), kFewUlps);
    unary<complex64, complex128>(dev, "exp", UF(cunp::exp), kComplexUlps);
    unary<float, double>(dev, "exp2", UF(cunp::exp2), kFewUlps);
    unary<complex64, complex128>(dev, "exp2", UF(cunp::exp2), kComplexUlps);
    unary<float, double>(dev, "expm1", UF(cunp::expm1), kFewUlps);
    unary<complex64, complex128>(dev, "expm1", UF(cunp::expm1), kComplexUlps);
    unary<float, double>(dev, "log", UF(cunp::log), kFewUlps);
    unary<complex64, complex128>(dev, "log", UF(cunp::log), kComplexUlps);
    unary<float, double>(dev, "log2", UF(cunp::log2), kFewUlps);
    unary<complex64, complex128>(dev, "log2", UF(cunp::log2), kComplexUlps);
    unary<float, double>(dev, "log10", UF(cunp::log10), kFewUlps);
    unary<complex64, complex128>(dev, "log10", UF(cunp::log10), kComplexUlps);
    unary<float, double>(dev, "log1p", UF(cunp::log1p), kFewUlps);
    unary<complex64, complex128>(dev, "log1p", UF(cunp::log1p), kComplexUlps);
    unary<float, double>(dev, "sin", UF(cunp::sin), kFewUlps);
    unary<complex64, complex128>(dev, "sin", UF(cunp::sin), kComplexUlps);
    unary<float, double>(dev, "cos", UF(cunp::cos), kFewUlps);
    unary<complex64, complex128>(dev, "cos", UF(cunp::cos), kComplexUlps);
    unary<float, double>(dev, "tan", UF(cunp::tan), kFewUlps);
    unary<complex64, complex128>(dev, "tan", UF(cunp::tan), kComplexUlps);
    unary<float, double>(dev, "arcsin", UF(cunp::arcsin), kFewUlps);
    unary<complex64, complex128>(dev, "arcsin", UF(cunp::arcsin), kComplexUlps);
    unary<float, double>(dev, "arccos", UF(cunp::arccos), kFewUlps);
    unary<complex64, complex128>(dev, "arccos", UF(cunp::arccos), kComplexUlps);
    unary<float, double>(dev, "arctan", UF(cunp::arctan), kFewUlps);
    unary<complex64, complex128>(dev, "arctan", UF(cunp::arctan), kComplexUlps);
    unary<float, double>(dev, "sinh", UF(cunp::sinh), kFewUlps);
    unary<complex64, complex128>(dev, "sinh", UF(cunp::sinh), kComplexUlps);
    unary<float, double>(dev, "cosh", UF(cunp::cosh), kFewUlps);
    unary<complex64, complex128>(dev, "cosh", UF(cunp::cosh), kComplexUlps);
    unary<float, double>(dev, "tanh", UF(cunp::tanh), kFewUlps);
    unary<complex64, complex128>(dev, "tanh", UF(cunp::tanh), kComplexUlps);
    unary<float, double>(dev, "arcsinh", UF(cunp::arcsinh), kFewUlps);
    unary<complex64, complex128>(dev, "arcsinh", UF(cunp::arcsinh), kComplexUlps);
    unary<float, double>(dev, "arccosh", UF(cunp::arccosh), kFewUlps);
    unary<complex64, complex128>(dev, "arccosh", UF(cunp::arccosh), kComplexUlps);
    unary<float, double>(dev, "arctanh", UF(cunp::arctanh), kFewUlps);
    unary<complex64, complex128>(dev, "arctanh", UF(cunp::arctanh), kComplexUlps);
    unary<float16>(dev, "sqrt", UF(cunp::sqrt), kFewUlps);
    unary<float16>(dev, "exp", UF(cunp::exp), kFewUlps);
    unary<float16>(dev, "log", UF(cunp::log), kFewUlps);
    unary<float16>(dev, "sin", UF(cunp::sin), kFewUlps);
    unary<float16>(dev, "arctan", UF(cunp::arctan), kFewUlps);
    unary<float16>(dev, "tanh", UF(cunp::tanh), kFewUlps);
    unary<float16>(dev, "log1p", UF(cunp::log1p), kFewUlps);
    unary<bfloat16>(dev, "sqrt", UF(cunp::sqrt), kFewUlps);
    unary<bfloat16>(dev, "exp", UF(cunp::exp), kFewUlps);
    unary<bfloat16>(dev, "sin", UF(cunp::sin), kFewUlps);
    unary<int8_t, int16_t, uint32_t>(dev, "sqrt", UF(cunp::sqrt), kFewUlps);  // f16, f32, f64
    unary<bool>(dev, "exp", UF(cunp::exp), kFewUlps);
    unary<int64_t>(dev, "log", UF(cunp::log), kFewUlps);
    unary<int8_t, float, double>(dev, "cbrt", UF(cunp::cbrt), kFewUlps);
    unary<float, double>(dev, "deg2rad", UF(cunp::deg2rad));
    unary<float16, float>(dev, "rad2deg", UF(cunp::rad2deg));
    binary<float16, float, double>(dev, "arctan2", UF(cunp::arctan2), kFewUlps);
    check<int8_t, uint16_t>(dev, "arctan2_int8_uint16", UF(cunp::arctan2), kFewUlps);
    binary<float, double>(dev, "hypot", UF(cunp::hypot), kFewUlps);
    binary<float, double>(dev, "copysign", UF(cunp::copysign));
    check<int8_t>(dev, "copysign_int8_scalar", [](const auto& a) { return cunp::copysign(a, -1); });
  });
}

TEST_CASE("comparisons, logical, bitwise and classification ufuncs match NumPy",
          "[ufunc_math][logic]") {
  on_every_backend([](cunp::device dev) {
    binary<complex128>(dev, "equal", UF(cunp::equal));
    binary<complex128>(dev, "not_equal", UF(cunp::not_equal));
    binary<complex128, complex64, float16>(dev, "less", UF(cunp::less));
    binary<complex128>(dev, "less_equal", UF(cunp::less_equal));
    binary<complex128>(dev, "greater", UF(cunp::greater));
    binary<complex128>(dev, "greater_equal", UF(cunp::greater_equal));
    binary<double, complex64, int8_t>(dev, "logical_and", UF(cunp::logical_and));
    binary<double, complex64>(dev, "logical_or", UF(cunp::logical_or));
    binary<double, complex64>(dev, "logical_xor", UF(cunp::logical_xor));
    unary<int32_t, float, complex128>(dev, "logical_not", UF(cunp::logical_not));
    binary<bool, int8_t, uint64_t, int64_t>(dev, "bitwise_and", UF(cunp::bitwise_and));
    binary<bool, int8_t, uint64_t>(dev, "bitwise_or", UF(cunp::bitwise_or));
    binary<bool, int8_t, uint64_t>(dev, "bitwise_xor", UF(cunp::bitwise_xor));
    unary<bool, int8_t, uint16_t, int64_t>(dev, "invert", UF(cunp::invert));
    binary<int8_t, uint8_t, int64_t, uint64_t>(dev, "left_shift", UF(cunp::left_shift));
    binary<int8_t, uint8_t, int64_t, uint64_t>(dev, "right_shift", UF(cunp::right_shift));
    unary<int32_t, float16, float, double, complex64>(dev, "isnan", UF(cunp::isnan));
    unary<int32_t, float16, float, double, complex64>(dev, "isinf", UF(cunp::isinf));
    unary<int32_t, float16, float, double, complex64>(dev, "isfinite", UF(cunp::isfinite));
    unary<int8_t, float, double>(dev, "signbit", UF(cunp::signbit));
    check<double>(dev, "signbit_negnan", UF(cunp::signbit));
  });
}

// NumPy 2 computes the logical ufuncs of operands of different dtypes (a Python scalar included)
// in the bool loop: each operand's truth in its own type, so a scalar neither underflows nor
// overflows in the array's dtype.
#endif

#if CUNP_IN_PART(3)
TEST_CASE("logical ufuncs take each operand's truth in its own type (C++ scalars too)",
          "[ufunc_math][logic]") {
  on_every_backend([](cunp::device dev) {
    const auto f32 = cunp::ones<float>({2}, dev);
    const auto i8 = cunp::asarray<int8_t>({0, 1}, {2}, dev);
    const std::vector<bool> both{true, true}, second{false, true}, first{true, false};
    require_values<bool>(cunp::eval(cunp::logical_and(f32, 1e-300)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_and(1e-300, f32)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_or(cunp::zeros<float>({2}, dev), 1e-300)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_xor(f32, 1e-300)), {false, false}, {2});
    require_values<bool>(cunp::eval(cunp::logical_and(cunp::ones<int8_t>({2}, dev), 300)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_or(300, cunp::zeros<int8_t>({2}, dev))), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_and(cunp::ones<uint8_t>({2}, dev), -1)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_and(i8, 0.5)), second, {2});
    require_values<bool>(cunp::eval(cunp::logical_or(i8, 0.0)), second, {2});
    const auto h = cunp::asarray<float16>({float16(0.f), float16(1.f)}, {2}, dev);
    require_values<bool>(cunp::eval(cunp::logical_and(h, 1e-10)), second, {2});
    const auto z = cunp::asarray<complex64>({{0, 0}, {1, 0}}, {2}, dev);
    require_values<bool>(cunp::eval(cunp::logical_and(z, complex128(0, 1e-300))), second, {2});
    require_values<bool>(cunp::eval(cunp::logical_xor(complex128(0, 1e-300), z)), first, {2});
    require_values<bool>(
        cunp::eval(cunp::logical_and(cunp::asarray<float>({0, 1}, {2}, dev), complex128(0, 1e-300))),
        second, {2});
    // NaN is true.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    require_values<bool>(cunp::eval(cunp::logical_or(cunp::zeros<float>({2}, dev), nan)), both, {2});
    require_values<bool>(cunp::eval(cunp::logical_xor(i8, nan)), first, {2});
    require_values<bool>(cunp::eval(cunp::logical_and(cunp::asarray<bool>({false, true}, {2}, dev), 2)),
                         second, {2});
    // && and || are these ufuncs.
    require_values<bool>(cunp::eval(f32 && 1e-300), both, {2});
    require_values<bool>(cunp::eval(1e-300 && f32), both, {2});
    require_values<bool>(cunp::eval(cunp::zeros<int8_t>({2}, dev) || 300), both, {2});
    require_values<bool>(cunp::eval(cunp::zeros<float>({2}, dev) || 1e-300), both, {2});
    // A C++ integer must fit the type that the ufunc computes in, not the common dtype: NumPy
    // converts it to the loop's dtype (float16 for arctan2 of int8, float64 for divide).
    require_values<float16>(cunp::eval(cunp::arctan2(cunp::ones<int8_t>({1}, dev), 300)),
                            {float16(0.003334f)}, {1});
    require_values<double>(cunp::eval(cunp::divide(cunp::ones<int8_t>({1}, dev), 300)),
                           {1.0 / 300}, {1});
    REQUIRE_THROWS_WITH(cunp::add(cunp::ones<int8_t>({1}, dev), 300),
                        "Python integer 300 out of bounds for int8");
  });
}

TEST_CASE("real, imag, conj and angle match NumPy; real and imag of arrays are views",
          "[ufunc_math][complex]") {
  on_every_backend([](cunp::device dev) {
    const auto parts = [&]<class C>(C*) {
      using R = typename C::value_type;
      const std::string d(cunp::dtype_name_v<C>);
      const auto z = um<C>("parts_" + d).to(dev);
      compare<R>("real_" + d, cunp::real(z), um<R>("real_" + d), 0, true);
      compare<R>("imag_" + d, cunp::imag(z), um<R>("imag_" + d), 0, true);
      REQUIRE(cunp::real(z).storage() == z.storage());  // views, as NumPy's
    };
    parts(static_cast<complex64*>(nullptr));
    parts(static_cast<complex128*>(nullptr));
    check<complex128>(
        dev, "real_exp_complex128", [](const auto& z) { return cunp::real(cunp::exp(z)); },
        kComplexUlps);
    check<complex128>(
        dev, "imag_exp_complex128", [](const auto& z) { return cunp::imag(cunp::exp(z)); },
        kComplexUlps);
    unary<bool, int32_t, complex64, complex128>(dev, "conjugate", UF(cunp::conj));
    unary<bool, int8_t, float16, double, complex64, complex128>(dev, "angle", UF(cunp::angle),
                                                                kFewUlps);
    const auto deg = [](const auto& z) { return cunp::angle(z, true); };
    check<float16>(dev, "angle_deg_float16", deg, kFewUlps);
    check<float>(dev, "angle_deg_float32", deg, kFewUlps);
    check<complex128>(dev, "angle_deg_complex128", deg, kFewUlps);

    // Writing through the views sets the parts, as z.real[...] = ... in NumPy.
    const auto z = cunp::asarray<complex64>({{1, 2}, {3, 4}, {5, 6}}, {3}, dev);
    cunp::copyto(cunp::real(z), cunp::asarray<float>({-1, -2, -3}, {3}, dev));
    cunp::copyto(cunp::imag(z), cunp::asarray<float>({7, 8, 9}, {3}, dev));
    require_values<complex64>(z, {{-1, 7}, {-2, 8}, {-3, 9}}, {3});
    const auto rev = cunp::ndarray<complex64>(z.storage(), 2, {3}, {-1});  // z[::-1]
    require_values<float>(cunp::imag(rev).copy(), {9, 8, 7}, {3});
    const auto r = cunp::arange<double>(0, 3, 1, dev);
    REQUIRE(cunp::real(r).storage() == r.storage());
    require_values<double>(cunp::eval(cunp::imag(r)), {0, 0, 0}, {3});
  });
}

TEST_CASE("operators and in-place operators are the ufuncs", "[ufunc_math][operators]") {
  on_every_backend([](cunp::device dev) {
    const auto a8 = [&](const std::string& name, int k) {
      return um<int8_t>(name + "_" + std::to_string(k)).to(dev);
    };
    const auto want8 = [](const std::string& name) { return um<int8_t>(name + "_out"); };
    compare<int8_t>("%", cunp::eval(a8("remainder_int8", 0) % a8("remainder_int8", 1)),
                    want8("remainder_int8"), 0, true);
    compare<int8_t>("&", cunp::eval(a8("bitwise_and_int8", 0) & a8("bitwise_and_int8", 1)),
                    want8("bitwise_and_int8"), 0, true);
    compare<int8_t>("|", cunp::eval(a8("bitwise_or_int8", 0) | a8("bitwise_or_int8", 1)),
                    want8("bitwise_or_int8"), 0, true);
    compare<int8_t>("^", cunp::eval(a8("bitwise_xor_int8", 0) ^ a8("bitwise_xor_int8", 1)),
                    want8("bitwise_xor_int8"), 0, true);
    compare<int8_t>("<<", cunp::eval(a8("left_shift_int8", 0) << a8("left_shift_int8", 1)),
                    want8("left_shift_int8"), 0, true);
    compare<int8_t>(">>", cunp::eval(a8("right_shift_int8", 0) >> a8("right_shift_int8", 1)),
                    want8("right_shift_int8"), 0, true);
    compare<int8_t>("~", cunp::eval(~a8("invert_int8", 0)), want8("invert_int8"), 0, true);
    compare<int8_t>("unary -", cunp::eval(-a8("negative_int8", 0)), want8("negative_int8"), 0,
                    true);
    const auto f = [&](const std::string& name, int k) {
      return um<double>(name + "_" + std::to_string(k)).to(dev);
    };
    compare<bool>("&&", cunp::eval(f("logical_and_float64", 0) && f("logical_and_float64", 1)),
                  um<bool>("logical_and_float64_out"), 0, true);
    compare<bool>("||", cunp::eval(f("logical_or_float64", 0) || f("logical_or_float64", 1)),
                  um<bool>("logical_or_float64_out"), 0, true);
    compare<bool>("!", cunp::eval(!um<float>("logical_not_float32_0").to(dev)),
                  um<bool>("logical_not_float32_out"), 0, true);
    compare<complex128>("unary +", cunp::eval(+um<complex128>("positive_complex128_0").to(dev)),
                        um<complex128>("positive_complex128_out"), 0, true);

    const auto inplace = [&](const char* name, auto op) {
      const auto x = a8(name, 0).copy();
      op(x, a8(name, 1));
      compare<int8_t>(std::string(name) + " in place", x, want8(name), 0, true);
    };
    inplace("remainder_int8", [](const auto& x, const auto& y) { x %= y; });
    inplace("bitwise_and_int8", [](const auto& x, const auto& y) { x &= y; });
    inplace("bitwise_or_int8", [](const auto& x, const auto& y) { x |= y; });
    inplace("bitwise_xor_int8", [](const auto& x, const auto& y) { x ^= y; });
    inplace("left_shift_int8", [](const auto& x, const auto& y) { x <<= y; });
    inplace("right_shift_int8", [](const auto& x, const auto& y) { x >>= y; });
    auto i = cunp::arange<int32_t>(0, 4, 1, dev);
    REQUIRE_THROWS_WITH(i %= 2.5,
                        "Cannot cast ufunc 'remainder' output from dtype('float64') to "
                        "dtype('int32') with casting rule 'same_kind'");
  });
}

TEST_CASE("broadcasting, empty and 0-d operands, strided views", "[ufunc_math][shapes]") {
  on_every_backend([](cunp::device dev) {
    check<int64_t, int64_t>(dev, "bcast_floor_divide", UF(cunp::floor_divide));
    check<int64_t, int64_t>(dev, "bcast_col_remainder", UF(cunp::remainder));
    check<double, double>(dev, "zerod_power", UF(cunp::power), kFewUlps);
    check<float, float>(
        dev, "strided_arctan2",
        [](const auto& a, const auto& b) {
          const auto rev = ndarray<float>(a.storage(), a.offset() + 59, {30}, {-2});  // a[::-2]
          const auto step = ndarray<float>(b.storage(), b.offset() + 1, {30}, {3});   // b[1::3]
          return cunp::arctan2(rev, step);
        },
        kFewUlps);

    const auto empty = cunp::zeros<int64_t>({0}, dev);
    const ndarray<int64_t> q = cunp::floor_divide(empty, cunp::ones<int64_t>({1}, dev));
    REQUIRE(q.shape() == shape_t{0});
    const ndarray<double> e2 =
        cunp::power(cunp::zeros<double>({2, 0}, dev), cunp::full<double>({}, 2.0, dev));
    REQUIRE(e2.shape() == shape_t({2, 0}));
    const auto z0 = cunp::full<complex128>({}, complex128(-4, 0), dev);
    const ndarray<complex128> s0 = cunp::sqrt(z0);
    REQUIRE(s0.ndim() == 0);
    REQUIRE(s0.item() == complex128(0, 2));
    const ndarray<bool> c0 = cunp::clip(cunp::full<bool>({}, true, dev), false, false);
    REQUIRE(c0.item() == false);

    REQUIRE_THROWS_WITH(
        cunp::floor_divide(cunp::zeros<int32_t>({3}, dev), cunp::zeros<int32_t>({4}, dev)),
        "operands could not be broadcast together with shapes (3,) (4,)");
    REQUIRE_THROWS_AS(cunp::clip(cunp::zeros<double>({2}, dev), cunp::zeros<double>({3}, dev), 1.0),
                      cunp::shape_error);
    auto ints = cunp::zeros<int32_t>({3}, dev);
    REQUIRE_THROWS_WITH(cunp::floor_divide(cunp::ones<float>({3}, dev), 2.0f, ints),
                        "Cannot cast ufunc 'floor_divide' output from dtype('float32') to "
                        "dtype('int32') with casting rule 'same_kind'");
    cunp::floor_divide(cunp::arange<int32_t>(-3, 0, 1, dev), 2,
                       ints);  // out= into a view works too
    require_values<int32_t>(ints, {-2, -1, -1}, {3});
  });
}

TEST_CASE("value errors: negative integer powers, bool round, clip bounds",
          "[ufunc_math][errors]") {
  on_every_backend([](cunp::device dev) {
    const auto i = cunp::asarray<int64_t>({2, -1, 1, 0}, {4}, dev);
    REQUIRE_THROWS_WITH(cunp::power(i, -1), "Integers to negative integer powers are not allowed.");
    REQUIRE_THROWS_WITH(cunp::power(cunp::ones<bool>({2}, dev), -2),
                        "Integers to negative integer powers are not allowed.");
    REQUIRE_THROWS_WITH(cunp::power(cunp::ones<uint8_t>({2}, dev), -1),
                        "Python integer -1 out of bounds for uint8");
    require_values<double>(cunp::eval(cunp::power(i, -1.0)), {0.5, -1, 1, INFINITY}, {4});
    // A negative exponent in an array cannot throw from a kernel: it gives the truncated 1/a**n.
    const auto n = cunp::asarray<int64_t>({-1, -3, -2, -1}, {4}, dev);
    require_values<int64_t>(cunp::eval(cunp::power(i, n)), {0, -1, 1, 0}, {4});
    // Integer reciprocal of 0 is 0 (NumPy's result depends on the platform).
    require_values<int32_t>(
        cunp::eval(cunp::reciprocal(cunp::asarray<int32_t>({0, -1, 2}, {3}, dev))), {0, -1, 0},
        {3});

    const auto b = cunp::ones<bool>({2}, dev);
    REQUIRE_THROWS_WITH(cunp::round(b, 1),
                        "Cannot cast ufunc 'multiply' output from dtype('float64') "
                        "to dtype('bool') with casting rule 'same_kind'");
    REQUIRE_THROWS_AS(cunp::round(b, -1), cunp::dtype_error);
    const auto u8 = cunp::ones<uint8_t>({2}, dev);
    REQUIRE_THROWS_WITH(cunp::clip(u8, 300, 400), "Python integer 300 out of bounds for uint8");
    REQUIRE_THROWS_WITH(cunp::clip(u8, -5, -1), "Python integer -1 out of bounds for uint8");
  });
}

TEST_CASE("GPU and cpu agree on large fused expressions of the new ufuncs", "[ufunc_math][fused]") {
  const auto ref = same_on_every_backend([](cunp::device dev) {
    const auto x = golden<float>("um_fused_x").to(dev);
    return cunp::eval(cunp::floor_divide(x, 3.5f) * 2.0f + cunp::remainder(cunp::abs(x), 7.0f) -
                      cunp::clip(cunp::rint(x), -10, 10));
  });
  compare<float>("fused", ref, golden<float>("um_fused_out"), 0, true);
  same_on_every_backend([](cunp::device dev) {  // integer rules on a strided, broadcast layout
    const auto a = cunp::arange<int64_t>(-5000, 5000, 1, dev).reshape({100, 100});
    const auto b = cunp::arange<int64_t>(-50, 50, 1, dev);
    return cunp::eval((cunp::floor_divide(a.T(), b) ^ (a >> 3)) + cunp::power(b % 7, 3) -
                      (a << 60));
  });
}
#endif
