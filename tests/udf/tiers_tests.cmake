# The O2 and quick compilation tiers give the same rows (nrt/udf.h NRT_UDF_QUICK_INSTRUCTIONS).
# Not under valgrind: compiling the large programs dominates there.
nrt_add_test(test_udf_tiers SOURCES test_udf_tiers.c LABELS udf TIMEOUT 120)
