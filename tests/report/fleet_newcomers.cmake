# cmake -DREPORT=exe -DFLEET=dir -DWORK=dir -P fleet_newcomers.cmake
# The committed baselines judge the committed newcomers (reports/fleet/README.md, "Fit to
# join"): against board part -001's baseline both -001 GPUs are within (exit 0), GPU-f8a8bfb5
# noted for its constant-cache chase (+8.6 %, under the 10 % row threshold); a -001 GPU
# against -000's baseline has no reference of its stratum (exit 2).
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
judged(8e0b628c 001 0 "1 GPU\\(s\\) in 1 stratum: GPU work 0 outlier, 0 failing, 0 undecided, 1 within"
       "host work not judged: the baseline's GPUs ran it on another host shape")
judged(f8a8bfb5 001 0 "beyond the healthy spread but under its threshold: row cache/constant_latency/bytes:64K \\+8\\.[0-9] %")
judged(8e0b628c 000 2 "no baseline for NVIDIA H200 .* of stratum gpu_board_part 692-2G520-0282-001")
