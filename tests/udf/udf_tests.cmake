# Tests of the UDF engine's back half: JIT, compilation, runtime, public API, command line.
nrt_add_test(test_udf_jit SOURCES test_udf_jit.c INCLUDES ${NRT_LLVM_INCLUDE_DIR}
             LABELS valgrind TIMEOUT 120)
