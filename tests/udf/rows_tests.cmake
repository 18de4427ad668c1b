# The loop form of compiled UDFs against their row functions (nrt_udf_write_rows_function).
nrt_add_test(test_udf_rows SOURCES test_udf_rows.c LABELS udf TIMEOUT 120)
