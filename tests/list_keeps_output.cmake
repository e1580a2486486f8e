# cmake -DEXE=membench -DWORK=dir -P list_keeps_output.cmake
# A listing with --benchmark_out (or BENCHMARK_OUT) names an existing results file: the file is left as it was
# (Google Benchmark alone would open it for writing, and empty it, before it lists).
file(MAKE_DIRECTORY ${WORK})
set(results ${WORK}/results.json)
set(before "{\"context\": {}, \"benchmarks\": [{\"name\": \"kept/manual_time\", \"real_time\": 1}]}\n")
file(WRITE ${results} "${before}")
foreach(format IN ITEMS json csv console)
  execute_process(COMMAND ${EXE} --benchmark_list_tests --benchmark_filter=^global/ --benchmark_out=${results}
                          --benchmark_out_format=${format}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "global/")
    message(FATAL_ERROR "listing (${format}) exited ${rc}:\n${out}${err}")
  endif()
  file(READ ${results} after)
  if(NOT after STREQUAL before)
    message(FATAL_ERROR "listing with --benchmark_out_format=${format} changed the results file:\n${after}")
  endif()
endforeach()
# Google Benchmark's own variables, the flags' defaults: the same.
execute_process(COMMAND ${CMAKE_COMMAND} -E env BENCHMARK_OUT=${results} BENCHMARK_OUT_FORMAT=csv
                        ${EXE} --benchmark_list_tests --benchmark_filter=^global/
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${results} after)
if(NOT rc EQUAL 0 OR NOT after STREQUAL before)
  message(FATAL_ERROR "listing with BENCHMARK_OUT exited ${rc} or changed the results file:\n${after}${err}")
endif()
file(GLOB left ${WORK}/.membench-*)
if(left)
  message(FATAL_ERROR "a listing left temporary files: ${left}")
endif()
