# Tests of the str layer's managed strings and operations (str_core, ops, list, oracle, fuzz).
nrt_add_test(test_str_core SOURCES test_str_core.c LABELS str valgrind)
