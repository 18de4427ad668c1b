# Tests of the UDF engine's back half: JIT, compilation, runtime, public API, command line.
nrt_add_test(test_udf_jit SOURCES test_udf_jit.c INCLUDES ${NRT_LLVM_INCLUDE_DIR}
             LABELS valgrind TIMEOUT 120)

# The CPython oracle: every construct and string operation compiled and compared with
# /usr/bin/python3 over the same rows; exception types compared; statistics balanced per case.
add_executable(udf_oracle_runner udf_oracle_runner.c)
target_link_libraries(udf_oracle_runner PRIVATE nrt_static jansson)
target_compile_options(udf_oracle_runner PRIVATE $<$<COMPILE_LANGUAGE:C>:${NRT_WARNINGS}>)
add_test(NAME udf_oracle
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle PROPERTIES LABELS udf TIMEOUT 300)

nrt_add_test(test_udf_api SOURCES test_udf_api.c LABELS udf TIMEOUT 120)
nrt_add_test(test_udf_exceptions SOURCES test_udf_exceptions.c LABELS udf TIMEOUT 120)

# The command line, end to end (every format, nulls, errors, threads, exit codes).
if(TARGET nrt_cli)
  add_test(NAME udf_e2e_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_cli.sh $<TARGET_FILE:nrt_cli>)
  set_tests_properties(udf_e2e_cli PROPERTIES LABELS udf TIMEOUT 300)
endif()

# The compiler under libFuzzer (fuzz builds only): front end through JIT, then a few rows.
if(NRT_FUZZ)
  # New inputs go to the build tree; the checked-in seeds are read only.
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_udf_corpus)
  nrt_add_fuzz_test(fuzz_udf_compile SOURCES fuzz_udf_compile.c SECONDS 25
    ARGS -timeout=20 -max_len=1024 -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_front.dict
         ${CMAKE_CURRENT_BINARY_DIR}/fuzz_udf_corpus
         ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_corpus)
endif()
