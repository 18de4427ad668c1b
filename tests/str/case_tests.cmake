# Case mapping and predicate operations (src/str/case.c, src/str/predicates.c).
find_program(NRT_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)

# Oracle: >= 200,000 generated strings against CPython (fewer under a sanitizer).
if(NRT_SANITIZE)
  set(nrt_case_oracle_count 100000)
else()
  set(nrt_case_oracle_count 200000)
endif()
add_executable(test_str_case_oracle test_case_oracle.c)
target_link_libraries(test_str_case_oracle PRIVATE nrt_static nrt_testkit)
target_include_directories(test_str_case_oracle PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_compile_options(test_str_case_oracle PRIVATE ${NRT_WARNINGS})
if(NRT_SYSTEM_PYTHON)
  add_test(NAME test_str_case_oracle
    COMMAND ${NRT_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/oracle_case.py
            $<TARGET_FILE:test_str_case_oracle> ${nrt_case_oracle_count}
            ${CMAKE_CURRENT_BINARY_DIR}/case_oracle.bin)
  set_tests_properties(test_str_case_oracle PROPERTIES LABELS str TIMEOUT 300)
endif()

nrt_add_test(test_str_case_units SOURCES test_case_units.c LABELS str valgrind)

if(NRT_FUZZ)
  nrt_add_fuzz_test(fuzz_str_case SOURCES fuzz_case.c SECONDS 25)
endif()

# The kernels compile unchanged as C++ (built with the tests; a failure breaks the build).
add_library(nrt_str_case_as_cxx OBJECT case_kernels_cxx.cpp)
target_include_directories(nrt_str_case_as_cxx PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_options(nrt_str_case_as_cxx PRIVATE -Wall -Wextra ${NRT_WERROR_FLAG} -pedantic)

# The Latin-1 fast path against the general path, at every position of 64-byte blocks.
nrt_add_test(test_str_case_latin1 SOURCES test_case_latin1.c LABELS str)
