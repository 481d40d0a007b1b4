// expect: no matching function for call to .*mean
// numpy.mean takes no initial= (TypeError): mean_options has no such member.
#include <cunp/cunp.hpp>

int main() {
  const auto a = cunp::ones<float>({3});
  return static_cast<int>(cunp::mean(a, 0, {.initial = 1}).size());
}
