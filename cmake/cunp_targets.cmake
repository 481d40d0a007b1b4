# Helpers for cunp's own tests, benchmarks and examples: one source, built for each backend.

# cunp_cuda_source(<out-var> <source>): a .cu file in the build tree that includes <source>, so
# that one test or benchmark body compiles once with g++ (cpu backend) and once with nvcc.
function(cunp_cuda_source out src)
  get_filename_component(name "${src}" NAME_WE)
  get_filename_component(abs "${src}" ABSOLUTE)
  set(cu "${CMAKE_CURRENT_BINARY_DIR}/cuda_sources/${name}.cu")
  file(CONFIGURE OUTPUT "${cu}" CONTENT "#include \"${abs}\"\n")
  set(${out} "${cu}" PARENT_SCOPE)
endfunction()

# cunp_compile_only(<target>): the CUDA sources of <target> only compiled, to check that they
# build on a machine without a GPU (preset cpu, CUNP_GPU_TESTS_COMPILE_ONLY; the target is an
# object library, not linked). The device code is unoptimised and stays PTX (no ptxas); nvcc
# stops before the host compiler (-cuda: its front end, which checks the host code as well, and
# cicc run; the host code it would hand to g++ is thrown away by compile_only.sh). Host g++ at
# -O3, cicc and ptxas were most of nvcc's time (test_creation: 63 s, 26 s so); the host code
# generation, even at -O0, was half of what was left (test_rearranging 47 -> 28 s), and g++'s
# -fsyntax-only pass a quarter of the rest (test_linalg 54 -> 33 s).
function(cunp_compile_only target)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcicc -O0 -cuda>")
  set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER
                        "sh;${CMAKE_CURRENT_FUNCTION_LIST_DIR}/compile_only.sh")
  set(virtual "")
  foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")
    if(arch MATCHES "^[0-9]+[a-z]?$")
      list(APPEND virtual "${arch}-virtual")
    endif()
  endforeach()
  if(virtual)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${virtual}")
  endif()
endfunction()
