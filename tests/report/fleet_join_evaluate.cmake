# cmake -DPYTHON=exe -DREPORT=exe -DTOOLS=dir -DDATA=dir -DSET=archives -DWORK=dir -P fleet_join_evaluate.cmake
# tools/gate/fleet_join_evaluate.py: on the fixture fleet's three healthy GPUs (a baseline of
# the other two is no robust centre: every newcomer unsure, none called), with D too (an
# outlier on the whole set: in no baseline and never a newcomer), on a committed set of eight
# H200s (no healthy newcomer called not fit to join, nor any of its 64 runs judged alone; each
# slowed 10 % on all its rows called),
# and on a --new-runs it must refuse with exit 2.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/healthy" "${WORK}/with_d")
file(GLOB healthy "${DATA}/fleet/gpu[ABC]_*.json")
file(GLOB abcd "${DATA}/fleet/gpu[ABCD]_*.json")
file(COPY ${healthy} DESTINATION "${WORK}/healthy")
file(COPY ${abcd} DESTINATION "${WORK}/with_d")
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
# join("ARG[;ARG...]" REGEX...): the script's temporary folders go to WORK/tmp, left empty.
function(join args)
  run_script(fleet_join_evaluate.py --report "${REPORT}" ${args})
  check_report("fleet_join_evaluate.py ${args}" "${rc}" "${out}" "${err}" ${ARGN})
endfunction()
join("${WORK}/healthy" "\\| 1 \\| GPU-aaaaaaaa \\| 1 \\| unsure \\|" "\\| all \\| GPU-cccccccc \\| 2 \\| unsure \\|"
     "New runs 1: healthy GPUs called not fit to join: 0 of 3\\."
     "New runs all: healthy GPUs called not fit to join: 0 of 3\\."
     "Each run alone [^\n]*: 0 of 6 called not fit to join, 6 unsure \\(6 a centre of 2 GPU\\(s\\) is not robust\\)\\.")
join("${WORK}/with_d"
     "Called outlier on the whole healthy set, so in no baseline and never a newcomer: GPU-dddddddd\\."
     "New runs all: healthy GPUs called not fit to join: 0 of 3\\.")
join("--slowdowns;10;--new-runs;all;${SET}" "# fleet --baseline on [^\n]*: 8 GPU\\(s\\), 64 file\\(s\\); new runs all;"
     "New runs all: healthy GPUs called not fit to join: 0 of 8\\."
     "Each run alone [^\n]*: 0 of 64 called not fit to join, 0 unsure\\."
     "\\| all \\| 10 % \\| all rows \\| 8 \\| 8/8 \\(100 %\\) \\| 0 \\|")
run_script(fleet_join_evaluate.py --report "${REPORT}" --new-runs 0 "${WORK}/healthy")
if(NOT rc EQUAL 2 OR NOT err MATCHES "--new-runs 0: each a whole number 1 or more, or all")
  message(FATAL_ERROR "fleet_join_evaluate.py --new-runs 0: exit ${rc} (want 2):\n${err}")
endif()
