//===- Linker.cpp - object + runtime archive -> shared object -------------===//
#include "compiler/Linker.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The functions of runtime/include/tad/runtime.h that every module exports.
static constexpr StringLiteral kRuntimeExports[] = {
    "tad_module_info",      "tad_last_error",       "tad_dtype_name",
    "tad_dtype_size",       "tad_get_memory_stats", "tad_reset_peak_memory"};
/// ... and those that GPU modules export too (their device runtime's).
static constexpr StringLiteral kDeviceExports[] = {
    "tad_device_name", "tad_device_alloc", "tad_device_free",
    "tad_device_upload", "tad_device_download"};

FailureOr<std::string> tad::findRuntimeLibrary(MLIRContext *context,
                                               const char *argv0,
                                               void *mainAddress,
                                               StringRef overridePath) {
  SmallString<256> path;
  if (!overridePath.empty()) {
    path = overridePath;
  } else {
    std::string executable =
        llvm::sys::fs::getMainExecutable(argv0, mainAddress);
    path = llvm::sys::path::parent_path(executable);
    llvm::sys::path::append(path, "..", "lib", "libtad_runtime.a");
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  }
  if (!llvm::sys::fs::is_regular_file(path))
    return emitError(UnknownLoc::get(context))
           << "tad runtime library '" << path
           << "' not found (build the 'tad_runtime' target or pass "
              "--runtime-lib=PATH)";
  return std::string(path);
}

/// The C compiler driver used as linker.
static FailureOr<std::string> findLinkerDriver(MLIRContext *context) {
  for (StringRef name : {"cc", "clang-22", "clang", "gcc"})
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
  return emitError(UnknownLoc::get(context))
         << "no C compiler driver (cc, clang-22, clang or gcc) found in PATH "
            "to link the shared object";
}

LogicalResult tad::linkSharedObject(MLIRContext *context, StringRef objectPath,
                                    StringRef runtimeLibrary,
                                    ArrayRef<std::string> entryPoints,
                                    StringRef outputPath, StringRef device) {
  FailureOr<std::string> driver = findLinkerDriver(context);
  if (failed(driver))
    return failure();

  // Version script: entry points and the runtime API are global, the rest
  // (the runtime's internals, libm helpers) stays local.
  SmallString<128> versionScript;
  int fd;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile(
          "tad-exports", "map", fd, versionScript))
    return emitError(UnknownLoc::get(context))
           << "cannot create a temporary file: " << error.message();
  llvm::FileRemover removeVersionScript(versionScript);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "{\n  global:\n";
    for (const std::string &name : entryPoints)
      os << "    " << name << ";\n";
    for (StringRef name : kRuntimeExports)
      os << "    " << name << ";\n";
    if (!device.empty())
      for (StringRef name : kDeviceExports)
        os << "    " << name << ";\n";
    os << "  local: *;\n};\n";
    if (os.has_error())
      return emitError(UnknownLoc::get(context))
             << "cannot write '" << versionScript << "'";
  }

  // Forcing the runtime's API in keeps it there when no entry point
  // references it (a module without exported functions).
  std::string versionScriptFlag =
      ("-Wl,--version-script=" + versionScript).str();
  SmallVector<std::string> forceExports;
  for (StringRef name : kRuntimeExports)
    forceExports.push_back(("-Wl,--undefined=" + name).str());
  // The device runtimes (src/cuda/cuda_runtime.c, emulated.c) define the
  // same tad_device_* functions: the module's own kind is pulled in first,
  // through a symbol only it defines, and satisfies them.
  if (!device.empty())
    forceExports.push_back(("-Wl,--undefined=__tad_" + device + "_enter").str());
  SmallVector<StringRef> args = {*driver, "-shared", "-o", outputPath,
                                 objectPath};
  args.append(forceExports.begin(), forceExports.end());
  // -Bsymbolic: the module's own references (the entry points in its
  // function table) bind inside it even if another library exports the
  // same names.
#ifdef TAD_OPENMP_LIBDIR
  // Parallel loops call libomp: linked only if the object uses it, found
  // at load time through the rpath (no LD_LIBRARY_PATH needed).
  args.append({"-Wl,--as-needed", "-L" TAD_OPENMP_LIBDIR, "-lomp",
               "-Wl,-rpath," TAD_OPENMP_LIBDIR, "-Wl,--no-as-needed"});
#endif
#ifdef TAD_SANITIZE_FLAG
  // tad was built with sanitizers (TAD_SANITIZE), its runtime archive too.
  args.push_back(TAD_SANITIZE_FLAG);
#endif
  args.append({runtimeLibrary, "-lm", "-Wl,--no-undefined",
               "-Wl,-z,noexecstack", "-Wl,-Bsymbolic", versionScriptFlag});
  std::string errorMessage;
  int status = llvm::sys::ExecuteAndWait(*driver, args, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &errorMessage);
  if (status != 0) {
    std::string command;
    llvm::raw_string_ostream os(command);
    llvm::interleave(args, os, " ");
    InFlightDiagnostic diag = emitError(UnknownLoc::get(context))
                              << "cannot link the shared object: ";
    if (!errorMessage.empty())
      diag << errorMessage;
    else
      diag << *driver << " exited with code " << status;
    diag.attachNote() << "command: " << command;
    return failure();
  }
  return success();
}
