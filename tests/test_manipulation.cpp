// Shape manipulation: reshape, ravel, flatten, transpose, swapaxes, moveaxis, squeeze,
// expand_dims, broadcast_to, broadcast_arrays, atleast_Nd, ascontiguousarray, against NumPy.
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

namespace {

/// Requires NumPy's values for `name` and, for a view of `base`, NumPy's offset and strides
/// (golden <name>_layout). Strides of extent-1 axes are free: NumPy's depend on the path taken.
template <class T>
void require_golden_view(const ndarray<T>& v, const ndarray<T>& base, const std::string& name) {
  INFO("case " << name);
  REQUIRE(v.storage() == base.storage());
  require_equal(v.to(cpu), golden<T>("manip_" + name));
  const auto layout = golden<std::int64_t>("manip_" + name + "_layout").to_vector();
  REQUIRE(layout.size() == v.strides().size() + 1);
  REQUIRE(v.offset() - base.offset() == layout[0]);
  for (std::size_t d = 0; d < v.strides().size(); ++d)
    if (v.shape()[d] != 1) REQUIRE(v.strides()[d] == layout[d + 1]);
}

struct manip_case {
  std::string name;
  ndarray<double> base, view;
};

}  // namespace

TEST_CASE("shape manipulation returns NumPy's views", "[manipulation][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto m3 = golden<double>("manip_m3").to(dev);
    const auto ones = golden<double>("manip_ones").to(dev);
    const auto m0 = golden<double>("manip_m0").to(dev);
    const auto m1 = golden<double>("manip_m1").to(dev);
    const auto col = golden<double>("manip_col").to(dev);
    const std::vector<manip_case> cases{
        {"transpose", m3, cunp::transpose(m3)},
        {"transpose_102", m3, cunp::transpose(m3, {1, 0, 2})},
        {"transpose_neg", m3, cunp::transpose(m3, {-1, 0, 1})},
        {"swap_0_2", m3, cunp::swapaxes(m3, 0, 2)},
        {"swap_m1_1", m3, cunp::swapaxes(m3, -1, 1)},
        {"moveaxis_0_m1", m3, cunp::moveaxis(m3, 0, -1)},
        {"moveaxis_vec", m3, cunp::moveaxis(m3, {0, 1}, {-1, -2})},
        {"moveaxis_vec2", m3, cunp::moveaxis(m3, {2, 0}, {0, 1})},
        {"squeeze_all", ones, cunp::squeeze(ones)},
        {"squeeze_2", ones, cunp::squeeze(ones, 2)},
        {"squeeze_0_m1", ones, cunp::squeeze(ones, {0, -1})},
        {"expand_0", m3, cunp::expand_dims(m3, 0)},
        {"expand_m1", m3, cunp::expand_dims(m3, -1)},
        {"expand_multi", m3, cunp::expand_dims(m3, {0, 3, -1})},
        {"expand_0d", m0, cunp::expand_dims(m0, {0, 1})},
        {"bcast_row", m1, cunp::broadcast_to(m1, {3, 5})},
        {"bcast_col", col, cunp::broadcast_to(col, {2, 3, 4})},
        {"bcast_0d", m0, cunp::broadcast_to(m0, {2, 2})},
        {"ravel_view", m3, cunp::ravel(m3)},
        {"atleast_1d_0d", m0, cunp::atleast_1d(m0)},
        {"atleast_2d_1d", m1, cunp::atleast_2d(m1)},
        {"atleast_3d_1d", m1, cunp::atleast_3d(m1)},
        {"atleast_3d_2d", col, cunp::atleast_3d(col)},
        {"atleast_3d_0d", m0, cunp::atleast_3d(m0)},
        {"reshape_view", m3, cunp::reshape(m3, {4, 6})},
    };
    for (const auto& c : cases) require_golden_view(c.view, c.base, c.name);
  });
}

TEST_CASE("ravel, flatten, reshape and ascontiguousarray copy only when NumPy does",
          "[manipulation][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto m3 = golden<double>("manip_m3").to(dev);
    const auto t = cunp::transpose(m3, {2, 0, 1});
    const auto r = cunp::ravel(t);
    REQUIRE(r.storage() != m3.storage());
    require_equal(r.to(cpu), golden<double>("manip_ravel_copy"));
    const auto strided = cunp::view(m3, 0, 0, cunp::slice(cunp::none, cunp::none, 2));
    REQUIRE(cunp::ravel(strided).storage() != m3.storage());  // NumPy copies a strided 1-d too
    require_values<double>(cunp::ravel(strided), {0, 2}, {2});
    const auto f = cunp::flatten(m3);
    REQUIRE(f.storage() != m3.storage());
    require_equal(f.to(cpu), cunp::ravel(m3).to(cpu));
    const auto fs = cunp::flatten(cunp::view(m3, cunp::all, cunp::slice(cunp::none, cunp::none, -1),
                                             cunp::slice(cunp::none, cunp::none, 2)));
    require_equal(fs.to(cpu), golden<double>("manip_flatten_strided"));
    const auto c = cunp::ascontiguousarray(t);
    REQUIRE(c.is_contiguous());
    REQUIRE(c.storage() != m3.storage());
    require_equal(c.to(cpu), golden<double>("manip_ascontiguous"));
    REQUIRE(cunp::ascontiguousarray(m3).storage() == m3.storage());
    REQUIRE(cunp::ascontiguousarray(m3).data() == m3.data());
    const auto s = cunp::full<float>({}, 3.f, dev);
    const auto s1 = cunp::ascontiguousarray(s);
    REQUIRE(s1.shape() == shape_t{1});
    REQUIRE(s1.storage() == s.storage());
    REQUIRE(cunp::ravel(s).shape() == shape_t{1});
    REQUIRE(cunp::flatten(s).shape() == shape_t{1});
    require_equal(cunp::reshape(t, {6, 4}).to(cpu), golden<double>("manip_reshape_copy"));
  });
}

TEST_CASE("broadcast_arrays gives views in the common shape", "[manipulation][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto col = golden<double>("manip_col").to(dev);
    const auto row =
        cunp::view(golden<double>("manip_m1").to(dev), cunp::newaxis, cunp::slice(cunp::none, 3));
    const auto [a, b] = cunp::broadcast_arrays(col, row);
    require_equal(a.to(cpu), golden<double>("manip_bcast_arrays_0"));
    require_equal(b.to(cpu), golden<double>("manip_bcast_arrays_1"));
    REQUIRE(a.storage() == col.storage());
    REQUIRE(a.strides() == cunp::strides_t{1, 0});
    // Mixed element types, and a run-time list.
    const auto [x, y, z] =
        cunp::broadcast_arrays(cunp::zeros<float>({4, 1, 1}, dev),
                               cunp::ones<std::int8_t>({2}, dev), cunp::full<bool>({}, true, dev));
    REQUIRE(x.shape() == shape_t{4, 1, 2});
    REQUIRE(y.shape() == shape_t{4, 1, 2});
    require_values<bool>(z, std::vector<bool>(8, true), {4, 1, 2});
    const auto list = cunp::broadcast_arrays(
        std::vector<ndarray<int>>{cunp::zeros<int>({3, 1}, dev), cunp::zeros<int>({0}, dev)});
    REQUIRE(list.size() == 2);
    REQUIRE(list[0].shape() == shape_t{3, 0});
    REQUIRE(list[1].shape() == shape_t{3, 0});
  });
}

TEST_CASE("manipulation of size-0 and size-1 axes", "[manipulation][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto e = cunp::zeros<double>({0, 3, 2}, dev);
    require_equal(cunp::transpose(e).to(cpu), golden<double>("manip_transpose_empty"));
    require_equal(cunp::moveaxis(e, 0, -1).to(cpu), golden<double>("manip_moveaxis_empty"));
    REQUIRE(cunp::squeeze(cunp::zeros<int>({1, 0, 1}, dev)).shape() == shape_t{0});
    REQUIRE(cunp::expand_dims(cunp::zeros<int>({0, 3}, dev), 1).shape() == shape_t{0, 1, 3});
    REQUIRE(cunp::broadcast_to(cunp::zeros<int>({0, 1}, dev), {0, 5}).shape() == shape_t{0, 5});
    REQUIRE(cunp::broadcast_to(cunp::zeros<int>({1}, dev), {0}).shape() == shape_t{0});
    REQUIRE(cunp::broadcast_to(cunp::zeros<int>({2, 1}, dev), {2, 0}).shape() == shape_t{2, 0});
    REQUIRE(cunp::ravel(e).shape() == shape_t{0});
    REQUIRE(cunp::flatten(e).shape() == shape_t{0});
    REQUIRE(cunp::atleast_2d(cunp::zeros<int>({0}, dev)).shape() == shape_t{1, 0});
    const auto s = cunp::full<int>({}, 4, dev);
    REQUIRE(cunp::squeeze(s).shape() == shape_t{});
    REQUIRE(cunp::squeeze(s, 0).shape() == shape_t{});  // NumPy lets 0 and -1 through for 0-d
    REQUIRE(cunp::squeeze(s, -1).shape() == shape_t{});
    REQUIRE(cunp::squeeze(s, {}).shape() == shape_t{});
    REQUIRE(cunp::transpose(s, {}).shape() == shape_t{});
    REQUIRE(cunp::expand_dims(s, {}).shape() == shape_t{});
    REQUIRE(cunp::moveaxis(s, {}, {}).shape() == shape_t{});
    REQUIRE(cunp::broadcast_to(s, {}).item() == 4);
    const auto [p, q] = cunp::atleast_1d(s, cunp::zeros<float>({2, 2}, dev));
    REQUIRE(p.shape() == shape_t{1});
    REQUIRE(q.shape() == shape_t{2, 2});
    const auto [u, w] = cunp::atleast_3d(s, cunp::zeros<float>({2, 2, 2, 2}, dev));
    REQUIRE(u.shape() == shape_t{1, 1, 1});
    REQUIRE(w.shape() == shape_t{2, 2, 2, 2});
    REQUIRE(std::get<1>(cunp::atleast_2d(s, s)).shape() == shape_t{1, 1});
  });
}

TEST_CASE("manipulation on every dtype keeps the values", "[manipulation]") {
  same_on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<float>(0, 24, 1, dev).astype<cunp::complex64>().reshape({2, 3, 4});
    return cunp::ascontiguousarray(cunp::moveaxis(cunp::expand_dims(a, 1), {0, 3}, {-1, 0}));
  });
  same_on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<float>(0, 6, 1, dev).astype<cunp::bfloat16>();
    return cunp::flatten(
        cunp::broadcast_to(cunp::view(a, cunp::slice(cunp::none, cunp::none, -2)), {2, 3}));
  });
  same_on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<std::uint8_t>(0, 12, 1, dev).reshape({3, 4}).astype<bool>();
    return cunp::ravel(cunp::swapaxes(cunp::atleast_3d(a), 0, 2));
  });
}

// A view is an array too: NumPy checks its size where it is made, as it checks a fresh array's.
TEST_CASE("broadcast_to and views reject sizes that overflow", "[manipulation][errors]") {
  const std::string too_big =
      "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
  constexpr index_t p29 = index_t(1) << 29, p31 = index_t(1) << 31, p32 = index_t(1) << 32,
                    p60 = index_t(1) << 60, p62 = index_t(1) << 62;
  on_every_backend([&](cunp::device dev) {
    const auto one = cunp::ones<double>({1}, dev);
    // The element count itself overflows: NumPy's iterator refuses it first.
    REQUIRE_THROWS_WITH(cunp::broadcast_to(one, {p32, p32}), "iterator is too large");
    REQUIRE_THROWS_AS(cunp::broadcast_to(one, {p32, p32}), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::broadcast_to(one, {p62, p62, 0}), "iterator is too large");
    // The elements fit an int64, their bytes do not.
    REQUIRE_THROWS_WITH(cunp::broadcast_to(one, {p31, p29}), too_big);
    REQUIRE_THROWS_WITH(cunp::broadcast_to(one, {0, p62, p62}), too_big);
    const auto b = cunp::ones<std::int8_t>({1}, dev);
    const auto big = cunp::broadcast_to(b, {p31, p31});  // 2^62 one-byte elements fit
    REQUIRE(big.size() == p62);
    REQUIRE(cunp::view(big, cunp::newaxis, cunp::all, cunp::newaxis).size() == p62);
    REQUIRE(cunp::expand_dims(big, 0).shape() == shape_t{1, p31, p31});
    REQUIRE(big.reshape({p62}).size() == p62);
    REQUIRE_THROWS_WITH(cunp::broadcast_to(one, {p60}), too_big);
    // Shapes that fit alone may broadcast to one that does not.
    REQUIRE_THROWS_WITH(cunp::broadcast_shapes({p32, 1}, {1, p32}), "broadcast dimensions too large.");
    REQUIRE(cunp::broadcast_shapes({0, p62, 1}, {1, 1, p62}) == shape_t{0, p62, p62});
    const auto col = cunp::broadcast_to(b, {p32, 1}), row = cunp::broadcast_to(b, {1, p32});
    REQUIRE_THROWS_WITH((void)(col + row), "broadcast dimensions too large.");
    REQUIRE_THROWS_AS(cunp::broadcast_arrays(col, row), cunp::value_error);
  });
}

TEST_CASE("manipulation errors say what NumPy says", "[manipulation][errors]") {
  const auto a = cunp::zeros<double>({2, 3, 4}, cpu);
  REQUIRE_THROWS_WITH(cunp::transpose(a, {0, 1}), "axes don't match array");
  REQUIRE_THROWS_WITH(cunp::transpose(a, {0, 1, 2, 3}), "axes don't match array");
  REQUIRE_THROWS_WITH(cunp::transpose(a, {0, 1, 1}), "repeated axis in transpose");
  REQUIRE_THROWS_AS(cunp::transpose(a, {0, 1, 1}), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::transpose(a, {0, 1, 3}),
                      "axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_AS(cunp::transpose(a, {0, 1, -4}), cunp::shape_error);
  REQUIRE_THROWS_WITH(cunp::swapaxes(a, 0, 3),
                      "axis2: axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_WITH(cunp::swapaxes(a, 3, 0),
                      "axis1: axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_WITH(cunp::moveaxis(a, 3, 0),
                      "source: axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_WITH(cunp::moveaxis(a, 0, -4),
                      "destination: axis -4 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_WITH(cunp::moveaxis(a, {0, 1}, {0}),
                      "`source` and `destination` arguments must have the same number of elements");
  REQUIRE_THROWS_WITH(cunp::moveaxis(a, {0, 0}, {1, 2}), "repeated axis in `source` argument");
  REQUIRE_THROWS_WITH(cunp::moveaxis(a, {0, 1}, {2, 2}), "repeated axis in `destination` argument");
  REQUIRE_THROWS_WITH(cunp::squeeze(a, 0),
                      "cannot select an axis to squeeze out which has size not equal to one");
  REQUIRE_THROWS_AS(cunp::squeeze(a, 0), cunp::shape_error);
  const auto o = cunp::zeros<double>({1, 3, 1}, cpu);
  REQUIRE_THROWS_WITH(cunp::squeeze(o, {0, 0}), "duplicate value in 'axis'");
  REQUIRE_THROWS_WITH(cunp::squeeze(o, 3), "axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_WITH(cunp::squeeze(o, {1, 5}), "axis 5 is out of bounds for array of dimension 3");
  const auto s = cunp::full<double>({}, 1.0, cpu);
  REQUIRE_THROWS_WITH(cunp::squeeze(s, 1), "axis 1 is out of bounds for array of dimension 0");
  REQUIRE_THROWS_WITH(cunp::squeeze(s, {0}), "axis 0 is out of bounds for array of dimension 0");
  REQUIRE_THROWS_WITH(cunp::expand_dims(a, 4), "axis 4 is out of bounds for array of dimension 4");
  REQUIRE_THROWS_WITH(cunp::expand_dims(a, {0, 0}), "repeated axis");
  REQUIRE_THROWS_WITH(cunp::expand_dims(a, {0, 5}),
                      "axis 5 is out of bounds for array of dimension 5");
  const auto v3 = cunp::zeros<double>({3}, cpu);
  REQUIRE_THROWS_WITH(cunp::broadcast_to(v3, {2, 4}),
                      "operands could not be broadcast together with remapped shapes "
                      "[original->remapped]: (3,)  and requested shape (2,4)");
  REQUIRE_THROWS_AS(cunp::broadcast_to(v3, {2, 4}), cunp::shape_error);
  REQUIRE_THROWS_WITH(cunp::broadcast_to(cunp::zeros<double>({0, 1}, cpu), {1, 5}),
                      "operands could not be broadcast together with remapped shapes "
                      "[original->remapped]: (0,1)  and requested shape (1,5)");
  REQUIRE_THROWS_WITH(cunp::broadcast_to(cunp::zeros<double>({2, 3}, cpu), {3}),
                      "input operand has more dimensions than allowed by the axis remapping");
  REQUIRE_THROWS_WITH(cunp::broadcast_to(v3, {-1, 3}),
                      "all elements of broadcast shape must be non-negative");
  REQUIRE_THROWS_AS(cunp::broadcast_to(v3, {-1, 3}), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::broadcast_to(v3, {}),
                      "cannot broadcast a non-scalar to a scalar array");
  REQUIRE_THROWS_WITH(cunp::broadcast_arrays(v3, cunp::zeros<int>({4}, cpu)),
                      "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                      "is between arg 0 with shape (3,) and arg 1 with shape (4,).");
  REQUIRE_THROWS_WITH(cunp::broadcast_arrays(v3, cunp::zeros<double>({2, 1}, cpu),
                                             cunp::zeros<double>({4, 2, 5}, cpu)),
                      "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                      "is between arg 0 with shape (3,) and arg 2 with shape (4, 2, 5).");
  REQUIRE_THROWS_AS(cunp::broadcast_arrays(std::vector<ndarray<double>>{v3, a}), cunp::shape_error);
  REQUIRE_THROWS_WITH(cunp::reshape(a, {5, 5}),
                      "cannot reshape array of size 24 into shape (5, 5)");
}
