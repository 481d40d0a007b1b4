// expect: this transform takes a real input
// numpy.fft.rfft of a complex array raises TypeError; cunp refuses it at compile time.
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::zeros<cunp::complex64>({8}, cunp::cpu);
  return static_cast<int>(cunp::fft::rfft(a).size());
}
