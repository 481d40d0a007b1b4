// Memory pool, pinned staging, streams, events and synchronisation.
#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

TEST_CASE("the cpu has no pool, streams or events", "[memory][errors]") {
  const auto s = cunp::memory_stats(cpu);
  REQUIRE(s.used_bytes == 0);
  REQUIRE(s.cached_bytes == 0);
  cunp::empty_cache(cpu);
  cunp::synchronize(cpu);
  REQUIRE_THROWS_AS(cunp::set_memory_limit(cpu, 1 << 20), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::stream(cpu), cunp::device_error);
  REQUIRE_THROWS_AS(cunp::event(cpu), cunp::device_error);
}

TEST_CASE("the pool reuses freed memory and reports it", "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const std::size_t bytes = std::size_t(64) << 20;
    const auto before = cunp::memory_stats(dev);
    {
      const auto a = cunp::empty<float>({index_t(bytes / 4)}, dev);
      const auto during = cunp::memory_stats(dev);
      REQUIRE(during.used_bytes == before.used_bytes + bytes);
      REQUIRE(during.peak_bytes >= during.used_bytes);
    }
    cunp::synchronize(dev);
    const auto after = cunp::memory_stats(dev);
    REQUIRE(after.used_bytes == before.used_bytes);
    REQUIRE(after.cached_bytes >= bytes);  // kept by the pool for the next allocation
    cunp::empty_cache(dev);
    REQUIRE(cunp::memory_stats(dev).cached_bytes < bytes);
  });
}

// [oom]: compute-sanitizer reports the failed allocations this provokes; gpu-check.sh skips it there.
TEST_CASE("out of memory: a limit, and more than the GPU has", "[memory][gpu][errors][oom]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    cunp::set_memory_limit(dev, std::size_t(1) << 30);
    REQUIRE_THROWS_AS(cunp::empty<double>({index_t(1) << 28}, dev), cunp::out_of_memory);
    REQUIRE(cunp::empty<double>({index_t(1) << 20}, dev).size() == index_t(1) << 20);
    cunp::set_memory_limit(dev, 0);
    // 1 PiB: the pool frees its cache, retries once, then names the bytes asked for and free.
    try {
      (void)cunp::empty<std::uint8_t>({index_t(1) << 50}, dev);
      FAIL("a 1 PiB allocation succeeded");
    } catch (const cunp::out_of_memory& e) {
      REQUIRE(e.requested_bytes() == std::size_t(1) << 50);
      REQUIRE(e.free_bytes() > 0);
      REQUIRE_THAT(e.what(), Catch::Contains("out of memory allocating 1125899906842624 bytes"));
    }
    // The device is still usable afterwards.
    require_values<int>(cunp::full<int>({3}, 5, dev), {5, 5, 5}, {3});
  });
}

TEST_CASE("streams order work; events time it", "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    cunp::stream s(dev);
    cunp::event start(dev), stop(dev);
    const auto host = cunp::arange<float>(0, 1 << 22, 1, cpu);
    cunp::ndarray<float> d;
    {
      cunp::stream_guard g(s);
      start.record();
      d = host.to(dev);
      const auto twice = d.copy();
      stop.record();
      d = twice;
    }
    stop.synchronize();
    REQUIRE(cunp::event::elapsed_ms(start, stop) >= 0.0f);
    s.synchronize();
    REQUIRE(d.to_vector() == host.to_vector());
    cunp::synchronize(dev);
  });
}

TEST_CASE("allow_synchronize(false) turns hidden waits into errors", "[memory][gpu][errors]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::ones<float>({4}, dev);
    struct restore {
      ~restore() { cunp::allow_synchronize(true); }  // even when a check fails
    } restore_on_exit;
    cunp::allow_synchronize(false);
    if (dev.is_cuda()) {
      REQUIRE_THROWS_AS(a.to_vector(), cunp::device_error);
      REQUIRE_THROWS_AS(cunp::full<float>({1}, 1.f, dev).item(), cunp::device_error);
      REQUIRE_THROWS_AS(a.to(cpu), cunp::device_error);
      REQUIRE_THROWS_AS(cunp::synchronize(dev), cunp::device_error);
    } else {
      REQUIRE(a.to_vector().size() == 4);  // nothing to wait for on the cpu
    }
    cunp::allow_synchronize(true);
    REQUIRE(a.to_vector().size() == 4);
  });
}
