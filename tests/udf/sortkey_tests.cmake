# sorted(s.split(), key=len) made in one step and sep.join(sorted(s.split(), key=len)) written
# with no list (issue 14's benchmark sort_key): the CPython oracle in both compiled forms, and
# the C differential test of the fused paths against the general path.
add_test(NAME udf_oracle_sortkey
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_sortkey.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_sortkey PROPERTIES LABELS udf TIMEOUT 120)
# Not under valgrind (as test_udf_splitview): LLVM compiles dominate there; ASan runs it.
nrt_add_test(test_udf_sortkey SOURCES test_udf_sortkey.c LABELS udf TIMEOUT 120)
