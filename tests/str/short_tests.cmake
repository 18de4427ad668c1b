# The branch-free short-string paths (src/str/str_short.h), every length and position.
nrt_add_test(test_str_short SOURCES test_str_short.c LABELS str valgrind)
