# Unpacking in for and comprehension targets, enumerate/zip/reversed as iterables and
# assignment expressions (issue 14, items 4 and 9): the CPython oracle over multilingual rows,
# and compile errors for what stays unsupported.
add_test(NAME udf_oracle_unpack
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_unpack.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_unpack PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_unpack SOURCES test_front_unpack.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_udf_unpack SOURCES test_udf_unpack.c LABELS udf TIMEOUT 120)
