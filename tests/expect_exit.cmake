# cmake -DCMD="a;b" -DCODES="3;4" [-DREGEX=...] -P expect_exit.cmake
# Passes when CMD exits with one of CODES and (optionally) its stderr+stdout match REGEX.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
list(FIND CODES "${rc}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "exit code ${rc}, expected one of ${CODES}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${out}${err}")
endif()
