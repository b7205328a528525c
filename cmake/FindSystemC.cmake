# Finds Accellera SystemC (with TLM-2.0) through pkg-config, as installed by
# Debian's libsystemc-dev, and exposes it as the imported target SystemC::systemc.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SYSTEMC_PC QUIET IMPORTED_TARGET systemc)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SystemC
  REQUIRED_VARS SYSTEMC_PC_FOUND
  VERSION_VAR SYSTEMC_PC_VERSION
  FAIL_MESSAGE "SystemC not found: run scripts/setup.sh (installs libsystemc-dev)")
if(SystemC_FOUND AND NOT TARGET SystemC::systemc)
  add_library(SystemC::systemc INTERFACE IMPORTED)
  target_link_libraries(SystemC::systemc INTERFACE PkgConfig::SYSTEMC_PC)
  # Debian's systemc.h checks the C++ standard it was built with.
  target_compile_definitions(SystemC::systemc INTERFACE SC_CPLUSPLUS=201703L)
endif()
