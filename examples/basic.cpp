// The README's example. example_basic is this file built by g++ (cpu backend); example_basic_cuda
// is the same file built by nvcc: it runs on cuda(0) when a GPU is there.
#include <cstdint>
#include <iostream>

#include <cunp/cunp.hpp>

int main() {
  using cunp::all, cunp::none, cunp::slice;
  const cunp::device dev = cunp::default_device();  // cuda(0) under nvcc with a GPU, else cpu
  auto a = cunp::arange<float>(12, cunp::cpu).reshape({3, 4});  // np.arange(12.).reshape(3, 4)
  auto col = cunp::view(a, all, 1);                 // a[:, 1]: a view, no copy
  cunp::copyto(col, -1);                            // a[:, 1] = -1 writes into a
  auto rev = cunp::view(a, slice(none, none, -1));  // a[::-1]: negative strides
  auto g = rev.to(dev);                             // an explicit move (C-ordered copy) to dev
  auto i = g.astype<std::int32_t>();                // g.astype(np.int32), computed on dev
  auto e = cunp::eye<double>(3, none, 0, dev);      // np.eye(3, None), made on dev
  cunp::save("basic.npy", i);                       // NumPy's np.load reads it
  auto back = cunp::load<std::int32_t>("basic.npy", cunp::cpu);
  std::cout << "device: " << dev << '\n' << a << '\n' << back << '\n' << e << '\n';
}
