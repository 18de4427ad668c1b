# The O2, quick and huge compilation tiers give Python's rows (nrt/udf.h
# NRT_UDF_QUICK_INSTRUCTIONS), and the shapes of issue 15 compile: long elif chains, huge
# modules, deeply nested calls. Not under valgrind: compiling the large programs dominates there.
nrt_add_test(test_udf_tiers SOURCES test_udf_tiers.c LABELS udf TIMEOUT 120)
