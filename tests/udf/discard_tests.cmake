# Error messages discarded while failing rows become nulls (nrt_exec_options.discard_messages).
nrt_add_test(test_udf_discard SOURCES test_udf_discard.c LABELS udf TIMEOUT 60)
