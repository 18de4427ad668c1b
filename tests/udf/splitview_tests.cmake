# The split / sort / join / repr fast paths (issue 14's benchmark): the CPython oracle over
# ASCII and multilingual rows in both compiled forms, and the C differential test of split
# views against copies.
add_test(NAME udf_oracle_splitview
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_splitview.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_splitview PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_split_views SOURCES test_split_views.c LABELS udf valgrind TIMEOUT 60)
# Not under valgrind (as test_udf_lists): LLVM compiles dominate there; ASan runs it.
nrt_add_test(test_udf_splitview SOURCES test_udf_splitview.c LABELS udf TIMEOUT 120)
