// numpy.random.Generator against NumPy (tests/golden/cases_random.py): default_rng's seeding,
// random, uniform and integers bit for bit with the generator's state after every call, on every
// backend, long runs (several GPU tiles, rejection-heavy ranges), spawn, jumped, advance, and
// every error NumPy raises, with the state unchanged by a call that throws; the same for Philox.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using Generator = cunp::random::Generator<>;
using cunp::random::PCG64;
using cunp::random::Philox;
using cunp::random::SeedSequence;

namespace {

std::vector<std::uint64_t> words(const PCG64::state_type& s) {
  return {s.state_high, s.state_low, s.inc_high, s.inc_low, std::uint64_t(s.has_uint32),
          std::uint64_t(s.uinteger)};
}

/// cases_random.philox_state_of's words.
std::vector<std::uint64_t> words(const Philox::state_type& s) {
  std::vector<std::uint64_t> w(s.counter.begin(), s.counter.end());
  w.insert(w.end(), s.key.begin(), s.key.end());
  w.insert(w.end(), s.buffer.begin(), s.buffer.end());
  w.insert(w.end(), {std::uint64_t(s.buffer_pos), std::uint64_t(s.has_uint32),
                     std::uint64_t(s.uinteger)});
  return w;
}

template <class BitGenerator>
void require_state(archive& g, const std::string& name, const BitGenerator& bg) {
  INFO("state " << name);
  CHECK(words(bg.state()) == g.get<std::uint64_t>(name).to_vector());
}

/// f()'s result, exactly NumPy's member `name` and on `dev`, then the state after it.
template <class T, class Gen>
void check_call(archive& g, const std::string& name, const Gen& gen, cunp::device dev,
                fn_ref<ndarray<T>()> f) {
  g.check(name, [&] {
    const auto r = f();
    CHECK(r.device() == dev);
    return r;
  }, 0);
  require_state(g, name + "__state", gen.bit_generator());
}

Generator seeded(const std::string& name) {
  if (name == "s0") return cunp::random::default_rng(0);
  if (name == "s12345") return cunp::random::default_rng(12345);
  if (name == "list") return cunp::random::default_rng({1, 2, 3});
  if (name == "big") return cunp::random::default_rng((std::uint64_t(1) << 63) + 5);
  return cunp::random::default_rng(std::vector<std::uint64_t>{(std::uint64_t(1) << 40) + 5, 7});
}

/// cases_random.PHILOX_SEEDS.
cunp::random::Generator<Philox> philox_seeded(const std::string& name) {
  constexpr auto top = std::numeric_limits<std::uint64_t>::max();
  if (name == "s0") return cunp::random::Generator(Philox(0));
  if (name == "list") return cunp::random::Generator(Philox(SeedSequence({1, 2, 3})));
  if (name == "carry") return cunp::random::Generator(Philox(7, {top - 2, top, top, top}));
  return cunp::random::Generator(
      Philox::from_key({0x243F6A8885A308D3ull, 0x13198A2E03707344ull}, {5, 0, top, 0}));
}

/// The calls of cases_random.calls() on `gen` in order, each against member
/// <bits><seed>_<call> (bits: "" for PCG64, "philox_").
template <class Gen>
void numpy_streams(archive& g, const std::string& bits, const std::string& seed, Gen gen,
                   cunp::device dev) {
  require_state(g, bits + "seeding__" + seed, gen.bit_generator());
  const auto call = [&](const char* c, auto f) {
    check_call<value_of<decltype(f())>>(g, bits + seed + "_" + c, gen, dev, f);
  };
  using i64 = std::int64_t;
  constexpr auto u64_max = std::numeric_limits<std::uint64_t>::max();
  call("f64", [&] { return gen.template random<double>({7}, dev); });
  call("f32", [&] { return gen.template random<float>({5}, dev); });
  call("i64_small", [&] { return gen.template integers<i64>(0, 1000, {9}, dev); });
  call("i8", [&] { return gen.template integers<std::int8_t>(-100, 27, {13}, dev); });
  call("u16_full", [&] { return gen.template integers<std::uint16_t>(0, 65535, {6}, dev, true); });
  call("bool", [&] { return gen.template integers<bool>(0, 2, {70}, dev); });
  call("i64_wide", [&] { return gen.template integers<i64>(-5, i64(1) << 40, {4}, dev); });
  call("u64_full",
       [&] { return gen.template integers<std::uint64_t>(0, u64_max, {3}, dev, true); });
  call("i64_all", [&] {
    return gen.template integers<i64>(std::numeric_limits<i64>::min(),
                                      std::numeric_limits<i64>::max(), {3}, dev);
  });
  call("i32_2d", [&] { return gen.template integers<std::int32_t>(-7, 9, {2, 3}, dev); });
  call("uniform", [&] { return gen.template uniform<double>(-2.5, 7.0, {3, 2}, dev); });
  call("f32_one", [&] { return gen.template random<float>({1}, dev); });
  call("u8", [&] { return gen.template integers<std::uint8_t>(3, 250, {33}, dev); });
  call("i16", [&] { return gen.template integers<std::int16_t>(-300, 301, {5}, dev); });
  call("u32_full",
       [&] { return gen.template integers<std::uint32_t>(0, 0xFFFFFFFFu, {4}, dev, true); });
  call("i8_full", [&] { return gen.template integers<std::int8_t>(-128, 127, {7}, dev, true); });
  call("one_value", [&] { return gen.template integers<i64>(5, 5, {3}, dev, true); });
  call("empty", [&] { return gen.template random<double>({0, 3}, dev); });
  call("scalar", [&] { return gen.template random<double>({}, dev); });
  call("f16", [&] { return gen.template random<cunp::float16>({9}, dev); });
  call("uniform_f32", [&] { return gen.template uniform<float>(1.0, 3.0, {6}, dev); });
  call("f32_long", [&] { return gen.template random<float>({50001}, dev); });
  call("f64_long", [&] { return gen.template random<double>({30001}, dev); });
  call("i64_long", [&] { return gen.template integers<i64>(0, 1000, {40001}, dev); });
  call("u8_long", [&] { return gen.template integers<std::uint8_t>(0, 200, {70001}, dev); });
  call("u32_half",
       [&] { return gen.template integers<std::uint32_t>(0, (i64(1) << 31) + 1, {20001}, dev); });
  call("u8_half", [&] { return gen.template integers<std::uint8_t>(0, 129, {30001}, dev); });
  call("u64_half", [&] {
    return gen.template integers<std::uint64_t>(0, (std::uint64_t(1) << 63) + 1, {9001}, dev);
  });
  call("bool_long", [&] { return gen.template integers<bool>(0, 2, {10001}, dev); });
  call("i16_long", [&] { return gen.template integers<std::int16_t>(-1000, 1000, {20001}, dev); });
  call("empty_range", [&] { return gen.template integers<i64>(5, 5, {2, 0}, dev); });
  call("choice_int", [&] { return gen.choice(1000, {9}, true, {}, dev); });
  call("choice_p", [&] { return gen.choice(5, {7}, true, {0.1, 0, 0.3, 0.6, 0}, dev); });
  call("choice_p_2d", [&] { return gen.choice(4, {2, 3}, true, {0.25, 0.25, 0.4, 0.1}, dev); });
  call("choice_axis", [&] {
    return gen.choice(cunp::arange<double>(12, dev).reshape({3, 4}), {5}, true, {}, 1);
  });
  call("choice_arr_p", [&] {
    return gen.choice(cunp::arange<double>(6, dev), {4}, true, {0, 0.5, 0, 0.25, 0.125, 0.125});
  });
}

}  // namespace

TEST_CASE("default_rng gives NumPy's streams and states", "[random][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("random");
    for (const char* seed : {"s0", "s12345", "list", "big", "wide"}) {
      INFO("seed " << seed);
      numpy_streams(g, "", seed, seeded(seed), dev);
    }
    // spawn, jumped, advance and SeedSequence, as in cases_random.generate.
    Generator parent = cunp::random::default_rng(42);
    auto kids = parent.spawn(2);
    require_state(g, "seeding__spawn0", kids[0].bit_generator());
    require_state(g, "seeding__spawn1", kids[1].bit_generator());
    require_state(g, "seeding__spawn_again", parent.spawn(1)[0].bit_generator());
    require_state(g, "seeding__grandchild", kids[1].spawn(1)[0].bit_generator());
    Generator h = cunp::random::default_rng(42);
    (void)h.random<float>({1}, dev);
    require_state(g, "seeding__jumped", h.bit_generator().jumped());
    require_state(g, "seeding__jumped3", h.bit_generator().jumped(3));
    h.bit_generator().advance(1000);
    require_state(g, "seeding__advanced", h.bit_generator());
    CHECK(SeedSequence(42).generate_state(4) == g.get<std::uint64_t>("seq42_state").to_vector());
    // Philox: the same calls, and its spawn, jumped and advance (cases_random.philox_streams).
    for (const char* seed : {"s0", "list", "carry", "key"}) {
      INFO("philox seed " << seed);
      numpy_streams(g, "philox_", seed, philox_seeded(seed), dev);
    }
    cunp::random::Generator parent_x(Philox(42));
    const auto kids_x = parent_x.spawn(2);
    require_state(g, "philox_seeding__spawn0", kids_x[0].bit_generator());
    require_state(g, "philox_seeding__spawn1", kids_x[1].bit_generator());
    cunp::random::Generator hx(Philox(42));
    (void)hx.random<float>({3}, dev);
    require_state(g, "philox_seeding__jumped", hx.bit_generator().jumped());
    require_state(g, "philox_seeding__jumped3", hx.bit_generator().jumped(3));
    hx.bit_generator().advance(1000);
    require_state(g, "philox_seeding__advanced", hx.bit_generator());
    hx.bit_generator().advance(std::numeric_limits<std::uint64_t>::max());
    require_state(g, "philox_seeding__advanced_carry", hx.bit_generator());
    g.require_all_used();
  });
}

TEST_CASE("random(out) continues the stream of random", "[random]") {
  on_every_backend([](cunp::device dev) {
    Generator a = cunp::random::default_rng(7), b = cunp::random::default_rng(7);
    const auto want = a.random<float>({3, 5}, dev);
    const auto out = cunp::zeros<float>({3, 5}, dev);
    b.random(out);
    require_equal(out.to(cunp::cpu), want.to(cunp::cpu));
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    // A contiguous view that starts 4 bytes into its buffer: no whole-draw stores there.
    Generator f = cunp::random::default_rng(11), h = cunp::random::default_rng(11);
    const auto fview = cunp::view(cunp::zeros<float>({9}, dev), cunp::slice(1, cunp::none));
    f.random(fview);
    require_equal(fview.to(cunp::cpu), h.random<float>({8}, dev).to(cunp::cpu));
    CHECK(f.bit_generator().state() == h.bit_generator().state());
  });
}

namespace {

/// make(g, dev) on generators from fresh(), after one float32 draw each (a buffered half): on
/// every GPU backend the cpu's numbers, and the cpu's state after them.
template <class Fresh, class Make> void same_on_gpus(Fresh fresh, Make make) {
  auto c = fresh();
  (void)c.template random<float>({1}, cunp::cpu);
  const auto want = make(c, cunp::cpu);
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    auto d = fresh();
    (void)d.template random<float>({1}, dev);
    require_equal(make(d, dev).to(cunp::cpu), want);
    CHECK(d.bit_generator().state() == c.bit_generator().state());
  }
}

}  // namespace

TEST_CASE("a GPU fill equals the cpu's over millions of draws", "[random][gpu]") {
  // Many tiles and grid strides, a buffered half at the start, and a rejection rate of one half.
  const cunp::index_t n = (cunp::index_t(1) << 22) + 3;
  const auto pcg = [] { return cunp::random::default_rng(2024); };
  // Philox from a counter whose carry into the second word comes inside the fills.
  const auto philox = [] {
    constexpr auto top = std::numeric_limits<std::uint64_t>::max();
    return cunp::random::Generator(Philox(2024, {top - 100000, top, 0, 0}));
  };
  const auto fills = [&](auto fresh) {
    const auto same = [&](auto make) { same_on_gpus(fresh, make); };
    same([&](auto& g, cunp::device d) { return g.template random<float>({n}, d); });
    same([&](auto& g, cunp::device d) { return g.template random<double>({n}, d); });
    same([&](auto& g, cunp::device d) {
      return g.template integers<std::int64_t>(0, 1000, {n}, d);
    });
    // [0, 4294924): a refusal in about 100,000 candidates, so tiles after an odd number of
    // them store their pairs one item off (the GPU's shifted stores)
    same([&](auto& g, cunp::device d) {
      return g.template integers<std::int64_t>(0, 4294924, {n}, d);
    });
    same([&](auto& g, cunp::device d) {
      return g.template integers<std::uint32_t>(0, 4294924, {n}, d);
    });
    same(
        [&](auto& g, cunp::device d) { return g.template integers<std::uint8_t>(0, 129, {n}, d); });
    same([&](auto& g, cunp::device d) { return g.template integers<bool>(0, 2, {n}, d); });
    same([&](auto& g, cunp::device d) {
      return g.template integers<std::uint64_t>(0, (std::uint64_t(1) << 63) + 1, {n}, d);
    });
    same([&](auto& g, cunp::device d) { return g.template standard_normal<float>({n}, d); });
    same([&](auto& g, cunp::device d) { return g.template standard_normal<double>({n}, d); });
    same([&](auto& g, cunp::device d) { return g.permutation(n, d); });
  };
  fills(pcg);
  fills(philox);
  const auto same = [&](auto make) { same_on_gpus(pcg, make); };
  // Per-element draws (each rejection method and both poisson regimes), fewer: the cpu's
  // reference costs a few hundred nanoseconds an element.
  const cunp::index_t m = 300001;
  for (const double shape : {0.3, 1.0, 2.5, 1e-3})
    same([&](Generator& g, cunp::device d) { return g.standard_gamma<double>(shape, {m}, d); });
  same([&](Generator& g, cunp::device d) { return g.standard_gamma<float>(4.0, {m}, d); });
  same([&](Generator& g, cunp::device d) { return g.beta(0.5, 0.5, {m}, d); });
  same([&](Generator& g, cunp::device d) { return g.beta(0.01, 0.02, {m}, d); });
  same([&](Generator& g, cunp::device d) { return g.beta(2.0, 3.0, {m}, d); });
  for (const double lam : {0.5, 9.9, 10.0, 1e7})
    same([&](Generator& g, cunp::device d) { return g.poisson(lam, {m}, d); });
  for (const auto& [trials, p] : {std::pair<std::int64_t, double>{20, 0.6}, {100000, 0.3},
                                  {std::int64_t(1) << 62, 0.5}})
    same([&](Generator& g, cunp::device d) { return g.binomial(trials, p, {m}, d); });
}

namespace {

/// After one float32 draw (so that a half is buffered), fails(f, text) requires f to throw
/// `text` and to leave gen's whole state as it was.
template <class Gen> auto failure_check(Gen& gen, cunp::device dev) {
  (void)gen.template random<float>({1}, dev);
  return [&gen, before = gen.bit_generator().state()](fn_ref<void()> f, const char* text) {
    REQUIRE_THROWS_WITH(f(), text);
    CHECK(gen.bit_generator().state() == before);
  };
}

}  // namespace

TEST_CASE("bad arguments raise NumPy's errors and leave the generator as it was", "[random]") {
  on_every_backend([](cunp::device dev) {
    Generator gen = cunp::random::default_rng(3);
    const auto fails = failure_check(gen, dev);
    using i64 = std::int64_t;
    fails([&] { (void)gen.integers<i64>(5, 5, {2}, dev); }, "low >= high");
    fails([&] { (void)gen.integers<i64>(5, 4, {2}, dev, true); }, "low > high");
    fails([&] { (void)gen.integers<std::uint8_t>(-1, 5, {2}, dev); }, "low is out of bounds for uint8");
    fails([&] { (void)gen.integers<std::uint8_t>(0, 257, {2}, dev); },
          "high is out of bounds for uint8");
    fails([&] { (void)gen.integers<std::uint8_t>(0, 256, {2}, dev, true); },
          "high is out of bounds for uint8");
    fails([&] { (void)gen.integers<std::int8_t>(-129, 0, {2}, dev); }, "low is out of bounds for int8");
    fails([&] { (void)gen.integers<i64>(0, std::numeric_limits<std::uint64_t>::max(), {2}, dev); },
          "high is out of bounds for int64");
    fails([&] { (void)gen.uniform<double>(-1e308, 1e308, {2}, dev); },
          "high - low range exceeds valid bounds");
    fails([&] { (void)gen.uniform<double>(std::nan(""), 1, {2}, dev); },
          "high - low range exceeds valid bounds");
    fails([&] { (void)gen.uniform<double>(5, 1, {2}, dev); }, "high - low < 0");
    fails([&] { (void)gen.random<double>({-1}, dev); }, "negative dimensions are not allowed: shape (-1,)");
    const auto strided = cunp::view(cunp::zeros<double>({6}, dev), cunp::slice(cunp::none, cunp::none, 2));
    fails([&] { gen.random(strided); }, "Supplied output array is not contiguous, writable or aligned.");
    REQUIRE_THROWS_WITH((void)cunp::random::default_rng(-1), "expected non-negative integer");
    const auto before = gen.bit_generator().state();
    PCG64::state_type even = before;
    even.inc_low &= ~std::uint64_t(1);
    REQUIRE_THROWS_AS(gen.bit_generator().set_state(even), cunp::value_error);
    CHECK(gen.bit_generator().state() == before);
    // Philox: the same refusals leave its state too; a buffer_pos past its buffer, and spawn
    // without a SeedSequence.
    cunp::random::Generator px(Philox(3));
    const auto fails_x = failure_check(px, dev);
    fails_x([&] { (void)px.integers<i64>(5, 5, {2}, dev); }, "low >= high");
    fails_x([&] { (void)px.uniform<double>(5, 1, {2}, dev); }, "high - low < 0");
    fails_x([&] { px.random(strided); },
            "Supplied output array is not contiguous, writable or aligned.");
    Philox::state_type past = px.bit_generator().state();
    past.buffer_pos = 5;
    fails_x([&] { px.bit_generator().set_state(past); },
            "Philox's buffer_pos must be between 0 and 4, got 5");
    auto keyed = Philox::from_key({1, 2});
    REQUIRE_THROWS_WITH((void)keyed.spawn(1), "The underlying SeedSequence does not implement spawning.");
    REQUIRE_THROWS_AS((void)keyed.seed_seq(), cunp::value_error);
  });
}

TEST_CASE("a GPU integers call waits once, and only when allowed", "[random]") {
  if (!CUNP_HAS_CUDA || !cunp::cuda_available()) return;
  Generator gen = cunp::random::default_rng(5);
  const auto before = gen.bit_generator().state();
  cunp::allow_synchronize(false);
  // random, uniform and integers over a whole range never wait; a bounded range reads back
  // how many draws it used.
  (void)gen.random<float>({1000}, cunp::cuda(0));
  (void)gen.integers<std::uint8_t>(0, 255, {1000}, cunp::cuda(0), true);
  const auto after_fixed = gen.bit_generator().state();
  CHECK_FALSE(after_fixed == before);
  REQUIRE_THROWS_AS((void)gen.integers<std::int64_t>(0, 10, {1000}, cunp::cuda(0)),
                    cunp::device_error);
  cunp::allow_synchronize(true);
  CHECK(gen.bit_generator().state() == after_fixed);
}

namespace {

/// The largest distance between the empirical CDF of `x` and `cdf` (Kolmogorov-Smirnov), times
/// sqrt(n): below 1.95 at significance 0.001.
template <class T, class F> double ks_statistic(std::vector<T> x, F&& cdf) {
  std::sort(x.begin(), x.end());
  const double n = double(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(double(x[i]));
    d = std::max({d, f - double(i) / n, double(i + 1) / n - f});
  }
  return d * std::sqrt(n);
}

template <class T> std::pair<double, double> mean_var(const std::vector<T>& x) {
  double m = 0, v = 0;
  for (T e : x) m += double(e);
  m /= double(x.size());
  for (T e : x) v += (double(e) - m) * (double(e) - m);
  return {m, v / double(x.size())};
}

/// make(g, dev) from default_rng(99) after one float32 draw (a buffered half), on every backend:
/// the same numbers and the same state as the cpu's; returns the cpu's.
template <class T, class F> std::vector<T> same_stream(F&& make) {
  Generator c = cunp::random::default_rng(99);
  (void)c.random<float>({1}, cunp::cpu);
  const ndarray<T> want = make(c, cunp::cpu);
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    Generator d = cunp::random::default_rng(99);
    (void)d.random<float>({1}, dev);
    require_equal(make(d, dev).to(cunp::cpu), want);
    CHECK(d.bit_generator().state() == c.bit_generator().state());
  }
  return want.to_vector();
}

}  // namespace

TEST_CASE("normal and exponential: equal on every backend, and distributed as they should be",
          "[random]") {
  const cunp::index_t n = (cunp::index_t(1) << 20) + 1;  // odd: the last pair gives one element
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const auto exp_cdf = [](double x) { return x <= 0 ? 0.0 : -std::expm1(-x); };
  const double six = 6 / std::sqrt(double(n));  // six standard errors of a unit-variance mean
  {
    const auto z = same_stream<double>([&](Generator& g, cunp::device d) {
      return g.standard_normal<double>({n}, d);
    });
    const auto [m, v] = mean_var(z);
    CHECK(std::abs(m) < six);
    CHECK(std::abs(v - 1) < six * std::sqrt(2.0));
    CHECK(ks_statistic(z, phi) < 1.95);
  }
  {
    const auto z = same_stream<float>([&](Generator& g, cunp::device d) {
      return g.standard_normal<float>({n}, d);
    });
    const auto [m, v] = mean_var(z);
    CHECK(std::abs(m) < six);
    CHECK(std::abs(v - 1) < six * std::sqrt(2.0));
    CHECK(ks_statistic(z, phi) < 1.95);
  }
  for (const bool f32 : {false, true}) {
    INFO("float32 " << f32);
    std::vector<double> e;
    if (f32) {
      const auto v = same_stream<float>([&](Generator& g, cunp::device d) {
        return g.standard_exponential<float>({n}, d);
      });
      e.assign(v.begin(), v.end());
    } else {
      e = same_stream<double>([&](Generator& g, cunp::device d) {
        return g.standard_exponential<double>({n}, d);
      });
    }
    const auto [m, v] = mean_var(e);
    CHECK(std::abs(m - 1) < six);
    CHECK(std::abs(v - 1) < 3 * six);  // the exponential's fourth central moment is 9
    CHECK(ks_statistic(e, exp_cdf) < 1.95);
  }
  on_every_backend([](cunp::device dev) {
    // loc and scale apply after the standard draw; a pair's second element is the sine's.
    Generator a = cunp::random::default_rng(8), b = cunp::random::default_rng(8);
    const auto z = a.standard_normal<double>({5}, dev).to_vector();
    const auto y = b.normal<double>(3.0, 2.0, {5}, dev).to_vector();
    for (std::size_t i = 0; i < z.size(); ++i) CHECK(y[i] == 2.0 * z[i] + 3.0);
    const auto e = a.standard_exponential<double>({4}, dev).to_vector();
    const auto s = b.exponential<double>(2.5, {4}, dev).to_vector();
    for (std::size_t i = 0; i < e.size(); ++i) CHECK(s[i] == 2.5 * e[i]);
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    const auto out = cunp::zeros<float>({7}, dev);
    Generator c = cunp::random::default_rng(8), d = cunp::random::default_rng(8);
    c.standard_normal(out);
    require_equal(out.to(cunp::cpu), d.standard_normal<float>({7}, dev).to(cunp::cpu));
    c.standard_exponential(out);
    require_equal(out.to(cunp::cpu), d.standard_exponential<float>({7}, dev).to(cunp::cpu));
    const auto before = c.bit_generator().state();
    REQUIRE_THROWS_WITH((void)c.normal<double>(0.0, -1.0, {3}, dev), "scale < 0");
    REQUIRE_THROWS_WITH((void)c.exponential<float>(-1.0, {3}, dev), "scale < 0");
    CHECK(c.bit_generator().state() == before);
    CHECK(c.standard_normal<double>({0}, dev).size() == 0);
    CHECK(c.bit_generator().state() == before);
  });
}

namespace {

/// How many float32 ulp z is from the normal quantile of u, -ndtri(p) with p = (u + 1/2) 2^-32
/// (normal_quantile of the draw u ^ 0x7fffffff): the quantile is one Newton step from z in
/// double, by erfc in the tail and by erf of the distance from p to 1/2 (exact) near the centre.
double quantile_ulps(float z, std::uint32_t u) {
  const double zd = z, phi = std::exp(-0.5 * zd * zd) / std::sqrt(2 * M_PI);
  const double miss = u >= (1u << 30)
                          ? (double(u ^ 0x7fffffffu) + 0.5) * 0x1p-32 - 0.5 * std::erf(zd / M_SQRT2)
                          : 0.5 * std::erfc(zd / M_SQRT2) - (double(u) + 0.5) * 0x1p-32;
  const float want = float(zd + miss / phi);
  return std::abs(zd - (zd + miss / phi)) / (std::nextafter(want, INFINITY) - want);
}

}  // namespace

TEST_CASE("the transforms' log, sincospi and normal quantile are within a few ulp of the truth",
          "[random]") {
  std::uint64_t x = 12345;
  const auto next = [&] {  // splitmix64
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (int i = 0; i < 100000; ++i) {
    const double u = 1.0 - double(next() >> 11) * 0x1p-53;  // (0, 1]
    const double got = cunp::detail::log_exact(u), want = std::log(u);
    INFO("log(" << u << ")");
    CHECK(std::abs(got - want) <= 4 * std::abs(std::nextafter(want, 0.0) - want) + 1e-300);
    const double y = double(next() >> 11) * 0x1p-52;  // [0, 2)
    double s, c;
    cunp::detail::sincospi_exact(y, &s, &c);
    INFO("sincospi(" << y << ")");
    CHECK(std::abs(s - std::sin(M_PI * y)) < 1e-15);
    CHECK(std::abs(c - std::cos(M_PI * y)) < 1e-15);
  }
  // float32: every one of the 2^24 inputs the log takes.
  double log_ulps = 0;
  for (std::uint32_t j = 0; j < (1u << 24); ++j) {
    const float u = 1.0f - float(j) * 0x1p-24f;  // (0, 1]
    const double want = std::log(double(u));
    const float got = cunp::detail::log_exact(u, cunp::detail::logf_table.entry);
    const float ulp = std::abs(std::nextafter(float(want), 0.0f) - float(want));
    if (u != 1) log_ulps = std::max(log_ulps, std::abs(got - want) / ulp);
    else CHECK(got == 0.0f);
  }
  CHECK(log_ulps < 2);  // 1.54 (2026-12-06)
  // The quantile: both ends of every segment (below 2^29, 8 an octave of u; above, 2^26 values
  // of w = 2^31 - 1 - u each) and 2^18 draws between, each with either sign.
  using cunp::detail::normal_quantile, cunp::detail::quantile_table;
  std::vector<std::uint32_t> us;
  for (int sh = 0; sh < 26; ++sh)
    for (std::uint32_t m = sh == 0 ? 0 : 8; m < 16; ++m)
      us.insert(us.end(), {m << sh, ((m + 1) << sh) - 1});
  for (std::uint32_t w = 0; w < (1u << 31) - (1u << 29); w += 1u << 26)
    us.insert(us.end(), {0x7fffffffu - w, 0x7fffffffu - (w + (1u << 26) - 1)});
  for (int k = 0; k < (1 << 18); ++k) us.push_back(std::uint32_t(next() >> 33));
  double quantile_worst = 0;
  std::size_t wrong_sign = 0;
  for (const std::uint32_t u : us) {
    const float z = normal_quantile(u ^ 0x7fffffffu, quantile_table.entry);
    wrong_sign += !(z > 0) || normal_quantile(u ^ 0xffffffffu, quantile_table.entry) != -z;
    quantile_worst = std::max(quantile_worst, quantile_ulps(z, u));
  }
  CHECK(wrong_sign == 0);
  CHECK(quantile_worst < 2.5);  // 2.26 over every draw (2026-12-07)
  CHECK(normal_quantile(0, quantile_table.entry) ==
        float(M_SQRT2 * std::sqrt(M_PI) * 0x1p-33));  // the centre keeps its relative accuracy
  CHECK(cunp::detail::log_exact(1.0) == 0.0);
  CHECK(cunp::detail::log_exact(0x1p-53) == std::log(0x1p-53));
}

TEST_CASE("the rejection methods' log, exp and log-gamma are within a few ulp of the library's",
          "[random]") {
  std::uint64_t x = 777;
  const auto unit = [&] {  // splitmix64, as a double in [0, 1)
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return double((z ^ (z >> 31)) >> 11) * 0x1p-53;
  };
  const auto ulps = [](double got, double want) {
    if (got == want) return 0.0;
    return std::abs(got - want) / std::abs(std::nextafter(want, 0.0) - want);
  };
  using cunp::detail::exp_exact;
  using cunp::detail::log_any;
  for (int i = 0; i < 100000; ++i) {
    const double e = -750 + 1460 * unit();  // every exponent, subnormal results too
    INFO("exp(" << e << ")");
    const double want = std::exp(e);
    if (want >= 0x1p-1022 || want == 0) CHECK(ulps(exp_exact(e), want) <= 2);
    else CHECK(std::abs(exp_exact(e) - want) <= 0x1p-1074);  // a subnormal: one unit
    const double v = std::ldexp(0.5 + unit(), int(-1074 + 2097 * unit()));
    INFO("log(" << v << ")");
    CHECK(ulps(log_any(v), std::log(v)) <= 4);
    const double g = 1 + 1e4 * unit() * unit();
    INFO("lgamma(" << g << ")");
    CHECK(std::abs(cunp::detail::log_gamma_exact(g) - std::lgamma(g)) <=
          1e-13 * std::max(1.0, std::abs(std::lgamma(g))));
  }
  CHECK(exp_exact(0.0) == 1.0);
  CHECK(exp_exact(-HUGE_VAL) == 0.0);
  CHECK(exp_exact(710.0) == HUGE_VAL);
  CHECK(std::isnan(exp_exact(std::nan(""))));
  CHECK(log_any(0.0) == -HUGE_VAL);
  CHECK(log_any(0x1p-1074) == std::log(0x1p-1074));
  for (const double k : {1.0, 2.0, 3.0, 10.0, 1e6, 1e18})
    CHECK(std::abs(cunp::detail::log_gamma_exact(k) - std::lgamma(k)) <=
          1e-13 * std::max(1.0, std::lgamma(k)));
}

TEST_CASE("permutation is the stable argsort of the next n draws, on every backend", "[random]") {
  // 2^20 draws hold about 128 pairs of equal upper halves, which a GPU settles by the lower ones.
  const cunp::index_t n = (cunp::index_t(1) << 20) + 3;
  {
    PCG64 bg(77);
    std::vector<std::uint32_t> high(static_cast<std::size_t>(n));
    for (auto& h : high) h = std::uint32_t(bg.random_raw() >> 32);
    std::sort(high.begin(), high.end());
    REQUIRE(std::adjacent_find(high.begin(), high.end()) != high.end());
  }
  constexpr auto u64_max = std::numeric_limits<std::uint64_t>::max();
  on_every_backend([&](cunp::device dev) {
    Generator a = cunp::random::default_rng(77), b = cunp::random::default_rng(77);
    const auto perm = a.permutation(n, dev);
    CHECK(perm.device() == dev);
    const auto draws = b.integers<std::uint64_t>(0, u64_max, {n}, dev, true);  // the raw draws
    require_equal(perm.to(cunp::cpu), cunp::argsort(draws).to(cunp::cpu));
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    CHECK(a.permutation(0, dev).shape() == cunp::shape_t{0});
    CHECK(a.permutation(-3, dev).shape() == cunp::shape_t{0});  // NumPy: arange(-3), empty
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    CHECK(a.permutation(1, dev).to_vector() == std::vector<std::int64_t>{0});
  });
  (void)same_stream<std::int64_t>([&](Generator& g, cunp::device d) { return g.permutation(n, d); });
}

TEST_CASE("permutation is uniform", "[random]") {
  // Every order of 4 elements about as often: chi-square with 23 degrees of freedom, 49.7 at
  // significance 0.001.
  Generator g = cunp::random::default_rng(4);
  std::vector<int> count(256, 0);
  const int draws = 24000;
  for (int k = 0; k < draws; ++k) {
    const auto p = g.permutation(4, cunp::cpu).to_vector();
    ++count[std::size_t(p[0] * 64 + p[1] * 16 + p[2] * 4 + p[3])];
  }
  double chi2 = 0;
  int orders = 0;
  for (int c : count) {
    if (c == 0) continue;
    ++orders;
    chi2 += (c - 1000.0) * (c - 1000.0) / 1000.0;
  }
  CHECK(orders == 24);
  CHECK(chi2 < 49.7);
}

TEST_CASE("permutation and shuffle of arrays reorder slices along an axis", "[random]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<std::int32_t>(24, dev).reshape({2, 3, 4});
    for (const cunp::index_t axis : {0, 1, 2, -1}) {
      INFO("axis " << axis);
      Generator g = cunp::random::default_rng(axis + 10), h = cunp::random::default_rng(axis + 10);
      const auto got = g.permutation(a, axis);
      const cunp::index_t len = a.shape()[std::size_t(cunp::normalize_axis(axis, 3))];
      require_equal(got.to(cunp::cpu), cunp::take(a, h.permutation(len, dev), axis).to(cunp::cpu));
      // shuffle: the same order, in place, through a view with a negative stride.
      Generator s = cunp::random::default_rng(axis + 10);
      const auto b = a.copy();
      const auto rev = cunp::view(b, cunp::all, cunp::slice(cunp::none, cunp::none, -1));
      const auto want = s.permutation(rev, axis);
      Generator t = cunp::random::default_rng(axis + 10);
      t.shuffle(rev, axis);
      require_equal(rev.to(cunp::cpu), want.to(cunp::cpu));
      CHECK(s.bit_generator().state() == t.bit_generator().state());
    }
    Generator g = cunp::random::default_rng(1);
    const auto x = cunp::arange<double>(50, dev);
    g.shuffle(x);
    auto v = x.to_vector();
    std::sort(v.begin(), v.end());
    CHECK(v == cunp::arange<double>(50, cunp::cpu).to_vector());
    const auto before = g.bit_generator().state();
    REQUIRE_THROWS_WITH(g.shuffle(cunp::zeros<float>({}, dev)),
                        "axis 0 is out of bounds for array of dimension 0");
    REQUIRE_THROWS_WITH((void)g.permutation(a, 3), "axis 3 is out of bounds for array of dimension 3");
    CHECK(g.bit_generator().state() == before);
  });
}

TEST_CASE("choice without replacement: distinct samples, the same on every backend", "[random]") {
  const std::vector<double> p{0.05, 0, 0.2, 0.4, 0, 0.1, 0.25};
  on_every_backend([&](cunp::device dev) {
    Generator g = cunp::random::default_rng(21), h = cunp::random::default_rng(21);
    // Without p: the first samples of permutation(a).
    const auto c = g.choice(1000, {4, 5}, false, {}, dev);
    CHECK(c.shape() == cunp::shape_t{4, 5});
    const auto perm = h.permutation(1000, dev).to_vector();
    CHECK(c.to_vector() == std::vector<std::int64_t>(perm.begin(), perm.begin() + 20));
    CHECK(g.bit_generator().state() == h.bit_generator().state());
    // With p: distinct, never an index of p 0, all of the non-zero ones when size is their count.
    auto w = g.choice(7, {5}, false, p, dev).to_vector();
    std::sort(w.begin(), w.end());
    CHECK(w == std::vector<std::int64_t>{0, 2, 3, 5, 6});
    const auto rows = g.choice(cunp::arange<float>(21, dev).reshape({7, 3}), {2}, false, p);
    CHECK(rows.shape() == cunp::shape_t{2, 3});
    CHECK(g.choice(7, {0}, false, p, dev).size() == 0);
    CHECK(g.choice(0, {0}, false, {}, dev).size() == 0);
  });
  (void)same_stream<std::int64_t>([&](Generator& g, cunp::device d) {
    return g.choice(50000, {20000}, false, {}, d);
  });
  std::vector<double> wide(30000);
  for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = double(i % 7);
  const double total = std::accumulate(wide.begin(), wide.end(), 0.0);
  for (double& x : wide) x /= total;
  (void)same_stream<std::int64_t>([&](Generator& g, cunp::device d) {
    return g.choice(30000, {20000}, false, wide, d);
  });
  // The first sample is distributed as p (chi-square with 4 degrees of freedom: 18.5 at 0.001),
  // the second as p renormalised without the first (NumPy's loop), here summed over the first.
  Generator g = cunp::random::default_rng(5);
  std::vector<double> first(7, 0), second(7, 0);
  const int draws = 20000;
  for (int k = 0; k < draws; ++k) {
    const auto s = g.choice(7, {2}, false, p, cunp::cpu).to_vector();
    ++first[std::size_t(s[0])];
    ++second[std::size_t(s[1])];
  }
  double chi_first = 0, chi_second = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) {
      CHECK(first[i] + second[i] == 0);
      continue;
    }
    double q = 0;  // P(second = i) = sum over j != i of p_j p_i / (1 - p_j)
    for (std::size_t j = 0; j < p.size(); ++j)
      if (j != i) q += p[j] * p[i] / (1 - p[j]);
    chi_first += (first[i] - draws * p[i]) * (first[i] - draws * p[i]) / (draws * p[i]);
    chi_second += (second[i] - draws * q) * (second[i] - draws * q) / (draws * q);
  }
  CHECK(chi_first < 18.5);
  CHECK(chi_second < 18.5);
}

TEST_CASE("choice's bad arguments raise NumPy's errors and leave the generator as it was",
          "[random]") {
  on_every_backend([](cunp::device dev) {
    Generator gen = cunp::random::default_rng(3);
    const auto fails = failure_check(gen, dev);
    fails([&] { (void)gen.choice(5, {6}, false, {}, dev); },
          "Cannot take a larger sample than population when replace is False");
    fails([&] { (void)gen.choice(5, {3}, true, {0.5, 0.5, 0, 0, 0.1}, dev); },
          "Probabilities do not sum to 1. See Notes section of docstring for more information.");
    fails([&] { (void)gen.choice(5, {3}, true, {0.5, 0.6, 0, 0, -0.1}, dev); },
          "Probabilities are not non-negative");
    fails([&] { (void)gen.choice(5, {3}, true, {std::nan(""), 0.5, 0.5, 0, 0}, dev); },
          "Probabilities contain NaN");
    fails([&] { (void)gen.choice(5, {3}, true, {0.5, 0.5, 0, 0}, dev); },
          "a and p must have same size");
    fails([&] { (void)gen.choice(0, {3}, true, {}, dev); },
          "a must be a positive integer unless no samples are taken");
    fails([&] { (void)gen.choice(cunp::zeros<float>({0}, dev), {3}); },
          "a cannot be empty unless no samples are taken");
    fails([&] { (void)gen.choice(5, {4}, false, {0.5, 0.5, 0, 0, 0}, dev); },
          "Fewer non-zero entries in p than size");
    fails([&] { (void)gen.choice(5, {-1}, true, {}, dev); }, "negative dimensions are not allowed");
    fails([&] { (void)gen.choice(5, {-1}, false, {}, dev); }, "negative dimensions are not allowed");
    fails([&] { (void)gen.choice(5, {cunp::index_t(1) << 40, cunp::index_t(1) << 40}, true, {}, dev); },
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
          "size.");
    fails([&] { (void)gen.choice(cunp::zeros<float>({2, 3}, dev), {3}, true, {}, 2); },
          "axis 2 is out of bounds for array of dimension 2");
    CHECK(gen.choice(-2, {0}, true, {}, dev).size() == 0);  // no samples: any population
  });
}

// gamma, beta and poisson (random_dists.npz): other numbers than NumPy's, drawn from the same
// distributions, the same on every backend.

namespace {

using dist_maker = std::function<ndarray<double>(Generator&, cunp::device, cunp::index_t)>;

/// The test's table of distributions, cases_random.DISTS's names.
std::vector<std::pair<std::string, dist_maker>> dist_cases() {
  using G = Generator&;
  using D = cunp::device;
  using I = cunp::index_t;
  const auto counts = [](ndarray<std::int64_t> k) { return k.astype<double>(); };
  return {
      {"gamma_0.3", [](G g, D d, I n) { return g.gamma(0.3, 2.0, {n}, d); }},
      {"gamma_1", [](G g, D d, I n) { return g.gamma(1.0, 1.0, {n}, d); }},
      {"gamma_2.5", [](G g, D d, I n) { return g.gamma(2.5, 0.5, {n}, d); }},
      {"gamma_50", [](G g, D d, I n) { return g.gamma(50.0, 1.0, {n}, d); }},
      {"gamma_0.01", [](G g, D d, I n) { return g.standard_gamma(0.01, {n}, d); }},
      {"beta_0.5_0.5", [](G g, D d, I n) { return g.beta(0.5, 0.5, {n}, d); }},
      {"beta_2_3", [](G g, D d, I n) { return g.beta(2.0, 3.0, {n}, d); }},
      {"beta_0.2_5", [](G g, D d, I n) { return g.beta(0.2, 5.0, {n}, d); }},
      {"beta_0.01_0.02", [](G g, D d, I n) { return g.beta(0.01, 0.02, {n}, d); }},
      {"poisson_0.5", [=](G g, D d, I n) { return counts(g.poisson(0.5, {n}, d)); }},
      {"poisson_5", [=](G g, D d, I n) { return counts(g.poisson(5.0, {n}, d)); }},
      {"poisson_10", [=](G g, D d, I n) { return counts(g.poisson(10.0, {n}, d)); }},
      {"poisson_1000", [=](G g, D d, I n) { return counts(g.poisson(1000.0, {n}, d)); }},
      {"poisson_1e7", [=](G g, D d, I n) { return counts(g.poisson(1e7, {n}, d)); }},
      {"binomial_10_0.3", [=](G g, D d, I n) { return counts(g.binomial(10, 0.3, {n}, d)); }},
      {"binomial_100_0.9", [=](G g, D d, I n) { return counts(g.binomial(100, 0.9, {n}, d)); }},
      {"binomial_1000_0.5", [=](G g, D d, I n) { return counts(g.binomial(1000, 0.5, {n}, d)); }},
      {"binomial_1e9_1e-3",
       [=](G g, D d, I n) { return counts(g.binomial(1000000000, 1e-3, {n}, d)); }},
      {"binomial_2e6_0.75",
       [=](G g, D d, I n) { return counts(g.binomial(2000000, 0.75, {n}, d)); }},
  };
}

/// The fraction of `sorted` at or below each of NumPy's quantiles equals the fraction of NumPy's
/// 10^6 draws there within the two-sample Kolmogorov-Smirnov bound at significance 0.001
/// (1.95 sqrt((n + m) / (n m))), checked at the 19 quantiles.
void matches_numpy(archive& g, const std::string& name, const std::vector<double>& sorted) {
  const auto x = g.get<double>(name + "__x").to_vector();
  const auto cdf = g.get<double>(name + "__cdf").to_vector();
  const double n = double(sorted.size()), m = 1e6, bound = 1.95 * std::sqrt((n + m) / (n * m));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = double(std::upper_bound(sorted.begin(), sorted.end(), x[i]) - sorted.begin()) / n;
    INFO(name << " at NumPy's quantile " << (i + 1) << "/20 = " << x[i]);
    CHECK(std::abs(f - cdf[i]) <= bound);
  }
}

}  // namespace

TEST_CASE("gamma, beta and poisson draw NumPy's distributions; Philox is NumPy's",
          "[random][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("random_dists");
    Generator gen = cunp::random::default_rng(5);
    for (const auto& [name, make] : dist_cases()) {
      auto v = make(gen, dev, 40000).to_vector();
      std::sort(v.begin(), v.end());
      matches_numpy(g, name, v);
    }
    // cases_random.ERRORS, by name.
    const std::vector<std::pair<const char*, std::function<void()>>> errors = {
        {"gamma_shape", [&] { (void)gen.gamma(-1.0, 1.0, {3}, dev); }},
        {"gamma_scale", [&] { (void)gen.gamma(1.0, -1.0, {3}, dev); }},
        {"standard_gamma_shape", [&] { (void)gen.standard_gamma(-0.5, {3}, dev); }},
        {"beta_a", [&] { (void)gen.beta(0.0, 1.0, {3}, dev); }},
        {"beta_b", [&] { (void)gen.beta(1.0, -2.0, {3}, dev); }},
        {"poisson_negative", [&] { (void)gen.poisson(-1.0, {3}, dev); }},
        {"poisson_nan", [&] { (void)gen.poisson(std::nan(""), {3}, dev); }},
        {"poisson_large", [&] { (void)gen.poisson(1e19, {3}, dev); }},
        {"binomial_n", [&] { (void)gen.binomial(-1, 0.5, {3}, dev); }},
        {"binomial_p", [&] { (void)gen.binomial(5, 1.5, {3}, dev); }},
        {"binomial_nan", [&] { (void)gen.binomial(5, std::nan(""), {3}, dev); }},
    };
    for (const auto& [name, call] : errors) {
      INFO("error " << name);
      const auto bytes = g.get<std::uint8_t>(std::string(name) + "__error").to_vector();
      const auto before = gen.bit_generator().state();
      require_numpy_error(call, std::string(bytes.begin(), bytes.end()));
      CHECK(gen.bit_generator().state() == before);
    }
    for (int i = 0; i < 3; ++i) {  // NumPy's Philox blocks: the function the streams run on
      const std::string p = "philox" + std::to_string(i);
      const auto key = g.get<std::uint64_t>(p + "__key").to_vector();
      const auto c = g.get<std::uint64_t>(p + "__counter").to_vector();
      const auto words = g.get<std::uint64_t>(p + "__words").to_vector();
      cunp::detail::philox_block counter{{c[0], c[1], c[2], c[3]}};
      for (int b = 0; b < 2; ++b) {
        const auto out = cunp::detail::philox4x64_10(counter, key[0], key[1]);
        for (int j = 0; j < 4; ++j) CHECK(out.w[j] == words[std::size_t(4 * b + j)]);
        for (int j = 0; j < 4 && ++counter.w[j] == 0; ++j) {}  // the 256-bit counter's step
      }
    }
    g.require_all_used();
  });
}

TEST_CASE("a per-element call takes two draws, none when empty; out= and shapes", "[random]") {
  on_every_backend([](cunp::device dev) {
    Generator a = cunp::random::default_rng(9), b = cunp::random::default_rng(9);
    (void)a.random<float>({1}, dev);
    (void)b.random<float>({1}, dev);
    const auto x = a.gamma(2.0, 3.0, {2, 3}, dev);
    CHECK(x.shape() == cunp::shape_t{2, 3});
    (void)b.random<double>({2}, dev);  // two 64-bit draws, the buffered half kept
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    CHECK(a.poisson(3.0, {0, 4}, dev).shape() == cunp::shape_t{0, 4});
    CHECK(a.beta(1.0, 2.0, {0}, dev).size() == 0);
    CHECK(a.bit_generator().state() == b.bit_generator().state());
    CHECK(a.standard_gamma(1.5, {}, dev).ndim() == 0);
    (void)b.random<double>({2}, dev);
    // out= fills what the sized call gives; a strided out is NumPy's error.
    Generator c = a, d = a;
    const auto out = cunp::zeros<float>({7}, dev);
    c.standard_gamma(0.7, out);
    require_equal(out.to(cunp::cpu), d.standard_gamma<float>(0.7, {7}, dev).to(cunp::cpu));
    const auto strided = cunp::view(cunp::zeros<double>({6}, dev), cunp::slice(cunp::none, cunp::none, 2));
    REQUIRE_THROWS_WITH(c.standard_gamma(1.0, strided),
                        "Supplied output array is not contiguous, writable or aligned.");
    // Edge parameters: shape 0 gives zeros, NaN parameters NaN, lam 0 zeros.
    for (double v : a.standard_gamma(0.0, {5}, dev).to_vector()) CHECK(v == 0);
    for (double v : a.gamma(std::nan(""), 1.0, {3}, dev).to_vector()) CHECK(std::isnan(v));
    for (std::int64_t k : a.poisson(0.0, {5}, dev).to_vector()) CHECK(k == 0);
    for (std::int64_t k : a.binomial(0, 0.5, {3}, dev).to_vector()) CHECK(k == 0);
    for (std::int64_t k : a.binomial(5, 0.0, {3}, dev).to_vector()) CHECK(k == 0);
    for (std::int64_t k : a.binomial(5, 1.0, {3}, dev).to_vector()) CHECK(k == 5);
    for (std::int64_t k : a.binomial(std::int64_t(1) << 62, 0.3, {50}, dev).to_vector())
      CHECK(std::abs(double(k) - 0.3 * 0x1p62) < 1e11);  // within 50 standard deviations
    for (double v : a.beta(0.5, 0.5, {1000}, dev).to_vector()) CHECK((v >= 0 && v <= 1));
    for (double v : a.gamma(1e-3, 1.0, {1000}, dev).to_vector()) CHECK((v >= 0 && std::isfinite(v)));
  });
}
