# The string size limit (nrt_str_set_max_bytes) across the str, column and exec layers.
nrt_add_test(test_str_limit SOURCES test_str_limit.c LABELS str valgrind TIMEOUT 60)
