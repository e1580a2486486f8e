# cmake -DFUZZER=exe -DSEEDS=dir -DCORPUS=dir -P run_fuzz.cmake: 20 s of libFuzzer over the
# report's JSON reader and its other readers, from a fresh copy of the fixture seeds; any crash fails the test.
# Seeded (-seed=1) so that CI runs the same inputs every time; run the fuzzer by hand unseeded to search further.
file(REMOVE_RECURSE "${CORPUS}")
file(MAKE_DIRECTORY "${CORPUS}")
# Results files, and the other documents the tool reads: a views file, a fleet baseline.
file(GLOB seeds "${SEEDS}/*.json" "${SEEDS}/views/*.json" "${SEEDS}/fuzz_seeds/*.json")
file(COPY ${seeds} DESTINATION "${CORPUS}")
get_filename_component(artifacts "${CORPUS}" DIRECTORY)
execute_process(COMMAND "${FUZZER}" -seed=1 -max_total_time=20 "-artifact_prefix=${artifacts}/" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "${CORPUS}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${err}")
message(STATUS "${runs}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "libFuzzer found a failure (exit ${rc}); the input is the crash-* file in ${artifacts}:\n${err}")
endif()
