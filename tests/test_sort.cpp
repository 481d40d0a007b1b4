// Sorting, searching, counting and order statistics (cunp/sort.hpp) against NumPy's outputs
// (golden/cases_sort.py), GPU against cpu on arrays large enough for every CUB path, and the
// error paths with NumPy's messages.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

template <class T>
ndarray<T> gold(const std::string& d, const std::string& name) {
  return golden<T>("sort_" + d + "_" + name);
}
std::string axis_tag(int ax) { return ax < 0 ? "m1" : std::to_string(ax); }

/// Deterministic values with many ties and, for floats when `special`, NaNs of both signs,
/// infinities and both zeros (splitmix64).
template <class T>
ndarray<T> random_array(const shape_t& shape, std::uint64_t seed, int distinct = 50,
                        bool special = true) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  std::uint64_t s = seed;
  for (std::size_t at = 0; at < v.size(); ++at) {
    T x{};
    const std::uint64_t z = splitmix64(s);
    const int k = static_cast<int>(z % std::uint64_t(distinct + 6));
    const double r = double(k) - distinct / 2.0;
    if constexpr (cunp::is_complex_v<T>) {
      using R = typename T::value_type;
      const int j = static_cast<int>((z >> 20) % 5);
      const R im = j == 4 ? std::numeric_limits<R>::quiet_NaN() : R(j - 2);
      x = k == 0 ? T(std::numeric_limits<R>::quiet_NaN(), im) : T(R(r), im);
    } else if constexpr (cunp::is_floating_v<T>) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      const double specials[] = {nan, -nan, INFINITY, -INFINITY, -0.0, 0.0};
      x = T(k < 6 && special ? specials[k] : r / 4);
    } else if constexpr (std::is_same_v<T, bool>) {
      x = (z >> 7) & 1;
    } else {
      x = static_cast<T>(static_cast<std::int64_t>(r));
    }
    v[at] = x;  // std::vector<bool> has no references to bind
  }
  return cunp::asarray(v, shape, cpu);
}

/// Every element before position k is not after lane[k] in NumPy's order, every one after it is
/// not before it.
template <class T>
void require_partitioned(const std::vector<T>& lane, index_t k) {
  for (index_t i = 0; i < static_cast<index_t>(lane.size()); ++i) {
    INFO("element " << i << " around kth " << k);
    if (i < k) REQUIRE_FALSE(cunp::detail::order_less(lane[k], lane[i]));
    if (i > k) REQUIRE_FALSE(cunp::detail::order_less(lane[i], lane[k]));
  }
}

}  // namespace

#define CUNP_SORT_TYPES                                                                     \
  bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, \
      std::uint32_t, std::uint64_t, cunp::float16, float, double, cunp::complex64,          \
      cunp::complex128

// The test cases are spread over the parts (harness/parts.hpp); the dtype sweeps of sort, unique
// and the order statistics, the heaviest code here, are written once per group of dtypes.
namespace {
template <class TestType> void sort_matches_numpy() {
  using T = TestType;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    for (const std::string x : {"x1", "x2", "x3"}) {
      INFO("input " << x);
      const auto a = gold<T>(d, x).to(dev);
      for (int ax = -1; ax < a.ndim(); ++ax) {
        INFO("axis " << ax);
        const auto s = cunp::sort(a, ax);
        const auto i = cunp::argsort(a, ax);
        REQUIRE(s.device() == dev);
        REQUIRE(i.device() == dev);
        REQUIRE(s.is_contiguous());
        require_equal(s.to(cpu), gold<T>(d, x + "_sort_a" + axis_tag(ax)));
        require_equal(i.to(cpu), gold<std::int64_t>(d, x + "_argsort_a" + axis_tag(ax)));
      }
      require_equal(cunp::sort(a, none).to(cpu), gold<T>(d, x + "_sort_none"));
      require_equal(cunp::argsort(a, none).to(cpu), gold<std::int64_t>(d, x + "_argsort_none"));
    }
    const auto x2 = gold<T>(d, "x2").to(dev);
    const auto rev = cunp::view(x2, slice(none, none, -1), slice(none, none, -2));
    for (int ax : {0, 1}) {
      INFO("negative strides, axis " << ax);
      require_equal(cunp::sort(rev, ax).to(cpu), gold<T>(d, "rev_sort_a" + axis_tag(ax)));
      require_equal(cunp::argsort(rev, ax).to(cpu),
                    gold<std::int64_t>(d, "rev_argsort_a" + axis_tag(ax)));
    }
    require_equal(x2.to(cpu), gold<T>(d, "x2"));  // the input is untouched
  });
}
}  // namespace
#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("sort and argsort match NumPy's stable sort", "[sort][golden]",
                   bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t) {
  sort_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("sort and argsort match NumPy's stable sort", "[sort][golden]",
                   std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, cunp::float16) {
  sort_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(2)
TEMPLATE_TEST_CASE("sort and argsort match NumPy's stable sort", "[sort][golden]",
                   float, double, cunp::complex64, cunp::complex128) {
  sort_matches_numpy<TestType>();
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("sort: empty arrays, size-1 axes, 0-d arrays and bad axes", "[sort]") {
  on_every_backend([](cunp::device dev) {
    for (const shape_t& shape : {shape_t{0}, shape_t{3, 0}, shape_t{0, 4}, shape_t{2, 0, 3}}) {
      const auto a = cunp::zeros<float>(shape, dev);
      for (int ax = -1; ax < a.ndim(); ++ax) {
        REQUIRE(cunp::sort(a, ax).shape() == shape);
        REQUIRE(cunp::argsort(a, ax).shape() == shape);
        REQUIRE(cunp::partition(a, 5, ax).shape() == shape);  // NumPy checks no kth when empty
      }
      REQUIRE(cunp::sort(a, none).shape() == shape_t{0});
    }
    const auto col = cunp::asarray<double>({3, -1, 2}, {3, 1}, dev);
    require_values<double>(cunp::sort(col, 1), {3, -1, 2}, {3, 1});
    require_values<double>(cunp::sort(col, 0), {-1, 2, 3}, {3, 1});
    require_values<std::int64_t>(cunp::argsort(col, 1), {0, 0, 0}, {3, 1});
    require_values<std::int64_t>(cunp::argsort(col, 0), {1, 2, 0}, {3, 1});
    const auto one = cunp::full<float>({1, 1, 1}, 7.0f, dev);
    require_values<float>(cunp::sort(one, 1), {7.0f}, {1, 1, 1});

    const auto s = cunp::full<int>({}, 5, dev);
    REQUIRE_THROWS_WITH(cunp::sort(s), "axis -1 is out of bounds for array of dimension 0");
    REQUIRE_THROWS_AS(cunp::sort(s), cunp::shape_error);
    require_values<int>(cunp::sort(s, none), {5}, {1});
    require_values<std::int64_t>(cunp::argsort(s), {0}, {1});  // NumPy takes a 0-d array as 1-d
    require_values<std::int64_t>(cunp::argsort(s, none), {0}, {1});
    REQUIRE_THROWS_WITH(cunp::partition(s, 0), "axis -1 is out of bounds for array of dimension 0");
    require_values<std::int64_t>(cunp::argpartition(s, 0), {0}, {1});

    const auto m = cunp::zeros<float>({2, 3}, dev);
    REQUIRE_THROWS_WITH(cunp::sort(m, 2), "axis 2 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::argsort(m, -3), "axis -3 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_AS(cunp::argsort(m, 2), cunp::shape_error);
  });
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("sort: bfloat16 sorts as the float32 values it holds", "[sort]") {
  on_every_backend([](cunp::device dev) {
    const auto f = random_array<float>({13, 40}, 7);
    const auto b = f.astype<cunp::bfloat16>();
    const auto want = cunp::sort(b.astype<float>(), 1);
    require_equal(cunp::sort(b.to(dev), 1).to(cpu).astype<float>(), want);
    require_equal(cunp::argsort(b.to(dev), 0).to(cpu), cunp::argsort(b.astype<float>(), 0));
  });
}
#endif

#if CUNP_IN_PART(2)
// An expression is materialised once and then is an array to every function here: f(e) must be
// f(eval(e)) exactly, on e's device, or throw the same error.
namespace {
template <class T>
void require_same(const ndarray<T>& got, const ndarray<T>& want) {
  REQUIRE(got.device() == want.device());
  require_equal(got.to(cpu), want.to(cpu));
}
template <class T>
void require_same(const cunp::unique_counts_result<T>& got,
                  const cunp::unique_counts_result<T>& want) {
  require_same(got.values, want.values);
  require_same(got.counts, want.counts);
}
template <class T>
void require_same(const cunp::unique_inverse_result<T>& got,
                  const cunp::unique_inverse_result<T>& want) {
  require_same(got.values, want.values);
  require_same(got.inverse_indices, want.inverse_indices);
}
template <class T>
void require_same(const cunp::unique_all_result<T>& got, const cunp::unique_all_result<T>& want) {
  require_same(got.values, want.values);
  require_same(got.indices, want.indices);
  require_same(got.inverse_indices, want.inverse_indices);
  require_same(got.counts, want.counts);
}
template <class T>
void require_same(const cunp::histogram_result<T>& got, const cunp::histogram_result<T>& want) {
  require_same(got.hist, want.hist);
  require_same(got.bin_edges, want.bin_edges);
}

template <class E, class F>
void require_same_on_expression(const E& e, const F& f) {
  static_assert(!std::is_same_v<E, ndarray<typename E::value_type>>, "not an expression");
  const auto x = cunp::eval(e);
  std::string error;
  try {
    (void)f(x);
  } catch (const cunp::error& ex) {
    error = ex.what();
  }
  if (!error.empty())
    REQUIRE_THROWS_WITH(f(e), error);
  else
    require_same(f(e), f(x));
}
}  // namespace

TEST_CASE("sorting, searching, counting and order statistics take expressions", "[sort][expr]") {
  const auto host = random_array<double>({6, 9}, 21, 30, false);
  const auto ihost = random_array<std::int64_t>({40}, 22, 20);
  const auto whost = random_array<float>({40}, 23, 20, false);
  on_every_backend([&](cunp::device dev) {
    const auto a = host.to(dev);
    const auto rev = cunp::view(a, slice(none, none, -1), slice(none, none, -2));  // (6, 5)
    const auto empty = cunp::view(a, slice(0, 0));                                  // (0, 9)
    const auto edges = cunp::asarray<double>({-8, -1, 0, 0.5, 3, 9}, dev);
    const auto sorted = cunp::sort(a, none);
    const auto check_all = [&](const auto& e) {
      const auto same = [&](const auto& f) { require_same_on_expression(e, f); };
      same([](const auto& x) { return cunp::sort(x); });
      same([](const auto& x) { return cunp::sort(x, 0); });
      same([](const auto& x) { return cunp::sort(x, none); });
      same([](const auto& x) { return cunp::argsort(x, 0); });
      same([](const auto& x) { return cunp::argsort(x, none); });
      same([](const auto& x) { return cunp::partition(x, 2, 1); });
      same([](const auto& x) { return cunp::partition(x, {1, 3}, none); });
      same([](const auto& x) { return cunp::argpartition(x, -1, 0); });
      same([](const auto& x) { return cunp::argpartition(x, 0, none); });
      same([](const auto& x) { return cunp::partition(x, 9); });  // out of bounds unless empty
      same([](const auto& x) { return cunp::unique(x); });
      same([](const auto& x) { return cunp::unique(x, false); });
      same([](const auto& x) { return cunp::unique_values(x); });
      same([](const auto& x) { return cunp::unique_counts(x); });
      same([](const auto& x) { return cunp::unique_inverse(x); });
      same([](const auto& x) { return cunp::unique_all(x); });
      same([](const auto& x) { return cunp::median(x); });
      same([](const auto& x) { return cunp::median(x, 1, true); });
      same([](const auto& x) { return cunp::quantile(x, 0.3, 0); });
      same([](const auto& x) { return cunp::quantile(x, {0.1, 0.9}, 1); });
      same([](const auto& x) { return cunp::percentile(x, 40.0); });
      same([](const auto& x) { return cunp::percentile(x, {5.0, 50.0}, 0, true); });
      same([](const auto& x) { return cunp::histogram(x, 7); });
      same([](const auto& x) { return cunp::histogram(x, 4, {-2.0, 2.0}); });
      same([&](const auto& x) { return cunp::histogram(x, edges); });
      same([&](const auto& x) { return cunp::searchsorted(sorted, x, "right"); });
      same([&](const auto& x) { return cunp::searchsorted(cunp::sort(x, none), 0.25); });
    };
    {
      INFO("a * 2 - 1");
      check_all(a * 2.0 - 1.0);
    }
    {
      INFO("over a negative-stride view");
      check_all(rev + 0.5);
    }
    {
      INFO("empty");
      check_all(empty * 3.0);
    }
    {
      INFO("with NaNs");  // histogram's range is then not finite: the same error
      check_all(cunp::sqrt(a));
    }
    // The other array arguments: histogram's edges, searchsorted's sorted array.
    require_same(cunp::histogram(a, edges + 0.0), cunp::histogram(a, edges));
    require_same(cunp::searchsorted(sorted * 1.0, a), cunp::searchsorted(sorted, a));
    require_same(cunp::searchsorted(cunp::view(sorted, slice(none, none, -1)) * -1.0, rev + 1.0),
                 cunp::searchsorted(cunp::eval(cunp::view(sorted, slice(none, none, -1)) * -1.0),
                                    cunp::eval(rev + 1.0)));

    // bincount: x and weights.
    const auto ints = ihost.to(dev);
    const auto w = whost.to(dev);
    const auto ints_rev = cunp::view(ints, slice(none, none, -3));
    const auto bc = [](const auto& x) { return cunp::bincount(x); };
    require_same_on_expression(cunp::abs(ints), bc);
    require_same_on_expression(cunp::abs(ints_rev), bc);
    require_same_on_expression(cunp::abs(cunp::view(ints, slice(0, 0))), bc);
    require_same_on_expression(ints * 1, bc);  // negative values: the same error
    require_same_on_expression(cunp::abs(ints) + 1,
                               [](const auto& x) { return cunp::bincount(x, 50); });
    require_same_on_expression(cunp::abs(ints),
                               [&](const auto& x) { return cunp::bincount(x, w * 2.0f); });
    require_same(cunp::bincount(cunp::abs(ints), w * 2.0f, 30),
                 cunp::bincount(cunp::eval(cunp::abs(ints)), cunp::eval(w * 2.0f), 30));
  });
}

TEST_CASE("searchsorted's sorter: unsorted a, its argsort, expressions, NumPy's errors",
          "[sort][expr]") {
  const auto host = random_array<double>({37}, 31, 30, false);
  const auto vhost = random_array<double>({4, 5}, 32, 40, false);
  on_every_backend([&](cunp::device dev) {
    // NumPy: np.searchsorted([3, 1, 2.], [2.5, 0], sorter=[1, 2, 0]) is [2, 0].
    const auto small = cunp::asarray<double>({3, 1, 2}, dev);
    const auto order3 = cunp::asarray<std::int32_t>({1, 2, 0}, dev);
    require_values<std::int64_t>(
        cunp::searchsorted(small, cunp::asarray<double>({2.5, 0}, dev), "left", order3), {2, 0},
        {2});
    const auto u = host.to(dev), v = vhost.to(dev);
    const auto order = cunp::argsort(u);
    for (const std::string side : {"left", "right"}) {
      INFO("side " << side);
      const auto want = cunp::searchsorted(cunp::sort(u), v, side);
      require_same(cunp::searchsorted(u, v, side, order), want);
      require_same(cunp::searchsorted(u, v, side, order + 0), want);  // sorter an expression
      require_same(cunp::searchsorted(u * 1.0, v * 1.0, side, order), want);
      REQUIRE(cunp::searchsorted(u, 0.5, side, order).item() ==
              cunp::searchsorted(cunp::sort(u), 0.5, side).item());
      const auto ur = cunp::view(u, slice(none, none, -2));  // a negative-stride a
      require_same(cunp::searchsorted(ur, v, side, cunp::argsort(ur)),
                   cunp::searchsorted(cunp::sort(ur), v, side));
      const auto order_rev = cunp::view(cunp::zeros<std::int64_t>({u.size()}, dev),
                                        slice(none, none, -1));  // a negative-stride sorter
      cunp::copyto(order_rev, order);
      require_same(cunp::searchsorted(u, v, side, order_rev), want);
    }
    REQUIRE(cunp::searchsorted(cunp::zeros<double>({0}, dev), v, "left",
                               cunp::zeros<std::int64_t>({0}, dev))
                .shape() == v.shape());

    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", order.astype<double>()),
                        "sorter must only contain integers");
    REQUIRE_THROWS_AS(cunp::searchsorted(u, v, "left", order.astype<bool>()), cunp::dtype_error);
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", order.astype<std::uint64_t>()),
                        "could not parse sorter argument");
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", cunp::view(order, cunp::newaxis)),
                        "could not parse sorter argument");
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", cunp::view(order, slice(1, none))),
                        "sorter.size must equal a.size");
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", order + 1), "Sorter index out of range.");
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "left", order - 1), "Sorter index out of range.");
    REQUIRE_THROWS_AS(cunp::searchsorted(u, v, "left", order - 1), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::searchsorted(u, v, "mid", order),
                        "search side must be 'left' or 'right' (got 'mid')");
  });
}
#endif

#if CUNP_IN_PART(6)
TEMPLATE_TEST_CASE("partition and argpartition put the kth elements in place", "[sort]",
                   std::int32_t, float, double, cunp::complex64, bool) {
  using T = TestType;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto a = gold<T>(d, "x2").to(dev);  // (6, 9)
    const std::vector<std::vector<index_t>> kths{{0}, {4}, {-1}, {1, 6}, {-9, 8}};
    for (const auto& kth : kths) {
      const auto p = cunp::partition(a, kth, 1).to(cpu);
      const auto ip = cunp::argpartition(a, kth, 1).to(cpu);
      const auto host = a.to(cpu);
      for (index_t r = 0; r < 6; ++r) {
        const auto lane = cunp::view(p, r).to_vector();
        const auto idx = cunp::view(ip, r).to_vector();
        std::vector<T> picked;
        for (auto i : idx) picked.push_back(cunp::view(host, r, i).item());
        auto sorted_idx = idx;
        std::sort(sorted_idx.begin(), sorted_idx.end());
        for (index_t i = 0; i < 9; ++i) REQUIRE(sorted_idx[i] == i);  // a permutation
        for (index_t k : kth) {
          require_partitioned(lane, k < 0 ? k + 9 : k);
          require_partitioned(picked, k < 0 ? k + 9 : k);
        }
      }
    }
    const auto p0 = cunp::partition(a, {2}, 0).to(cpu);  // along the other axis
    for (index_t c = 0; c < 9; ++c)
      require_partitioned(cunp::view(p0, slice(none, none), c).to_vector(), 2);
    const auto flat = cunp::partition(a, 10, none).to_vector();
    REQUIRE(flat.size() == 54);
    require_partitioned(flat, 10);
    REQUIRE(cunp::argpartition(a, -1, none).shape() == shape_t{54});

    REQUIRE_THROWS_WITH(cunp::partition(a, 9), "kth(=9) out of bounds (9)");
    REQUIRE_THROWS_WITH(cunp::partition(a, -10), "kth(=-1) out of bounds (9)");
    REQUIRE_THROWS_WITH(cunp::argpartition(a, {1, 6}, 0), "kth(=6) out of bounds (6)");
    REQUIRE_THROWS_WITH(cunp::partition(a, 54, none), "kth(=54) out of bounds (54)");
    REQUIRE_THROWS_AS(cunp::partition(a, 9), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::partition(a, 0, 2),
                        "axis 2 is out of bounds for array of dimension 2");
  });
}
#endif

#if CUNP_IN_PART(6)
TEMPLATE_TEST_CASE("searchsorted matches NumPy, NaN last", "[sort][golden]", CUNP_SORT_TYPES) {
  using T = TestType;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto a = gold<T>(d, "ss_a").to(dev);
    const auto v = gold<T>(d, "x2").to(dev);
    require_equal(cunp::searchsorted(a, v).to(cpu), gold<std::int64_t>(d, "ss_left"));
    require_equal(cunp::searchsorted(a, v, "right").to(cpu), gold<std::int64_t>(d, "ss_right"));
    const auto rv = cunp::view(v, slice(none, none, -2), slice(none, none, -1));  // strided values
    require_equal(
        cunp::searchsorted(a, rv).to(cpu),
        cunp::view(gold<std::int64_t>(d, "ss_left"), slice(none, none, -2), slice(none, none, -1))
            .copy());
  });
}
#endif

#if CUNP_IN_PART(6)
TEST_CASE("searchsorted: mixed dtypes, scalars, strided a, errors", "[sort][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto a = golden<std::int32_t>("sort_mixed_a").to(dev);
    const auto v = golden<double>("sort_mixed_v").to(dev);
    require_equal(cunp::searchsorted(a, v).to(cpu), golden<std::int64_t>("sort_mixed_left"));
    require_equal(cunp::searchsorted(a, v, "right").to(cpu),
                  golden<std::int64_t>("sort_mixed_right"));
    // a = [-5, -3, ..., 13]
    REQUIRE(cunp::searchsorted(a, 3).item() == 4);
    REQUIRE(cunp::searchsorted(a, 3, "right").item() == 5);
    REQUIRE(cunp::searchsorted(a, 2.5).item() == 4);
    REQUIRE(cunp::searchsorted(a, std::int64_t(1) << 40).item() == 10);  // compared exactly
    REQUIRE(cunp::searchsorted(a, -300).item() == 0);
    const auto u = cunp::asarray<std::uint64_t>({1, 5, std::uint64_t(1) << 63}, dev);
    REQUIRE(cunp::searchsorted(u, -1).item() == 0);
    REQUIRE(cunp::searchsorted(u, std::uint64_t(1) << 63, "right").item() == 3);
    const auto f = cunp::asarray<float>({0.1f, 0.2f, NAN}, dev);
    REQUIRE(cunp::searchsorted(f, 0.1).item() == 0);  // 0.1 taken as float32, as NumPy takes it
    REQUIRE(cunp::searchsorted(f, 0.1, "right").item() == 1);
    REQUIRE(cunp::searchsorted(f, NAN).item() == 2);
    REQUIRE(cunp::searchsorted(f, NAN, "right").item() == 3);
    const auto desc = cunp::view(cunp::asarray<double>({9, 7, 7, 1}, dev), slice(none, none, -1));
    require_values<std::int64_t>(cunp::searchsorted(desc, cunp::asarray<double>({7, 0, 10}, dev)),
                                 {1, 0, 4}, {3});
    REQUIRE(cunp::searchsorted(cunp::zeros<double>({0}, dev), 1.0).item() == 0);
    REQUIRE(cunp::searchsorted(a, cunp::zeros<double>({2, 0}, dev)).shape() == shape_t{2, 0});

    REQUIRE_THROWS_WITH(cunp::searchsorted(a, 1, "middle"),
                        "search side must be 'left' or 'right' (got 'middle')");
    REQUIRE_THROWS_WITH(cunp::searchsorted(cunp::zeros<float>({2, 2}, dev), 1.0f),
                        "object too deep for desired array");
    REQUIRE_THROWS_WITH(cunp::searchsorted(cunp::zeros<float>({}, dev), 1.0f),
                        "object of too small depth for desired array");
    REQUIRE_THROWS_AS(cunp::searchsorted(cunp::zeros<float>({2, 2}, dev), 1.0f), cunp::value_error);
  });
}
#endif

namespace {
template <class TestType> void unique_matches_numpy() {
  using T = TestType;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto x1 = gold<T>(d, "x1").to(dev);
    const auto x2 = gold<T>(d, "x2").to(dev);
    const auto x3 = gold<T>(d, "x3").to(dev);
    require_equal(cunp::unique(x1).to(cpu), gold<T>(d, "u"));
    require_equal(cunp::unique_values(x1).to(cpu), gold<T>(d, "uv"));
    const auto uc = cunp::unique_counts(x1);
    require_equal(uc.values.to(cpu), gold<T>(d, "uc_values"));
    require_equal(uc.counts.to(cpu), gold<std::int64_t>(d, "uc_counts"));
    const auto ui = cunp::unique_inverse(x2);
    require_equal(ui.values.to(cpu), gold<T>(d, "ui_values"));
    require_equal(ui.inverse_indices.to(cpu), gold<std::int64_t>(d, "ui_inverse"));
    const auto [values, indices, inverse, counts] = cunp::unique_all(x3);
    require_equal(values.to(cpu), gold<T>(d, "ua_values"));
    require_equal(indices.to(cpu), gold<std::int64_t>(d, "ua_indices"));
    require_equal(inverse.to(cpu), gold<std::int64_t>(d, "ua_inverse"));
    require_equal(counts.to(cpu), gold<std::int64_t>(d, "ua_counts"));
    REQUIRE(values.device() == dev);
    // a negative-stride view flattens in its own C order: values[inverse] gives it back
    const auto rev = cunp::view(x2, slice(none, none, -1));
    const auto ri = cunp::unique_inverse(rev);
    require_equal(ri.values.to(cpu), gold<T>(d, "ui_values"));
    REQUIRE(ri.inverse_indices.shape() == rev.shape());
    const auto vals = ri.values.to_vector();
    const auto inv = ri.inverse_indices.to_vector();
    const auto want = rev.to_vector();
    for (std::size_t k = 0; k < want.size(); ++k)
      REQUIRE(cunp::detail::order_equal(vals[inv[k]], want[k], true));
  });
}
}  // namespace
#if CUNP_IN_PART(3)
TEMPLATE_TEST_CASE("unique and the unique_* family match NumPy", "[sort][golden]",
                   bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t) {
  unique_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(4)
TEMPLATE_TEST_CASE("unique and the unique_* family match NumPy", "[sort][golden]",
                   std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, cunp::float16) {
  unique_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(5)
TEMPLATE_TEST_CASE("unique and the unique_* family match NumPy", "[sort][golden]",
                   float, double, cunp::complex64, cunp::complex128) {
  unique_matches_numpy<TestType>();
}
#endif

#if CUNP_IN_PART(5)
TEST_CASE("unique: NaNs, signed zeros, empty and 0-d input", "[sort]") {
  on_every_backend([](cunp::device dev) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto x = cunp::asarray<double>({nan, 1, -nan, 0.0, -0.0, 1, nan}, dev);
    const auto u = cunp::unique(x).to_vector();
    REQUIRE(u.size() == 3);  // equal_nan: one NaN; -0.0 == 0.0
    REQUIRE(u[0] == 0.0);
    REQUIRE(std::isnan(u[2]));
    REQUIRE(cunp::unique(x, false).size() == 5);
    const auto c = cunp::unique_counts(x);
    require_values<std::int64_t>(c.counts, {2, 2, 1, 1, 1}, {5});
    const auto z = cunp::asarray<cunp::complex64>({{1, NAN}, {NAN, 0}, {1, 1}, {NAN, NAN}}, dev);
    require_values<cunp::complex64>(cunp::unique(z), {{1, 1}, {1, NAN}}, {2});
    REQUIRE(cunp::unique_values(z).size() == 4);

    const auto e = cunp::zeros<float>({0, 3}, dev);
    REQUIRE(cunp::unique(e).shape() == shape_t{0});
    const auto ea = cunp::unique_all(e);
    REQUIRE(ea.values.shape() == shape_t{0});
    REQUIRE(ea.indices.shape() == shape_t{0});
    REQUIRE(ea.counts.shape() == shape_t{0});
    REQUIRE(ea.inverse_indices.shape() == shape_t{0, 3});
    const auto s = cunp::full<int>({}, 4, dev);
    require_values<int>(cunp::unique(s), {4}, {1});
    const auto si = cunp::unique_inverse(s);
    REQUIRE(si.inverse_indices.shape() == shape_t{});
    REQUIRE(si.inverse_indices.item() == 0);
  });
}
#endif

#if CUNP_IN_PART(5)
TEST_CASE("bincount matches NumPy", "[sort][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto x = golden<std::int64_t>("sort_bc_x").to(dev);
    const auto w = golden<double>("sort_bc_w").to(dev);
    require_equal(cunp::bincount(x).to(cpu), golden<std::int64_t>("sort_bc"));
    require_equal(cunp::bincount(x, 20).to(cpu), golden<std::int64_t>("sort_bc_min"));
    require_close(cunp::bincount(x, w).to(cpu), golden<double>("sort_bc_w_out"));
    require_close(cunp::bincount(x, w, 15).to(cpu), golden<double>("sort_bc_w_min"));
    require_equal(cunp::bincount(x.astype<std::uint8_t>()).to(cpu),
                  golden<std::int64_t>("sort_bc_u8"));
    require_equal(cunp::bincount(x.astype<bool>()).to(cpu), golden<std::int64_t>("sort_bc_bool"));
    require_values<std::int64_t>(cunp::bincount(cunp::zeros<int>({0}, dev)), {}, {0});
    require_values<std::int64_t>(cunp::bincount(cunp::zeros<int>({0}, dev), 3), {0, 0, 0}, {3});
    const auto strided =
        cunp::view(cunp::asarray<std::int16_t>({4, 9, 0, 9, 2, 9}, dev), slice(none, none, -2));
    require_values<std::int64_t>(cunp::bincount(strided), {0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, {10});
    const auto fw = cunp::asarray<float>({0.5f, 0.25f, 2.0f}, dev);
    require_values<double>(cunp::bincount(cunp::asarray<int>({1, 1, 3}, dev), fw), {0, 0.75, 0, 2},
                           {4});

    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<int>({1, -1}, dev)),
                        "'list' argument must have no negative elements");
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<int>({1, 2}, dev), -1),
                        "'minlength' must not be negative");
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::zeros<int>({2, 2}, dev)),
                        "object too deep for desired array");
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::zeros<int>({}, dev)),
                        "object of too small depth for desired array");
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::zeros<std::uint64_t>({2}, dev)),
                        "Cannot cast array data from dtype('uint64') to dtype('int64') according "
                        "to the rule 'safe'");
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::zeros<double>({2}, dev)),
                        "Cannot cast array data from dtype('float64') to dtype('int64') according "
                        "to the rule 'safe'");
    REQUIRE_THROWS_AS(cunp::bincount(cunp::zeros<double>({2}, dev)), cunp::dtype_error);
    REQUIRE_THROWS_WITH(cunp::bincount(x, cunp::zeros<double>({3}, dev)),
                        "The weights and list don't have the same length.");
    REQUIRE_THROWS_WITH(cunp::bincount(x, cunp::zeros<double>({2, 50}, dev)),
                        "object too deep for desired array");
    REQUIRE_THROWS_WITH(
        cunp::bincount(x, cunp::zeros<cunp::complex128>({100}, dev)),
        "Cannot cast array data from dtype('complex128') to dtype('float64') according to the "
        "rule 'safe'");
  });
}
#endif

#if CUNP_IN_PART(5)
// The lengths of bincount and histogram come from the data or an argument: NumPy's size check
// applies to them (max + 1 elements of 8 bytes), before any allocation.
TEST_CASE("bincount and histogram reject lengths that overflow", "[sort][errors]") {
  const std::string too_big =
      "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
  on_every_backend([&](cunp::device dev) {
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<std::int64_t>({index_t(1) << 61}, dev)), too_big);
    // max + 1 does not fit an int64 (NumPy wraps it and returns an empty array).
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<std::int64_t>({0, INT64_MAX}, dev)), too_big);
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<std::int64_t>({INT64_MAX}, dev),
                                       cunp::asarray<double>({1.0}, dev)),
                        too_big);
    REQUIRE_THROWS_WITH(cunp::bincount(cunp::asarray<int>({1}, dev), index_t(1) << 62), too_big);
    const auto x = cunp::asarray<double>({1, 2}, dev);
    REQUIRE_THROWS_WITH(cunp::histogram(x, index_t(1) << 62), too_big);
    REQUIRE_THROWS_AS(cunp::histogram(x, index_t(1) << 62), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::histogram(x, INT64_MAX), too_big);  // bins + 1 edges
    REQUIRE_THROWS_WITH(cunp::histogram(x, index_t(1) << 61, {0.0, 1.0}), too_big);
    REQUIRE_THROWS_WITH(cunp::histogram(cunp::asarray<float>({1, 2}, dev), index_t(1) << 62), too_big);
  });
}
#endif

#if CUNP_IN_PART(7)
TEMPLATE_TEST_CASE("histogram matches NumPy", "[sort][golden]", cunp::float16, float, double,
                   std::int32_t, std::uint8_t, std::int64_t) {
  using T = TestType;
  using E = cunp::detail::histogram_edge_t<T>;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto x = gold<T>(d, "h_x").to(dev);
    const auto h10 = cunp::histogram(x);
    require_equal(h10.hist.to(cpu), gold<std::int64_t>(d, "h10_hist"));
    require_equal(h10.bin_edges.to(cpu), gold<E>(d, "h10_edges"));
    REQUIRE(h10.bin_edges.device() == dev);
    const auto [hist, edges] = cunp::histogram(x, 7, {0.5, 6.25});
    require_equal(hist.to(cpu), gold<std::int64_t>(d, "h7r_hist"));
    require_equal(edges.to(cpu), gold<E>(d, "h7r_edges"));
    const auto e = cunp::asarray<double>({-1.0, 0.0, 0.5, 2.0, 2.0, 5.0, 30.0}, dev);
    const auto he = cunp::histogram(x, e);
    require_equal(he.hist.to(cpu), gold<std::int64_t>(d, "he_hist"));
    REQUIRE(he.bin_edges.storage() == e.storage());  // NumPy returns the edges it was given
    const auto ei = cunp::asarray<std::int64_t>({0, 3, 4, 10, 20}, dev);
    require_equal(cunp::histogram(x, ei).hist.to(cpu), gold<std::int64_t>(d, "hei_hist"));
    const auto c = cunp::histogram(cunp::full<T>({9}, T(5), dev), 4);
    require_equal(c.hist.to(cpu), gold<std::int64_t>(d, "hconst_hist"));
    require_equal(c.bin_edges.to(cpu), gold<E>(d, "hconst_edges"));
    const auto x2 =
        cunp::view(x.reshape({20, 10}), slice(none, none, -1));  // any shape, any strides
    require_equal(cunp::histogram(x2).hist.to(cpu), gold<std::int64_t>(d, "h10_hist"));
  });
}
#endif

#if CUNP_IN_PART(7)
TEST_CASE("histogram: NaN, empty input, edge cases and errors", "[sort][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto hn = golden<double>("sort_hnan_x").to(dev);
    const auto r = cunp::histogram(hn, 4, {0.0, 4.0});
    require_equal(r.hist.to(cpu), golden<std::int64_t>("sort_hnan_hist"));
    require_equal(r.bin_edges.to(cpu), golden<double>("sort_hnan_edges"));
    const auto em = cunp::histogram(cunp::zeros<float>({0}, dev), 3);
    require_equal(em.hist.to(cpu), golden<std::int64_t>("sort_hempty_hist"));
    require_equal(em.bin_edges.to(cpu), golden<float>("sort_hempty_edges"));
    const auto one = cunp::histogram(hn, cunp::asarray<double>({1.0}, dev));
    REQUIRE(one.hist.shape() == shape_t{0});
    const auto b = cunp::histogram(cunp::asarray<bool>({true, false, true}, dev), 2);
    require_values<std::int64_t>(b.hist, {1, 2}, {2});
    require_values<double>(b.bin_edges, {0, 0.5, 1}, {3});

    const auto x = cunp::asarray<double>({1, 2}, dev);
    REQUIRE_THROWS_WITH(cunp::histogram(x, 0), "`bins` must be positive, when an integer");
    REQUIRE_THROWS_WITH(cunp::histogram(x, 3, {2.0, 1.0}),
                        "max must be larger than min in range parameter.");
    REQUIRE_THROWS_WITH(cunp::histogram(x, 3, {0.0, INFINITY}),
                        "supplied range of [0.0, inf] is not finite");
    REQUIRE_THROWS_WITH(cunp::histogram(hn), "autodetected range of [nan, nan] is not finite");
    REQUIRE_THROWS_WITH(cunp::histogram(cunp::asarray<float>({1.5f, INFINITY}, dev)),
                        "autodetected range of [1.5, inf] is not finite");
    REQUIRE_THROWS_WITH(cunp::histogram(x, cunp::asarray<double>({3, 1, 2}, dev)),
                        "`bins` must increase monotonically, when an array");
    REQUIRE_THROWS_WITH(cunp::histogram(x, cunp::zeros<double>({1, 2}, dev)),
                        "`bins` must be 1d, when an array");
    REQUIRE_THROWS_AS(cunp::histogram(x, 0), cunp::value_error);
  });
}
#endif

namespace {
template <class TestType> void order_statistics_match_numpy() {
  using T = TestType;
  using M = cunp::detail::median_result_t<T>;
  using Q = cunp::detail::quantile_result_t<T>;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto s2 = gold<T>(d, "s2").to(dev);
    const auto s3 = gold<T>(d, "s3").to(dev);
    require_close(cunp::median(s2).to(cpu), gold<M>(d, "med_none"));
    require_close(cunp::median(s2, 0).to(cpu), gold<M>(d, "med_a0"));
    require_close(cunp::median(s2, 1).to(cpu), gold<M>(d, "med_a1"));
    require_close(cunp::median(s3, {0, 2}, true).to(cpu), gold<M>(d, "med3_a02_keep"));
    require_close(cunp::quantile(s2, 0.3).to(cpu), gold<Q>(d, "q30_none"));
    require_close(cunp::quantile(s2, 0.3, 1).to(cpu), gold<Q>(d, "q30_a1"));
    require_close(cunp::quantile(s2, {0.0, 0.25, 0.5, 0.9, 1.0}, 0).to(cpu),
                  gold<double>(d, "q_list_a0"));
    require_close(cunp::percentile(s3, {10.0, 50.0, 95.0}, 1, true).to(cpu),
                  gold<double>(d, "p_list3_a1_keep"));
    require_close(cunp::percentile(s3, 75.0, 2).to(cpu), gold<Q>(d, "p75_a2"));
    require_close(cunp::quantile(s3, 0.6, -1).to(cpu), gold<Q>(d, "q_m1"));
    if constexpr (cunp::is_floating_v<T>) {
      const auto sn = gold<T>(d, "sn").to(dev);
      require_close(cunp::median(sn, 1).to(cpu), gold<M>(d, "med_nan_a1"));
      require_close(cunp::median(sn, 0).to(cpu), gold<M>(d, "med_nan_a0"));
      require_close(cunp::quantile(sn, 0.5, 1).to(cpu), gold<Q>(d, "q_nan_a1"));
      require_close(cunp::quantile(sn, {0.2, 0.8}, 0).to(cpu), gold<double>(d, "q_nan_list_a0"));
    }
  });
}
}  // namespace
#if CUNP_IN_PART(7)
TEMPLATE_TEST_CASE("median, quantile and percentile match NumPy", "[sort][golden]", bool,
                   std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, cunp::float16, float, double) {
  order_statistics_match_numpy<TestType>();
}
#endif

#if CUNP_IN_PART(7)
TEMPLATE_TEST_CASE("median of complex numbers matches NumPy", "[sort][golden]", cunp::complex64,
                   cunp::complex128) {
  using T = TestType;
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    const auto s2 = gold<T>(d, "s2").to(dev);
    require_close(cunp::median(s2).to(cpu), gold<T>(d, "med_none"));
    require_close(cunp::median(s2, 1).to(cpu), gold<T>(d, "med_a1"));
    require_close(cunp::median(gold<T>(d, "s3").to(dev), {0, 2}, true).to(cpu),
                  gold<T>(d, "med3_a02_keep"));
    const auto sn = gold<T>(d, "sn").to(dev);
    require_close(cunp::median(sn, 1).to(cpu), gold<T>(d, "med_nan_a1"));
    require_close(cunp::median(sn, 0).to(cpu), gold<T>(d, "med_nan_a0"));
    REQUIRE_THROWS_WITH(cunp::quantile(s2, 0.5), "a must be an array of real numbers");
    REQUIRE_THROWS_AS(cunp::percentile(s2, {50.0}), cunp::dtype_error);
  });
}
#endif

#if CUNP_IN_PART(7)
TEST_CASE("order statistics: empty slices, 0-d input, q checks and axes", "[sort]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<double>(0, 6, 1, dev).reshape({2, 3});
    REQUIRE(std::isnan(cunp::median(cunp::zeros<float>({0}, dev)).item()));
    const auto e = cunp::median(cunp::zeros<double>({0, 3}, dev), 0).to_vector();
    REQUIRE((e.size() == 3 && std::isnan(e[0]) && std::isnan(e[2])));
    REQUIRE(cunp::median(cunp::zeros<double>({0, 3}, dev), 1).shape() == shape_t{0});
    REQUIRE(cunp::quantile(cunp::zeros<double>({3, 0}, dev), 0.5, 0).shape() == shape_t{0});
    REQUIRE_THROWS_WITH(cunp::quantile(cunp::zeros<double>({0, 3}, dev), 0.5, 0),
                        "index -1 is out of bounds for axis 0 with size 0");
    REQUIRE_THROWS_AS(cunp::percentile(cunp::zeros<float>({0}, dev), 5.0), cunp::index_error);
    REQUIRE(cunp::median(cunp::full<int>({}, 3, dev)).item() == 3.0);
    REQUIRE(cunp::quantile(cunp::full<float>({}, 2.5f, dev), 0.5).item() == 2.5f);
    REQUIRE(cunp::median(cunp::asarray<bool>({true, false, true, true}, dev)).item() == 1.0);
    REQUIRE(cunp::median(cunp::asarray<std::int8_t>({-100, 100}, dev)).item() == 0.0);
    REQUIRE(cunp::quantile(cunp::asarray<std::int8_t>({-100, 100}, dev), 0.5).item() == 0.0);
    REQUIRE(std::isnan(
        cunp::quantile(cunp::asarray<double>({1, INFINITY}, dev), 1.0).item()));  // as NumPy
    REQUIRE(cunp::median(a, {0, 1}).item() == 2.5);
    REQUIRE(cunp::median(a, 1, true).shape() == shape_t{2, 1});
    REQUIRE(cunp::quantile(a, {0.5, 0.2}, 1, true).shape() == shape_t{2, 2, 1});
    require_values<double>(cunp::percentile(a, {50.0, 0.0}), {2.5, 0.0}, {2});

    REQUIRE_THROWS_WITH(cunp::quantile(a, 1.5), "Quantiles must be in the range [0, 1]");
    REQUIRE_THROWS_WITH(cunp::quantile(a, {0.5, -0.1}), "Quantiles must be in the range [0, 1]");
    REQUIRE_THROWS_WITH(cunp::quantile(a, NAN), "Quantiles must be in the range [0, 1]");
    REQUIRE_THROWS_WITH(cunp::percentile(a, 101.0), "Percentiles must be in the range [0, 100]");
    REQUIRE_THROWS_WITH(cunp::percentile(a, {-1.0}), "Percentiles must be in the range [0, 100]");
    REQUIRE_THROWS_AS(cunp::quantile(a, 2.0), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::median(a, 2), "axis 2 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::median(a, {0, -2}), "repeated axis");
    REQUIRE_THROWS_WITH(cunp::quantile(cunp::full<double>({}, 1.0, dev), 0.5, 0),
                        "axis 0 is out of bounds for array of dimension 0");
  });
}
#endif

#if CUNP_IN_PART(8)
// Large enough for each GPU path: one lane sorted device-wide, few long lanes one by one, many
// short lanes by the segmented sort, strided lanes; checked against a plain stable sort too.
TEMPLATE_TEST_CASE("sort and argsort agree between backends on large arrays", "[sort]", float,
                   double, cunp::float16, std::int16_t, std::uint64_t, bool, cunp::complex64) {
  using T = TestType;
  const std::vector<std::pair<shape_t, int>> cases{
      {{1 << 17}, 0},    {{(1 << 17) + 3}, 0}, {{3, 70000}, 1},  {{400, 37}, -1},
      {{2000, 3}, 0},    {{5000, 1}, 1},       {{7, 1, 300}, 2}};
  std::uint64_t seed = 1;
  for (const auto& [shape, axis] : cases) {
    INFO("shape " << cunp::shape_str(shape) << " axis " << axis);
    const auto host = random_array<T>(shape, ++seed);
    const auto s =
        same_on_every_backend([&](cunp::device dev) { return cunp::sort(host.to(dev), axis); });
    const auto i =
        same_on_every_backend([&](cunp::device dev) { return cunp::argsort(host.to(dev), axis); });
    if (shape.size() == 1) {  // the reference: std::stable_sort in NumPy's order
      auto v = host.to_vector();
      std::vector<index_t> idx(v.size());
      for (std::size_t k = 0; k < idx.size(); ++k) idx[k] = static_cast<index_t>(k);
      std::stable_sort(idx.begin(), idx.end(),
                       [&](index_t x, index_t y) { return cunp::detail::order_less(v[x], v[y]); });
      REQUIRE(i.to_vector() == std::vector<std::int64_t>(idx.begin(), idx.end()));
      std::vector<T> sorted;
      for (auto k : idx) sorted.push_back(v[k]);
      require_equal(s, cunp::asarray(sorted, shape, cpu));
    }
  }
  // A contiguous view that starts off a four-element boundary: argsort's prepare goes one
  // element a thread.
  const auto host = random_array<T>({(1 << 17) + 5}, 99);
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::argsort(cunp::view(host.to(dev), slice(1, none))); });
}
#endif

#if CUNP_IN_PART(8)
// The GPU's device-wide radix sort (cuda/sort/radix_sort.cuh) on either side of one tile of items
// (one kernel below it, the onesweep passes above), ragged last tiles, and every count of passes
// its buffers alternate over: 1 (bool, 8-bit keys), 2, 3 (unique of values in [0, 2^20)), 4, 8.
TEMPLATE_TEST_CASE("radix sorts agree between backends around tiles and at every pass count",
                   "[sort]", bool, std::uint8_t, std::int16_t, float, double) {
  using T = TestType;
  std::uint64_t seed = 40;
  for (const index_t n : {4864, 4865, 14592, 14593, 100003}) {
    INFO("n " << n);
    const auto host = random_array<T>({n}, ++seed, 1 << 20);
    same_on_every_backend([&](cunp::device dev) { return cunp::sort(host.to(dev)); });
    same_on_every_backend([&](cunp::device dev) { return cunp::argsort(host.to(dev)); });
  }
}
#endif

#if CUNP_IN_PART(8)
TEST_CASE("unique sorts the bits its values differ in: 1, 2 and 3 radix passes", "[sort]") {
  for (const int bits : {5, 12, 20}) {
    INFO("values below 2^" << bits);
    std::vector<std::int32_t> v(100003);
    std::uint64_t s = 7 + bits;
    for (auto& x : v) x = static_cast<std::int32_t>(splitmix64(s) >> (64 - bits));
    const auto host = cunp::asarray(v, {index_t(v.size())}, cpu);
    same_on_every_backend([&](cunp::device dev) { return cunp::unique(host.to(dev)); });
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::unique_counts(host.to(dev)).counts; });
  }
}
#endif

#if CUNP_IN_PART(8)
// NaNs of both signs and several payloads, both zeros and infinities, on the GPU's device-wide
// radix sort (one long lane) and its segmented sort (many short ones): a stable sort keeps each
// group of equal keys in input order, bits and all, and argsort gives their positions in order;
// sort's NaNs may come in another order (docs/differences.md), with the same bits.
TEMPLATE_TEST_CASE("sort keeps zeros in input order and NaNs' bits, argsort every group's order",
                   "[sort]", float, double, cunp::float16, cunp::bfloat16) {
  using T = TestType;
  using K = cunp::detail::sort_key_t<T>;
  const K sign = K(K(1) << (8 * sizeof(K) - 1)), inf = cunp::detail::inf_bits<T>;
  for (const shape_t& shape : {shape_t{(1 << 17) + 1}, shape_t{400, 37}}) {
    INFO("shape " << cunp::shape_str(shape));
    const index_t n = shape.back(), size = cunp::shape_size(shape);
    std::vector<T> v(static_cast<std::size_t>(size));
    for (index_t i = 0; i < size; ++i) {
      const K bits[] = {K(inf + 1 + i % 3), K(K(inf + 1 + i % 5) | sign), K(0), sign, inf,
                        K(inf | sign), K(inf - 1 - i % 7)};
      v[i] = std::bit_cast<T>(bits[(i * 7 + i / 3) % 7]);
    }
    std::vector<K> want;  // each lane in stable order, then its NaNs' bits sorted
    std::vector<std::int64_t> want_idx;
    for (index_t l = 0; l < size / n; ++l) {
      std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
      for (index_t k = 0; k < n; ++k) idx[k] = k;
      std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t x, std::int64_t y) {
        return cunp::detail::order_less(v[l * n + x], v[l * n + y]);
      });
      for (const auto k : idx) want.push_back(std::bit_cast<K>(v[l * n + k]));
      std::sort(std::find_if(want.end() - n, want.end(), [&](K b) { return (b & ~sign) > inf; }),
                want.end());
      want_idx.insert(want_idx.end(), idx.begin(), idx.end());
    }
    const auto host = cunp::asarray(v, shape, cpu);
    on_every_backend([&](cunp::device dev) {
      const auto s = cunp::sort(host.to(dev)).to_vector();
      REQUIRE(s.size() == want.size());
      std::vector<K> got;
      for (const T& x : s) got.push_back(std::bit_cast<K>(x));
      for (index_t l = 0; l < size / n; ++l)
        std::sort(std::find_if(got.begin() + l * n, got.begin() + (l + 1) * n,
                               [&](K b) { return (b & ~sign) > inf; }),
                  got.begin() + (l + 1) * n);
      REQUIRE(got == want);
      REQUIRE(cunp::argsort(host.to(dev)).to_vector() == want_idx);
    });
  }
}
#endif

#if CUNP_IN_PART(8)
TEST_CASE("order statistics, unique, bincount and histogram agree between backends", "[sort]") {
  const auto f = random_array<float>({300, 501}, 11);
  same_on_every_backend([&](cunp::device dev) { return cunp::median(f.to(dev), 1); });
  same_on_every_backend([&](cunp::device dev) { return cunp::median(f.to(dev), 0); });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::quantile(f.to(dev), {0.1, 0.5, 0.99}, 0);
  });
  const auto d = random_array<double>({1 << 17}, 12);
  same_on_every_backend([&](cunp::device dev) { return cunp::percentile(d.to(dev), 37.5); });
  const auto big = random_array<std::int64_t>({1 << 17}, 13, 3000);
  same_on_every_backend([&](cunp::device dev) { return cunp::unique(big.to(dev)); });
  const auto ua = same_on_every_backend(
      [&](cunp::device dev) { return cunp::unique_all(big.to(dev)).inverse_indices; });
  REQUIRE(ua.size() == big.size());
  same_on_every_backend([&](cunp::device dev) { return cunp::unique_counts(d.to(dev)).counts; });
  auto magnitudes = big.to_vector();
  for (auto& m : magnitudes) m = m < 0 ? -m : m;
  const auto pos = cunp::asarray(magnitudes, {1 << 17}, cpu);
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::bincount(pos.to(dev)); });  // 1500 bins: shared
  const auto wide = cunp::asarray(std::vector<std::int32_t>{0, 9000, 9000, 17}, {4}, cpu);
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::bincount(wide.to(dev)); });  // global atomics
  const auto w = random_array<float>({1 << 17}, 14, 50, false);         // weights of both signs
  same_on_every_backend([&](cunp::device dev) { return cunp::bincount(pos.to(dev), w.to(dev)); },
                        1e-12, 1e-12);
  const auto finite_f = random_array<float>({300, 501}, 16, 200, false);
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::histogram(finite_f.to(dev), 37).hist; });
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::histogram(finite_f.to(dev), 6000).hist; });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::histogram(f.to(dev), 5, {-3.0, 3.0}).hist;
  });
  const auto v = random_array<float>({20, 30}, 15);
  const auto a = cunp::sort(d, none);
  same_on_every_backend(
      [&](cunp::device dev) { return cunp::searchsorted(a.to(dev), v.to(dev), "right"); });
}
#endif
