// expect: outer product only supported for binary functions
// numpy.negative.outer raises "outer product only supported for binary functions".
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::ones<float>({3});
  const auto e = cunp::ufunc::negative.outer(a, a);
  return static_cast<int>(e.size());
}
