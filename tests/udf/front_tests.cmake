# Front end of the UDF compiler: tokenizer, parser, type inference, diagnostics.
nrt_add_test(test_front_lex SOURCES test_front_lex.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_parse SOURCES test_front_parse.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_errors SOURCES test_front_errors.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_types SOURCES test_front_types.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_failures SOURCES test_front_failures.c LABELS udf valgrind TIMEOUT 120)

# libFuzzer over the whole front end, seeded with valid and invalid programs (copied to the
# build tree, where libFuzzer adds what it finds), with a dictionary of Python tokens.
if(NRT_FUZZ)
  add_executable(fuzz_front fuzz_front.c)
  target_compile_options(fuzz_front PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_front PRIVATE -fsanitize=fuzzer)
  target_link_libraries(fuzz_front PRIVATE nrt_static)
  target_include_directories(fuzz_front PRIVATE ${PROJECT_SOURCE_DIR}/src)
  file(COPY ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_front_seeds/ DESTINATION ${CMAKE_CURRENT_BINARY_DIR}/fuzz_front_corpus)
  add_test(NAME fuzz_front
    COMMAND fuzz_front -max_total_time=25 -timeout=10 -rss_limit_mb=2048 -max_len=4096
            -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_front.dict ${CMAKE_CURRENT_BINARY_DIR}/fuzz_front_corpus)
  set_tests_properties(fuzz_front PROPERTIES LABELS fuzz TIMEOUT 120)
endif()
