# Conversions (str/int/float, format specs, ord/chr) and padding: tests/str/test_convert*.c.
nrt_add_test(test_str_convert_oracle SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_oracle.c
  ARGS ${CMAKE_CURRENT_LIST_DIR}/oracle_convert.py LABELS str oracle TIMEOUT 300)
