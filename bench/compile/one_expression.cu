// The compile-time benchmark (shared/PERFORMANCE.md): a TU that includes <cunp/cunp.hpp> and
// evaluates one fused expression. scripts/compile-time.sh times nvcc on it.
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::ones<float>({1 << 20}, cunp::cuda(0));
  const auto b = cunp::full<float>({1 << 20}, 2.0f, cunp::cuda(0));
  const cunp::ndarray<float> d = a * b + cunp::sin(a);
  return d.size() == (1 << 20) ? 0 : 1;
}
