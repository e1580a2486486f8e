# `cmake --build <dir> --target bundle` writes <dir>/bundle: the executables, membench-report, the peer
# copy check, the GPU test binary and SASS check, and every non-system shared library they need, RPATH $ORIGIN, so
# a GPU machine without the development packages runs them after a plain copy.
set(bundle_targets ${MEMBENCH_EXECUTABLES} membench-report membench_p2p_check)
if(TARGET membench_gpu_tests)
  list(APPEND bundle_targets membench_gpu_tests)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tests/check_sass.sh DESTINATION . COMPONENT bundle)
endif()
install(TARGETS ${bundle_targets} RUNTIME_DEPENDENCY_SET membench_runtime_deps RUNTIME DESTINATION . COMPONENT bundle)
# The C/C++ runtime and the driver come from the target system, and so do the CUDA
# toolkit's own libraries: cuBLAS and CUPTI are not link dependencies but loaded at run
# time (libcublas.so.<major>, libcupti.so.<major>; CUPTI loads libnvperf_host from its own
# folder), found through RPATH (this toolkit's folder) or LD_LIBRARY_PATH, so they must
# match the machine's CUDA, and a missing one is named. Everything else travels.
install(RUNTIME_DEPENDENCY_SET membench_runtime_deps DESTINATION . COMPONENT bundle
  PRE_EXCLUDE_REGEXES "^ld-linux" "^libc\\.so" "^libm\\.so" "^libstdc\\+\\+\\.so" "^libgcc_s\\.so"
                      "^libpthread\\.so" "^libdl\\.so" "^librt\\.so" "^libcuda\\.so" "^linux-vdso"
  POST_EXCLUDE_REGEXES "^/lib(64)?/ld-linux")
set(MEMBENCH_BUNDLE_DIR "${PROJECT_BINARY_DIR}/bundle")
add_custom_target(bundle
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${MEMBENCH_BUNDLE_DIR}
  COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${MEMBENCH_BUNDLE_DIR} --component bundle
  DEPENDS ${bundle_targets}
  COMMENT "membench: relocatable bundle in ${MEMBENCH_BUNDLE_DIR}")
