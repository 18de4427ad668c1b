# Tests of the str layer's managed strings and operations (str_core, ops, list, oracle, fuzz).
nrt_add_test(test_str_core SOURCES test_str_core.c LABELS str valgrind)
# The CPython oracle: the generator streams cases and CPython's results into the replayer.
nrt_add_test(test_str_oracle SOURCES test_str_oracle.c LABELS str oracle
  ARGS ${CMAKE_CURRENT_SOURCE_DIR}/oracle_gen.py TIMEOUT 300)
nrt_add_test(test_str_ops SOURCES test_str_ops.c LABELS str valgrind)
nrt_add_test(test_str_failures SOURCES test_str_failures.c LABELS str valgrind)

# libFuzzer harnesses (clang builds with NRT_FUZZ): time-boxed, about 45 s together.
if(NRT_FUZZ)
  nrt_add_fuzz_test(fuzz_str_ops SOURCES fuzz_str_ops.c SECONDS 40 ARGS -max_len=600 LABELS str)
endif()
nrt_add_test(test_str_threads SOURCES test_str_threads.c LIBS Threads::Threads LABELS str valgrind)
nrt_add_test(test_str_strip_windows SOURCES test_strip_windows.c LABELS str)
