//===- DerivativeRules.h - what differentiation asks of rules ---*- C++ -*-===//
//
// The differentiation passes walk the IR; a rule set (compiler/rules, read
// from derivatives.yaml) knows how to emit each op's derivative. This
// interface keeps passes/ independent of the rule-file format: tools install
// a loader at startup and the passes call it from initialize().
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_DERIVATIVERULES_H
#define TAD_PASSES_AD_DERIVATIVERULES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include <functional>
#include <memory>
#include <string>

namespace mlir::tad {

class DerivativeRules {
public:
  virtual ~DerivativeRules();

  /// Emits at `b`'s insertion point the reverse-mode contribution of `op` to
  /// each operand `i` with `wanted[i]` set. `resultCotangents` holds one value
  /// per result; a null value is a symbolic zero. Returns one value per
  /// operand: null for no contribution. A contribution may still have the
  /// broadcast shape of the op's result; the caller reduces it (sum_to).
  /// Failures are reported as diagnostics (missing rule, bad formula).
  virtual FailureOr<SmallVector<Value>>
  emitVJP(OpBuilder &b, Operation *op, ArrayRef<Value> resultCotangents,
          ArrayRef<bool> wanted) = 0;

  /// Emits the forward-mode tangent of each result of `op`, given one tangent
  /// per operand (null = symbolic zero). A null result tangent is a zero.
  virtual FailureOr<SmallVector<Value>>
  emitJVP(OpBuilder &b, Operation *op, ArrayRef<Value> operandTangents) = 0;

  /// Whether operand `index` of `op` can carry a derivative at all (false for
  /// `non_differentiable` inputs and for integer or boolean tensors).
  virtual bool isDifferentiableOperand(Operation *op, unsigned index) = 0;

  /// Whether result `index` of `op` can carry a derivative
  /// (`output_differentiability`).
  virtual bool isDifferentiableResult(Operation *op, unsigned index) = 0;
};

/// Builds the rule set: the built-in rules plus `extraRuleFiles`, later files
/// overriding earlier entries. Reports errors as diagnostics.
using DerivativeRulesLoader =
    std::function<FailureOr<std::shared_ptr<DerivativeRules>>(
        MLIRContext *, ArrayRef<std::string> extraRuleFiles)>;

/// Installed once by each tool (tadc, tad-opt) before passes run.
void setDerivativeRulesLoader(DerivativeRulesLoader loader);

/// Calls the installed loader; fails with a diagnostic when none is installed.
FailureOr<std::shared_ptr<DerivativeRules>>
loadDerivativeRules(MLIRContext *context, ArrayRef<std::string> extraRuleFiles);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_DERIVATIVERULES_H
