# `import re` (issue 14 item 7): the CPython oracle over multilingual rows, the compile errors
# of patterns CPython rejects or PCRE2 cannot match exactly, and the match limits.
add_test(NAME udf_oracle_re
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_re.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_re PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_re SOURCES test_front_re.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_udf_re SOURCES test_udf_re.c LABELS udf TIMEOUT 120)
