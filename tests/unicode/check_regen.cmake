# Regenerates the Unicode tables into a scratch folder and fails if they differ from the
# checked-in ones. Run with -DPYTHON=... -DSRC_DIR=<repo> -DWORK_DIR=<scratch>.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${PYTHON} ${SRC_DIR}/tools/gen_unicode_tables.py --out-dir ${WORK_DIR}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_unicode_tables.py failed: ${rc}")
endif()
foreach(f unicode_tables.h unicode_tables.c ucd_tables.h ucd_tables.c)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/${f} ${SRC_DIR}/src/unicode/${f}
    RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "src/unicode/${f} is not what tools/gen_unicode_tables.py generates: "
                        "rerun the generator and commit the result")
  endif()
endforeach()
message(STATUS "unicode tables match the generator")
