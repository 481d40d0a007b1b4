// Scans: cumsum, cumprod, nancumsum, nancumprod and diff against NumPy, and every GPU scan path
// (CUB's one-row scan, the streaming scan of one long row, the vector tile scan of long rows,
// chained and segmented row tiles, column chunks, the copy fallback, the expression reader)
// against the cpu backend.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

template <class T> ndarray<T> g(const std::string& name) { return golden<T>("scan_" + name); }

template <class T> constexpr bool inexact_v = cunp::is_floating_v<T> || cunp::is_complex_v<T>;

/// The scan `op` of x along `spec` (0, 1, 2, m1 = -1, m2 = -2, or flat = axis None).
template <class X> auto run_scan(const std::string& op, const X& x, const std::string& spec) {
  const bool flat = spec == "flat";
  const index_t ax = flat ? 0 : spec[0] == 'm' ? -std::stoll(spec.substr(1)) : std::stoll(spec);
  if (op == "cumsum") return flat ? cunp::cumsum(x) : cunp::cumsum(x, ax);
  if (op == "cumprod") return flat ? cunp::cumprod(x) : cunp::cumprod(x, ax);
  if (op == "nancumsum") return flat ? cunp::nancumsum(x) : cunp::nancumsum(x, ax);
  return flat ? cunp::nancumprod(x) : cunp::nancumprod(x, ax);
}

/// Requires a scan result to be NumPy's: exactly on the cpu, which adds in NumPy's order (complex
/// products: within rounding, as NumPy's loop may fuse multiply-adds); on a GPU, floating-point
/// results within 64 units of rounding of the largest partial result (another order of addition).
template <class R>
void require_scan(const ndarray<R>& got, const ndarray<R>& want, bool product) {
  if constexpr (!inexact_v<R>) {
    require_equal(got, want);
  } else {
    using part = typename cunp::detail::complex_parts<R>::type;
    const double eps = std::is_same_v<part, cunp::float16> ? 0x1p-10
                       : std::is_same_v<part, float>       ? 0x1p-23
                                                           : 0x1p-52;
    if (got.device().is_cpu()) {
      if (cunp::is_complex_v<R> && product) require_close(got, want, 4 * eps, 0);
      else require_equal(got, want);
      return;
    }
    double largest = 0;
    for (const R& v : want.to_vector()) {
      const auto z = as_complex(v);
      if (std::isfinite(z.real()) && std::isfinite(z.imag()))
        largest = std::max(largest, std::abs(z));
    }
    require_close(got, want, 64 * eps, 64 * eps * largest);
  }
}

/// Every op and axis of the golden input `name` against NumPy's results.
template <class T> void check_golden(const std::string& name, cunp::device dev) {
  const auto x = g<T>(name).to(dev);
  const std::vector<std::string> specs =
      x.ndim() == 2 ? std::vector<std::string>{"0", "1", "m1", "flat"}
                    : std::vector<std::string>{"0", "1", "2", "m1", "m2", "flat"};
  std::vector<std::string> ops{"cumsum", "cumprod"};
  if (inexact_v<T>) ops.insert(ops.end(), {"nancumsum", "nancumprod"});
  for (const auto& op : ops)
    for (const auto& spec : specs) {
      INFO(name << " " << op << " axis " << spec << " on " << dev.str());
      const auto got = run_scan(op, x, spec);
      using R = typename decltype(got)::value_type;
      static_assert(std::is_same_v<R, cunp::detail::sum_result_t<T>>);
      require_scan(got, g<R>(name + "_" + op + "_" + spec), op.find("prod") != std::string::npos);
    }
}

/// Deterministic values lo, ..., hi - 1 as T (integers: exact sums in floating point too).
template <class T>
ndarray<T> ints(const shape_t& shape, int lo, int hi, cunp::device dev, std::uint64_t seed = 1) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  for (std::size_t i = 0; i < v.size(); ++i) {  // vector<bool> has no references to elements
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const int k = lo + static_cast<int>((seed >> 33) % unsigned(hi - lo));
    v[i] = cunp::detail::convert<T>(double(k));
  }
  return cunp::asarray(v, shape, cpu).to(dev);
}
/// Deterministic values in [lo, hi).
template <class T>
ndarray<T> uniform(const shape_t& shape, double lo, double hi, cunp::device dev,
                   std::uint64_t seed = 2) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  for (auto& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x = cunp::detail::convert<T>(lo + (hi - lo) * double(seed >> 11) * 0x1p-53);
  }
  return cunp::asarray(v, shape, cpu).to(dev);
}

/// n signed powers of two whose running product stays within 2^-24..2^24, so that every product
/// of a run of them is exact in float32 and a cumprod must come out the same in any order of
/// multiplication. (Factors near 1 do not: rounding a product near 1.0 is biased, -5e-10 a
/// multiplication, so tile products drift from the sequential one by ~4e-6 a tile of 8192.)
[[maybe_unused]] ndarray<float> powers_of_two(index_t n, cunp::device dev) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uint64_t seed = 3;
  int e = 0;
  for (auto& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const int r = static_cast<int>((seed >> 33) % 6);  // halve, double or keep; odd r negates
    int step = r < 2 ? -1 : r < 4 ? 1 : 0;
    if (std::abs(e + step) > 24) step = -step;
    e += step;
    x = std::ldexp(r % 2 ? -1.0f : 1.0f, step);
  }
  return cunp::asarray(v, {n}, cpu).to(dev);
}

/// Fills and frees a pool block of `bytes` on a GPU, so that the next output of that size does
/// not start out holding the right answer from an earlier run.
[[maybe_unused]] void poison(cunp::device dev, index_t bytes) {
  if (dev.is_cuda()) (void)cunp::full<std::uint8_t>({bytes}, 0xA5, dev);
}

/// same_on_every_backend for a scan: its output poisoned first, results required equal (rtol 0)
/// or within rtol.
template <class F> void same_scan(F make, double rtol = 0) {
  same_on_every_backend(
      [&](cunp::device dev) {
        const auto probe = make(cpu);
        poison(dev, static_cast<index_t>(probe.nbytes()));
        return make(dev);
      },
      rtol, 0);
}

}  // namespace

// The dtype sweep is this file's heaviest code (four scans, each dtype, both backends), so it is
// spread over parts 0 and 1 (harness/parts.hpp); the other cases are part 2.
#if CUNP_IN_PART(0)
TEST_CASE("cumsum, cumprod, nancumsum and nancumprod match NumPy for bool and integers",
          "[scan][golden]") {
  on_every_backend([](cunp::device dev) {
    check_golden<bool>("b", dev);
    check_golden<std::int8_t>("i8", dev);
    check_golden<std::uint8_t>("u8", dev);
    check_golden<std::int32_t>("i32", dev);
    check_golden<std::uint32_t>("u32", dev);
    check_golden<std::int64_t>("i64", dev);  // wraps
    check_golden<std::uint64_t>("u64", dev);
  });
  static_assert(std::is_same_v<decltype(cunp::cumsum(ndarray<bool>()))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cunp::cumprod(ndarray<std::uint16_t>()))::value_type,
                               std::uint64_t>);
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("cumsum, cumprod, nancumsum and nancumprod match NumPy for floating and complex dtypes",
          "[scan][golden]") {
  on_every_backend([](cunp::device dev) {
    check_golden<cunp::float16>("f16", dev);
    check_golden<float>("f32", dev);
    check_golden<double>("f64", dev);
    check_golden<cunp::complex64>("c64", dev);
    check_golden<cunp::complex128>("c128", dev);
    check_golden<cunp::float16>("f16n", dev);  // NaN and inf
    check_golden<float>("f32n", dev);
    check_golden<double>("f64n", dev);
    check_golden<cunp::complex128>("c128n", dev);
  });
  static_assert(std::is_same_v<decltype(cunp::nancumsum(ndarray<cunp::bfloat16>()))::value_type,
                               cunp::bfloat16>);
}
#endif

#if CUNP_IN_PART(2)

TEST_CASE("float16 rounds every partial sum; dtype= converts first; NaN is replaced first",
          "[scan][golden]") {
  // NumPy's add.accumulate on float16: 2048 + 1 rounds back to 2048. A GPU adds in another order,
  // so this is NumPy's sequential result on the cpu only.
  require_equal(cunp::cumsum(cunp::ones<cunp::float16>({3000}, cpu)),
                g<cunp::float16>("f16_ones_cumsum"));
  on_every_backend([](cunp::device dev) {
    const auto i8 = g<std::int8_t>("i8").to(dev);
    require_equal(cunp::cumsum<std::int8_t>(i8), g<std::int8_t>("i8_cumsum_int8_flat"));
    require_scan(cunp::cumsum<float>(g<cunp::float16>("f16").to(dev), 1),
                 g<float>("f16_cumsum_float32_1"), false);
    require_equal(cunp::cumsum<double>(g<std::int32_t>("i32").to(dev), 0),
                  g<double>("i32_cumsum_float64_0"));
    require_equal(cunp::cumprod<std::uint8_t>(g<std::uint8_t>("u8").to(dev), -1),
                  g<std::uint8_t>("u8_cumprod_uint8_m1"));
    require_equal(cunp::cumsum<bool>(g<bool>("b").to(dev), 1), g<bool>("b_cumsum_bool_1"));
    const auto f64n = g<double>("f64n").to(dev);
    const auto twos = cunp::view(f64n, cunp::all, slice(none, 3)) * 0.0 + 2.0;  // NaN stays NaN
    require_equal(cunp::nancumprod<std::int64_t>(twos),
                  g<std::int64_t>("f64n_nancumprod_int64_flat"));
  });
}

TEST_CASE("scans of views, size-1 dimensions, empty and 0-d arrays", "[scan][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto f64 = g<double>("f64").to(dev);
    const auto rev = cunp::view(f64, slice(none, none, -1), slice(none, none, -2));
    for (const std::string spec : {"0", "1", "m1", "flat"}) {
      INFO("reversed, axis " << spec);
      require_scan(run_scan("cumsum", rev, spec), g<double>("rev_cumsum_" + spec), false);
    }
    const auto i8t = cunp::transpose(g<std::int8_t>("i8").to(dev), {2, 0, 1});
    for (const std::string spec : {"0", "1", "2", "m1", "m2", "flat"}) {
      INFO("transposed, axis " << spec);
      require_equal(run_scan("cumsum", i8t, spec), g<std::int64_t>("i8t_cumsum_" + spec));
    }
    const auto ones_dims = g<double>("ones_dims").to(dev);
    for (const std::string spec : {"0", "1", "2", "flat"}) {
      INFO("size-1 dimensions, axis " << spec);
      require_scan(run_scan("cumprod", ones_dims, spec), g<double>("ones_dims_cumprod_" + spec),
                   true);
    }

    const auto e = cunp::zeros<float>({0, 3}, dev);
    require_values<float>(cunp::cumsum(e, 0), {}, {0, 3});
    require_values<float>(cunp::nancumprod(e, -1), {}, {0, 3});
    require_values<float>(cunp::cumsum(e), {}, {0});
    const auto e3 = cunp::zeros<std::int8_t>({2, 0, 3}, dev);
    require_values<std::int64_t>(cunp::cumsum(e3, 2), {}, {2, 0, 3});
    require_values<std::int64_t>(cunp::cumprod(e3), {}, {0});
    REQUIRE_THROWS_WITH(cunp::cumsum(e3, 3), "axis 3 is out of bounds for array of dimension 3");

    const auto s = cunp::full<float>({}, 3.0f, dev);  // NumPy scans a 0-d array as a 1-d one
    require_values<float>(cunp::cumsum(s), {3.0f}, {1});
    require_values<float>(cunp::cumprod(s, 0), {3.0f}, {1});
    require_values<float>(cunp::nancumsum(s, -1), {3.0f}, {1});
    REQUIRE_THROWS_WITH(cunp::cumsum(s, 1), "axis 1 is out of bounds for array of dimension 1");
  });
}

TEST_CASE("scans of element-wise expressions", "[scan][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto f32 = g<float>("f32").to(dev), g32 = g<float>("g32").to(dev);
    require_scan(cunp::cumsum(f32 * g32 + 1.0f, 1), g<float>("expr_cumsum_1"), false);
    require_scan(cunp::cumsum(f32 + g32), g<float>("expr_cumsum_flat"), false);
    require_scan(cunp::nancumsum(g<float>("f32n").to(dev) * 2.0f), g<float>("expr_nancumsum_flat"),
                 false);
  });
}

TEST_CASE("diff matches NumPy", "[scan][diff][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto i32 = g<std::int32_t>("i32").to(dev);
    const auto same = cunp::diff(i32, 0);
    REQUIRE(same.storage() == i32.storage());  // NumPy returns `a` itself
    for (int n = 0; n < 4; ++n) {
      INFO("order " << n);
      require_equal(cunp::diff(i32, n), g<std::int32_t>("diff_i32_" + std::to_string(n) + "_m1"));
    }
    require_equal(cunp::diff(i32, 2, 0), g<std::int32_t>("diff_i32_2_0"));
    require_equal(cunp::diff(i32, 6, 0), g<std::int32_t>("diff_i32_6_0"));  // (0, 5)
    require_equal(cunp::diff(g<std::uint8_t>("u8").to(dev)), g<std::uint8_t>("diff_u8_1_m1"));
    const auto b = g<bool>("b").to(dev);
    static_assert(std::is_same_v<decltype(cunp::diff(b)), ndarray<bool>>);
    require_equal(cunp::diff(b), g<bool>("diff_b_1_m1"));  // not_equal
    require_equal(cunp::diff(b, 2), g<bool>("diff_b_2_m1"));
    require_equal(cunp::diff(g<double>("f64n").to(dev), 1, 0), g<double>("diff_f64n_1_0"));
    require_equal(cunp::diff(g<cunp::float16>("f16").to(dev), 3, 1),
                  g<cunp::float16>("diff_f16_3_1"));
    require_equal(cunp::diff(g<cunp::complex128>("c128").to(dev), 1, 2),
                  g<cunp::complex128>("diff_c128_1_2"));
    const auto f64 = g<double>("f64").to(dev);
    const auto rev = cunp::view(f64, slice(none, none, -1), slice(none, none, -2));
    require_equal(cunp::diff(rev, 2), g<double>("diff_rev_2_m1"));
    const auto f32 = g<float>("f32").to(dev), g32 = g<float>("g32").to(dev);
    require_equal(cunp::diff(f32 * g32), g<float>("diff_expr_1_m1"));
  });
}

TEST_CASE("scan and diff errors carry NumPy's messages", "[scan][diff]") {
  on_every_backend([](cunp::device dev) {
    const auto m = cunp::ones<float>({2, 3}, dev);
    REQUIRE_THROWS_AS(cunp::cumsum(m, 2), cunp::shape_error);
    REQUIRE_THROWS_WITH(cunp::cumsum(m, 2), "axis 2 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::cumprod(m, -3), "axis -3 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::nancumsum(m * 2.0f, 5),
                        "axis 5 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::nancumprod(m, 2), "axis 2 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_AS(cunp::diff(m, -1), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::diff(m, -1), "order must be non-negative but got -1");
    REQUIRE_THROWS_WITH(cunp::diff(m, 1, 2), "axis 2 is out of bounds for array of dimension 2");
    const auto s = cunp::full<float>({}, 1.0f, dev);
    REQUIRE_THROWS_WITH(cunp::diff(s), "diff requires input that is at least one dimensional");
    REQUIRE(cunp::diff(s, 0).storage() == s.storage());  // NumPy returns before checking
  });
}

TEST_CASE("GPU scans agree with the cpu on every path", "[scan]") {
  using dev_t = cunp::device;
  // One row through CUB: contiguous (exact with integer values), float and double within
  // rounding, reversed and strided views, conversions, NaN, bool.
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({1 << 20}, 0, 8, d)); });
  same_scan([](dev_t d) { return cunp::cumsum(uniform<float>({1 << 20}, 0, 1, d)); }, 2e-4);
  same_scan([](dev_t d) { return cunp::cumsum(uniform<double>({300007}, 0, 1, d)); }, 1e-12);
  same_scan([](dev_t d) { return cunp::cumprod(uniform<double>({100003}, 1 - 1e-5, 1 + 1e-5, d)); },
            1e-12);
  same_scan([](dev_t d) {  // wraps
    return cunp::cumsum(ints<std::int64_t>({200001}, -1000, 1000, d) * (std::int64_t(1) << 52));
  });
  same_scan([](dev_t d) { return cunp::cumprod(ints<std::int64_t>({50000}, -3, 4, d)); });
  same_scan([](dev_t d) {
    return cunp::cumsum(cunp::view(ints<float>({90001}, 0, 8, d), slice(none, none, -3)));
  });
  same_scan([](dev_t d) { return cunp::cumsum(ints<bool>({70000}, 0, 2, d)); });
  same_scan([](dev_t d) { return cunp::cumsum<double>(ints<float>({70000}, -9, 9, d)); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<std::uint8_t>({70000}, 0, 256, d)); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<cunp::float16>({2000}, 0, 2, d)); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<cunp::complex64>({70000}, -9, 9, d)); });
  same_scan([](dev_t d) {
    const auto x = ints<float>({60000}, 0, 8, d);
    return cunp::nancumsum(cunp::where(x == 3.0f, std::numeric_limits<float>::quiet_NaN(), x));
  });
  same_scan([](dev_t d) {
    const auto x = ints<double>({60000}, -2, 3, d);
    return cunp::nancumprod(cunp::where(x == 0.0, std::numeric_limits<double>::quiet_NaN(), x));
  });
  // One row of float, double, 32- and 64-bit integers at sizes around CUB's tiles and a
  // ragged end. Integer values are exact in any order of addition; int64 sums and uint64
  // products wrap.
  const auto wrapping = [](index_t n, dev_t d) {
    return ndarray<std::int64_t>(ints<std::int64_t>({n}, -1000, 1000, d) * (std::int64_t(1) << 52));
  };
  for (index_t n : {1, 3, 4, 5, 4095, 4096, 4097, 8191, 8192, 8193, 3 * 8192 + 5}) {
    INFO("flattened, " << n << " elements");
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({n}, 0, 8, d)); });
    same_scan([n](dev_t d) { return cunp::cumsum(uniform<double>({n}, 0, 1, d)); }, 1e-12);
    same_scan([&](dev_t d) { return cunp::cumsum(wrapping(n, d)); });
    same_scan([n](dev_t d) {
      return cunp::cumsum<std::int32_t>(ints<std::int32_t>({n}, -9, 9, d));
    });
    same_scan([n](dev_t d) { return cunp::cumprod(uniform<float>({n}, 0.999, 1.001, d)); }, 2e-4);
    same_scan([n](dev_t d) { return cunp::cumprod(uniform<double>({n}, 0.999, 1.001, d)); }, 1e-12);
    same_scan([n](dev_t d) {  // odd factors: the wrapped product never reaches 0
      const auto k = ints<std::uint64_t>({n}, 0, 8, d);
      return cunp::cumprod(ndarray<std::uint64_t>(k * std::uint64_t(2) + std::uint64_t(1)));
    });
  }
  // Rows of 2^16 or more float32 or 32-bit integer accumulators on 16-byte boundaries take the
  // streaming scan (tiles of 32 KiB): one tile, fewer tiles than multiprocessors, many, a ragged
  // last tile whose bulk copy stops short of its last 1-3 elements; a view off the boundary and
  // 8-byte accumulators stay with CUB's scan.
  for (index_t n : {index_t(1) << 16, (index_t(1) << 16) + 3, index_t(300001),
                    (index_t(1) << 20) + 8192 + 5, (index_t(1) << 22) + 3,
                    (index_t(1) << 23) + 2}) {
    INFO("streamed, " << n << " elements");
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({n}, 0, 4, d)); });
    same_scan([n](dev_t d) { return cunp::cumprod(powers_of_two(n, d)); });
    same_scan([n](dev_t d) {
      return cunp::cumsum<std::int32_t>(ints<std::int32_t>({n}, -9, 9, d));
    });
    same_scan([n](dev_t d) {  // odd factors: the wrapped product never reaches 0
      const auto k = ints<std::uint32_t>({n}, 0, 8, d);
      return cunp::cumprod<std::uint32_t>(ndarray<std::uint32_t>(k * 2u + 1u));
    });
    same_scan([n](dev_t d) { return cunp::cumsum(ints<double>({n}, -1000, 1000, d)); });
    same_scan([&](dev_t d) { return cunp::cumsum(wrapping(n, d)); });
  }
  same_scan([](dev_t d) {
    return cunp::cumsum(cunp::view(ints<float>({(1 << 21) + 1}, 0, 4, d), slice(1, none)));
  });
  // Views starting off and on a 16-byte boundary.
  for (index_t from : {1, 4}) {
    INFO("a[" << from << ":]");
    same_scan([from](dev_t d) {
      return cunp::cumsum(cunp::view(ints<float>({20001}, 0, 8, d), slice(from, none)));
    });
    same_scan([&](dev_t d) {
      return cunp::cumsum(cunp::view(wrapping(20001, d), slice(from, none)));
    });
  }

  // Expressions: contiguous ones are read as they are scanned, broadcast ones are written first.
  same_scan([](dev_t d) {
    return cunp::cumsum(ints<float>({80000}, 0, 8, d) * 2.0f + ints<float>({80000}, 0, 8, d, 7));
  });
  same_scan([](dev_t d) {
    return cunp::cumsum(ints<float>({300, 1}, 0, 8, d) + ints<float>({700}, 0, 8, d, 5), 1);
  });

  // Rows along the last axis: chained tiles (partial last tile, one tile, a tile and one), and
  // segmented tiles holding several short rows.
  same_scan([](dev_t d) { return cunp::cumsum(ints<std::int8_t>({300, 5001}, -128, 128, d), 1); });
  for (index_t n : {3000, 4096, 4097, 2049}) {
    INFO("rows of " << n);
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({50, n}, 0, 8, d), -1); });
  }
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({5000, 37}, 0, 8, d), 1); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<std::int32_t>({3000, 1}, -5, 5, d), 1); });
  same_scan([](dev_t d) { return cunp::cumprod(uniform<double>({400, 3000}, 0.999, 1.001, d), 1); },
            1e-12);
  same_scan([](dev_t d) { return cunp::cumsum(ints<cunp::complex128>({64, 3000}, -9, 9, d), 1); });
  // Rows of at least a tile (16384 elements of 4 bytes, 8192 of 8) take the tile scan when every
  // row starts on a 16-byte boundary: whole tiles, a ragged last tile, rows of a wider array (a
  // sliced view), and rows that do not qualify (short, odd length, a view off the boundary).
  for (index_t n : {16384, 3 * 16384 + 4, 8193}) {
    INFO("long rows of " << n);
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({7, n}, 0, 8, d), -1); });
    same_scan([n](dev_t d) { return cunp::cumprod(uniform<double>({3, n}, 0.999, 1.001, d), 1); },
              1e-12);
    same_scan([n](dev_t d) { return cunp::cumsum(ints<std::int64_t>({5, n}, -99, 99, d), 1); });
  }
  for (index_t from : {0, 1}) {
    INFO("rows of a[:, " << from << ":16400]");
    same_scan([from](dev_t d) {
      return cunp::cumsum(cunp::view(ints<float>({4, 20000}, 0, 8, d), cunp::all,
                                     slice(from, 16400)), 1);
    });
  }

  // Other axes, columns of at least 32 16-byte vectors on 16-byte boundaries: the tile scan down
  // the columns (tiles of 256 rows): a partial stripe, several outer indices, one row, fewer rows
  // than a warp holds in registers, a partial tile, long chains, sliced columns on and off the
  // boundary, wrapping int64.
  for (index_t n : {1, 5, 20, 256, 300, 5000}) {
    INFO("columns of " << n);
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({n, 300}, 0, 8, d), 0); });
    same_scan([n](dev_t d) { return cunp::cumsum(ints<float>({3, n, 260}, 0, 8, d), 1); });
    same_scan([n](dev_t d) { return cunp::cumprod(uniform<double>({n, 70}, 0.999, 1.001, d), 0); },
              1e-12);
    same_scan([n](dev_t d) {
      return cunp::cumsum(ndarray<std::int64_t>(ints<std::int64_t>({n, 2, 66}, -99, 99, d) *
                                                (std::int64_t(1) << 52)), 0);
    });
  }
  for (index_t from : {4, 1}) {
    INFO("columns of a[:, " << from << ":" << from + 512 << "]");
    same_scan([from](dev_t d) {
      return cunp::cumsum(cunp::view(ints<float>({700, 600}, 0, 8, d), cunp::all,
                                     slice(from, from + 512)), 0);
    });
  }
  // Other axes otherwise (narrower or odd columns, conversions, narrow types): one thread per
  // column, chunks of a column chained.
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({1000, 100}, 0, 8, d), 0); });
  same_scan([](dev_t d) { return cunp::cumsum(uniform<double>({3000, 701}, 0, 1, d), 0); }, 1e-12);
  same_scan([](dev_t d) { return cunp::cumsum(ints<std::int32_t>({40, 50, 60}, -9, 9, d), 1); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<std::int16_t>({7, 3000, 3}, -9, 9, d), 1); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<cunp::float16>({2000, 40}, 0, 2, d), 0); });
  same_scan([](dev_t d) { return cunp::cumprod(ints<std::uint32_t>({500, 400}, 1, 4, d), 0); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<bool>({5000, 1, 33}, 0, 2, d), 0); });

  // Layouts that are copied into C order first: transposed, reversed rows, sliced short rows,
  // and a flattened transpose.
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({600, 500}, 0, 8, d).T(), 0); });
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({600, 500}, 0, 8, d).T(), 1); });
  same_scan([](dev_t d) {
    const auto x = ints<float>({300, 700}, 0, 8, d);
    return cunp::cumsum(cunp::view(x, cunp::all, slice(none, none, -1)), 1);
  });
  same_scan([](dev_t d) {
    const auto x = ints<float>({1000, 50}, 0, 8, d);
    return cunp::cumsum(cunp::view(x, cunp::all, slice(none, 20)), 1);
  });
  same_scan([](dev_t d) { return cunp::cumsum(ints<float>({300, 200}, 0, 8, d).T()); });
  same_scan([](dev_t d) { return cunp::diff(ints<std::int64_t>({200, 300}, -99, 99, d), 3, 0); });
}
#endif  // CUNP_IN_PART(2)
