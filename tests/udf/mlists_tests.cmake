# Mutable lists of str and key functions (issue 14, item 3): the CPython oracle over
# multilingual rows, and compile errors for what stays unsupported.
add_test(NAME udf_oracle_mlists
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_mlists.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_mlists PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_mlists SOURCES test_front_mlists.c LABELS udf valgrind TIMEOUT 60)
# Not under valgrind (as test_udf_lists): LLVM compiles dominate there; ASan runs it.
nrt_add_test(test_udf_mlists SOURCES test_udf_mlists.c LABELS udf TIMEOUT 120)
