# Installation: headers, both libraries, pkg-config file and CMake package config.
include(CMakePackageConfigHelpers)

install(TARGETS nrt nrt_static EXPORT nrtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/nrt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT nrtTargets NAMESPACE nrt:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nrt)

configure_package_config_file(cmake/nrtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/nrtConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nrt)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/nrtConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/nrtConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/nrtConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nrt)

# pkg-config: static users need the private libraries as well.
# libnrt has C++ objects (LLVM's users, the SIMD UTF-8 validation): a C program linking it
# statically needs the C++ runtime.
set(NRT_PC_PRIVATE_LIBS "-lpthread -ldl -lm -lstdc++")
foreach(l IN LISTS NRT_ALL_LINK_LIBS)
  if(l MATCHES "^-" OR IS_ABSOLUTE "${l}")
    string(APPEND NRT_PC_PRIVATE_LIBS " ${l}")
  elseif(NOT TARGET ${l})
    string(APPEND NRT_PC_PRIVATE_LIBS " -l${l}")
  endif()
endforeach()
# Relocatable: the prefix is found relative to the .pc file, so `cmake --install --prefix` works.
file(RELATIVE_PATH NRT_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(cmake/nrt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/nrt.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/nrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
