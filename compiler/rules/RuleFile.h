//===- RuleFile.h - derivatives.yaml loader ---------------------*- C++ -*-===//
//
// Reads rule files in the format of PyTorch's derivatives.yaml (a YAML
// sequence of `name: SCHEMA` mappings with formula keys) and tad's
// helpers.yaml (`name: SIGNATURE` + `formula: EXPR`), and checks them.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_COMPILER_RULES_RULEFILE_H
#define TAD_COMPILER_RULES_RULEFILE_H

#include "compiler/rules/Formula.h"
#include "compiler/rules/Schema.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::tad::rules {

/// A 1-based position in a rule file.
struct SourceLoc {
  std::string file;
  unsigned line = 0, col = 0;

  /// The same position as an MLIR FileLineColLoc.
  mlir::Location toLocation(mlir::MLIRContext *ctx) const;
};

/// A formula as written, its location (of the first character of the formula
/// text, after an opening quote) and its parsed form. `expr` is null only for
/// the special values non_differentiable, auto_linear and auto_element_wise.
struct Formula {
  std::string text;
  SourceLoc loc;
  ExprPtr expr;
};

enum class FormulaKind {
  Expression,
  NonDifferentiable,
  AutoLinear,
  AutoElementWise,
  NotImplemented // not_implemented("msg") / not_implemented_list("msg", ...)
};

/// One "a, b: formula" line.
struct DerivativeKey {
  std::vector<std::string> names; // split on ',' and trimmed
  FormulaKind kind = FormulaKind::Expression;
  /// For NotImplemented, formula.text is the message argument (formula.expr
  /// still holds the parsed call).
  Formula formula;
  SourceLoc loc; // of the key
};

struct RuleEntry {
  Schema schema;
  SourceLoc loc; // of the `name:` key
  /// Empty when absent; nullopt for condition strings (their text is in
  /// outputDifferentiabilityConditions at the same index).
  std::vector<std::optional<bool>> outputDifferentiability;
  std::vector<std::string> outputDifferentiabilityConditions;
  /// Keys whose first name is an input argument: VJP formulas, including
  /// non_differentiable and not_implemented.
  std::vector<DerivativeKey> backward;
  /// Keys naming outputs (result, resultN, named returns): JVP formulas.
  std::vector<DerivativeKey> forward;
  /// Dispatch keys other than Default (accepted; their formulas are checked
  /// but not kept).
  std::vector<std::string> otherDispatchKeys;

  /// The backward key whose names include `input`, or null.
  const DerivativeKey *findBackward(llvm::StringRef input) const;
  /// The forward key whose names include `output`, or null.
  const DerivativeKey *findForward(llvm::StringRef output) const;
};

/// A helper of rules/helpers.yaml: a schema-like signature and a body formula
/// over the signature's argument names.
struct HelperEntry {
  Schema signature;
  Formula body;
  SourceLoc loc; // of the `name:` key
};

struct RuleFile {
  std::string path;
  std::vector<RuleEntry> entries;
  std::vector<HelperEntry> helpers;
};

/// Parses a derivatives.yaml-format file (a YAML sequence of mappings) and/or
/// a helpers file; an entry with a `formula:` key is a helper. Reports every
/// error found as an MLIR diagnostic at file:line:col and returns failure() if
/// there was any.
llvm::FailureOr<RuleFile> parseRuleFile(mlir::MLIRContext *ctx,
                                        llvm::StringRef contents,
                                        llvm::StringRef path);

/// Reads `path` and parses it; "cannot open rule file '<path>'" on I/O error.
llvm::FailureOr<RuleFile> loadRuleFile(mlir::MLIRContext *ctx,
                                       llvm::StringRef path);

/// The autograd dispatch keys accepted under `dispatch:` (Default and
/// PyTorch's AUTOGRAD_KEYS).
bool isKnownDispatchKey(llvm::StringRef key);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_RULEFILE_H
