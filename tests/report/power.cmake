# cmake -DPYTHON=exe -DREPORT=exe -DTOOLS=dir -DBASE=a.json -DNEW=b.json -DOUT=dir -DEXPECT="re;re" -P power.cmake
# tools/gate/inject_slowdown.py makes NEW 3, 5 and 10 % slower; tools/gate/gate_power.py measures the
# false alarms of BASE against NEW and what compare finds in the injected copies. Each
# regular expression of EXPECT must match its report.
file(MAKE_DIRECTORY "${OUT}")
set(injected)
foreach(pct 3 5 10)
  execute_process(COMMAND "${PYTHON}" "${TOOLS}/inject_slowdown.py" "${NEW}" "${OUT}/injected_${pct}.json" --slowdown ${pct}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "inject_slowdown.py --slowdown ${pct}: exit ${rc}\n${err}")
  endif()
  list(APPEND injected --injected "${BASE}" "${OUT}/injected_${pct}.json")
endforeach()
execute_process(COMMAND "${PYTHON}" "${TOOLS}/gate_power.py" --report "${REPORT}" --aa "${BASE}" "${NEW}" ${injected}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
check_report(gate_power.py "${rc}" "${out}" "${err}" ${EXPECT})
