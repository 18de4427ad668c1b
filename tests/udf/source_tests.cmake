# Source text edge cases of the UDF front end: NUL bytes, a byte order mark, located limits.
nrt_add_test(test_front_source SOURCES test_front_source.c LABELS udf valgrind TIMEOUT 60)
