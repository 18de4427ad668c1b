# Huge UDFs (the huge tier of src/udf/udf.c, the cheaper pipeline) against CPython, with every
# kind of control flow repeated through a function of some 50,000 instructions.
add_test(NAME udf_oracle_huge
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_huge.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_huge PROPERTIES LABELS udf TIMEOUT 120)
