# UDFs returning a list or a tuple of str (list<string> columns): the CPython oracle over
# multilingual rows, the C API from column to UDF, and the command line's three formats.
add_test(NAME udf_oracle_lists
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_lists.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_lists PROPERTIES LABELS udf TIMEOUT 120)
# Not under valgrind (as test_udf_api): LLVM compiles dominate there; ASan runs it.
nrt_add_test(test_udf_lists SOURCES test_udf_lists.c LABELS udf TIMEOUT 120)
if(TARGET nrt_cli)
  add_test(NAME udf_e2e_cli_lists
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_cli_lists.sh $<TARGET_FILE:nrt_cli>)
  set_tests_properties(udf_e2e_cli_lists PROPERTIES LABELS udf TIMEOUT 120)
endif()
