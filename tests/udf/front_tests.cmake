# Front end of the UDF compiler: tokenizer, parser, type inference, diagnostics.
nrt_add_test(test_front_lex SOURCES test_front_lex.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_parse SOURCES test_front_parse.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_errors SOURCES test_front_errors.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_types SOURCES test_front_types.c LABELS udf valgrind TIMEOUT 60)
nrt_add_test(test_front_failures SOURCES test_front_failures.c LABELS udf valgrind TIMEOUT 120)
