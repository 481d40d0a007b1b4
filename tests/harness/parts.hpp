// Test files compiled in parts. One full nvcc compile (optimised device code) per test file took
// up to 11 minutes on a 2-core machine (test_reduce: 12 dtypes x every reduction x two backends,
// each with its kernels), so where nvcc compiles the GPU tests fully, tests/CMakeLists.txt
// compiles a file named in its part table once per part, with CUNP_TEST_PART = 0 ..
// CUNP_TEST_PARTS - 1, and links the parts into the file's one executable. Everywhere else (g++,
// and nvcc's compile-only check in preset cpu) the file is one unit.
// In the file, a test case (or a group of them) is compiled in one part:
//
//   #if CUNP_IN_PART(2)
//   TEST_CASE(...) { ... }
//   #endif
//
// and a template test case's types are spread by writing it once per group of types, the body in
// a function template:
//
//   #if CUNP_IN_PART(0)
//   TEMPLATE_TEST_CASE("name", "[tag]", bool, std::int8_t) { body<TestType>(); }
//   #endif
//
// Part k of a file split into n goes to part k % n, so a file built whole (n = 1, the default when
// compiled outside the table) holds every test case, and Catch2's names ("name - bool") are the
// same however the file is split.
#pragma once

#ifndef CUNP_TEST_PARTS
#define CUNP_TEST_PARTS 1
#define CUNP_TEST_PART 0
#endif
#if CUNP_TEST_PART < 0 || CUNP_TEST_PART >= CUNP_TEST_PARTS
#error "CUNP_TEST_PART must be in [0, CUNP_TEST_PARTS)"
#endif

/// Whether this translation unit compiles the test cases of part k.
#define CUNP_IN_PART(k) ((k) % CUNP_TEST_PARTS == CUNP_TEST_PART)
