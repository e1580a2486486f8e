# The git commit and description are re-read on every build (not only at configure), so
# results and --version never carry a stale hash. membench_common compiles the source.
set(MEMBENCH_GIT_INFO_CPP "${CMAKE_BINARY_DIR}/generated/git_info.cpp")
add_custom_target(membench_git_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DVERSION=${PROJECT_VERSION} -DOUTPUT=${MEMBENCH_GIT_INFO_CPP}
          -P ${CMAKE_SOURCE_DIR}/cmake/write_git_info.cmake
  BYPRODUCTS ${MEMBENCH_GIT_INFO_CPP}
  COMMENT "membench: reading git commit")
