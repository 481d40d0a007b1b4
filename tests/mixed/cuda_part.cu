// nvcc half of the mixed program (see test_mixed_tu.cpp).
#include "cunp/cunp.hpp"

namespace mixed {
cunp::ndarray<float> make_on(cunp::device dev) { return cunp::arange<float>(0, 8, 1, dev); }

double sum_as_double_cuda(const cunp::ndarray<float>& a) {
  double s = 0;
  for (double v : a.astype<double>().to_vector()) s += v;  // the CUDA cast kernel on a GPU array
  return s;
}
}  // namespace mixed
