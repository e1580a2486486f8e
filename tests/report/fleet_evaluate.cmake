# cmake -DPYTHON=exe -DREPORT=exe -DTOOLS=dir -DDATA=dir -DPAIR=dir -DWORK=dir -P fleet_evaluate.cmake
# tools/gate/fleet_evaluate.py on the fixture fleet's healthy GPUs (A, B, C: a robust centre,
# every GPU slowed on all its rows found) and on the committed pair of H200s (two GPUs: no
# robust centre, nothing called).
file(REMOVE_RECURSE "${WORK}/healthy")
file(MAKE_DIRECTORY "${WORK}/healthy")
file(GLOB healthy "${DATA}/fleet/gpu[ABC]_*.json")
file(COPY ${healthy} DESTINATION "${WORK}/healthy")
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
function(evaluate set)
  execute_process(COMMAND "${PYTHON}" "${TOOLS}/fleet_evaluate.py" --report "${REPORT}" "${set}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  check_report("fleet_evaluate.py on ${set}" "${rc}" "${out}" "${err}" ${ARGN})
endfunction()
evaluate("${WORK}/healthy" "\\| all GPUs \\| 3 \\| 0 \\| 0 \\|" "GPU verdicts that were outlier: 0 of 9"
         "\\| 5 % \\| all rows \\| 3 \\| 3/3 \\(100 %\\) \\|" "\\| 10 % \\| all rows \\| 3 \\| 3/3 \\(100 %\\) \\|")
evaluate("${PAIR}" "\\| all GPUs \\| 2 \\| 0 \\| 2 \\|" "\\| 10 % \\| all rows \\| 2 \\| 0/2 \\(0 %\\) \\| 2 \\|")
