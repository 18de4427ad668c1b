# The case kernels' direct tables against the full mapping they are derived from.
nrt_add_test(test_str_case_tables SOURCES test_case_tables.c LABELS str)
