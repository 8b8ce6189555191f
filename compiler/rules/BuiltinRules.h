//===- BuiltinRules.h - Rule files compiled into the binary -----*- C++ -*-===//
//
// The default rule files of rules/ are embedded at build time.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_COMPILER_RULES_BUILTINRULES_H
#define TAD_COMPILER_RULES_BUILTINRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tad::rules {

struct BuiltinRuleFile {
  llvm::StringRef path;     // "rules/helpers.yaml", "rules/derivatives.yaml"
  llvm::StringRef contents; // the file's bytes
};

/// rules/helpers.yaml first, then rules/derivatives.yaml.
llvm::ArrayRef<BuiltinRuleFile> getBuiltinRuleFiles();

/// rules/decompositions.yaml (read by the decomposition pass only: its
/// entries must not become helpers of the derivative formulas).
BuiltinRuleFile getBuiltinDecompositionFile();

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_BUILTINRULES_H
