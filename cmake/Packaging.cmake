# CPack: `cpack -G DEB` in the build folder makes blocktune_VERSION_ARCH.deb
# from the install rules (prefix /usr). scripts/build-deb.sh drives it and
# scripts/check-deb.sh checks the result (contents, lintian, an install).
set(CPACK_PACKAGE_NAME blocktune)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "blocktune developers")
set(CPACK_PACKAGE_CONTACT "blocktune developers <dev@blocktune.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "block device tuning console: readahead, I/O scheduler, read tests")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # blocktune_0.1.1_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://blocktune.org/")
# The extended description (CPack puts the summary above it): one
# paragraph, lines below 80 columns.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "blocktune shows every block device and how they stack (disks,
 partitions, md arrays, device-mapper volumes), changes readahead, the
 I/O scheduler and queue limits as one transaction with a crash journal,
 measures streaming reads as dd does, sweeps readahead values and watches
 throughput, interrupts and queue depth live. It comes as a Qt console
 (blocktune), a command-line tool (blocktune-cli) and a privileged helper
 that pkexec starts for users who are not root.")
# Libraries from dpkg-shlibdeps; what it cannot see: pkexec and polkitd
# start the helper for users (root needs neither), Qt's own German strings
# (dialog buttons) come from qt6-translations-l10n.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pkexec, polkitd, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "fio")

include(CPack)
