# Conversions (str/int/float, format specs, ord/chr) and padding: tests/str/test_convert*.c.
nrt_add_test(test_str_convert_unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_unit.c
  LABELS str valgrind)
nrt_add_test(test_str_convert_failures SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_failures.c
  LABELS str valgrind)
# CPython oracle, >= 200,000 cases (20,000 under a sanitizer); too slow for valgrind.
nrt_add_test(test_str_convert_oracle SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_oracle.c
  ARGS ${CMAKE_CURRENT_LIST_DIR}/oracle_convert.py LABELS str oracle TIMEOUT 300)
# libFuzzer harness (clang, NRT_FUZZ builds): int(), float(), repr, format specs, padding.
if(NRT_FUZZ)
  nrt_add_fuzz_test(fuzz_str_convert SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_convert_fuzz.c
    SECONDS 15)
endif()

# The kernels compile unchanged as C++ (a later CUDA device build): built with the tests, a
# failure breaks the build.
add_library(nrt_str_convert_as_cxx OBJECT ${CMAKE_CURRENT_LIST_DIR}/test_convert_kernels_cxx.c)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/test_convert_kernels_cxx.c PROPERTIES LANGUAGE CXX)
target_include_directories(nrt_str_convert_as_cxx PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_options(nrt_str_convert_as_cxx PRIVATE -Wall -Wextra ${NRT_WERROR_FLAG})
