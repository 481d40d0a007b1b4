// Element-wise operations: NEP 50 promotion, broadcasting, fusion, out= and in-place, aliasing.
#include <cstdint>
#include <limits>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

namespace {
template <class T> ndarray<T> g(const std::string& name) { return golden<T>("ufunc_" + name); }

constexpr cunp::dtype numpy_dtypes[] = {
    cunp::dtype::bool_,   cunp::dtype::int8,    cunp::dtype::int16,   cunp::dtype::int32,
    cunp::dtype::int64,   cunp::dtype::uint8,   cunp::dtype::uint16,  cunp::dtype::uint32,
    cunp::dtype::uint64,  cunp::dtype::float16, cunp::dtype::float32, cunp::dtype::float64,
    cunp::dtype::complex64, cunp::dtype::complex128};
}  // namespace

TEST_CASE("result_type matches np.result_type for every pair of NumPy dtypes", "[ufunc][promotion]") {
  const auto table = g<std::int8_t>("result_type").to_vector();
  const std::size_t n = std::size(numpy_dtypes);
  REQUIRE(table.size() == n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      INFO(cunp::dtype_name(numpy_dtypes[i]) << " with " << cunp::dtype_name(numpy_dtypes[j]));
      REQUIRE(int(cunp::detail::promote(numpy_dtypes[i], numpy_dtypes[j])) == table[i * n + j]);
    }
  static_assert(std::is_same_v<cunp::result_type_t<std::int32_t, float>, double>);
  static_assert(std::is_same_v<cunp::result_type_t<std::int64_t, std::uint64_t>, double>);
  static_assert(std::is_same_v<cunp::result_type_t<bool, bool>, bool>);
  static_assert(std::is_same_v<cunp::result_type_t<cunp::bfloat16, float>, float>);
  static_assert(std::is_same_v<cunp::result_type_t<cunp::bfloat16, cunp::float16>, float>);
}

TEST_CASE("C++ scalars are weak (NEP 50)", "[ufunc][promotion]") {
  const auto table = g<std::int8_t>("weak").to_vector();
  const int kinds[] = {0, 2, 3, 5};  // True, 1, 1.0, 1j
  for (std::size_t i = 0; i < std::size(numpy_dtypes); ++i)
    for (int k = 0; k < 4; ++k) {
      INFO(cunp::dtype_name(numpy_dtypes[i]) << " with scalar kind " << kinds[k]);
      REQUIRE(int(cunp::detail::promote_weak(numpy_dtypes[i], kinds[k])) == table[i * 4 + k]);
    }
  const auto f = cunp::ones<float>({2}, cpu);
  static_assert(std::is_same_v<decltype(cunp::eval(f * 2.0))::value_type, float>);
  const auto i32 = cunp::ones<std::int32_t>({2}, cpu);
  static_assert(std::is_same_v<decltype(cunp::eval(i32 * 2.5))::value_type, double>);
  const auto u8 = cunp::ones<std::uint8_t>({2}, cpu);
  REQUIRE_THROWS_WITH(u8 + 300, "Python integer 300 out of bounds for uint8");
  REQUIRE_THROWS_AS(u8 + (-1), cunp::value_error);
  require_values<std::uint8_t>(cunp::eval(u8 + 255), {0, 0}, {2});  // 255 fits; the sum wraps
}

TEST_CASE("element-wise results match NumPy on every backend", "[ufunc]") {
  const auto a = g<float>("a"), b = g<float>("b");
  on_every_backend([&](cunp::device dev) {
    const auto x = a.to(dev), y = b.to(dev);
    const double ulp = 1e-6;  // float32 transcendental functions: a few ulp from NumPy's
    // sin differs by an ulp between libm and NumPy's SIMD loops; a*b + sin(a) can cancel to ~0.
    require_close<float>(cunp::eval(x * y + cunp::sin(x)), g<float>("fused_f32"), 4 * ulp, 1e-6);
    require_equal<float>(cunp::eval(cunp::where(x > 0, x, y)), g<float>("where_f32"));
    require_close<float>(cunp::eval(x / y), g<float>("divide_f32"));
    require_equal<float>(cunp::eval(cunp::maximum(x, y)), g<float>("maximum_f32"));
    require_equal<float>(cunp::eval(cunp::minimum(x, y)), g<float>("minimum_f32"));
    require_close<float>(cunp::eval(cunp::sqrt(x)), g<float>("sqrt_f32"), ulp);
    require_close<double>(cunp::eval(cunp::exp(x.astype<double>())), g<double>("exp_f64"), 1e-15);
    require_close<float>(cunp::eval(cunp::log(x)), g<float>("log_f32"), ulp);
    require_close<float>(cunp::eval(cunp::tanh(x)), g<float>("tanh_f32"), 2 * ulp);
    require_equal<float>(cunp::eval(x * 2.0 - 1.5), g<float>("scalar_f32"));
  });
}

TEST_CASE("broadcasting, integer rules, float16 and complex", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    const auto m = g<std::int32_t>("m").to(dev);
    const auto v = g<std::int16_t>("v").to(dev);
    require_equal<std::int32_t>(cunp::eval(m + v), g<std::int32_t>("bcast_add"));
    const auto col = cunp::ndarray<std::int32_t>(m.storage(), m.offset(), {3, 1}, {4, 1});
    require_equal<std::int32_t>(cunp::eval(col * v), g<std::int32_t>("bcast_outer"));
    require_equal<double>(cunp::eval(m / 4), g<double>("int_div"));
    const auto i8 = g<std::int8_t>("i8").to(dev);
    require_equal<std::int8_t>(cunp::eval(i8 + 1), g<std::int8_t>("i8_add_wrap"));
    require_equal<std::int8_t>(cunp::eval(-i8), g<std::int8_t>("i8_neg"));
    const auto u8 = g<std::uint8_t>("u8").to(dev);
    require_equal<std::uint8_t>(cunp::eval(u8 - 3), g<std::uint8_t>("u8_sub_wrap"));
    const auto h = g<cunp::float16>("h").to(dev);
    require_equal<cunp::float16>(cunp::eval(h * h + 1), g<cunp::float16>("h_fused"));
    const auto c = g<cunp::complex64>("c").to(dev);
    require_close<cunp::complex64>(cunp::eval(c * c / (c + 1)), g<cunp::complex64>("c_mul_div"), 1e-5);
    REQUIRE_THROWS_WITH(m + cunp::zeros<int>({3}, dev),
                        "operands could not be broadcast together with shapes (3, 4) (3,)");
  });
}

TEST_CASE("GPU and cpu backends agree on fused, strided and broadcast expressions", "[ufunc]") {
  same_on_every_backend(
      [](cunp::device dev) {
        const auto x = cunp::linspace<float>(-5, 5, 100003, true, dev);
        return cunp::eval(x * x - cunp::exp(x) / 3.0f + cunp::cos(x));
      },
      1e-6, 2e-5);  // 2 float32 ulp of the largest term (exp(5) / 3 = 49), where the sum cancels
  same_on_every_backend([](cunp::device dev) {  // reversed and offset views: the strided path
    const auto x = cunp::arange<double>(0, 10001, 1, dev);
    const auto rev = cunp::ndarray<double>(x.storage(), 10000, {10000}, {-1});
    const auto off = cunp::ndarray<double>(x.storage(), 1, {10000}, {1});
    return cunp::eval(rev * 0.5 + off);
  });
  same_on_every_backend([](cunp::device dev) {  // outer product through broadcasting
    const auto r = cunp::arange<float>(0, 300, 1, dev).reshape({300, 1});
    const auto c = cunp::arange<float>(0, 200, 1, dev);
    return cunp::eval(r * c + 1.0f);
  });
  same_on_every_backend([](cunp::device dev) {  // mixed dtypes and a cast inside the expression
    const auto i = cunp::arange<std::int16_t>(-500, 500, 1, dev);
    const auto h = cunp::linspace<cunp::float16>(-2, 2, 1000, true, dev);
    return cunp::eval(cunp::astype<float>(i) * h + cunp::astype<float>(h > 0));
  });
  same_on_every_backend(  // 3-D broadcast, odd rows: scalar stores
      [](cunp::device dev) {
        const auto a = cunp::linspace<float>(-1, 1, 3 * 1037, true, cpu).reshape({3, 1, 1037});
        const auto b = cunp::linspace<float>(0, 4, 5, true, cpu).reshape({1, 5, 1});
        return cunp::eval(a.to(dev) * b.to(dev) - 2.0f);
      },
      1e-6, 5e-7);  // nvcc fuses a * b - 2 into an fma: 2 ulp of 2 where the difference cancels
  same_on_every_backend([](cunp::device dev) {  // a transposed operand, long aligned rows
    // Inputs made on the cpu: linspace's last bits may differ between backends, and a + 2 t
    // cancels near a = -2 t.
    const auto a = cunp::linspace<double>(-3, 3, 700 * 1024, true, cpu).reshape({700, 1024});
    const auto t = cunp::linspace<double>(0, 1, 1024 * 700, true, cpu).reshape({1024, 700});
    return cunp::eval(a.to(dev) + 2.0 * t.to(dev).T());
  });
  same_on_every_backend([](cunp::device dev) {  // 0-d and size-1 operands
    const auto s = cunp::full<double>({}, 3.0, dev);
    return cunp::eval(s * cunp::ones<double>({1, 5}, dev) + s);
  });
}

// int64 against uint64 compares exactly (NumPy 2), in g++ and in both nvcc passes alike.
static_assert(std::is_same_v<decltype(std::declval<cunp::ndarray<std::int64_t>>() <
                                      std::declval<cunp::ndarray<std::uint64_t>>())::loop_type,
                             cunp::detail::exact_int>);

TEST_CASE("int64 and uint64 compare exactly, as NumPy 2", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    constexpr auto i64_max = std::numeric_limits<std::int64_t>::max();
    constexpr auto i64_min = std::numeric_limits<std::int64_t>::min();
    constexpr auto u64_max = std::numeric_limits<std::uint64_t>::max();
    const auto a = cunp::asarray(std::vector<std::int64_t>{-1, 1LL << 62, i64_max, 0, i64_min},
                                 {5}, cpu).to(dev);
    const auto b = cunp::asarray(std::vector<std::uint64_t>{u64_max, 1ULL << 62, 1ULL << 63, 0, 0},
                                 {5}, cpu).to(dev);
    // float64, their common dtype, would call 2^63 - 1 and 2^63 equal.
    require_values<bool>(cunp::eval(a < b), {true, false, true, false, true}, {5});
    require_values<bool>(cunp::eval(a == b), {false, true, false, true, false}, {5});
    require_values<bool>(cunp::eval(b >= a), {true, true, true, true, true}, {5});
    require_values<bool>(cunp::eval(b > a), {true, false, true, false, true}, {5});
    require_values<bool>(cunp::eval(a != b), {true, false, true, false, true}, {5});
    require_values<bool>(cunp::eval(a <= b), {true, true, true, true, true}, {5});
  });
}

namespace {
struct scaled_sum {  // a user callable for cunp::elementwise: runs on host and device
  float k;
  CUNP_HD float operator()(float x, float y) const { return k * x + y; }
};
struct square_clipped {
  CUNP_HD double operator()(double x) const { return x > 2 ? 4.0 : x * x; }
};
}  // namespace

TEST_CASE("cunp::elementwise runs a user callable inside the expression machinery", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::linspace<float>(-2, 2, 12, true, dev).reshape({4, 3});
    const auto b = cunp::arange<float>(0, 3, 1, dev);
    // Broadcast like a ufunc; fused with built-in ops on both sides.
    require_equal(cunp::eval(cunp::elementwise(scaled_sum{3}, a, b) + 1.0f),
                  cunp::eval(3.0f * a + b + 1.0f));
    require_equal(cunp::eval(cunp::elementwise(scaled_sum{-1}, cunp::sin(a), 0.5f)),
                  cunp::eval(0.5f - cunp::sin(a)));
    // The common dtype's math type goes in (int32 here), f's return type comes out.
    const auto i = cunp::eval(cunp::elementwise(square_clipped{}, cunp::arange<int>(-3, 4, 1, dev)));
    STATIC_REQUIRE(std::is_same_v<decltype(i)::value_type, double>);
    require_values<double>(i, {9, 4, 1, 0, 1, 4, 4}, {7});
    // float16 operands reach f as float; empty operands give an empty result.
    const auto h = cunp::linspace<cunp::float16>(0, 1, 3, true, dev);
    require_values<float>(cunp::eval(cunp::elementwise(scaled_sum{2}, h, h)), {0, 1.5, 3}, {3});
    CHECK(cunp::eval(cunp::elementwise(scaled_sum{1}, cunp::zeros<float>({0, 3}, dev), b)).shape() ==
          cunp::shape_t{0, 3});
    REQUIRE_THROWS_AS(cunp::elementwise(scaled_sum{1}, a, cunp::zeros<float>({4}, dev)),
                      cunp::shape_error);
  });
  same_on_every_backend([](cunp::device dev) {
    // The same inputs on both (linspace's last bits near 0 differ between backends).
    const auto x = cunp::linspace<double>(-3, 3, 100001, true, cpu).to(dev);
    return cunp::eval(cunp::elementwise(square_clipped{}, cunp::view(x, cunp::slice(cunp::none, cunp::none, -2))));
  });
}

// CUNP_HD makes these __host__ __device__ lambdas under nvcc (extended lambdas) and plain ones
// under g++. A closure has no default constructor (none at all with captures) and no assignment.
TEST_CASE("cunp::elementwise takes lambdas, with and without captures", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<double>(-3, 4, 1, dev);
    const auto f = [] CUNP_HD (double x) { return x * x + 1.0; };
    const double k = 0.5;
    const auto g = [k] CUNP_HD (double x, double y) { return k * x + y; };
    require_values<double>(cunp::eval(cunp::elementwise(f, a)), {10, 5, 2, 1, 2, 5, 10}, {7});
    require_values<double>(cunp::eval(cunp::elementwise(g, a, 1.0) * 2.0 + a), {-4, -2, 0, 2, 4, 6, 8}, {7});
    // Fused into reductions and scans.
    require_values<double>(cunp::sum(cunp::elementwise(f, a)), {35}, {});
    const auto m = cunp::arange<double>(0, 6, 1, dev).reshape({2, 3});
    require_values<double>(cunp::sum(cunp::elementwise(g, m, cunp::arange<double>(0, 3, 1, dev)), 1),
                           {4.5, 9}, {2});
    require_values<double>(cunp::cumsum(cunp::elementwise(f, a)), {10, 15, 17, 18, 20, 25, 35}, {7});
    // out= and copyto, also into a reversed view.
    const auto out = cunp::zeros<double>({7}, dev);
    cunp::add(cunp::elementwise(f, a), 1.0, out);
    require_values<double>(out, {11, 6, 3, 2, 3, 6, 11}, {7});
    cunp::copyto(cunp::view(out, cunp::slice(cunp::none, cunp::none, -1)), cunp::elementwise(g, a, 1.0));
    require_values<double>(out, {2.5, 2, 1.5, 1, 0.5, 0, -0.5}, {7});
  });
  same_on_every_backend([](cunp::device dev) {  // the strided kernel and a many-block sum
    const auto x = cunp::linspace<double>(-3, 3, 100001, true, cpu).to(dev);
    const double k = 0.25;
    const auto odd = cunp::view(x, cunp::slice(cunp::none, cunp::none, -2));
    return cunp::sum(cunp::elementwise([k] CUNP_HD (double v) { return k * v * v; }, odd));
  });
}

TEST_CASE("out= and in-place operators follow NumPy's casting and aliasing", "[ufunc][out]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<float>(0, 6, 1, dev).reshape({2, 3});
    auto out = cunp::zeros<double>({2, 3}, dev);
    cunp::add(a, a, out);  // float32 into float64: same_kind allows it
    require_values<double>(out, {0, 2, 4, 6, 8, 10}, {2, 3});
    const auto row = cunp::ndarray<float>(a.storage(), 3, {3}, {1});
    auto dst = cunp::zeros<float>({2, 3}, dev);
    cunp::multiply(row, 2.0, dst);  // broadcast into the out's shape
    require_values<float>(dst, {6, 8, 10, 6, 8, 10}, {2, 3});
    auto ints = cunp::zeros<std::int32_t>({2, 3}, dev);
    REQUIRE_THROWS_WITH(cunp::add(a, a, ints),
                        "Cannot cast ufunc 'add' output from dtype('float32') to dtype('int32') "
                        "with casting rule 'same_kind'");
    REQUIRE_THROWS_AS(cunp::add(a, a, cunp::zeros<float>({3}, dev)), cunp::shape_error);
    auto b = cunp::ones<float>({2, 3}, dev);
    b += a;
    b *= 2;
    b -= 1.0;
    b /= 2;
    require_values<float>(b, {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}, {2, 3});
    auto i = cunp::ones<std::int32_t>({2}, dev);
    REQUIRE_THROWS_AS(i /= 2, cunp::dtype_error);  // true division gives float64
    // Overlapping in-place operations read every input before writing, as NumPy does.
    auto rev = cunp::arange<double>(0, 10, 1, dev);
    rev += cunp::ndarray<double>(rev.storage(), 9, {10}, {-1});
    require_equal<double>(rev, g<double>("alias_rev"));
    auto shift = cunp::arange<double>(0, 10, 1, dev);
    const auto tail = cunp::ndarray<double>(shift.storage(), 1, {9}, {1});
    const auto head = cunp::ndarray<double>(shift.storage(), 0, {9}, {1});
    cunp::add(tail, head, tail);
    require_equal<double>(shift, g<double>("alias_shift"));
  });
}

TEST_CASE("out= overlap is judged by memory: complex parts, dtypes and handles over one block",
          "[ufunc][out]") {
  using c128 = std::complex<double>;
  using cunp::none;
  on_every_backend([](cunp::device dev) {
    const std::vector<c128> zv{{0, 0}, {1, 10}, {2, 20}, {3, 30}, {4, 40}, {5, 50}};
    // np.abs(z[0:4], out=z[2:6].real): positions in the real view count doubles, not complex.
    const auto z = cunp::asarray(zv, {6}, cpu).to(dev);
    cunp::abs(cunp::view(z, cunp::slice(0, 4)), cunp::real(cunp::view(z, cunp::slice(2, 6))));
    require_close<c128>(z.to(cpu), cunp::asarray(std::vector<c128>{{0, 0}, {1, 10}, {0, 20},
                                                                    {std::sqrt(101.0), 30},
                                                                    {std::sqrt(404.0), 40},
                                                                    {std::sqrt(909.0), 50}},
                                                 {6}, cpu));
    // np.multiply(z[2:6].real, 2.0, out=z[3::-1])
    const auto w = cunp::asarray(zv, {6}, cpu).to(dev);
    cunp::multiply(cunp::real(cunp::view(w, cunp::slice(2, 6))), 2.0, cunp::view(w, cunp::slice(3, none, -1)));
    require_values<c128>(w, {{10, 0}, {8, 0}, {6, 0}, {4, 0}, {4, 40}, {5, 50}}, {6});
    // Two handles over one block (np.ndarray(buffer=..., offset=8)): y[i] = 2 * x[i], y = x[1:].
    const auto buf = cunp::arange<double>(0, 10, 1, dev);
    cunp::multiply(cunp::adapt(buf.data(), {7}, {}, dev), 2.0, cunp::adapt(buf.data() + 1, {7}, {}, dev));
    require_values<double>(buf, {0, 0, 2, 4, 6, 8, 10, 12, 8, 9}, {10});
    // The same pointer and strides, but wider elements out (b.view(np.float64) = 2 * b[:4]): not
    // the same elements.
    const auto f32 = cunp::arange<float>(0, 8, 1, dev);
    const auto f64 = cunp::adapt(reinterpret_cast<double*>(f32.data()), {4}, {}, dev);
    cunp::multiply(cunp::view(f32, cunp::slice(0, 4)), 2.0, f64);
    require_values<double>(f64, {0, 2, 4, 6}, {4});
  });
}

// Binding the result to a reference keeps it alive only if it is a value: the sanitizer build
// reports a handle returned by reference to a temporary argument (stack-use-after-scope).
TEST_CASE("eval and out= and in-place operators return handles (no reference to an argument)",
          "[ufunc][out]") {
  on_every_backend([](cunp::device dev) {
    const auto& evaluated = cunp::eval(cunp::arange<double>(0, 5, 1, dev));
    require_values<double>(evaluated, {0, 1, 2, 3, 4}, {5});
    const auto x = cunp::arange<double>(0, 3, 1, dev);
    const auto& added = cunp::add(x, 1.0, cunp::zeros<double>({3}, dev));
    require_values<double>(added, {1, 2, 3}, {3});
    const auto& negated = cunp::negative(x, cunp::zeros<double>({3}, dev));
    require_values<double>(negated, {-0.0, -1, -2}, {3});
    const auto& clipped = cunp::clip(x, 0.5, 1.5, cunp::zeros<double>({3}, dev));
    require_values<double>(clipped, {0.5, 1, 1.5}, {3});
    const auto& rounded = cunp::round(x / 4, 1, cunp::zeros<double>({3}, dev));
    require_values<double>(rounded, {0, 0.2, 0.5}, {3});
    const auto& incremented = (cunp::zeros<double>({3}, dev) += x);
    require_values<double>(incremented, {0, 1, 2}, {3});
  });
}

TEST_CASE("expressions hold handles and check devices when built", "[ufunc][errors]") {
  auto make = [] {
    const auto a = cunp::arange<float>(0, 4, 1, cpu);
    return a * 2.0f + 1.0f;  // a goes out of scope: the expression keeps its storage
  };
  const auto e = make();
  require_values<float>(cunp::eval(e), {1, 3, 5, 7}, {4});
  require_values<float>(cunp::eval(e * e), {1, 9, 25, 49}, {4});
  if (backends().size() > 1) {
    const auto x = cunp::ones<float>({2}, cpu), y = cunp::ones<float>({2}, cunp::cuda(0));
    REQUIRE_THROWS_WITH(x + y, Catch::Contains("cpu") && Catch::Contains("cuda:0"));
  }
}

TEST_CASE("a fused expression allocates only its result", "[ufunc][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const index_t n = 1 << 20;
    const auto a = cunp::ones<float>({n}, dev), b = cunp::ones<float>({n}, dev);
    cunp::synchronize(dev);
    const auto before = cunp::memory_stats(dev).used_bytes;
    const ndarray<float> r = a * b + cunp::sin(a) * b - 2.0f;
    REQUIRE(cunp::memory_stats(dev).used_bytes == before + n * sizeof(float));
    REQUIRE(r.to_vector()[n - 1] == Approx(1 + std::sin(1.0f) - 2));
  });
}

TEST_CASE("copyto evaluates an expression straight into a view", "[ufunc][copyto]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::zeros<double>({3, 4}, dev);
    const auto x = cunp::arange<float>(0, 4, 1, dev);
    const auto row1 = cunp::view(a, 1, cunp::slice(cunp::none, cunp::none, -1));  // a[1, ::-1]
    cunp::copyto(row1, x * 2.0f + 1.0f);
    require_values<double>(a, {0, 0, 0, 0, 7, 5, 3, 1, 0, 0, 0, 0}, {3, 4});
    cunp::copyto(a, x + 0.5f);  // broadcast over the rows
    require_values<double>(cunp::view(a, 2), {0.5, 1.5, 2.5, 3.5}, {4});
    const auto ints = cunp::zeros<int>({4}, dev);
    REQUIRE_THROWS_WITH(cunp::copyto(ints, x * 2.0f),
                        "Cannot cast array data from dtype('float32') to dtype('int32') according "
                        "to the rule 'same_kind'");
    cunp::copyto(ints, x * 2.0f, cunp::casting::unsafe);
    require_values<int>(ints, {0, 2, 4, 6}, {4});
    REQUIRE_THROWS_AS(cunp::copyto(ints, cunp::arange<int>(0, 3, 1, dev) + 1), cunp::shape_error);
    REQUIRE_THROWS_AS(cunp::copyto(cunp::broadcast_to(ints, {2, 4}), cunp::arange<int>(0, 4, 1, dev) + 1), cunp::value_error);
  });
}
