# cmake -DCMD="exe@@arg@@arg" -DWORKDIR=dir -DCODE=n [-DEXPECTED=file] [-DSTDOUT_REGEX=re] [-DSTDERR_REGEX=re]
#       [-DSTDOUT_FILE=file] -P run_check.cmake
# Runs CMD in WORKDIR (so paths in the output are relative) and checks the exit code, that
# stdout equals EXPECTED byte for byte and that stdout and stderr match the expressions;
# with STDOUT_FILE, stdout goes there instead.
# With the environment variable MEMBENCH_UPDATE_GOLDEN set, rewrites EXPECTED instead.
string(REPLACE "@@" ";" CMD "${CMD}")
set(stdout_to OUTPUT_VARIABLE out)
if(DEFINED STDOUT_FILE)  # /dev/full: a standard output that cannot be written
  set(stdout_to OUTPUT_FILE "${STDOUT_FILE}")
endif()
execute_process(COMMAND ${CMD} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc ${stdout_to} ERROR_VARIABLE err)
if(NOT rc STREQUAL "${CODE}")
  message(FATAL_ERROR "exit code ${rc}, expected ${CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()
foreach(stream IN ITEMS STDOUT STDERR)
  set(text "${out}")
  if(stream STREQUAL "STDERR")
    set(text "${err}")
  endif()
  if(DEFINED ${stream}_REGEX AND NOT text MATCHES "${${stream}_REGEX}")
    message(FATAL_ERROR "${stream} does not match '${${stream}_REGEX}':\n${text}")
  endif()
endforeach()
if(DEFINED EXPECTED)
  if(DEFINED ENV{MEMBENCH_UPDATE_GOLDEN})
    file(WRITE "${EXPECTED}" "${out}")
    return()
  endif()
  file(READ "${EXPECTED}" want)
  if(NOT out STREQUAL want)
    # Into the build tree (the test's working directory), never next to the golden file.
    get_filename_component(golden_name "${EXPECTED}" NAME)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/${golden_name}.actual" "${out}")
    message(FATAL_ERROR "output differs from ${EXPECTED} (written to ${CMAKE_CURRENT_BINARY_DIR}/${golden_name}.actual)")
  endif()
endif()
