// The Catch2 runner of every test executable. GPU variants exit 77 (ctest: skipped) without a GPU.
#define CATCH_CONFIG_RUNNER  // Catch2 2: its runner is compiled here, without its main
#include <cstdio>

#include "catch.hpp"
#include "cunp/device.hpp"

int main(int argc, char** argv) {
#ifdef CUNP_TEST_REQUIRE_GPU
  if (!cunp::cuda_available()) {
    std::puts("no usable CUDA GPU: skipping the GPU tests (exit 77)");
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
