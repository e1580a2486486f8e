# Debian packages through find_package; a missing one stops configure naming the package.
find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)

macro(membench_require pkg debian)
  find_package(${pkg} ${ARGN} QUIET)
  if(NOT ${pkg}_FOUND)
    message(FATAL_ERROR "membench needs ${pkg} (Debian/Ubuntu: apt-get install ${debian})")
  endif()
endmacro()

membench_require(benchmark libbenchmark-dev)
membench_require(fmt libfmt-dev)
membench_require(CLI11 libcli11-dev)
membench_require(nlohmann_json nlohmann-json3-dev)
if(MEMBENCH_BUILD_TESTS)
  membench_require(GTest libgtest-dev)
endif()
message(STATUS "membench: Google Benchmark ${benchmark_VERSION}, fmt ${fmt_VERSION}")
