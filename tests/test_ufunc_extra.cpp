// NumPy 2's remaining ufuncs and element-wise functions against NumPy: result dtypes for every
// dtype and weak scalar, values for every dtype each has (special values, integer extremes,
// division by zero), two-output ufuncs, broadcasting, size-1 and empty operands, negative
// strides, out= (aliasing an input too) and the errors.
//
// Tolerances: integer, bool, classification, nextafter, spacing, ldexp, frexp, modf, heaviside,
// divmod and nan_to_num results are exact (bit for bit, with the sign of zero). Results of the
// C library's functions (logaddexp, float_power, sinc, i0) may differ from NumPy's by kFewUlps
// units of the type's epsilon (one unit for float16); complex ones normwise within kComplexUlps;
// on a GPU by kGpuUlpsFactor times as many.
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "cunp_test.hpp"
#include "ulps.hpp"

using namespace cunp_test;
using cunp::bfloat16;
using cunp::complex128;
using cunp::complex64;
using cunp::float16;
using std::int8_t, std::int16_t, std::int32_t, std::int64_t;
using std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t;

namespace {

constexpr int kFewUlps = 8;
constexpr int kComplexUlps = 16;
// On a GPU, CUDA's functions (within 1 to 4 ulps of their arguments, glibc's within 1) are
// amplified where the result cancels (logaddexp2 of float64 near 5e-4: some 2000 ulps of the
// result) or the exponent is large (complex float_power near 1e156, |b log a| about 360).
constexpr int kGpuUlpsFactor = 1024;

std::string golden_name(const std::string& name) { return "ux_" + name; }
bool have_golden(const std::string& name) {
  return std::filesystem::exists(golden_dir() / (golden_name(name) + ".npy"));
}
template <class T>
ndarray<T> ux(const std::string& name) {
  return golden<T>(golden_name(name));
}

/// Runs f on the case's inputs (moved to dev); compares its result (a pair for two-output
/// ufuncs) with NumPy's, whose dtypes must be the expressions'.
template <class... In, class F>
void check(cunp::device dev, const std::string& name, F f, int ulps = 0) {
  const bool two = have_golden(name + "_out0");
  REQUIRE((two || have_golden(name + "_out")));
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    const auto r = f(ux<In>(name + "_" + std::to_string(K)).to(dev)...);
    const auto one = [&](const auto& e, const std::string& out) {
      const auto got = cunp::eval(e);
      using V = typename std::decay_t<decltype(got)>::value_type;
      CHECK(got.device() == dev);
      compare<V>(name, got, ux<V>(name + out), dev.is_cpu() ? ulps : kGpuUlpsFactor * ulps);
    };
    if constexpr (requires { r.first; }) {
      REQUIRE(two);
      one(r.first, "_out0");
      one(r.second, "_out1");
    } else {
      one(r, "_out");
    }
  }(std::index_sequence_for<In...>());
}

template <class T>
std::string case_name(const char* ufunc) {
  return std::string(ufunc) + "_" + std::string(cunp::dtype_name_v<T>);
}
template <class... T, class F>
void unary(cunp::device dev, const char* ufunc, F f, int ulps = 0) {
  (check<T>(dev, case_name<T>(ufunc), f, ulps), ...);
}
template <class... T, class F>
void binary(cunp::device dev, const char* ufunc, F f, int ulps = 0) {
  (check<T, T>(dev, case_name<T>(ufunc), f, ulps), ...);
}

#define UF(F) [](const auto&... x) { return F(x...); }

// ---------------------------------------------------------------------------------------------
// Result dtypes, decided at compile time, against NumPy's.

using all_types = std::tuple<bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                             uint64_t, float16, bfloat16, float, double, complex64, complex128>;
constexpr std::size_t n_types = std::tuple_size_v<all_types>;
template <class T>
using arr = ndarray<T>;
template <class S>
using weak = cunp::detail::weak<S>;

/// cunp's result dtype of Op on operands X (cunp::dtype's number), or -1 if it does not compile.
template <class Op, class... X>
constexpr int result_code() {
  using types = cunp::detail::node_types<Op, X...>;
  if constexpr (Op::template accepts<typename types::loop>)
    return int(cunp::dtype_of_v<typename types::out>);
  else
    return -1;
}
/// ldexp: the exponent's dtype is checked by cunp::ldexp's constraint.
template <class A, class B>
constexpr int ldexp_code() {
  if constexpr (cunp::detail::ldexp_exponent<B>)
    return result_code<cunp::detail::ldexp_op, A, B>();
  else
    return -1;
}

template <class Op>
std::vector<int> unary_codes() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<int>{result_code<Op, arr<std::tuple_element_t<I, all_types>>>()...};
  }(std::make_index_sequence<n_types>());
}
/// Rows: the first operand's dtype; columns: the second's, then the weak scalars True, 1, 1.0, 1j.
/// code<A, B>() gives one entry.
template <class Code>
std::vector<int> binary_codes(Code code) {
  std::vector<int> out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    const auto row = [&]<class A>(A*) {
      const std::vector<int> r{
          code(std::type_identity<arr<A>>(),
               std::type_identity<arr<std::tuple_element_t<I, all_types>>>())...,
          code(std::type_identity<arr<A>>(), std::type_identity<weak<bool>>()),
          code(std::type_identity<arr<A>>(), std::type_identity<weak<int>>()),
          code(std::type_identity<arr<A>>(), std::type_identity<weak<double>>()),
          code(std::type_identity<arr<A>>(), std::type_identity<weak<complex128>>())};
      out.insert(out.end(), r.begin(), r.end());
    };
    (row(static_cast<std::tuple_element_t<I, all_types>*>(nullptr)), ...);
  }(std::make_index_sequence<n_types>());
  return out;
}
template <class Op>
std::vector<int> binary_codes() {
  return binary_codes([]<class A, class B>(std::type_identity<A>, std::type_identity<B>) {
    return result_code<Op, A, B>();
  });
}

void require_codes(const std::string& ufunc, const std::vector<int>& ours) {
  const auto numpy = ux<int8_t>("types_" + ufunc).to_vector();
  REQUIRE(numpy.size() == ours.size());
  const std::size_t cols = numpy.size() == n_types ? 1 : n_types + 4;
  for (std::size_t i = 0; i < numpy.size(); ++i) {
    if (numpy[i] == -2) continue;  // bfloat16 without ml_dtypes, or weak with bfloat16
    const auto name = [](std::size_t k) {
      return k < n_types ? std::string(cunp::dtype_name(cunp::dtype(k)))
                         : "weak " + std::to_string(k - n_types);
    };
    INFO(ufunc << "(" << name(i / cols) << (cols > 1 ? ", " + name(i % cols) : "") << ")");
    CHECK(ours[i] == numpy[i]);
  }
}

template <class A, class B>
concept ldexp_compiles = requires(A a, B b) { cunp::ldexp(a, b); };

}  // namespace

// The aliases of NumPy 2 are the same functors.
static_assert(std::is_same_v<decltype(cunp::acos(arr<float>())),
                             decltype(cunp::arccos(arr<float>()))>);
static_assert(std::is_same_v<decltype(cunp::asinh(arr<float>())),
                             decltype(cunp::arcsinh(arr<float>()))>);
static_assert(std::is_same_v<decltype(cunp::pow(arr<int>(), 2)),
                             decltype(cunp::power(arr<int>(), 2))>);
static_assert(std::is_same_v<decltype(cunp::bitwise_left_shift(arr<int>(), 2)),
                             decltype(cunp::left_shift(arr<int>(), 2))>);
static_assert(std::is_same_v<decltype(cunp::bitwise_invert(arr<int>())),
                             decltype(cunp::invert(arr<int>()))>);
// A float exponent of ldexp does not compile (NumPy: TypeError); integers, bool and C++ ints do.
static_assert(!ldexp_compiles<arr<float>, arr<float>>);
static_assert(!ldexp_compiles<arr<float>, double>);
static_assert(!ldexp_compiles<arr<double>, arr<uint64_t>>);
static_assert(ldexp_compiles<arr<float>, int>);
static_assert(ldexp_compiles<arr<float>, arr<bool>>);

// Test cases are spread over two parts (harness/parts.hpp), in file order.
#if CUNP_IN_PART(0)
TEST_CASE("extra ufunc result dtypes match NumPy's for every dtype and weak scalar",
          "[ufunc_extra][types]") {
  namespace d = cunp::detail;
  require_codes("spacing", unary_codes<d::spacing_op>());
  require_codes("bitwise_count", unary_codes<d::bitwise_count_op>());
  require_codes("isposinf", unary_codes<d::isposinf_op>());
  require_codes("isneginf", unary_codes<d::isneginf_op>());
  require_codes("sinc", unary_codes<d::sinc_op>());
  require_codes("i0", unary_codes<d::i0_op>());
  require_codes("modf", unary_codes<d::modf_integral_op>());
  require_codes("frexp0", unary_codes<d::frexp_mantissa_op>());
  require_codes("frexp1", unary_codes<d::frexp_exponent_op>());
  std::vector<int> nan_to_num_codes;
  [&]<class... T>(std::tuple<T...>*) {
    nan_to_num_codes = {
        int(cunp::dtype_of_v<typename decltype(cunp::nan_to_num(ndarray<T>()))::value_type>)...};
  }(static_cast<all_types*>(nullptr));
  require_codes("nan_to_num", nan_to_num_codes);
  require_codes("logaddexp", binary_codes<d::logaddexp_op>());
  require_codes("logaddexp2", binary_codes<d::logaddexp2_op>());
  require_codes("heaviside", binary_codes<d::heaviside_op>());
  require_codes("nextafter", binary_codes<d::nextafter_op>());
  require_codes("float_power", binary_codes<d::float_power_op>());
  require_codes("gcd", binary_codes<d::gcd_op>());
  require_codes("lcm", binary_codes<d::lcm_op>());
  require_codes("divmod", binary_codes<d::divmod_quotient_op>());
  require_codes("ldexp", binary_codes([]<class A, class B>(std::type_identity<A>,
                                                          std::type_identity<B>) {
                  return ldexp_code<A, B>();
                }));
}

TEST_CASE("extra floating point ufuncs match NumPy", "[ufunc_extra][float]") {
  on_every_backend([](cunp::device dev) {
    binary<float16, float, double>(dev, "logaddexp", UF(cunp::logaddexp), kFewUlps);
    binary<float16, float, double>(dev, "logaddexp2", UF(cunp::logaddexp2), kFewUlps);
    check<int8_t, uint8_t>(dev, "logaddexp_int8_uint8", UF(cunp::logaddexp), kFewUlps);
    binary<float16, float, double>(dev, "heaviside", UF(cunp::heaviside));
    binary<float16, float, double>(dev, "nextafter", UF(cunp::nextafter));
    unary<float16, float, double, int8_t, int32_t>(dev, "spacing", UF(cunp::spacing));
    binary<float16>(dev, "copysign", UF(cunp::copysign));
    unary<float16>(dev, "signbit", UF(cunp::signbit));
    check<float16>(dev, "signbit_negnan_float16", UF(cunp::signbit));
    binary<int32_t, float, double>(dev, "float_power", UF(cunp::float_power), kFewUlps);
    binary<complex64, complex128>(dev, "float_power", UF(cunp::float_power), kComplexUlps);
    check<float16, int32_t>(dev, "ldexp_float16_int32", UF(cunp::ldexp));
    check<float, int64_t>(dev, "ldexp_float32_int64", UF(cunp::ldexp));
    check<double, int32_t>(dev, "ldexp_float64_int32", UF(cunp::ldexp));
    check<double, int64_t>(dev, "ldexp_float64_int64", UF(cunp::ldexp));
    check<int8_t, int8_t>(dev, "ldexp_int8_int8", UF(cunp::ldexp));
    check<uint16_t, uint32_t>(dev, "ldexp_uint16_uint32", UF(cunp::ldexp));
    unary<bool, int32_t, float16, float, double>(dev, "isposinf", UF(cunp::isposinf));
    unary<bool, int32_t, float16, float, double>(dev, "isneginf", UF(cunp::isneginf));

    // bfloat16 (no NumPy dtype): as float16, through float, with its own bits.
    const float inf = INFINITY, nan = NAN;
    const auto b = cunp::asarray<bfloat16>({1.f, nan, -0.f, 2.f, 0.f, inf}, {6}, dev);
    const auto s = cunp::asarray<bfloat16>({-nan, -1.f, 1.f, -0.f, -1.f, 0.f}, {6}, dev);
    const auto cs = cunp::eval(cunp::copysign(b, s)).to_vector();
    const std::vector<std::uint16_t> want{0xbf80, 0xffc0, 0x0000, 0xc000, 0x8000, 0x7f80};
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(cs[i].bits == want[i]);
    require_values<bool>(cunp::eval(cunp::signbit(s)), {true, true, false, true, true, false}, {6});
    const auto next = cunp::eval(cunp::nextafter(b, s)).to_vector();
    const std::vector<std::uint16_t> want_next{0x7fc0, 0x7fc0, 0x0001, 0x3fff, 0x8001, 0x7f7f};
    for (std::size_t i = 0; i < want_next.size(); ++i) CHECK(next[i].bits == want_next[i]);
    const auto sp = cunp::eval(cunp::spacing(cunp::asarray<bfloat16>(
                                   {1.f, -1.f, 0.f, inf, bfloat16::from_bits(0x7f7f)}, {5}, dev)))
                        .to_vector();
    CHECK(float(sp[0]) == 0x1p-7f);
    CHECK(float(sp[1]) == -0x1p-7f);
    CHECK(sp[2].bits == 0x0001);
    CHECK(std::isnan(float(sp[3])));
    CHECK(std::isinf(float(sp[4])));
    require_values<bfloat16>(cunp::eval(cunp::ldexp(b, 3)), {8.f, nan, -0.f, 16.f, 0.f, inf},
                             {6});
  });
}

TEST_CASE("gcd, lcm, bitwise_count and fmod match NumPy for every integer dtype",
          "[ufunc_extra][int]") {
  on_every_backend([](cunp::device dev) {
    binary<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>(
        dev, "gcd", UF(cunp::gcd));
    binary<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>(
        dev, "lcm", UF(cunp::lcm));
    unary<bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>(
        dev, "bitwise_count", UF(cunp::bitwise_count));
    binary<bool, int8_t, uint8_t, uint16_t, int32_t, uint32_t, int64_t, float16>(
        dev, "fmod", UF(cunp::fmod));
    // INT_MIN's magnitude wraps back to INT_MIN, as in NumPy.
    constexpr int32_t lo = std::numeric_limits<int32_t>::min();
    const auto m = cunp::asarray<int32_t>({lo, lo, 0, lo}, {4}, dev);
    const auto n = cunp::asarray<int32_t>({0, lo, 0, 1}, {4}, dev);
    require_values<int32_t>(cunp::eval(cunp::gcd(m, n)), {lo, lo, 0, 1}, {4});
    require_values<int32_t>(cunp::eval(cunp::lcm(m, n)), {0, lo, 0, lo}, {4});
    require_values<uint8_t>(cunp::eval(cunp::bitwise_count(m)), {1, 1, 0, 1}, {4});
  });
}

#endif

#if CUNP_IN_PART(1)
TEST_CASE("divmod, modf and frexp give NumPy's two outputs", "[ufunc_extra][two]") {
  on_every_backend([](cunp::device dev) {
    binary<bool, int8_t, int64_t, uint8_t, float16, float, double>(dev, "divmod", UF(cunp::divmod));
    unary<float16, float, double, int16_t>(dev, "modf", UF(cunp::modf));
    unary<float16, float, double, int16_t>(dev, "frexp", UF(cunp::frexp));

    // Each half fuses into its consumer; out= writes both, also into the inputs themselves.
    const auto a = cunp::asarray<int64_t>({7, 8, 9, -7}, {4}, dev);
    const auto [q, r] = cunp::divmod(a, 2);
    require_values<int64_t>(cunp::eval(q * 10 + r), {31, 40, 41, -39}, {4});
    const auto x = a.copy(), y = cunp::asarray<int64_t>({2, 3, -2, 0}, {4}, dev);
    const auto [qo, ro] = cunp::divmod(x, y, x, y);
    require_values<int64_t>(qo, {3, 2, -5, 0}, {4});
    require_values<int64_t>(ro, {1, 2, -1, 0}, {4});
    REQUIRE(qo.storage() == x.storage());
    const auto f = cunp::asarray<double>({2.5, -0.5, INFINITY, -3.0}, {4}, dev);
    const auto frac = cunp::zeros<double>({4}, dev);
    cunp::modf(f, frac, f);  // the integral part overwrites the input
    require_values<double>(frac, {0.5, -0.5, 0.0, -0.0}, {4});
    require_values<double>(f, {2.0, -0.0, INFINITY, -3.0}, {4});
    const auto g = cunp::asarray<float>({8.f, -0.375f}, {2}, dev);
    const auto e = cunp::zeros<int64_t>({2}, dev);
    cunp::frexp(g, g, e);
    require_values<float>(g, {0.5f, -0.75f}, {2});
    require_values<int64_t>(e, {4, -1}, {2});

    auto ints = cunp::zeros<int64_t>({4}, dev);
    REQUIRE_THROWS_WITH(cunp::divmod(f, 2.0, ints, f),
                        "Cannot cast ufunc 'divmod' output from dtype('float64') to "
                        "dtype('int64') with casting rule 'same_kind'");
    require_values<int64_t>(ints, {0, 0, 0, 0}, {4});
    REQUIRE_THROWS_AS(cunp::modf(f, cunp::zeros<double>({3}, dev), f), cunp::shape_error);
  });
}

TEST_CASE("sinc, i0, nan_to_num and real_if_close match NumPy", "[ufunc_extra][functions]") {
  on_every_backend([](cunp::device dev) {
    unary<float16, float, double, int32_t>(dev, "sinc", UF(cunp::sinc), kFewUlps);
    unary<complex64, complex128>(dev, "sinc", UF(cunp::sinc), kComplexUlps);
    unary<float16, float, double, int64_t, bool>(dev, "i0", UF(cunp::i0), kFewUlps);
    check<double>(dev, "i0_wide_float64", UF(cunp::i0), kFewUlps);
    unary<float16, float, double, complex64, complex128, int32_t>(dev, "nan_to_num",
                                                                  UF(cunp::nan_to_num));
    check<double>(dev, "nan_to_num_given_float64",
                  [](const auto& a) { return cunp::nan_to_num(a, 1.5, 2e300, -3.0); });
    check<float16>(dev, "nan_to_num_given_float16",
                   [](const auto& a) { return cunp::nan_to_num(a, -1.0, 1e10, cunp::none); });

    const auto z = cunp::asarray<complex128>({{2.1, 4e-14}, {5.2, 3e-15}}, {2}, dev);
    const auto close = cunp::real_if_close(z, 1000);
    REQUIRE(close.index() == 0);
    require_values<double>(std::get<0>(close), {2.1, 5.2}, {2});
    REQUIRE(std::get<0>(close).storage() == z.storage());  // a view, as NumPy's a.real
    REQUIRE(cunp::real_if_close(z).index() == 1);           // 100 eps = 2.2e-14 < 4e-14
    REQUIRE(cunp::real_if_close(z, 1e-13).index() == 0);    // tol <= 1 is absolute
    const auto c64 = cunp::asarray<complex64>({{1, 1e-6f}}, {1}, dev);
    REQUIRE(cunp::real_if_close(c64).index() == 0);  // 100 float32 eps = 1.2e-5
    REQUIRE(cunp::real_if_close(cunp::zeros<complex64>({0}, dev)).index() == 0);
    const auto r = cunp::arange<double>(0, 3, 1, dev);
    REQUIRE(cunp::real_if_close(r).storage() == r.storage());
  });
}

TEST_CASE("extra ufuncs: shapes, strides, weak scalars, out= and errors", "[ufunc_extra][shapes]") {
  on_every_backend([](cunp::device dev) {
    check<int32_t, int32_t>(dev, "bcast_gcd", UF(cunp::gcd));
    check<int32_t, int32_t>(dev, "bcast_col_lcm", UF(cunp::lcm));
    const auto rev = [](const auto& a) {  // a[::-2] of 60 elements
      using T = typename std::decay_t<decltype(a)>::value_type;
      return ndarray<T>(a.storage(), a.offset() + 59, {30}, {-2});
    };
    const auto step = [](const auto& b) {  // b[1::3] of 90 elements
      using T = typename std::decay_t<decltype(b)>::value_type;
      return ndarray<T>(b.storage(), b.offset() + 1, {30}, {3});
    };
    check<double, double>(
        dev, "strided_logaddexp",
        [&](const auto& a, const auto& b) { return cunp::logaddexp(rev(a), step(b)); }, kFewUlps);
    check<double, double>(dev, "strided_divmod", [&](const auto& a, const auto& b) {
      return cunp::divmod(rev(a), step(b));
    });

    const ndarray<double> e = cunp::logaddexp(cunp::zeros<double>({2, 0}, dev),
                                              cunp::ones<double>({1, 1}, dev));
    REQUIRE(e.shape() == shape_t({2, 0}));
    const ndarray<int16_t> g0 =
        cunp::gcd(cunp::full<int16_t>({}, 12, dev), cunp::full<int16_t>({1}, -18, dev));
    REQUIRE(g0.shape() == shape_t{1});
    REQUIRE(g0.item() == 6);
    const auto [m0, e0] = cunp::frexp(cunp::zeros<float16>({0, 3}, dev));
    REQUIRE(cunp::eval(e0).shape() == shape_t({0, 3}));
    REQUIRE(cunp::eval(m0).shape() == shape_t({0, 3}));

    // Weak scalars take the array's dtype (NEP 50) and must fit it.
    const auto f = cunp::asarray<float>({0.f, 1.f}, {2}, dev);
    const ndarray<float> l = cunp::logaddexp(f, 1.0);
    require_close<float>(l.to(cunp::cpu),
                         cunp::asarray<float>({1.3132616f, 1.6931472f}, {2}), 1e-6);
    require_values<float>(cunp::eval(cunp::heaviside(cunp::asarray<float>({-1, 0, 2}, {3}, dev),
                                                     0.5)),
                          {0, 0.5f, 1}, {3});
    require_values<float>(cunp::eval(cunp::ldexp(f, 3)), {0, 8}, {2});
    require_values<float>(cunp::eval(cunp::ldexp(f, true)), {0, 2}, {2});
    require_values<double>(cunp::eval(cunp::ldexp(2.0, cunp::asarray<int64_t>({1, -1}, {2}, dev))),
                           {4, 1}, {2});
    require_values<int8_t>(cunp::eval(cunp::gcd(cunp::asarray<int8_t>({12, -9}, {2}, dev), 6)),
                           {6, 3}, {2});
    REQUIRE_THROWS_WITH(cunp::gcd(cunp::ones<int8_t>({1}, dev), 300),
                        "Python integer 300 out of bounds for int8");
    REQUIRE_THROWS_WITH(cunp::ldexp(f, int64_t(1) << 40),
                        "Python integer 1099511627776 out of bounds for int32");

    // out=: an input as the output, a view, and NumPy's errors.
    const auto a = cunp::asarray<double>({0, 1, -INFINITY, INFINITY}, {4}, dev);
    cunp::logaddexp(a, a, a);
    require_values<double>(a, {M_LN2, 1 + M_LN2, -INFINITY, INFINITY}, {4});
    const auto u = cunp::asarray<uint32_t>({12, 18, 7, 0}, {4}, dev);
    const auto tail = ndarray<uint32_t>(u.storage(), 3, {4}, {-1});  // u[::-1]
    cunp::lcm(tail, 4u, tail);
    require_values<uint32_t>(u, {12, 36, 28, 0}, {4});
    auto ints = cunp::zeros<int32_t>({2}, dev);
    REQUIRE_THROWS_WITH(cunp::logaddexp(f, f, ints),
                        "Cannot cast ufunc 'logaddexp' output from dtype('float32') to "
                        "dtype('int32') with casting rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::float_power(ints, ints, ints),
                        "Cannot cast ufunc 'float_power' output from dtype('float64') to "
                        "dtype('int32') with casting rule 'same_kind'");
    REQUIRE_THROWS_AS(cunp::nextafter(f, f, cunp::zeros<float>({3}, dev)), cunp::shape_error);
    REQUIRE_THROWS_WITH(
        cunp::gcd(cunp::zeros<int32_t>({3}, dev), cunp::zeros<int32_t>({4}, dev)),
        "operands could not be broadcast together with shapes (3,) (4,)");
  });
}

TEST_CASE("GPU and cpu agree on large fused expressions of the extra ufuncs",
          "[ufunc_extra][fused]") {
  same_on_every_backend([](cunp::device dev) {
    const auto x = cunp::linspace<double>(-30, 30, 100003, true, dev);
    const auto [q, r] = cunp::divmod(x, 0.7);
    return cunp::eval(cunp::logaddexp(x, q) + cunp::sinc(x) * cunp::i0(r) +
                      cunp::ldexp(cunp::spacing(x), 40) + cunp::nan_to_num(cunp::log(x)));
  });
  same_on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<int64_t>(-5000, 5000, 1, dev).reshape({100, 100});
    const auto b = cunp::arange<int64_t>(-50, 50, 1, dev);
    return cunp::eval(cunp::gcd(a.T(), b) + cunp::lcm(a, b % 7) +
                      cunp::astype<int64_t>(cunp::bitwise_count(a)));
  });
}
#endif
