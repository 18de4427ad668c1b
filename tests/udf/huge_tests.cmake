# Huge generated UDFs: long elif chains, huge modules, deeply nested calls (issue 15).
# Not under valgrind: compiling the large programs dominates there.
nrt_add_test(test_udf_huge SOURCES test_udf_huge.c LABELS udf TIMEOUT 120)
