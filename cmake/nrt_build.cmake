# Build helpers shared by every module: warnings, sanitizers, nrt_module(), nrt_add_test().

set(NRT_WARNINGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
    -Wpointer-arith -Wcast-qual -Wvla -Wformat=2 -Wundef)
set(NRT_CXX_WARNINGS -Wall -Wextra)
# Warnings as errors is for developers and CI (scripts/build.sh turns it on): a new compiler's
# new warning must not break a user's or a packager's build.
set(NRT_WERROR_FLAG "")
if(NRT_WERROR)
  set(NRT_WERROR_FLAG -Werror)
endif()
list(APPEND NRT_WARNINGS ${NRT_WERROR_FLAG})
list(APPEND NRT_CXX_WARNINGS ${NRT_WERROR_FLAG})

if(NRT_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  # clang's -fsanitize=function gives every C++ function the typeinfo of its type, exported
  # with default visibility: libnrt would export names outside nrt_ (test_core_exports).
  add_compile_options($<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:-fno-sanitize=function>)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(NRT_UNDER_SANITIZER=1)
elseif(NRT_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  add_compile_definitions(NRT_UNDER_SANITIZER=1)
elseif(NOT NRT_SANITIZE STREQUAL "")
  message(FATAL_ERROR "NRT_SANITIZE must be '', 'address' or 'thread'")
endif()

find_package(Threads REQUIRED)

# Linker flag binding a shared object's calls to its own exported functions locally (see
# nrt_finish_library; the Python module uses it too). GNU ld, gold, lld and mold know it.
include(CheckLinkerFlag)
check_linker_flag(C "LINKER:-Bsymbolic-functions" NRT_HAVE_BSYMBOLIC_FUNCTIONS)
set(NRT_BIND_LOCAL "")
if(NRT_HAVE_BSYMBOLIC_FUNCTIONS)
  set(NRT_BIND_LOCAL "LINKER:-Bsymbolic-functions")
endif()

# Fuzz builds instrument the library too (coverage feedback from the code under test, not only
# from the harness); the harnesses add -fsanitize=fuzzer themselves.
if(NRT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NRT_FUZZ needs clang (libFuzzer)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# LLVM 14 (Debian's llvm-14-dev), used through its C API by refprune and udf: one version for
# the whole project and the JIT, the one Debian's llvmlite is built on.
find_program(NRT_LLVM_CONFIG NAMES llvm-config-14 PATHS /usr/lib/llvm-14/bin)
if(NRT_LLVM_CONFIG)
  execute_process(COMMAND ${NRT_LLVM_CONFIG} --includedir OUTPUT_VARIABLE NRT_LLVM_INCLUDE_DIR
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${NRT_LLVM_CONFIG} --libdir OUTPUT_VARIABLE NRT_LLVM_LIB_DIR
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  find_library(NRT_LLVM_LIB NAMES LLVM-14 LLVM PATHS ${NRT_LLVM_LIB_DIR} NO_DEFAULT_PATH)
endif()

# nrt_module_glob(NAME [LIBS ...] [INCLUDES ...]): a module made of every .c file in its folder
# (for modules several people add files to at once).
macro(nrt_module_glob name)
  file(GLOB nrt_glob_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.c)
  nrt_module(${name} SOURCES ${nrt_glob_sources} ${ARGN})
endmacro()

# All library sources go into one object library; shared and static libnrt are made from it.
add_library(nrt_objects OBJECT)
target_include_directories(nrt_objects PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)
target_compile_options(nrt_objects PRIVATE $<$<COMPILE_LANGUAGE:C>:${NRT_WARNINGS}>
                       $<$<COMPILE_LANGUAGE:CXX>:${NRT_CXX_WARNINGS}>)
target_compile_definitions(nrt_objects PRIVATE NRT_BUILDING_LIBRARY=1)
if(NOT NRT_STATS)
  target_compile_definitions(nrt_objects PRIVATE NRT_NO_STATS=1)
endif()

# nrt_module(NAME SOURCES files... [LIBS libs...] [INCLUDES dirs...] [DEFINITIONS defs...])
# Adds a module's sources to libnrt and records what it links against.
function(nrt_module name)
  cmake_parse_arguments(M "" "" "SOURCES;LIBS;INCLUDES;DEFINITIONS" ${ARGN})
  foreach(src IN LISTS M_SOURCES)
    if(NOT IS_ABSOLUTE ${src})
      set(src ${CMAKE_CURRENT_SOURCE_DIR}/${src})
    endif()
    target_sources(nrt_objects PRIVATE ${src})
  endforeach()
  if(M_INCLUDES)
    target_include_directories(nrt_objects SYSTEM PRIVATE ${M_INCLUDES})
  endif()
  if(M_DEFINITIONS)
    target_compile_definitions(nrt_objects PRIVATE ${M_DEFINITIONS})
  endif()
  set_property(GLOBAL APPEND PROPERTY NRT_LINK_LIBS ${M_LIBS})
  set_property(GLOBAL APPEND PROPERTY NRT_MODULE_NAMES ${name})
endfunction()

function(nrt_finish_library)
  get_property(libs GLOBAL PROPERTY NRT_LINK_LIBS)
  list(REMOVE_DUPLICATES libs)
  add_library(nrt SHARED $<TARGET_OBJECTS:nrt_objects>)
  add_library(nrt_static STATIC $<TARGET_OBJECTS:nrt_objects>)
  set_target_properties(nrt_static PROPERTIES OUTPUT_NAME nrt)
  set_target_properties(nrt PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
  # The library's calls to its own exported functions (the apply loop's row end, the kernels
  # the str methods share) go straight to them, not through the PLT: nrt's functions are not
  # meant to be interposed.
  target_link_options(nrt PRIVATE ${NRT_BIND_LOCAL})
  foreach(t nrt nrt_static)
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${t} PRIVATE ${libs} Threads::Threads ${CMAKE_DL_LIBS} m)
  endforeach()
  # The static library's users need its dependencies too.
  target_link_libraries(nrt_static INTERFACE ${libs} Threads::Threads ${CMAKE_DL_LIBS} m)
  set(NRT_ALL_LINK_LIBS "${libs}" PARENT_SCOPE)
endfunction()

# Valgrind memcheck twins of the tests labelled 'valgrind' (plain builds only): label 'memcheck'.
find_program(NRT_VALGRIND valgrind)
function(nrt_add_memcheck name)
  if(NRT_VALGRIND AND NRT_SANITIZE STREQUAL "")
    add_test(NAME memcheck_${name}
      COMMAND ${NRT_VALGRIND} --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
              --show-leak-kinds=definite,indirect --track-origins=yes --quiet $<TARGET_FILE:${name}> ${ARGN})
    set_tests_properties(memcheck_${name} PROPERTIES LABELS memcheck TIMEOUT 900
      ENVIRONMENT "NRT_UNDER_VALGRIND=1;NRT_BLOCK_CACHE=0")
  endif()
endfunction()

# nrt_add_test(NAME SOURCES files... [LIBS libs...] [LABELS labels...] [ARGS args...] [TIMEOUT s])
# A C test executable linked against the static library (tests may use internal headers).
# Label 'valgrind' marks tests that the test command also runs under valgrind memcheck.
function(nrt_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS;ARGS;INCLUDES" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE nrt_static nrt_testkit ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests ${T_INCLUDES})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:${NRT_WARNINGS}>)
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  if("valgrind" IN_LIST T_LABELS)
    nrt_add_memcheck(${name} ${T_ARGS})
  endif()
endfunction()

# nrt_add_fuzz_test(NAME SOURCES files... SECONDS s [LIBS libs...] [INCLUDES dirs...]
#                   [ARGS args...] [LABELS labels...]): a libFuzzer harness (NRT_FUZZ builds),
# run as a test for SECONDS with the seed NRT_FUZZ_SEED; ARGS are further flags and corpus dirs.
function(nrt_add_fuzz_test name)
  cmake_parse_arguments(F "" "SECONDS" "SOURCES;LIBS;INCLUDES;ARGS;LABELS" ${ARGN})
  list(APPEND F_LABELS fuzz)
  add_executable(${name} ${F_SOURCES})
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE ${F_LIBS} nrt_static)
  if(F_INCLUDES)
    target_include_directories(${name} PRIVATE ${F_INCLUDES})
  endif()
  add_test(NAME ${name} COMMAND ${name} -seed=${NRT_FUZZ_SEED} -max_total_time=${F_SECONDS}
                                -rss_limit_mb=2048 ${F_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "${F_LABELS}" TIMEOUT 150)
endfunction()
