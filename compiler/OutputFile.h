//===- OutputFile.h - outputs written in full or not at all -----*- C++ -*-===//
//
// The compiler never leaves a half-written output behind: a regular file is
// written to a temporary next to it and renamed over it on success. Stdout,
// devices (/dev/null) and pipes are written in place and never renamed over.
// Every failure is an error diagnostic without a location (it concerns the
// invocation, not the input).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_OUTPUTFILE_H
#define TAD_COMPILER_OUTPUTFILE_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::tad {

/// A regular output file under construction: a temporary next to the
/// destination, renamed over it by commit(), removed otherwise.
class AtomicOutput {
public:
  /// Creates the temporary; reports an error if the destination's
  /// directory is not writable.
  static FailureOr<std::unique_ptr<AtomicOutput>> create(MLIRContext *context,
                                                         StringRef path);

  StringRef getTempPath() const { return tempPath; }

  /// Renames the temporary over the destination.
  LogicalResult commit(MLIRContext *context);

private:
  explicit AtomicOutput(StringRef path) : path(path) {}

  std::string path;
  llvm::SmallString<256> tempPath;
  llvm::FileRemover remover;
};

/// Whether `path` names an existing file that is not a regular one (a
/// device such as /dev/null, a pipe): written in place, never replaced.
bool isSpecialFile(StringRef path);

/// Writes `path` ("-": stdout) with `write`, atomically (a regular file) or
/// in place (stdout, a device, a pipe); a failed write is an error.
LogicalResult
writeOutputFile(MLIRContext *context, StringRef path,
                function_ref<LogicalResult(llvm::raw_pwrite_stream &)> write);

/// Gives `path` the bytes of the file at `producedPath` through
/// writeOutputFile (for a destination that is a device or a pipe).
LogicalResult copyToOutputFile(MLIRContext *context, StringRef producedPath,
                               StringRef path);

} // namespace mlir::tad

#endif // TAD_COMPILER_OUTPUTFILE_H
