# The unicodedata module (issue 14 item 9): the CPython oracle over multilingual rows (names,
# properties, numeric values, the four normalization forms, CPython's exceptions and messages)
# and the exact diagnostics of what is not supported.
add_test(NAME udf_oracle_unicodedata
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_unicodedata.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_unicodedata PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_unicodedata SOURCES test_front_unicodedata.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_udf_unicodedata SOURCES test_udf_unicodedata.c LABELS udf TIMEOUT 120)
