// Host half of the mixed program: compiled by g++, so it sees the cpu backend alone, yet it
// receives arrays made by the nvcc half and hands its own arrays over (see cuda_part.cu).
#include "cunp_test.hpp"

namespace mixed {
cunp::ndarray<float> make_on(cunp::device dev);               // cuda_part.cu
double sum_as_double_cuda(const cunp::ndarray<float>& a);    // cuda_part.cu: astype under nvcc
}  // namespace mixed

using namespace cunp_test;

TEST_CASE("g++ and nvcc translation units share arrays", "[mixed]") {
  // The table of GPU entry points was registered by the nvcc translation unit of this program.
  REQUIRE(cunp::detail::gpu() != nullptr);
  on_every_backend([](cunp::device) {});  // this TU is host-only: cpu alone
  REQUIRE(backends().size() == 1);

  // astype<double> is instantiated here (g++) and in cuda_part.cu (nvcc): two distinct symbols.
  const auto host = cunp::arange<float>(0, 8, 1, cunp::cpu);
  const auto via_host = host.astype<double>().to_vector();
  REQUIRE(mixed::sum_as_double_cuda(host) == Approx(28.0));
  REQUIRE(via_host[7] == 7.0);

  if (cunp::cuda_available()) {
    // Made on the GPU by nvcc code; moved, copied and read back here by g++ code.
    const auto g = mixed::make_on(cunp::cuda(0));
    REQUIRE(g.device() == cunp::cuda(0));
    const auto back = g.copy().to(cunp::cpu);
    require_values<float>(back, {0, 1, 2, 3, 4, 5, 6, 7}, {8});
    // This TU has no cast kernel: it says so instead of computing on the wrong device.
    REQUIRE_THROWS_AS(g.astype<double>(), cunp::device_error);
    // The same rule for every operation that needs a typed kernel (detail::dispatch).
    REQUIRE_THROWS_AS(cunp::eval(g + 1.0f), cunp::device_error);
    REQUIRE_THROWS_AS(cunp::sum(g), cunp::device_error);
    REQUIRE_THROWS_AS(cunp::cumsum(g), cunp::device_error);
    REQUIRE_THROWS_AS(cunp::sort(g), cunp::device_error);
    REQUIRE_THROWS_AS(cunp::unique(g), cunp::device_error);
    // Creation from host-compiled code onto the GPU builds on the host and uploads.
    require_values<float>(cunp::arange<float>(0, 4, 1, cunp::cuda(0)).to(cunp::cpu), {0, 1, 2, 3}, {4});
    REQUIRE(mixed::sum_as_double_cuda(g) == Approx(28.0));
  }
}
