# cmake -DCMD="a;b" -DOUT=file -P write_output.cmake: writes the stdout of CMD into the file
# (the golden_lists target; tests/compare_output.cmake checks the same output against it).
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit code ${rc}\n${err}")
endif()
file(WRITE "${OUT}" "${out}")
