# Which GPUs the build compiles SASS for. Real SASS only: a PTX target would be
# JIT-compiled by the driver, which drops the -dlcm flag the ca and cg builds exist for.
#  - CMAKE_CUDA_ARCHITECTURES=native: the GPUs nvidia-smi lists here (e.g. 90-real on an H100).
#  - not set: the current generations this nvcc can compile for (sm_100 and sm_120 need 12.8).
#  - anything else: used as given, but every entry must be NN-real.
set(membench_all_architectures 80 86 89 90 100 120)

function(membench_resolve_architectures out_var requested)
  if(requested STREQUAL "native")
    find_program(MEMBENCH_NVIDIA_SMI nvidia-smi)
    if(MEMBENCH_NVIDIA_SMI)
      execute_process(COMMAND ${MEMBENCH_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                      OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
    if(NOT MEMBENCH_NVIDIA_SMI OR NOT rc EQUAL 0 OR caps STREQUAL "")
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=native, but nvidia-smi lists no GPU here. Name the GPU's "
                          "architecture instead, e.g. -DCMAKE_CUDA_ARCHITECTURES=90-real for an H100 or H200.")
    endif()
    string(REPLACE "\n" ";" caps "${caps}")
    set(archs "")
    foreach(cap IN LISTS caps)
      string(STRIP "${cap}" cap)
      string(REPLACE "." "" cap "${cap}")
      list(APPEND archs "${cap}-real")
    endforeach()
    list(REMOVE_DUPLICATES archs)
  elseif(requested STREQUAL "")
    set(archs "")
    foreach(arch IN LISTS membench_all_architectures)
      if(arch GREATER_EQUAL 100 AND CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.8)
        continue()  # Blackwell needs nvcc 12.8
      endif()
      list(APPEND archs "${arch}-real")
    endforeach()
  else()
    set(archs "${requested}")
  endif()
  foreach(arch IN LISTS archs)
    if(NOT arch MATCHES "^[0-9]+[af]?-real$")
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES entry '${arch}' is not NN-real: "
                          "PTX targets are JIT-compiled without the -dlcm flag.")
    endif()
  endforeach()
  set(${out_var} "${archs}" PARENT_SCOPE)
endfunction()
