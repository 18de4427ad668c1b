# Character loops, `x in LIT` of an ASCII literal and the counting idiom `if t: x += K`
# compiled without a branch on the character, and int() failures as nulls: the CPython oracle.
add_test(NAME udf_oracle_loops
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_loops.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_loops PROPERTIES LABELS udf TIMEOUT 120)
