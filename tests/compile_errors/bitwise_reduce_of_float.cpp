// expect: this ufunc does not support this dtype
// numpy.bitwise_or.reduce of floats: "ufunc 'bitwise_or' not supported for the input types".
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::ones<float>({3});
  return static_cast<int>(cunp::ufunc::bitwise_or.reduce(a).size());
}
