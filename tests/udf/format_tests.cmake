# str.format, %-formatting, repr() and ascii(): the CPython oracle over multilingual rows and
# the compile errors of the forms that cannot run.
add_test(NAME udf_oracle_format
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_format.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_format PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_format SOURCES test_front_format.c LABELS udf valgrind TIMEOUT 60)
