# cmake -DREPORT=exe -DFLEET=dir -DWORK=dir -P fleet_newcomers.cmake
# The committed baselines judge the committed newcomers (reports/fleet/README.md, "Fit to
# join"): against board part -001's baseline GPU-8e0b628c is fit to join (exit 0) and
# GPU-f8a8bfb5 an outlier (exit 1) on its latency rows; against -000's, GPU-8e0b628c is an
# outlier set apart by its board part.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(gpu IN ITEMS 8e0b628c f8a8bfb5)
  file(MAKE_DIRECTORY "${WORK}/${gpu}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xJf "${FLEET}/h200/newcomers/2026-11-28_dd39d85_1gpu_${gpu}.tar.xz"
                  WORKING_DIRECTORY "${WORK}/${gpu}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not extract the newcomer ${gpu}")
  endif()
endforeach()
# judged(GPU BOARD WANT_RC REGEX...): fleet --baseline exits WANT_RC and its output matches.
function(judged gpu board want)
  execute_process(COMMAND "${REPORT}" fleet --baseline "${FLEET}/h200/baseline_board${board}.json" "${WORK}/${gpu}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "${gpu} against -${board}: exit ${rc} (want ${want})\n${out}\n${err}")
  endif()
  foreach(re IN LISTS ARGN)
    if(NOT "${out}${err}" MATCHES "${re}")
      message(FATAL_ERROR "${gpu} against -${board}: no match for '${re}':\n${out}\n${err}")
    endif()
  endforeach()
endfunction()
judged(8e0b628c 001 0 "1 GPU\\(s\\): 0 outlier")
judged(f8a8bfb5 001 1 "cache/constant_latency/bytes:64K +[0-9.]+ +[0-9.]+ +\\+8\\.[0-9]+ %")
judged(8e0b628c 000 1 "outliers apart: [^\n]*gpu_board_part \\(692-2G520-0282-001 against 692-2G520-0282-000\\)"
       "global/read_stride/type:f32/stride:64/l2:cold/bytes:1G \\+10\\.[0-9] %")
