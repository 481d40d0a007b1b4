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
