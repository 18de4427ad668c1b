# str.maketrans / translate, %(name) formatting and repr() of containers: the CPython oracle
# over multilingual rows, the exact compile errors of what stays unsupported, and allocation
# failures on the new paths.
add_test(NAME udf_oracle_fmt2
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_fmt2.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_fmt2 PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_fmt2 SOURCES test_front_fmt2.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_udf_fmt2 SOURCES test_udf_fmt2.c LABELS udf TIMEOUT 120)
