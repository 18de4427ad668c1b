# Functions (issue 14, item 5): recursion and RecursionError, defaults and keyword arguments,
# module-level constants, closures: the CPython oracle over multilingual rows, and compile
# errors for what stays unsupported.
add_test(NAME udf_oracle_funcs
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_funcs.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_funcs PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_funcs SOURCES test_front_funcs.c LABELS udf valgrind TIMEOUT 60)
