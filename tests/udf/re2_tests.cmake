# re.compile's pattern objects, re.sub's lambda and closure replacements, m.groupdict()
# (issue 14 item 7): the CPython oracle over multilingual rows and the exact compile errors.
add_test(NAME udf_oracle_re2
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e_oracle_re2.py
                 $<TARGET_FILE:udf_oracle_runner>)
set_tests_properties(udf_oracle_re2 PROPERTIES LABELS udf TIMEOUT 120)
nrt_add_test(test_front_re2 SOURCES test_front_re2.c LABELS udf valgrind TIMEOUT 60)
# The UDF fuzzer's harness over its seed corpus (dicts, sets, mutable lists, try/finally, re,
# pattern objects, closures among them), in every build.
# The seeds named first must compile; the others (--any) may reach a compile error on purpose.
set(nrt_udf_seed_dir ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_corpus)
file(GLOB nrt_udf_fuzz_seeds CONFIGURE_DEPENDS ${nrt_udf_seed_dir}/*.py)
nrt_add_test(fuzz_udf_replay SOURCES fuzz_udf_replay.c fuzz_udf_compile.c LABELS udf
             ARGS ${nrt_udf_seed_dir}/dicts.py ${nrt_udf_seed_dir}/mlists.py
                  ${nrt_udf_seed_dir}/try_finally.py ${nrt_udf_seed_dir}/re_calls.py
                  ${nrt_udf_seed_dir}/re_compiled.py --any ${nrt_udf_fuzz_seeds}
             TIMEOUT 120)
nrt_add_test(test_udf_re2 SOURCES test_udf_re2.c LABELS udf TIMEOUT 120)
