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
  /// (line, col) in the file of each byte offset of `text` (and of its end),
  /// following quotes, escapes and folded lines; empty when not from a file.
  std::vector<std::pair<unsigned, unsigned>> positions;

  /// The file position of byte `offset` of the formula (of an Expr::offset).
  SourceLoc locOf(size_t offset) const;
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

/// What the loader found for one item of a rule file, whether or not it
/// loaded: for `tadc --check-rules` and the fuzzer.
struct EntryReport {
  SourceLoc loc;            // of the `name:` key (or of the item)
  std::string name;         // the schema text as written; "" if absent
  bool isHelper = false;    // a helpers.yaml item (`formula:` key)
  bool schemaParsed = false;
  /// Formula values (every key's value except `non_differentiable`, all
  /// dispatch blocks, a helper's body) and how many of them parsed.
  unsigned formulasTotal = 0, formulasParsed = 0;
  /// Errors reported while loading this item.
  unsigned errors = 0;
  /// Index into RuleFile::entries (or ::helpers) if it loaded, else -1.
  int index = -1;
};

struct RuleFileReport {
  std::vector<EntryReport> entries;
  /// Errors that belong to no item (YAML syntax, structure).
  unsigned fileErrors = 0;
};

/// Parses a derivatives.yaml-format file (a YAML sequence of mappings) and/or
/// a helpers file; an entry with a `formula:` key is a helper. Reports every
/// error found as an MLIR diagnostic at file:line:col and returns failure() if
/// there was any.
llvm::FailureOr<RuleFile> parseRuleFile(mlir::MLIRContext *ctx,
                                        llvm::StringRef contents,
                                        llvm::StringRef path);

/// Like parseRuleFile, but keeps what loaded even when there are errors (an
/// entry whose schema parses is kept with its valid keys) and, if `report` is
/// given, fills it with one EntryReport per item.
llvm::LogicalResult parseRuleFileInto(mlir::MLIRContext *ctx,
                                      llvm::StringRef contents,
                                      llvm::StringRef path, RuleFile &file,
                                      RuleFileReport *report = nullptr);

/// Reads `path` and parses it; "cannot open rule file '<path>'" on I/O error.
llvm::FailureOr<RuleFile> loadRuleFile(mlir::MLIRContext *ctx,
                                       llvm::StringRef path);

/// The autograd dispatch keys accepted under `dispatch:` (Default and
/// PyTorch's AUTOGRAD_KEYS).
bool isKnownDispatchKey(llvm::StringRef key);

/// Named constants a formula may use without binding them (M_PI, M_LN2,
/// at::Reduction::Mean, c10::MemoryFormat::Contiguous, ...); the binder
/// evaluates each of them.
bool isFormulaConstant(llvm::StringRef name);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_RULEFILE_H
