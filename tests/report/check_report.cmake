# include()d by the tests that run a measuring script (gate_power.py, fleet_evaluate.py) and
# check its Markdown report.
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
