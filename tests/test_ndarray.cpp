// ndarray<T>: handle semantics, metadata, to/to_vector/item, copy, astype, fill, reshape, T.
#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

TEMPLATE_TEST_CASE("a handle aliases, copy() does not", "[ndarray]", bool, std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
                   std::uint64_t, cunp::float16, cunp::bfloat16, float, double, cunp::complex64,
                   cunp::complex128) {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::zeros<TestType>({2, 3}, dev);
    const auto alias = a;
    const auto deep = a.copy();
    alias.fill(TestType(1));
    require_equal(a.to(cpu), cunp::ones<TestType>({2, 3}, cpu));
    require_equal(deep.to(cpu), cunp::zeros<TestType>({2, 3}, cpu));
    REQUIRE(a.device() == dev);
    REQUIRE(a.nbytes() == 6 * sizeof(TestType));
    REQUIRE(a.ndim() == 2);
    REQUIRE(a.size() == 6);
    REQUIRE(a.is_contiguous());
    REQUIRE(a.dtype() == cunp::dtype_of_v<TestType>);
  });
}

TEST_CASE("metadata: strides in elements, contiguity, 0-d and empty arrays", "[ndarray]") {
  const auto a = cunp::empty<float>({2, 3, 4}, cpu);
  REQUIRE(a.strides() == cunp::strides_t{12, 4, 1});
  REQUIRE_FALSE(a.T().is_contiguous());
  REQUIRE(a.T().shape() == shape_t{4, 3, 2});
  REQUIRE(a.T().strides() == cunp::strides_t{1, 4, 12});
  const auto s = cunp::full<double>({}, 2.5, cpu);
  REQUIRE(s.ndim() == 0);
  REQUIRE(s.size() == 1);
  REQUIRE(s.item() == 2.5);
  const auto e = cunp::zeros<int>({3, 0}, cpu);
  REQUIRE(e.size() == 0);
  REQUIRE(e.nbytes() == 0);
  REQUIRE(e.to_vector().empty());
  REQUIRE(cunp::ndarray<int>().shape() == shape_t{0});
}

TEST_CASE("a moved-from array is an empty cpu array as ndarray() makes one", "[ndarray][move]") {
  // Every operation works on it as on ndarray<double>(): np.array([]).
  const auto require_empty = [](cunp::ndarray<double>& a) {
    REQUIRE(a.shape() == shape_t{0});
    REQUIRE(a.strides() == cunp::strides_t{1});
    REQUIRE(a.ndim() == 1);
    REQUIRE(a.size() == 0);
    REQUIRE(a.nbytes() == 0);
    REQUIRE(a.device() == cpu);
    REQUIRE(a.to_vector().empty());
    std::ostringstream printed;
    printed << a;
    REQUIRE(printed.str() == "array([], dtype=float64)");
    REQUIRE(cunp::sum(a).item() == 0.0);
    require_values<double>(cunp::eval(a + 1), {}, {0});
    require_values<double>(a.copy(), {}, {0});
    a.fill(2.0);
    REQUIRE_THROWS_WITH(a.item(),
                        "can only convert an array of size 1 to a scalar, not of shape (0,)");
    REQUIRE(a.reshape({0, 3}).shape() == shape_t{0, 3});  // views of it are empty cpu arrays
    REQUIRE(a.T().device() == cpu);
  };
  // Moves only hand pointers on, so containers of arrays move rather than copy them.
  static_assert(std::is_nothrow_move_constructible_v<cunp::ndarray<double>>);
  static_assert(std::is_nothrow_move_assignable_v<cunp::ndarray<double>>);
  cunp::ndarray<double> fresh;
  require_empty(fresh);
  on_every_backend([&](cunp::device dev) {
    auto a = cunp::arange<double>(0, 6, 1, dev).reshape({2, 3});
    const auto constructed = std::move(a);
    require_empty(a);
    require_values<double>(constructed, {0, 1, 2, 3, 4, 5}, {2, 3});
    a = cunp::full<double>({2}, 1.5, dev);  // a moved-from handle takes a new array
    require_values<double>(a, {1.5, 1.5}, {2});

    auto assigned = cunp::full<double>({}, 7.0, dev);
    assigned = std::move(a);
    require_empty(a);
    require_values<double>(assigned, {1.5, 1.5}, {2});
    auto& self = assigned;
    assigned = std::move(self);  // moving into itself changes nothing
    require_values<double>(assigned, {1.5, 1.5}, {2});
  });
}

TEST_CASE("to, to_vector and item move data between devices", "[ndarray]") {
  on_every_backend([](cunp::device dev) {
    const auto h = cunp::arange<std::int64_t>(0, 1000, 1, cpu);
    const auto d = h.to(dev);
    REQUIRE(d.device() == dev);
    REQUIRE(d.to_vector() == h.to_vector());
    if (dev.is_cpu()) REQUIRE(d.data() == h.data());  // same device: the same handle
    REQUIRE(d.reshape({10, 100}).T().to(cpu).to_vector()[1] == 100);
    REQUIRE(cunp::full<float>({1, 1}, 7.5f, dev).item() == 7.5f);
    REQUIRE_THROWS_AS(d.item(), cunp::value_error);
    // A large transfer goes through the pinned staging buffers in several chunks.
    const auto big = cunp::arange<double>(0, 3 << 20, 1, cpu);
    const auto round_trip = big.to(dev).to(cpu).to_vector();
    REQUIRE(round_trip[(3 << 20) - 1] == double((3 << 20) - 1));
    REQUIRE(round_trip == big.to_vector());
  });
}

TEST_CASE("astype follows NumPy's conversions", "[ndarray][astype]") {
  same_on_every_backend([](cunp::device dev) {
    return cunp::asarray<double>({-2.5, -0.5, 0.5, 1.5, 2.7}, {}, dev).astype<std::int32_t>();
  });
  same_on_every_backend([](cunp::device dev) {
    return cunp::asarray<float>({0.1f, 65504.f, 1e5f, -1e-8f, NAN, INFINITY}, {}, dev)
        .astype<cunp::float16>();
  });
  same_on_every_backend([](cunp::device dev) {
    return cunp::asarray<cunp::complex64>({{1, 2}, {0, 0}, {-3, 0.5}}, {}, dev).astype<bool>();
  });
  same_on_every_backend([](cunp::device dev) {
    return cunp::arange<std::uint8_t>(250, 256, 1, dev).astype<std::int8_t>();
  });
  on_every_backend([](cunp::device dev) {
    const auto c = cunp::asarray<cunp::complex128>({{1.5, 2}, {-3, 4}}, {}, dev).astype<double>();
    require_values<double>(c, {1.5, -3}, {2});  // NumPy keeps the real part (with a warning)
    const auto b = cunp::asarray<double>({0.0, -0.0, 2.0, NAN}, {}, dev).astype<bool>();
    require_values<bool>(b, {false, false, true, true}, {4});
    // Strided source: a reversed view converts in view order.
    const auto r = cunp::arange<float>(0, 4, 1, dev);
    const auto rev = cunp::ndarray<float>(r.storage(), 3, {4}, {-1});
    require_values<std::int16_t>(rev.astype<std::int16_t>(), {3, 2, 1, 0}, {4});
  });
}

TEST_CASE("out-of-range float to int casts saturate and NaN becomes 0 on every backend", "[ndarray][astype]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::asarray<double>({NAN, 1e300, -1e300, 127.9, -128.9}, {}, dev);
    require_values<std::int8_t>(a.astype<std::int8_t>(), {0, 127, -128, 127, -128}, {5});
    require_values<std::uint32_t>(a.astype<std::uint32_t>(), {0, 4294967295u, 0, 127, 0}, {5});
  });
}

TEST_CASE("reshape is a view when strides allow, a copy otherwise", "[ndarray][reshape]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<int>(0, 24, 1, dev);
    const auto b = a.reshape({2, -1, 4});
    REQUIRE(b.shape() == shape_t{2, 3, 4});
    REQUIRE(b.data() == a.data());
    const auto t = b.T();                    // (4, 3, 2), not contiguous
    const auto merged = t.reshape({4, 6});   // axes 1 and 2 of t do not merge: a copy
    REQUIRE(merged.data() != a.data());
    const auto split = t.reshape({2, 2, 3, 2});  // splitting one axis keeps a view
    REQUIRE(split.data() == a.data());
    REQUIRE(split.strides() == cunp::strides_t{2, 1, 4, 12});
    require_values<int>(t.reshape({-1}).reshape({2, 12}).reshape({24}).astype<int>(),
                        {0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23},
                        {24});
    REQUIRE(cunp::zeros<int>({0, 3}, dev).reshape({3, 0, 5}).size() == 0);
    REQUIRE(cunp::full<int>({}, 4, dev).reshape({1, 1}).shape() == shape_t{1, 1});
  });
}

TEST_CASE("reshape errors say what NumPy says", "[ndarray][reshape][errors]") {
  const auto a = cunp::arange<float>(0, 6, 1, cpu);
  REQUIRE_THROWS_WITH(a.reshape({4}), "cannot reshape array of size 6 into shape (4,)");
  REQUIRE_THROWS_AS(a.reshape({4, -1}), cunp::shape_error);
  REQUIRE_THROWS_WITH(a.reshape({-1, -1}), "can only specify one unknown dimension");
  REQUIRE_THROWS_AS(a.reshape({-2, -3}), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::zeros<int>({-1}, cpu), cunp::value_error);
}

// reshape multiplies the new extents as NumPy does: a product past int64 is a mismatch, never a
// wrapped size that matches; a zero extent ahead of the others gives size 0, whose array must
// still fit (NumPy's "array is too big").
TEST_CASE("reshape rejects shapes whose size overflows", "[ndarray][reshape][errors]") {
  const std::string too_big =
      "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
  constexpr index_t p31 = index_t(1) << 31, p32 = index_t(1) << 32, p62 = index_t(1) << 62;
  on_every_backend([&](cunp::device dev) {
    const auto a = cunp::arange<float>(4, dev);
    REQUIRE_THROWS_WITH(a.reshape({p62 + 1, 4}),
                        "cannot reshape array of size 4 into shape (4611686018427387905, 4)");
    REQUIRE_THROWS_AS(a.reshape({p62 + 1, 4}), cunp::shape_error);
    REQUIRE_THROWS_WITH(a.reshape({p32, p32}),
                        "cannot reshape array of size 4 into shape (4294967296, 4294967296)");
    REQUIRE_THROWS_AS(a.reshape({-1, p32, p32}), cunp::shape_error);
    const auto e = cunp::zeros<double>({0}, dev);
    REQUIRE_THROWS_AS(e.reshape({p32, p31, 0}), cunp::shape_error);  // overflows before the 0
    REQUIRE_THROWS_AS(e.reshape({-1, p32, p32}), cunp::shape_error);
    REQUIRE_THROWS_WITH(e.reshape({0, p32, p32}), too_big);
    REQUIRE(cunp::zeros<std::int8_t>({0}, dev).reshape({p31, p31, 0}).size() == 0);  // fits
  });
  // Every array is checked where it is made, also a view of memory that cunp does not own.
  std::vector<float> mine(4);
  REQUIRE_THROWS_WITH(cunp::adapt(mine.data(), {p62 + 1, 4}), too_big);
  REQUIRE_THROWS_WITH(cunp::adapt(mine.data(), {p62}, {0}), too_big);
}

TEST_CASE("adapt wraps memory that cunp does not own", "[ndarray][adapt]") {
  std::vector<double> mine{1, 2, 3, 4, 5, 6};
  const auto a = cunp::adapt(mine.data(), {2, 3});
  a.fill(9.0);
  REQUIRE(mine[5] == 9.0);
  const auto col = cunp::adapt(mine.data(), {3}, {2});  // every other element
  REQUIRE(col.to_vector() == std::vector<double>{9, 9, 9});
  auto owner = std::make_shared<std::vector<int>>(4, 3);
  const auto kept = cunp::adapt(owner->data(), {4}, {}, cpu, owner);
  owner.reset();  // the array keeps it alive
  REQUIRE(kept.to_vector() == std::vector<int>{3, 3, 3, 3});
  REQUIRE_THROWS_AS(cunp::adapt(mine.data(), {2, 3}, {1}), cunp::shape_error);
  REQUIRE_THROWS_AS(cunp::adapt<double>(nullptr, {2}), cunp::value_error);
}

TEST_CASE("devices: names, parsing, mixing and unavailable GPUs", "[device][errors]") {
  REQUIRE(cunp::cpu.str() == "cpu");
  REQUIRE(cunp::cuda(1).str() == "cuda:1");
  REQUIRE(cunp::detail::parse_device("cuda:3") == cunp::cuda(3));
  REQUIRE(cunp::detail::parse_device("cuda") == cunp::cuda(0));
  REQUIRE_THROWS_AS(cunp::detail::parse_device("tpu"), cunp::value_error);
  // Every malformed index is CUNP_DEVICE's value_error, also one past int (not std::stoi's
  // std::out_of_range).
  for (const char* bad : {"cuda:99999999999999999999", "cuda:2147483648", "cuda:", "cuda:-1",
                          "cuda:+1", "cuda:1x", "cuda: 1", "cuda:0x1", "cuda:1 "})
    REQUIRE_THROWS_WITH(cunp::detail::parse_device(bad),
                        "CUNP_DEVICE='" + std::string(bad) +
                            "' is not a device: use cpu, cuda or cuda:N");
  REQUIRE(cunp::detail::parse_device("cuda:2147483647") == cunp::cuda(2147483647));
  REQUIRE(cunp::detail::parse_device("cuda:007") == cunp::cuda(7));
  REQUIRE_THROWS_AS(cunp::zeros<float>({2}, cunp::cuda(63)), cunp::device_error);
  REQUIRE_THROWS_AS(cunp::set_default_device(cunp::cuda(63)), cunp::device_error);
  REQUIRE_THROWS_WITH(cunp::detail::check_same_device(cunp::cpu, cunp::cuda(0), "add"),
                      Catch::Contains("cpu") && Catch::Contains("cuda:0"));
  const auto before = cunp::default_device();
  cunp::set_default_device(cpu);
  REQUIRE(cunp::zeros<float>({1}).device() == cpu);
  cunp::set_default_device(before);
  if (!CUNP_HAS_CUDA) REQUIRE(before == cpu);  // a g++-only program has the cpu backend alone
}

// Run by ctest with CUNP_DEVICE set (hidden otherwise): the default device follows it.
// The one backend choice (device.hpp: detail::dispatch): the CUDA backend only for GPU data in a
// translation unit that nvcc compiled; everything else goes to the cpu backend, which throws
// device_error for GPU data where a typed kernel is needed.
TEST_CASE("dispatch: one rule picks the backend of every operation", "[device][dispatch]") {
  using cunp::detail::cuda_backend;
  using cunp::detail::dispatch;
  using cunp::detail::host_backend;
  const auto which = [](auto be) { return std::is_same_v<decltype(be), cuda_backend> ? 1 : 0; };
  REQUIRE(dispatch<host_backend>(cpu, which) == 0);
  REQUIRE(dispatch<host_backend>(cunp::cuda(0), which) == 0);  // a g++ TU: no kernels to call
  REQUIRE(dispatch<cuda_backend>(cpu, which) == 0);
  REQUIRE(dispatch<cuda_backend>(cunp::cuda(1), which) == 1);
  int calls = 0;
  dispatch<cuda_backend>(cpu, [&](auto) { ++calls; });  // void results, called once
  REQUIRE(calls == 1);
  REQUIRE_THROWS_WITH(cunp::detail::require_cpu_for(cunp::cuda(0), "sorting"),
                      Catch::Contains("sorting on cuda:0: that takes CUDA kernels"));
}

TEST_CASE("CUNP_DEVICE overrides the default device", "[.env]") {
  const char* expect = std::getenv("CUNP_TEST_EXPECT_DEFAULT");
  REQUIRE(expect != nullptr);
  if (std::string(expect) == "error") {
    REQUIRE_THROWS_AS(cunp::default_device(), cunp::error);
  } else {
    REQUIRE(cunp::default_device().str() == expect);
    REQUIRE(cunp::zeros<float>({2}).device().str() == expect);
  }
}
