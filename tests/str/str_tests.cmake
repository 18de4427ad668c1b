# Tests of the str layer's managed strings and operations (str_core, ops, list, oracle, fuzz).
nrt_add_test(test_str_core SOURCES test_str_core.c LABELS str valgrind)
# The CPython oracle: the generator streams cases and CPython's results into the replayer.
nrt_add_test(test_str_oracle SOURCES test_str_oracle.c LABELS str oracle
  ARGS ${CMAKE_CURRENT_SOURCE_DIR}/oracle_gen.py TIMEOUT 300)
nrt_add_test(test_str_ops SOURCES test_str_ops.c LABELS str valgrind)
nrt_add_test(test_str_failures SOURCES test_str_failures.c LABELS str valgrind)

# libFuzzer harnesses (clang builds with NRT_FUZZ): time-boxed, about 45 s together.
if(NRT_FUZZ)
  add_executable(fuzz_str_ops fuzz_str_ops.c)
  target_compile_options(fuzz_str_ops PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_str_ops PRIVATE -fsanitize=fuzzer)
  target_link_libraries(fuzz_str_ops PRIVATE nrt_static)
  add_test(NAME fuzz_str_ops COMMAND fuzz_str_ops -max_total_time=40 -rss_limit_mb=2048 -max_len=600)
  set_tests_properties(fuzz_str_ops PROPERTIES LABELS "str;fuzz" TIMEOUT 120)
endif()
nrt_add_test(test_str_threads SOURCES test_str_threads.c LIBS Threads::Threads LABELS str valgrind)
