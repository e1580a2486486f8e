# cmake -DEVALUATE=exe -DSET=archives -DWORK=dir -P fleet_evaluate.cmake
# membench-fleet-evaluate on committed sets (each .tar.xz extracted into WORK): the real
# stratum judged as it is calls no GPU, and finds each GPU slowed 5 % on all its rows, 10 % on
# each family and 20 % on each row; fit to join calls no GPU, with all its runs or any one; a
# synthetic fleet of 32 calls no healthy GPU and finds one 5 % slower on all rows.
file(REMOVE_RECURSE "${WORK}")
set(folders "")
foreach(archive IN LISTS SET)
  get_filename_component(name "${archive}" NAME_WE)
  file(MAKE_DIRECTORY "${WORK}/${name}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xJf "${archive}" WORKING_DIRECTORY "${WORK}/${name}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not extract ${archive}")
  endif()
  list(APPEND folders "${WORK}/${name}")
endforeach()
execute_process(COMMAND "${EVALUATE}" ${folders} --sizes 4,32 --trials 8 RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "membench-fleet-evaluate exited ${rc}:\n${err}")
endif()
foreach(re IN ITEMS
    "\\| 8 \\| 0 \\| 0 \\| 8/8 \\(100.0 %\\) \\| 192/192 \\(100.0 %\\) \\| 680/680 \\(100.0 %\\) \\|"
    "\\| 8 \\| 0/8 \\(0.0 %\\) \\| 0/64 \\(0.0 %\\) \\| 8/8 \\(100.0 %\\) \\| 192/192 \\(100.0 %\\) \\|"
    "\\| 32 \\| 8 \\| 256 \\| 0 \\| 0 \\| 8/8 \\(100.0 %\\) \\|"
    "\\| all GPU rows \\| 5 % \\| 100.0 % \\(8/8; 0 healthy called; 0 exit 0\\) \\| 100.0 % \\(8/8; 0 healthy called; 0 exit 0\\) \\|")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "membench-fleet-evaluate: no match for '${re}':\n${out}")
  endif()
endforeach()
# A folder without JSON is refused.
file(MAKE_DIRECTORY "${WORK}/empty")
execute_process(COMMAND "${EVALUATE}" "${WORK}/empty" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "no .json file")
  message(FATAL_ERROR "an empty folder: exit ${rc}: ${err}")
endif()
file(REMOVE_RECURSE "${WORK}")
