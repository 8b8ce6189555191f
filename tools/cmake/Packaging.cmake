# `cpack` in the build directory: tad_<version>_<arch>.deb, the installed tree
# of tools/cmake/CMakeLists.txt under /usr. scripts/check-deb.sh builds it, checks
# that its Depends cover every library tadc loads, and runs the examples
# against it.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tad)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# The Maintainer field: whoever builds the package (-DCPACK_PACKAGE_CONTACT).
if(NOT CPACK_PACKAGE_CONTACT)
  set(CPACK_PACKAGE_CONTACT "tad developers <tad@localhost>")
endif()
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "ahead-of-time automatic-differentiation compiler on MLIR")
set(CPACK_PACKAGE_DESCRIPTION
    "tadc compiles tensor programs in the tad MLIR dialect, and their \
reverse- and forward-mode derivatives, into small shared objects with a \
checked C ABI. Includes tad-opt, tad-import (PyTorch to tad), the C header \
and runtime archive, the CMake package (find_package(tad), tad_add_model) \
and the Python package tad for python3.")
# The install rules compute some paths from the final prefix (the Python
# package's directory), so the package is staged with DESTDIR and the
# prefix is /usr itself.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)

# Debian package names of what the tools need at run time:
#  - tadc and tad-opt load libMLIR/libLLVM of Debian's LLVM ${LLVM_VERSION_MAJOR}
#    (libmlir-N, libllvmN) and libyaml-cpp.so.0.7 (libyaml-cpp0.7);
#  - tadc links every module with the system C compiler driver (cc, clang-N
#    or gcc; crt files and libm from libc6-dev), and with libomp from
#    libomp-N-dev when tad was built with OpenMP;
#  - the Python package needs python3 and python3-numpy (its optional C
#    extension, tad._fastcall, is built for the python3 of the build
#    machine; other versions call modules through ctypes).
set(LLVM_MAJOR ${LLVM_VERSION_MAJOR})
set(TAD_DEB_DEPENDS
  "libc6"
  "libgcc-s1"
  "libstdc++6"
  "libllvm${LLVM_MAJOR} (>= 1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})"
  "libmlir-${LLVM_MAJOR} (>= 1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})"
  "libyaml-cpp0.7"
  "libc6-dev"
  "gcc | clang-${LLVM_MAJOR}"
  "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})"
  "python3-numpy")
if(TAD_OPENMP_LIBRARY)
  list(APPEND TAD_DEB_DEPENDS "libomp-${LLVM_MAJOR}-dev")
endif()
list(JOIN TAD_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# tad-import and tad.from_torch need PyTorch; tad_add_model needs CMake.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-torch, cmake")
# The digits demo (examples/digits).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-sklearn, python3-matplotlib")

# Byte-compiling the Python package and cleaning up after it.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
    ${CMAKE_CURRENT_LIST_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
