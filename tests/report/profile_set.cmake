# cmake -DREPORT=membench-report -DDATA=tests/data/report -DWORK=dir -P profile_set.cmake
# profile --format md -o PAGE writes the page and its charts as one set: where one chart
# cannot be written (here a folder stands in its place, as a full disk would stop it), the
# old page is left as it was, not replaced by one that names charts that are not there.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/page.gpu0.svg)
file(WRITE ${WORK}/page.md "the old page\n")
execute_process(COMMAND ${REPORT} profile ${DATA}/h200_default.json --format md -o ${WORK}/page.md
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ ${WORK}/page.md page)
if(NOT rc EQUAL 2 OR NOT page STREQUAL "the old page\n")
  message(FATAL_ERROR "a chart that cannot be written: exit ${rc} (want 2), page now:\n${page}\n${err}")
endif()
file(REMOVE_RECURSE ${WORK}/page.gpu0.svg)
execute_process(COMMAND ${REPORT} profile ${DATA}/h200_default.json --format md -o ${WORK}/page.md
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ ${WORK}/page.md page)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/page.gpu0.svg OR NOT page MATCHES "page.gpu0.svg")
  message(FATAL_ERROR "the set written: exit ${rc}, charts and page expected\n${err}")
endif()
file(GLOB left ${WORK}/.membench-*)
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
