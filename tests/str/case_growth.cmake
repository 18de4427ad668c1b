# The documented bound of the case mappings' output size (NRT_STR_CASE_MAX_GROWTH).
nrt_add_test(test_str_case_growth SOURCES test_case_growth.c LABELS str)
