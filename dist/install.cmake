# `make install` (cmake --install) script: at install time CMAKE_INSTALL_PREFIX is the prefix
# of this install (PREFIX), and file(INSTALL) puts $ENV{DESTDIR} in front of every path.
# Installs the systemd unit with this prefix's paths, the sysusers.d entry, and the example
# configuration as SYSCONFDIR/cuzk/cuzk.toml unless a configuration is already there.
# CUZK_SOURCE_DIR and CUZK_BINARY_DIR are set by the root CMakeLists.txt.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(cuzk_etc "/etc")
else()
  set(cuzk_etc "${CMAKE_INSTALL_PREFIX}/etc")
endif()
file(READ "${CUZK_SOURCE_DIR}/dist/cuzk.service.in" cuzk_unit)
string(REPLACE "@BINDIR@" "${CMAKE_INSTALL_PREFIX}/bin" cuzk_unit "${cuzk_unit}")
string(REPLACE "@SYSCONFDIR@" "${cuzk_etc}" cuzk_unit "${cuzk_unit}")
string(REPLACE "@DOCDIR@" "${CMAKE_INSTALL_PREFIX}/share/doc/cuzk" cuzk_unit "${cuzk_unit}")
file(WRITE "${CUZK_BINARY_DIR}/dist/cuzk.service" "${cuzk_unit}")
file(INSTALL "${CUZK_BINARY_DIR}/dist/cuzk.service" DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
file(INSTALL "${CUZK_SOURCE_DIR}/dist/cuzk.sysusers" DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/sysusers.d"
     RENAME cuzk.conf)
if(EXISTS "$ENV{DESTDIR}${cuzk_etc}/cuzk/cuzk.toml")
  message(STATUS "Keeping: $ENV{DESTDIR}${cuzk_etc}/cuzk/cuzk.toml")
else()
  file(INSTALL "${CUZK_SOURCE_DIR}/config/cuzk.example.toml" DESTINATION "${cuzk_etc}/cuzk" RENAME cuzk.toml
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
endif()
