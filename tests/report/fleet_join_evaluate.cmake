# cmake -DPYTHON=exe -DREPORT=exe -DTOOLS=dir -DDATA=dir -DSET=archives -DWORK=dir -P fleet_join_evaluate.cmake
# tools/gate/fleet_join_evaluate.py: on the fixture fleet's three healthy GPUs and E, a fourth
# (A's runs under another UUID: a baseline of three others is robust): no healthy newcomer
# called, each slowed 10 % on all its rows found; with D too (an outlier on the whole set: in
# no baseline and never a newcomer); on a committed set of eight H200s (no healthy newcomer
# called, nor any of its 64 runs judged alone; each slowed 10 % on all its rows called); and
# refused with exit 2: three healthy GPUs (a baseline of two is no robust centre), --new-runs 0.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/three" "${WORK}/healthy" "${WORK}/with_d")
file(GLOB three "${DATA}/fleet/gpu[ABC]_*.json")
file(GLOB abcd "${DATA}/fleet/gpu[ABCD]_*.json")
file(COPY ${three} DESTINATION "${WORK}/three")
file(COPY ${three} DESTINATION "${WORK}/healthy")
file(COPY ${abcd} DESTINATION "${WORK}/with_d")
foreach(run IN ITEMS 1 2)
  file(READ "${DATA}/fleet/gpuA_${run}.json" a)
  string(REPLACE "GPU-aaaaaaaa-0000-4000-8000-000000000001" "GPU-eeeeeeee-0000-4000-8000-000000000005" e "${a}")
  file(WRITE "${WORK}/healthy/gpuE_${run}.json" "${e}")
  file(WRITE "${WORK}/with_d/gpuE_${run}.json" "${e}")
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
# join("ARG[;ARG...]" REGEX...): the script's temporary folders go to WORK/tmp, left empty.
function(join args)
  run_script(fleet_join_evaluate.py --report "${REPORT}" ${args})
  check_report("fleet_join_evaluate.py ${args}" "${rc}" "${out}" "${err}" ${ARGN})
endfunction()
join("--slowdowns;10;${WORK}/healthy" "\\| 1 \\| GPU-aaaaaaaa \\| 1 \\| within the fleet \\|"
     "New runs 1: healthy GPUs called not fit to join: 0 of 4\\."
     "New runs all: healthy GPUs called not fit to join: 0 of 4\\."
     "Each run alone [^\n]*: 0 of 8 called not fit to join"
     "\\| all \\| 10 % \\| all rows \\| 4 \\| 4/4 \\(100 %\\) \\| 0 \\|")
join("--slowdowns;10;${WORK}/with_d"
     "Called outlier on the whole healthy set, so in no baseline and never a newcomer: GPU-dddddddd\\."
     "New runs all: healthy GPUs called not fit to join: 0 of 4\\.")
join("--slowdowns;10;--new-runs;all;${SET}" "# fleet --baseline on [^\n]*: 8 GPU\\(s\\), 64 file\\(s\\); new runs all;"
     "New runs all: healthy GPUs called not fit to join: 0 of 8\\."
     "Each run alone [^\n]*: 0 of 64 called not fit to join, 0 unsure\\."
     "\\| all \\| 10 % \\| all rows \\| 8 \\| 8/8 \\(100 %\\) \\| 0 \\|")
# refused("ARG[;ARG...]" REGEX): exit 2, the reason on standard error.
function(refused args re)
  run_script(fleet_join_evaluate.py --report "${REPORT}" ${args})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${re}")
    message(FATAL_ERROR "fleet_join_evaluate.py ${args}: exit ${rc} (want 2), stderr not matching '${re}':\n${err}")
  endif()
endfunction()
refused("--new-runs;0;${WORK}/healthy" "^fleet_join_evaluate: --new-runs 0: each a whole number 1 or more, or all")
refused("${WORK}/three" "3 GPU\\(s\\) pass on the healthy set: a robust baseline of the others needs 4 or more")
