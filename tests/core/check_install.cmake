# Installs the build tree into a temporary prefix, then builds a small external program
# against it twice: with pkg-config and with find_package(nrt). Both must build and run.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed")
endif()

# pkg-config
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig:${prefix}/lib64/pkgconfig")
execute_process(COMMAND pkg-config --cflags --libs nrt OUTPUT_VARIABLE flags RESULT_VARIABLE rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs nrt failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
execute_process(COMMAND cc -std=c11 -Wall -Werror ${SRC_DIR}/external/hello_nrt.c ${flags}
  -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/hello_pkgconfig RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building against pkg-config flags (${flags}) failed")
endif()
execute_process(COMMAND ${WORK_DIR}/hello_pkgconfig RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config program failed")
endif()

# find_package
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC_DIR}/external -B ${WORK_DIR}/cmake_build
  -DCMAKE_PREFIX_PATH=${prefix} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring a find_package(nrt) project failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake_build RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building a find_package(nrt) project failed")
endif()
foreach(exe hello_shared hello_static)
  execute_process(COMMAND ${WORK_DIR}/cmake_build/${exe} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} failed")
  endif()
endforeach()
message(STATUS "installed nrt works with pkg-config and find_package")
