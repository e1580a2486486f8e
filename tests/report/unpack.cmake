# cmake -DROOT=source_dir -DDEST=dir "-DARCHIVES=path;..." "-DFOLDERS=path;..." -P unpack.cmake
# Committed results stored packed (reports/README.md, "Packed files") for the tests that read
# them: each archive (a path under ROOT) is extracted into the same folder under DEST, so a file
# lies at DEST/<path> where it lay at ROOT/<path> before it was packed; FOLDERS (paths under
# ROOT the tests run in) are made under DEST too, so relative paths from them lead there alike.
file(REMOVE_RECURSE "${DEST}")
foreach(folder IN LISTS FOLDERS)
  file(MAKE_DIRECTORY "${DEST}/${folder}")
endforeach()
foreach(archive IN LISTS ARCHIVES)
  get_filename_component(folder "${archive}" DIRECTORY)
  file(MAKE_DIRECTORY "${DEST}/${folder}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xJf "${ROOT}/${archive}" WORKING_DIRECTORY "${DEST}/${folder}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not extract ${ROOT}/${archive}")
  endif()
endforeach()
