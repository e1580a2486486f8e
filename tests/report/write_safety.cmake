# cmake -DREPORT=exe -DDATA=dir -DWORK=dir -P write_safety.cmake
# An output is written whole or not at all, and never over an input:
#  - a write that fails part-way (a file size limit stands in for a full disk) exits 2 and
#    leaves the old report as it was, with no temporary file behind;
#  - -o naming an input by any name (itself, ./x, a symlink, its absolute path) exits 2
#    naming it and leaves it as it was; so does a view whose output is one of its inputs.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Runs the command in WORK; fails unless it exits with `code` and its stderr matches `regex`.
function(expect code regex)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}" OR NOT err MATCHES "${regex}")
    message(FATAL_ERROR "${ARGN}\nexit code ${rc}, expected ${code}; stderr (expected to match '${regex}'):\n${err}")
  endif()
endfunction()

function(expect_unchanged file sha256)
  file(SHA256 "${WORK}/${file}" now)
  if(NOT now STREQUAL sha256)
    message(FATAL_ERROR "${file} was changed")
  endif()
  file(GLOB left "${WORK}/.membench-*")
  if(left)
    message(FATAL_ERROR "temporary files left behind: ${left}")
  endif()
endfunction()

# A file size limit of one block: writes beyond it fail (EFBIG; the signal ignored).
set(limited sh -c "trap '' XFSZ && ulimit -f 1 && exec \"$@\"" sh "${REPORT}")
file(WRITE "${WORK}/report.md" "the old report\n")
file(SHA256 "${WORK}/report.md" old)
# A small report (once: exit 0 and an empty file) and one larger than a stream's buffer
# (once: exit 2 and the old report cut).
expect(2 "report.md" ${limited} table "${DATA}/h200_default.json" --format md --filter read_stride -o report.md)
expect_unchanged(report.md ${old})
expect(2 "report.md" ${limited} table "${DATA}/h200_default.json" "${DATA}/h200_cg.json" --format html -o report.md)
expect_unchanged(report.md ${old})

# -o over an input, by any of its names.
file(COPY_FILE "${DATA}/h200_default.json" "${WORK}/x.json")
file(CREATE_LINK x.json "${WORK}/link.json" SYMBOLIC)
file(SHA256 "${WORK}/x.json" input)
foreach(target IN ITEMS x.json ./x.json link.json "${WORK}/x.json")
  expect(2 "refused: it is the input x.json" "${REPORT}" history x.json --export bmf -o "${target}")
  expect_unchanged(x.json ${input})
endforeach()
expect(2 "refused: it is the input x.json" "${REPORT}" compare x.json "${DATA}/h200_cg.json" --format md -o ./x.json)
expect_unchanged(x.json ${input})
expect(0 "" "${REPORT}" history x.json --export bmf -o out.json)
if(NOT EXISTS "${WORK}/out.json")
  message(FATAL_ERROR "out.json was not written")
endif()

# A view whose output is its input.
file(WRITE "${WORK}/views.json"
  [=[{"views": [{"name": "over", "output": "x.json", "inputs": {"in": ["x.json"]}, "steps": [["table", "$in"]]}]}]=])
expect(2 "refused: it is the input ./x.json" "${REPORT}" views .)
expect_unchanged(x.json ${input})
