# cmake -DPYTHON=exe -DREPORT=exe -DTOOLS=dir -DDATA=dir -DPAIR=dir -DWORK=dir -P fleet_evaluate.cmake
# tools/gate/fleet_evaluate.py on the fixture fleet's healthy GPUs (A, B, C: a robust centre,
# every GPU slowed on all its rows found), with D too (an outlier when healthy: never slowed,
# as its hits would be none of the slowdown's doing), on the same GPUs as a folder and a .tar.xz (the
# committed sets are archives: one set, the same report), on the committed pair of H200s (two
# GPUs: no robust centre, nothing called), and on sets it must refuse with exit 2.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/healthy" "${WORK}/a" "${WORK}/bc")
file(GLOB healthy "${DATA}/fleet/gpu[ABC]_*.json")
file(COPY ${healthy} DESTINATION "${WORK}/healthy")
file(GLOB a "${DATA}/fleet/gpuA_*.json")
file(GLOB bc "${DATA}/fleet/gpu[BC]_*.json")
file(COPY ${a} DESTINATION "${WORK}/a")
file(COPY ${bc} DESTINATION "${WORK}/bc")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar cJf bc.tar.xz bc WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
file(REMOVE_RECURSE "${WORK}/bc")
file(WRITE "${WORK}/broken.tar.xz" "not an archive\n")
execute_process(COMMAND "${PYTHON}" -c "import io, tarfile, sys
with tarfile.open(sys.argv[1], 'w:xz') as tar:
    data = open(sys.argv[2], 'rb').read()
    member = tarfile.TarInfo('../escape.json')
    member.size = len(data)
    tar.addfile(member, io.BytesIO(data))" "${WORK}/escape.tar.xz" "${DATA}/fleet/gpuA_1.json" RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "fleet_evaluate.cmake: could not make the test archives (${rc}, ${rc2})")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
# The script's temporary folders (extracted archives, slowed copies) go to WORK/tmp: each run
# must leave it empty.
function(run_evaluate set)
  run_script(fleet_evaluate.py --report "${REPORT}" ${set})
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
# evaluate("MEMBER[;MEMBER...]" REGEX...): the members are one set.
function(evaluate set)
  run_evaluate("${set}")
  check_report("fleet_evaluate.py on ${set}" "${rc}" "${out}" "${err}" ${ARGN})
endfunction()
# refused("MEMBER[;MEMBER...]" REGEX): exit 2, the reason on standard error.
function(refused set re)
  run_evaluate("${set}")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${re}")
    message(FATAL_ERROR "fleet_evaluate.py on ${set}: exit ${rc} (want 2), stderr not matching '${re}':\n${err}")
  endif()
  message(STATUS "refused as it should: ${err}")
endfunction()
set(found "\\| all GPUs \\| 3 \\| 0 \\| 0 \\|" "GPU verdicts that were outlier: 0 of 9"
          "\\| 5 % \\| all rows \\| 3 \\| 3/3 \\(100 %\\) \\|" "\\| 10 % \\| all rows \\| 3 \\| 3/3 \\(100 %\\) \\|")
evaluate("${WORK}/healthy" ${found})
evaluate("${WORK}/a;${WORK}/bc.tar.xz" "# fleet on [^\n]*/a [^\n]*/bc.tar.xz: 3 GPU\\(s\\), 6 file\\(s\\)" ${found})
# D is an outlier on the healthy set: its trials are not detections, and are left out.
file(MAKE_DIRECTORY "${WORK}/with_d")
file(GLOB abcd "${DATA}/fleet/gpu[ABCD]_*.json")
file(COPY ${abcd} DESTINATION "${WORK}/with_d")
evaluate("${WORK}/with_d" "\\| all GPUs \\| 4 \\| 1 \\|"
         "Called outlier on the healthy set, so never slowed \\(a hit there is no detection\\): GPU-dddddddd\\."
         "\\| 10 % \\| all rows \\| 3 \\| 3/3 \\(100 %\\) \\|")
evaluate("${PAIR}" "\\| all GPUs \\| 2 \\| 0 \\| 2 \\|" "\\| 10 % \\| all rows \\| 2 \\| 0/2 \\(0 %\\) \\| 2 \\|")
evaluate("--runs;1;${WORK}/healthy" "# fleet on [^\n]*/healthy: 3 GPU\\(s\\), 3 file\\(s\\), each GPU's first 1;")
refused("--runs;0;${WORK}/healthy" "--runs 0: at least 1")
refused("${WORK}/broken.tar.xz" "broken.tar.xz: not a readable .tar.xz")
refused("${WORK}/escape.tar.xz" "escape.tar.xz: ../escape.json: not a plain file or folder inside the archive")
refused("${WORK}/healthy;${WORK}/bc.tar.xz" "bc.tar.xz:bc/gpuB_1.json and [^\n]*/healthy/gpuB_1.json: one run of GPU-bbbbbbbb-[-0-9a-f]* \\(date [^)]*\\) given twice")
refused("${DATA}/fleet/gpuA_1.json" "gpuA_1.json: neither a folder nor a .tar.xz file")
refused("${WORK}/missing.tar.xz" "missing.tar.xz: neither a folder nor a .tar.xz file")
