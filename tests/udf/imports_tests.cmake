# The modules a UDF may import (math, string): the CPython oracle over multilingual rows and
# numeric edge cases (domain and range errors).
add_test(NAME udf_oracle_imports
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_imports.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_imports PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_imports SOURCES test_front_imports.c LABELS udf valgrind TIMEOUT 60)
# Chained comparisons of every operator kind (issue 14 item 9, with the imports).
add_test(NAME udf_oracle_chains
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_chains.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_chains PROPERTIES LABELS udf TIMEOUT 120)

# Exceptions: try / except / else / finally and raise against CPython.
add_test(NAME udf_oracle_exceptions
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_exceptions.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_exceptions PROPERTIES LABELS udf TIMEOUT 120)
