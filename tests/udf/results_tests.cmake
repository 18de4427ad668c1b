# UDFs returning a list or a tuple of int, float or bool (list<int64>, list<double>, list<bool>
# columns): the CPython oracle over multilingual rows, the C API from column to UDF, and the
# command line's three formats.
add_test(NAME udf_oracle_results
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_results.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_results PROPERTIES LABELS udf TIMEOUT 120)
# Not under valgrind (as test_udf_lists): LLVM compiles dominate there; ASan runs it.
nrt_add_test(test_udf_results SOURCES test_udf_results.c LABELS udf TIMEOUT 120)
if(TARGET nrt_cli)
  add_test(NAME udf_e2e_cli_results
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_cli_results.sh $<TARGET_FILE:nrt_cli>)
  set_tests_properties(udf_e2e_cli_results PROPERTIES LABELS udf TIMEOUT 120)
endif()
