# cmake -DCMD="exe@@arg@@arg" -DWORKDIR=dir -DCODE=n [-DEXPECTED=file] [-DREGEX=re] -P report_golden.cmake
# Runs CMD in WORKDIR (so paths in the output are relative), checks the exit code, that
# stdout equals EXPECTED byte for byte, and that stderr matches REGEX.
# With the environment variable MEMBENCH_UPDATE_GOLDEN set, rewrites EXPECTED instead.
string(REPLACE "@@" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${CODE}")
  message(FATAL_ERROR "exit code ${rc}, expected ${CODE}\nstderr:\n${err}")
endif()
if(DEFINED REGEX AND NOT err MATCHES "${REGEX}")
  message(FATAL_ERROR "stderr does not match '${REGEX}':\n${err}")
endif()
if(DEFINED EXPECTED)
  if(DEFINED ENV{MEMBENCH_UPDATE_GOLDEN})
    file(WRITE "${EXPECTED}" "${out}")
    return()
  endif()
  file(READ "${EXPECTED}" want)
  if(NOT out STREQUAL want)
    file(WRITE "${EXPECTED}.actual" "${out}")
    message(FATAL_ERROR "output differs from ${EXPECTED} (written to ${EXPECTED}.actual)")
  endif()
endif()
