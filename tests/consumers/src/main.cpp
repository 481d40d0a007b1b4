// The consumer program's g++ translation unit: it gets cunp's cpu backend and hands an array to
// the nvcc translation unit (gpu_part.cu), which moves it to the default device and converts it.
#include <cstdio>
#include <numeric>

#include <cunp/cunp.hpp>

double sum_on_default_device(const cunp::ndarray<float>& a);  // gpu_part.cu

int main() {
  const auto a = cunp::arange<float>(0, 10, 1, cunp::cpu).reshape({2, 5});
  const auto d = a.T().astype<double>().to_vector();
  const double host = std::accumulate(d.begin(), d.end(), 0.0);
  const double device = sum_on_default_device(a);
  std::printf("cunp %d.%d.%d: g++ sum %g, nvcc sum %g on %s\n", CUNP_VERSION_MAJOR,
              CUNP_VERSION_MINOR, CUNP_VERSION_PATCH, host, device,
              cunp::default_device().str().c_str());
  return host == 45 && device == 45 ? 0 : 1;
}
