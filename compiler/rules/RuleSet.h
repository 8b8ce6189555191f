//===- RuleSet.h - derivative rules by op, applied by the Binder -*- C++ -*-===//
//
// The rule set holds the entries of every loaded rule file (built-in files
// first, then --rules files; a later entry for the same op overrides an
// earlier one) and implements the DerivativeRules interface the
// differentiation passes call.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_RULESET_H
#define TAD_COMPILER_RULES_RULESET_H

#include "compiler/rules/Binder.h"
#include "compiler/rules/OpCatalog.h"
#include "compiler/rules/RuleFile.h"
#include "passes/AD/DerivativeRules.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tad::rules {

/// The operand and result groups of one op (see CatalogOp::operandGroups).
struct OpLayout {
  SmallVector<ValueGroup> operands, results;
};

class RuleSet : public DerivativeRules {
public:
  /// The built-in rules plus `extraFiles`, checked against the tad ops.
  static FailureOr<std::shared_ptr<RuleSet>>
  load(MLIRContext *context, ArrayRef<std::string> extraFiles);

  /// Adds a parsed file; its entries override earlier ones for the same op.
  LogicalResult addFile(RuleFile file);

  const RuleEntry *lookup(StringRef fullName) const;
  const RuleEntry *lookup(Operation *op) const;
  const OpCatalog &getCatalog() const { return catalog; }
  /// The helpers of every loaded file, by name.
  const HelperTable &getHelpers() const { return helpers; }

  FailureOr<SmallVector<Value>> emitVJP(OpBuilder &b, Operation *op,
                                        ArrayRef<Value> resultCotangents,
                                        ArrayRef<bool> wanted) override;
  FailureOr<SmallVector<Value>>
  emitJVP(OpBuilder &b, Operation *op,
          ArrayRef<Value> operandTangents) override;
  bool isDifferentiableOperand(Operation *op, unsigned index) override;
  bool isDifferentiableResult(Operation *op, unsigned index) override;

private:
  explicit RuleSet(MLIRContext *context, OpCatalog catalog)
      : context(context), catalog(std::move(catalog)) {}

  /// How `op`'s operands and results map onto its schema, or a diagnostic.
  FailureOr<OpLayout> layoutOf(const CatalogOp &info, Operation *op) const;
  /// Primal inputs and outputs (by schema name) and attributes of `op`.
  Bindings bindInputs(const CatalogOp &info, Operation *op,
                      const OpLayout &layout) const;
  /// The schema argument name of operand `index`.
  StringRef operandName(const CatalogOp &info, const OpLayout &layout,
                        unsigned index) const;
  /// Checks that the backward emitted after `before` reads only the primal
  /// values of `op` that the saved-value analysis keeps for `wanted`.
  LogicalResult checkSavedValues(const CatalogOp &info, const RuleEntry &entry,
                                 Operation *op, const OpLayout &layout,
                                 ArrayRef<bool> wanted, OpBuilder &b,
                                 Operation *before) const;
  /// Reports a missing rule for an op whose derivative is needed.
  InFlightDiagnostic missingRule(Operation *op, StringRef mode) const;

  MLIRContext *context;
  OpCatalog catalog;
  std::vector<std::unique_ptr<RuleFile>> files;
  llvm::StringMap<const RuleEntry *> entries;
  HelperTable helpers;
};

/// Installs RuleSet::load as the loader the differentiation passes use.
void registerDefaultRuleLoader();

} // namespace mlir::tad::rules

namespace mlir::tad {
using rules::registerDefaultRuleLoader;
} // namespace mlir::tad

#endif // TAD_COMPILER_RULES_RULESET_H
