// The consumer program's nvcc translation unit: the CUDA backend, used on a GPU when one is there.
#include <numeric>

#include <cunp/cunp.hpp>

double sum_on_default_device(const cunp::ndarray<float>& a) {
  const auto d = a.to(cunp::default_device()).astype<double>().to_vector();
  return std::accumulate(d.begin(), d.end(), 0.0);
}
