# dict and set values (issue 14, item 2): the CPython oracle over multilingual rows, compile
# errors for what stays unsupported, and constant displays built once per compile.
add_test(NAME udf_oracle_dicts
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_dicts.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_dicts PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_dicts SOURCES test_front_dicts.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_udf_dicts SOURCES test_udf_dicts.c LABELS udf TIMEOUT 120)
