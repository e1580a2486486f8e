# The git commit is re-read on every build (not only at configure), so results never carry a stale hash.
set(MEMBENCH_GIT_INFO_CPP "${CMAKE_BINARY_DIR}/generated/git_info.cpp")
add_custom_target(membench_git_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${MEMBENCH_GIT_INFO_CPP}
          -P ${CMAKE_SOURCE_DIR}/cmake/write_git_info.cmake
  BYPRODUCTS ${MEMBENCH_GIT_INFO_CPP}
  COMMENT "membench: reading git commit")
