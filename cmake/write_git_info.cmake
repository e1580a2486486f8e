# Script mode: writes OUTPUT with the commit of SOURCE_DIR and git's description of it
# against the tag vVERSION; rewrites only when they changed.
find_package(Git QUIET)
set(commit "unknown")
set(dirty "")
set(describe "")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE out RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(commit "${out}")
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE st ERROR_QUIET)
    if(NOT st STREQUAL "")
      set(dirty "-dirty")
    endif()
    # Only this version's own tag counts: commits past an older version's tag say nothing of this one.
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --tags --long --always --abbrev=12 --dirty --match v${VERSION}
                    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE describe RESULT_VARIABLE rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT rc EQUAL 0)
      set(describe "")
    endif()
  endif()
endif()
string(CONCAT content "#include \"common/version.hpp\"\n\nnamespace membench {\nconst char* git_commit() noexcept { return \"${commit}${dirty}\"; }\n"
            "const char* git_describe() noexcept { return \"${describe}\"; }\n}  // namespace membench\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
