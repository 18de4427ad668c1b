# Front end of the UDF compiler: tokenizer, parser, type inference, diagnostics.
nrt_add_test(test_front_lex SOURCES test_front_lex.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_parse SOURCES test_front_parse.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_errors SOURCES test_front_errors.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_types SOURCES test_front_types.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_failures SOURCES test_front_failures.c LABELS udf valgrind TIMEOUT 120)

# libFuzzer over the whole front end, seeded with valid and invalid programs (copied to the
# build tree, where libFuzzer adds what it finds) and, read only, with the compiler fuzzer's
# seeds (fuzz_corpus/), with a dictionary of Python tokens.
if(NRT_FUZZ)
  file(COPY ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_front_seeds/ DESTINATION ${CMAKE_CURRENT_BINARY_DIR}/fuzz_front_corpus)
  nrt_add_fuzz_test(fuzz_front SOURCES fuzz_front.c INCLUDES ${PROJECT_SOURCE_DIR}/src SECONDS 25
    ARGS -timeout=10 -max_len=4096 -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_front.dict
         ${CMAKE_CURRENT_BINARY_DIR}/fuzz_front_corpus ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_corpus)
endif()
