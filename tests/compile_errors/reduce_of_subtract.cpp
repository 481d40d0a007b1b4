// expect: reduce, accumulate and reduceat for the associative ufuncs only
// cunp reduces only the associative ufuncs (docs/differences.md); subtract.reduce is NumPy's.
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::ones<float>({3});
  return static_cast<int>(cunp::ufunc::subtract.reduce(a).size());
}
