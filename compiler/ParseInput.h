//===- ParseInput.h - parsing a tad program ---------------------*- C++ -*-===//
//
// The MLIR parser behind tadc, with a guard for inputs that crash the
// upstream parser instead of getting a diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_PARSEINPUT_H
#define TAD_COMPILER_PARSEINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tad {

/// Parses the main buffer of `sourceMgr` as a module, as
/// parseSourceFile<ModuleOp> does, after rejecting with a located error the
/// constructs that MLIR 22's parser crashes on: a dense array attribute of
/// `index` elements (`array<index: 1>`; its element width is undefined).
/// Returns null after reporting an error.
OwningOpRef<ModuleOp> parseInput(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context);

} // namespace mlir::tad

#endif // TAD_COMPILER_PARSEINPUT_H
