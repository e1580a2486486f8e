# include()d by the tests that run a measuring script (gate_power.py) and check its
# Markdown report.
# check_report(NAME RC OUT ERR REGEX...): fails unless RC is 0 and OUT matches every REGEX;
# prints OUT either way.
function(check_report name rc out err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit ${rc}\n${err}")
  endif()
  message(STATUS "\n${out}")
  foreach(re IN LISTS ARGN)
    if(NOT out MATCHES "${re}")
      message(FATAL_ERROR "${name}'s report does not match '${re}':\n${out}")
    endif()
  endforeach()
endfunction()

# run_script(SCRIPT ARG...): PYTHON runs TOOLS/SCRIPT with its temporary folders in WORK/tmp,
# which it must leave empty; sets rc, out and err in the caller's scope.
function(run_script script)
  file(MAKE_DIRECTORY "${WORK}/tmp")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "TMPDIR=${WORK}/tmp" "${PYTHON}" "${TOOLS}/${script}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(GLOB left "${WORK}/tmp/*")
  if(left)
    message(FATAL_ERROR "${script} ${ARGN} left ${left} behind")
  endif()
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
