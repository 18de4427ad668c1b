# The fast paths of padded f-string fields written in place and the code-point count shared
# with a later len(): the CPython oracle (write form against value form and CPython) and a
# byte-for-byte differential test against the general paths.
add_test(NAME udf_oracle_fmtfast
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_fmtfast.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_fmtfast PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_udf_fmtfast SOURCES test_udf_fmtfast.c INCLUDES ${NRT_LLVM_INCLUDE_DIR} LABELS udf
              TIMEOUT 60)
