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

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tad {

/// A construct that MLIR 22's parser crashes on instead of reporting it:
/// where it starts in the text and what to say.
struct ParserHazard {
  size_t offset;
  StringRef message;
};

/// The first parser hazard in `text` outside comments and string literals:
/// a dense array attribute of `index` elements (`array<index: 1>`; its
/// element width is undefined).
std::optional<ParserHazard> findParserHazard(StringRef text);

/// Parses the main buffer of `sourceMgr` as a module, as
/// parseSourceFile<ModuleOp> does, after rejecting a parser hazard with a
/// located error.
/// Returns null after reporting an error.
OwningOpRef<ModuleOp> parseInput(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context);

} // namespace mlir::tad

#endif // TAD_COMPILER_PARSEINPUT_H
