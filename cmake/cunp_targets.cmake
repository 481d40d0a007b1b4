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

# cunp_compile_only_unit(<target> <source>...): an object library that compiles several sources
# in one nvcc unit, compile-only (cunp_compile_only), for preset cpu's check that they build. One
# nvcc unit of <cunp/cunp.hpp> costs 26 s of the 2-core machine before its own code (cudafe++
# and cicc on the headers and the runtime's kernels); four test files in one unit compiled in 52
# s against 139 s alone (bench/RESULTS.md, the run record). Each source goes into a namespace of
# its own, so that its file-local helpers and main() meet no other file's; every #include of the
# sources comes first, at file scope, so that the ones inside the namespaces are no-ops. Editing
# a source reconfigures (its #include lines are copied here).
function(cunp_compile_only_unit target)
  set(includes "")
  set(body "")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME_WE)
    file(STRINGS "${abs}" lines REGEX "^#include ")
    list(APPEND includes ${lines})
    string(APPEND body "namespace cunp_unit_${name} {\n#include \"${abs}\"\n}  // namespace cunp_unit_${name}\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}")
  endforeach()
  list(REMOVE_DUPLICATES includes)
  list(JOIN includes "\n" includes)
  set(cu "${CMAKE_CURRENT_BINARY_DIR}/cuda_sources/${target}.cu")
  file(CONFIGURE OUTPUT "${cu}" CONTENT "#include <cunp/cunp.hpp>\n${includes}\n${body}" @ONLY)
  add_library(${target} OBJECT "${cu}")
  cunp_compile_only(${target})
endfunction()

# cunp_compile_only_units(<out-var> <prefix> <size> <source>...): the sources in units of up to
# <size> in the order given (cunp_compile_only_unit), targets <prefix>0, <prefix>1, ..., whose
# names go to <out-var>.
function(cunp_compile_only_units out prefix size)
  set(targets "")
  set(sources ${ARGN})
  list(LENGTH sources left)
  while(left GREATER 0)
    list(SUBLIST sources 0 ${size} files)
    if(left GREATER size)
      list(SUBLIST sources ${size} -1 sources)
    else()
      set(sources "")
    endif()
    list(LENGTH targets unit)
    cunp_compile_only_unit(${prefix}${unit} ${files})
    list(APPEND targets ${prefix}${unit})
    list(LENGTH sources left)
  endwhile()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()
