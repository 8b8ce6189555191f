//===- RuleChecker.h - check and explain rule files -------------*- C++ -*-===//
//
// The logic behind `tadc --check-rules FILE...` and `tadc --explain-rule OP`:
// per entry, whether its schema and formulas parse, whether tad has the op
// (same schema), and whether its rules can be applied, decided statically:
// every function a formula calls resolves to a binder builtin, a helper or a
// tad op overload that takes that many arguments, without emitting IR.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_RULECHECKER_H
#define TAD_COMPILER_RULES_RULECHECKER_H

#include "compiler/rules/OpCatalog.h"
#include "compiler/rules/RuleFile.h"
#include "compiler/rules/SavedValues.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::tad::rules {

/// Resolves every call of `formula` statically, as the binder would: a
/// builtin, a helper (with an accepted number of arguments) or a tad op of
/// that base name with an overload taking that many arguments. Lambdas are
/// reported too (the binder does not evaluate them). Branches of ternaries
/// whose condition is a literal or GradMode::is_enabled() that cannot run are
/// skipped. Calls `onProblem` for each unresolved use; returns whether all
/// resolved.
bool resolveFormulaCalls(
    const Formula &formula, const OpCatalog &catalog, const HelperMap &helpers,
    llvm::function_ref<void(const SourceLoc &, const std::string &)>
        onProblem);

struct RuleCheckError {
  std::string file;
  unsigned line = 0, col = 0;
  std::string message;
};

struct CheckedEntry {
  std::string file;
  EntryReport report;
  /// tad.<name> is registered with the same schema.
  bool opKnown = false;
  /// tad.<name> is registered but declares another schema (in opSchema).
  bool opSchemaDiffers = false;
  std::string opSchema;
  bool applicable = false;
  /// Why the rules cannot be applied ("file:l:c: unknown function 'f'").
  std::vector<std::string> problems;
  /// Accepted but not used: other dispatch keys, condition strings.
  std::vector<std::string> notes;
};

struct RuleCheckResult {
  std::vector<CheckedEntry> entries;
  unsigned schemasParsed = 0, formulasTotal = 0, formulasParsed = 0;
  unsigned opsKnown = 0, rulesApplicable = 0;
  /// Parse and validation errors (the failures of `--check-rules`).
  std::vector<RuleCheckError> errors;
};

/// Checks `paths` (derivative entries and helpers) against the tad ops of
/// `ctx` (the tad dialect must be loadable) and the helpers of the built-in
/// files and of `paths`. Parse and validation errors are collected, not
/// printed.
RuleCheckResult checkRuleFiles(MLIRContext *ctx,
                               llvm::ArrayRef<std::string> paths);

/// One line per entry, then a summary.
void printRuleCheck(const RuleCheckResult &result, llvm::raw_ostream &os);
/// A JSON object: entries, schemas_parsed, formulas_total, formulas_parsed,
/// ops_known, rules_applicable, errors [{file, line, col, message}], and
/// per-entry details under "details".
void printRuleCheckJSON(const RuleCheckResult &result, llvm::raw_ostream &os);

/// Prints the rule of `opName` ("mul.Tensor", "tad.mul.Tensor") after
/// loading the built-in rules and `extraFiles`: the parsed rule, the derived
/// JVP, and what its VJP saves for each set of requested gradients. Errors
/// are diagnostics.
LogicalResult explainRule(MLIRContext *ctx, llvm::StringRef opName,
                          llvm::ArrayRef<std::string> extraFiles,
                          llvm::raw_ostream &os);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_RULECHECKER_H
