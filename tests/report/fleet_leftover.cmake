# cmake -DREPORT=membench-report -DDATA=tests/data/report -DWORK=dir -P fleet_leftover.cmake
# A folder of fleet runs with a truncated file and a copy of one run in it: the other files
# are judged, the truncated one is said and makes the fleet undecided at best, the copy is
# counted once; the same truncated file named on the command line stops the command (exit 2).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/runs/sub)
file(GLOB runs ${DATA}/fleet/gpu*.json)
file(COPY ${runs} DESTINATION ${WORK}/runs)
file(COPY ${DATA}/truncated.json DESTINATION ${WORK}/runs)
file(COPY ${DATA}/fleet/gpuA_1.json DESTINATION ${WORK}/runs/sub)
execute_process(COMMAND ${REPORT} fleet ${WORK}/runs RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# The committed fleet has one slow GPU (exit 1); without it, the truncated file alone is exit 3.
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "fleet over a folder with a truncated file: exit ${rc}, expected 1\n${out}${err}")
endif()
foreach(said IN ITEMS "not counted: [^\n]*truncated.json: not valid JSON" "not counted: [^\n]*sub/gpuA_1.json: the same run")
  if(NOT out MATCHES "${said}")
    message(FATAL_ERROR "fleet does not say '${said}':\n${out}")
  endif()
endforeach()
file(GLOB healthy ${WORK}/runs/gpu[ABC]_*.json)
execute_process(COMMAND ${REPORT} fleet ${healthy} ${WORK}/runs/sub RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "counted once")
  message(FATAL_ERROR "three healthy GPUs and a copy of one run: exit ${rc}, expected 0, the copy said\n${out}${err}")
endif()
# The report and its baseline as one set: a report that cannot be written leaves the old
# baseline whole; both to one file is refused.
file(WRITE ${WORK}/baseline.json "the old baseline\n")
execute_process(COMMAND ${REPORT} fleet ${healthy} --baseline-out ${WORK}/baseline.json -o ${WORK}/no/such/dir/r.md
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ ${WORK}/baseline.json kept)
if(NOT rc EQUAL 2 OR NOT kept STREQUAL "the old baseline\n")
  message(FATAL_ERROR "a report that cannot be written: exit ${rc} (want 2), the baseline now:\n${kept}\n${err}")
endif()
execute_process(COMMAND ${REPORT} fleet ${healthy} --baseline-out ${WORK}/both.json -o ${WORK}/./both.json
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "are one file")
  message(FATAL_ERROR "both outputs to one file: exit ${rc} (want 2)\n${err}")
endif()
# An entry of the folder that is no regular file (a dangling link, a FIFO) is said, not skipped.
file(MAKE_DIRECTORY ${WORK}/odd)
file(COPY ${healthy} DESTINATION ${WORK}/odd)
file(CREATE_LINK ${WORK}/nowhere.json ${WORK}/odd/dangling.json SYMBOLIC)
execute_process(COMMAND ${REPORT} fleet ${WORK}/odd RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3 OR NOT out MATCHES "not counted: [^\n]*dangling.json")
  message(FATAL_ERROR "a dangling link in the folder: exit ${rc} (want 3), said?\n${out}${err}")
endif()
execute_process(COMMAND ${REPORT} fleet ${WORK}/runs/truncated.json ${runs} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "truncated.json: not valid JSON")
  message(FATAL_ERROR "a truncated file named on the command line: exit ${rc}, expected 2\n${err}")
endif()
