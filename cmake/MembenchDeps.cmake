# Debian packages through find_package; what is missing is named with its package.
find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)
# CPU baselines of the compute families (GCC's libgomp).
find_package(OpenMP REQUIRED COMPONENTS CXX)
# cuBLAS and CUPTI are loaded at run time (dlopen): the build needs their headers only.
find_path(MEMBENCH_CUBLAS_INCLUDE_DIR cublas_v2.h PATHS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
if(NOT MEMBENCH_CUBLAS_INCLUDE_DIR)
  message(FATAL_ERROR "membench needs cuBLAS's headers (cublas_v2.h) from the CUDA toolkit (${CUDAToolkit_INCLUDE_DIRS})")
endif()
if(NOT CUDAToolkit_CUPTI_INCLUDE_DIR)
  message(FATAL_ERROR "membench needs CUPTI's headers (cupti.h) from the CUDA toolkit (${CUDAToolkit_INCLUDE_DIRS})")
endif()

# Every library is looked for before configure stops, so one message lists all that is
# missing, each with its Debian/Ubuntu package (tools/run/suite.sh installs from that list).
# Versions are checked here rather than by find_package: packages differ in their
# version-compatibility rules, and an old version should say what it is.
set(membench_missing "")
macro(membench_require pkg debian floor)
  find_package(${pkg} QUIET)
  if(NOT ${pkg}_FOUND)
    list(APPEND membench_missing "  ${pkg} ${floor} or newer (Debian/Ubuntu: apt-get install ${debian})")
  elseif(${pkg}_VERSION AND ${pkg}_VERSION VERSION_LESS ${floor})
    list(APPEND membench_missing "  ${pkg} ${floor} or newer: found ${${pkg}_VERSION} (Debian/Ubuntu: apt-get install ${debian})")
  endif()
endmacro()

# Google Benchmark 1.7.0 or newer: membench hands it the filter as RunSpecifiedBenchmarks's
# argument (1.7.0), having selected the rows itself.
membench_require(benchmark libbenchmark-dev 1.7.0)
membench_require(fmt libfmt-dev 8.0)
membench_require(CLI11 libcli11-dev 2.1)
membench_require(nlohmann_json nlohmann-json3-dev 3.10)
if(MEMBENCH_BUILD_TESTS)
  membench_require(GTest libgtest-dev 1.10)
endif()
# RapidJSON (header-only): membench-report's JSON reader. Found by its header: the Debian
# package's CMake file names /usr/include wherever the package was unpacked.
find_path(MEMBENCH_RAPIDJSON_INCLUDE_DIR rapidjson/reader.h)
set(RapidJSON_VERSION "")
if(MEMBENCH_RAPIDJSON_INCLUDE_DIR)
  file(STRINGS ${MEMBENCH_RAPIDJSON_INCLUDE_DIR}/rapidjson/rapidjson.h defines REGEX "^#define RAPIDJSON_(MAJOR|MINOR)_VERSION ")
  string(REGEX REPLACE ".*MAJOR_VERSION ([0-9]+).*MINOR_VERSION ([0-9]+).*" "\\1.\\2" RapidJSON_VERSION "${defines}")
endif()
if(MEMBENCH_RAPIDJSON_INCLUDE_DIR AND RapidJSON_VERSION VERSION_LESS 1.1)
  list(APPEND membench_missing "  RapidJSON 1.1 or newer: found ${RapidJSON_VERSION} (Debian/Ubuntu: apt-get install rapidjson-dev)")
elseif(MEMBENCH_RAPIDJSON_INCLUDE_DIR)
  add_library(membench_rapidjson INTERFACE IMPORTED)  # imported: its headers are system headers (no warnings)
  set_target_properties(membench_rapidjson PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${MEMBENCH_RAPIDJSON_INCLUDE_DIR})
else()
  list(APPEND membench_missing "  RapidJSON 1.1 or newer (Debian/Ubuntu: apt-get install rapidjson-dev)")
endif()
# RE2: filters are matched in linear time, without recursion (std::regex recursed once a
# character and backtracked: a deeply nested pattern overflowed the stack, `(a*)*b` ran for
# minutes). Its own CMake file where it has one; Debian's package has none: then its header
# and library (static where there is one, so that a library carried to a machine without the
# package need not be found at run time).
find_package(re2 CONFIG QUIET)
if(TARGET re2::re2)
  add_library(membench_re2 INTERFACE IMPORTED)
  set_target_properties(membench_re2 PROPERTIES INTERFACE_LINK_LIBRARIES re2::re2)
  set(MEMBENCH_RE2_INCLUDE_TARGET re2::re2)  # for the fuzz target, built by hand
  set(MEMBENCH_RE2_LINK $<TARGET_LINKER_FILE:re2::re2>)
else()
  find_path(MEMBENCH_RE2_INCLUDE_DIR re2/re2.h)
  find_library(MEMBENCH_RE2_LIBRARY NAMES libre2.a re2)
  if(MEMBENCH_RE2_INCLUDE_DIR AND MEMBENCH_RE2_LIBRARY)
    add_library(membench_re2 UNKNOWN IMPORTED)
    set_target_properties(membench_re2 PROPERTIES IMPORTED_LOCATION ${MEMBENCH_RE2_LIBRARY}
                          INTERFACE_INCLUDE_DIRECTORIES ${MEMBENCH_RE2_INCLUDE_DIR} INTERFACE_LINK_LIBRARIES Threads::Threads)
    set(MEMBENCH_RE2_INCLUDE_TARGET membench_re2)
    set(MEMBENCH_RE2_LINK ${MEMBENCH_RE2_LIBRARY})
  else()
    list(APPEND membench_missing "  RE2 (Debian/Ubuntu: apt-get install libre2-dev)")
  endif()
endif()
if(membench_missing)
  list(JOIN membench_missing "\n" missing_text)
  message(FATAL_ERROR "membench needs:\n${missing_text}\n"
                      "Installed somewhere else (a prefix you unpacked them into): -DCMAKE_PREFIX_PATH=<prefix>/usr. "
                      "tools/run/suite.sh gets them for you where it can.")
endif()
message(STATUS "membench: Google Benchmark ${benchmark_VERSION}, fmt ${fmt_VERSION}, CLI11 ${CLI11_VERSION}, "
               "nlohmann_json ${nlohmann_json_VERSION}, RapidJSON ${RapidJSON_VERSION}")
