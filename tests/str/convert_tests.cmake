# Conversions (str/int/float, format specs, ord/chr) and padding: tests/str/test_convert*.c.
nrt_add_test(test_str_convert_unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_unit.c
  LABELS str valgrind)
nrt_add_test(test_str_convert_failures SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_failures.c
  LABELS str valgrind)
# CPython oracle, >= 200,000 cases (20,000 under a sanitizer); too slow for valgrind.
nrt_add_test(test_str_convert_oracle SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_oracle.c
  ARGS ${CMAKE_CURRENT_LIST_DIR}/oracle_convert.py LABELS str oracle TIMEOUT 300)
