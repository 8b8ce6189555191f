//===- Linker.h - object + runtime archive -> shared object ------*- C++
//-*-===//
//
// tadc links the object it emitted with the runtime archive
// (libtad_runtime.a) and libm into a shared object with the system C
// compiler driver (`cc`, else `clang-22`, `clang`, `gcc`). A version script
// exports only the entry points and the runtime's public API.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_LINKER_H
#define TAD_COMPILER_LINKER_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include <string>

namespace mlir::tad {

/// The runtime archive: `overridePath` if not empty, else
/// `<directory of the running executable>/../lib/libtad_runtime.a`.
/// `argv0` and `mainAddress` locate the executable. Fails with a diagnostic
/// if the file does not exist.
FailureOr<std::string> findRuntimeLibrary(MLIRContext *context,
                                          const char *argv0, void *mainAddress,
                                          StringRef overridePath);

/// Links `objectPath` and `runtimeLibrary` into the shared object
/// `outputPath`, exporting `entryPoints` and the runtime's API only.
/// `device` is "" for a CPU module, else the device runtime the object's
/// entry points call ("cuda" or "emulated", tad-export-abi's `device`): its
/// archive member is linked and its device memory API (tad_device_*)
/// exported too.
LogicalResult linkSharedObject(MLIRContext *context, StringRef objectPath,
                               StringRef runtimeLibrary,
                               ArrayRef<std::string> entryPoints,
                               StringRef outputPath, StringRef device = "");

} // namespace mlir::tad

#endif // TAD_COMPILER_LINKER_H
