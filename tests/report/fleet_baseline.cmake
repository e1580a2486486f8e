# cmake -DREPORT=exe -DDATA=dir -DWORK=dir -P fleet_baseline.cmake
# fleet --baseline-out then --baseline (in DATA, the fixture fleet): the healthy GPUs A, B
# and C against the baseline made from them exit 0, GPU D (slowed) exits 1, a GPU of another
# model exits 2; the ReFrame form is a reference per model and row (its band at least the
# threshold, as wide as the healthy GPUs spread: cudaMalloc's reaches several times its time).
file(MAKE_DIRECTORY "${WORK}")
set(healthy fleet/gpuA_1.json fleet/gpuA_2.json fleet/gpuB_1.json fleet/gpuB_2.json fleet/gpuC_1.json fleet/gpuC_2.json)
function(expect code)
  execute_process(COMMAND "${REPORT}" fleet ${ARGN} WORKING_DIRECTORY "${DATA}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    message(FATAL_ERROR "fleet ${ARGN}: exit ${rc}, expected ${code}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
expect(0 ${healthy} --baseline-out "${WORK}/baseline.json")
expect(0 --baseline "${WORK}/baseline.json" ${healthy})
if(NOT out MATCHES "reference from the baseline .*baseline.json \\(3 GPUs\\)")
  message(FATAL_ERROR "the baseline is not named:\n${out}")
endif()
expect(1 --baseline "${WORK}/baseline.json" fleet/gpuD_1.json fleet/gpuD_2.json)
expect(2 --baseline "${WORK}/baseline.json" fleet_other/h100.json)
if(NOT err MATCHES "no baseline for NVIDIA H100 80GB HBM3")
  message(FATAL_ERROR "another model's GPU: ${err}")
endif()
expect(2 ${healthy} --baseline "${WORK}/baseline.json" --baseline-out "${WORK}/again.json")
expect(0 ${healthy} --baseline-out "${WORK}/reframe.json" --baseline-format reframe)
file(READ "${WORK}/reframe.json" reframe)
if(NOT reframe MATCHES "^{\n  \"NVIDIA H200/default\": {\n    \"alloc/cost/api:malloc/op:alloc/alloc_bytes:1M\": \\[\n      [0-9.]+,\n      -0\\.[0-9]+,\n      [0-9]+\\.[0-9]+,\n      \"us\"\n    \\]")
  message(FATAL_ERROR "the ReFrame form differs:\n${reframe}")
endif()
