//===- Decompositions.h - what the decomposition pass asks of rules -*- C++ -*-===//
//
// Composite ops (softmax.int, linear, conv2d, ...) are defined by formulas
// over other tad ops in rules/decompositions.yaml. The rule engine
// (compiler/rules/Decomposer.cpp) evaluates them; like DerivativeRules, this
// interface keeps passes/ independent of the rule-file format, and tools
// install the loader at startup (registerDefaultRuleLoader does it).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_DECOMPOSITIONS_H
#define TAD_PASSES_AD_DECOMPOSITIONS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include <functional>
#include <memory>
#include <string>

namespace mlir::tad {

class Decompositions {
public:
  virtual ~Decompositions();

  /// Whether `op` has a decomposition.
  virtual bool hasDecomposition(Operation *op) = 0;

  /// Builds the decomposition of `op` at `b`'s insertion point and returns
  /// one value per result of `op` (of the same types). Failures are
  /// reported as diagnostics.
  virtual FailureOr<SmallVector<Value>> decompose(OpBuilder &b,
                                                  Operation *op) = 0;
};

/// Builds the decompositions: the built-in file plus `extraFiles`, later
/// entries for an op replacing earlier ones.
using DecompositionsLoader =
    std::function<FailureOr<std::shared_ptr<Decompositions>>(
        MLIRContext *, ArrayRef<std::string> extraFiles)>;

void setDecompositionsLoader(DecompositionsLoader loader);

/// Calls the installed loader; fails with a diagnostic when none is installed.
FailureOr<std::shared_ptr<Decompositions>>
loadDecompositions(MLIRContext *context, ArrayRef<std::string> extraFiles);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_DECOMPOSITIONS_H
