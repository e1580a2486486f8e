# `cmake --install <dir>` (component runtime): the three builds, membench-report and
# membench-check in bin/; the docs, schema.json, the node check's reference, the Python
# package (python/) and the Slurm, ReFrame and Kubernetes integrations in share/membench/;
# README, LICENSE and CHANGELOG in share/doc/membench/; the libraries come from the system.
# Component bundle: the same tree, plus every non-system shared library they need in
# lib/membench/ and the GPU checks (peer copy check, GPU tests, SASS check) in
# libexec/membench/, so that the folder runs after a plain copy onto a GPU machine without the
# development packages: `cmake --install <dir> --component bundle --prefix /opt/membench`.
# `cmake --build <dir> --target bundle` builds what it needs and writes <dir>/bundle.
include(GNUInstallDirs)
set(MEMBENCH_INSTALL_LIBDIR "${CMAKE_INSTALL_LIBDIR}/membench")
set(MEMBENCH_INSTALL_CHECKDIR "${CMAKE_INSTALL_LIBEXECDIR}/membench")
set(MEMBENCH_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/membench")

set(membench_bin_targets ${MEMBENCH_EXECUTABLES} membench-report)
set(membench_check_targets membench_p2p_check)
if(TARGET membench_gpu_tests)
  list(APPEND membench_check_targets membench_gpu_tests)
endif()

# RPATH relative to the executable ($ORIGIN), so the tree runs wherever it is copied. The
# benchmarks and the GPU tests also keep this toolkit's library folder: they dlopen cuBLAS
# and CUPTI (harness/core/cuda_library.hpp), which never travel in the bundle.
function(membench_relative_rpath target from_dir)
  file(RELATIVE_PATH to_lib "/${from_dir}" "/${MEMBENCH_INSTALL_LIBDIR}")
  set(rpath "$ORIGIN/${to_lib}")
  if(target IN_LIST MEMBENCH_EXECUTABLES OR target STREQUAL "membench_gpu_tests")
    list(APPEND rpath "${CUDAToolkit_LIBRARY_DIR}")
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${rpath}")
endfunction()
foreach(target IN LISTS membench_bin_targets)
  membench_relative_rpath(${target} "${CMAKE_INSTALL_BINDIR}")
endforeach()
foreach(target IN LISTS membench_check_targets)
  membench_relative_rpath(${target} "${MEMBENCH_INSTALL_CHECKDIR}")
endforeach()

# What both components hold; ARGN: the options of the bundle's rules (EXCLUDE_FROM_ALL, so
# that a plain `cmake --install` is the runtime alone).
function(membench_install_tree component)
  set(deps "")
  if(component STREQUAL "bundle")
    set(deps RUNTIME_DEPENDENCY_SET membench_runtime_deps)
  endif()
  install(TARGETS ${membench_bin_targets} ${deps}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${component} ${ARGN})
  install(FILES ${PROJECT_SOURCE_DIR}/python/membench/schema.json DESTINATION ${MEMBENCH_INSTALL_DATADIR}
          COMPONENT ${component} ${ARGN})
  # The node check: its command beside membench, and the references of the models measured:
  # the check's (membench-check finds it at ../share/membench/reference/ from its own folder)
  # and the quick tier's, which judges a fleet too small to judge itself (membench-report
  # fleet finds it there from its own folder).
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/run/membench-check DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT ${component} ${ARGN})
  install(FILES ${PROJECT_SOURCE_DIR}/reference/node_check.json ${PROJECT_SOURCE_DIR}/reference/fleet.json
          DESTINATION ${MEMBENCH_INSTALL_DATADIR}/reference COMPONENT ${component} ${ARGN})
  # The Python package as it is in the source tree: share/membench/python goes on PYTHONPATH,
  # or `pip install share/membench/python` installs it.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/ DESTINATION ${MEMBENCH_INSTALL_DATADIR}/python
          COMPONENT ${component} ${ARGN} FILES_MATCHING PATTERN "*.py" PATTERN "*.json" PATTERN "pyproject.toml"
          PATTERN "__pycache__" EXCLUDE PATTERN "build" EXCLUDE PATTERN "*.egg-info" EXCLUDE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${MEMBENCH_INSTALL_DATADIR}/docs
          COMPONENT ${component} ${ARGN} FILES_MATCHING PATTERN "*.md")
  # What users copy and adapt; integrations/ci is membench's own CI of them.
  install(FILES ${PROJECT_SOURCE_DIR}/integrations/README.md DESTINATION ${MEMBENCH_INSTALL_DATADIR}/integrations
          COMPONENT ${component} ${ARGN})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/integrations/slurm ${PROJECT_SOURCE_DIR}/integrations/reframe
                    ${PROJECT_SOURCE_DIR}/integrations/kubernetes
          DESTINATION ${MEMBENCH_INSTALL_DATADIR}/integrations USE_SOURCE_PERMISSIONS
          COMPONENT ${component} ${ARGN} PATTERN "__pycache__" EXCLUDE)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
          DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT ${component} ${ARGN})
endfunction()
membench_install_tree(runtime)
membench_install_tree(bundle EXCLUDE_FROM_ALL)

install(TARGETS ${membench_check_targets} RUNTIME_DEPENDENCY_SET membench_runtime_deps
        RUNTIME DESTINATION ${MEMBENCH_INSTALL_CHECKDIR} COMPONENT bundle EXCLUDE_FROM_ALL)
if(TARGET membench_gpu_tests)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tests/check_sass.sh DESTINATION ${MEMBENCH_INSTALL_CHECKDIR}
          COMPONENT bundle EXCLUDE_FROM_ALL)
endif()
# The C/C++ runtime and the driver come from the target system (membench_system_libraries),
# and so do the CUDA
# toolkit's own libraries: cuBLAS and CUPTI are not link dependencies but loaded at run
# time (libcublas.so.<major>, libcupti.so.<major>; CUPTI loads libnvperf_host from its own
# folder), found through RPATH (this toolkit's folder) or LD_LIBRARY_PATH, so they must
# match the machine's CUDA, and a missing one is named. Everything else travels.
include(membench_system_libraries)
install(RUNTIME_DEPENDENCY_SET membench_runtime_deps DESTINATION ${MEMBENCH_INSTALL_LIBDIR}
        COMPONENT bundle EXCLUDE_FROM_ALL
        PRE_EXCLUDE_REGEXES ${MEMBENCH_SYSTEM_LIBRARIES}
        POST_EXCLUDE_REGEXES "^/lib(64)?/ld-linux")

set(MEMBENCH_BUNDLE_DIR "${PROJECT_BINARY_DIR}/bundle")
add_custom_target(bundle
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${MEMBENCH_BUNDLE_DIR}
  COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${MEMBENCH_BUNDLE_DIR} --component bundle
  DEPENDS ${membench_bin_targets} ${membench_check_targets}
  COMMENT "membench: relocatable bundle in ${MEMBENCH_BUNDLE_DIR}")

# install.layout: both components into a folder of the build tree, from what the build
# made (nothing is built again), then tests/check_install.cmake checks them. It needs every
# build, as CI makes them (cmake --workflow --preset ci); it needs no GPU.
if(MEMBENCH_BUILD_TESTS)
  set(bins "")
  foreach(target IN LISTS membench_bin_targets)
    list(APPEND bins "$<TARGET_FILE_NAME:${target}>")
  endforeach()
  set(checks check_sass.sh)
  foreach(target IN LISTS membench_check_targets)
    list(APPEND checks "$<TARGET_FILE_NAME:${target}>")
  endforeach()
  add_test(NAME install.layout
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DWORK=${PROJECT_BINARY_DIR}/install_check -DREADELF=${CMAKE_READELF}
            "-DBINS=${bins}" "-DCHECKS=${checks}"
            -DBINDIR=${CMAKE_INSTALL_BINDIR} -DLIBDIR=${MEMBENCH_INSTALL_LIBDIR}
            -DCHECKDIR=${MEMBENCH_INSTALL_CHECKDIR} -DDATADIR=${MEMBENCH_INSTALL_DATADIR}
            -DDOCDIR=${CMAKE_INSTALL_DOCDIR}
            "-DBUILD_VERSION=$<TARGET_FILE:membench>;--version"
            "-DBUILD_REPORT_VERSION=$<TARGET_FILE:membench-report>;--version"
            -P ${PROJECT_SOURCE_DIR}/tests/check_install.cmake)
  set_tests_properties(install.layout PROPERTIES LABELS install ENVIRONMENT CUDA_VISIBLE_DEVICES=-1)
endif()
