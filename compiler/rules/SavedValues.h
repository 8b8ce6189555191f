//===- SavedValues.h - what a VJP needs from the forward --------*- C++ -*-===//
//
// Decides from the backward formulas of a rule which primal tensors (inputs
// and outputs of the op) the VJP reads as values and which it reads only for
// metadata. PyTorch's rule (load_derivatives.py): an expression that needs
// only sizes, dtype, options, numel... of a tensor saves that metadata, not
// the tensor; any other reference saves the tensor. tad's binder folds
// metadata to compile-time constants, so a tensor read only for metadata
// never appears in the emitted backward; RuleSet::emitVJP enforces this by
// binding such tensors as metadata-only values.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_SAVEDVALUES_H
#define TAD_COMPILER_RULES_SAVEDVALUES_H

#include "compiler/rules/RuleFile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tad::rules {

/// How backward formulas read one primal tensor; ordered by strength.
enum class ValueUse { None = 0, Metadata = 1, Value = 2 };

llvm::StringRef stringifyValueUse(ValueUse use);

struct SavedValues {
  /// Every tensor-like input and output of the schema, inputs first, in
  /// schema order, with the strongest use over the analyzed formulas.
  std::vector<std::pair<std::string, ValueUse>> uses;

  ValueUse lookup(llvm::StringRef name) const;
  /// The names read as values: what the VJP keeps alive.
  std::vector<std::string> saved() const;
  /// The names read only for their metadata.
  std::vector<std::string> metadataOnly() const;
};

/// Helpers by name (rules/helpers.yaml and --rules files); the analysis
/// follows calls into their bodies.
using HelperMap = llvm::StringMap<const HelperEntry *>;

/// Analyzes the backward formulas of `entry` that run when the gradients of
/// the inputs named in `wanted` are requested (null: every input that has a
/// formula). As in RuleSet::emitVJP, a key runs when one of its names is
/// wanted, and its `grad_input_mask` is known. Conditions that are static
/// without the op (grad_input_mask[i], true/false, GradMode::is_enabled(),
/// retain_variables, and !, &&, || of those) select one branch of a ternary;
/// otherwise both branches count.
SavedValues analyzeSavedValues(const RuleEntry &entry,
                               const HelperMap &helpers,
                               const llvm::StringSet<> *wanted = nullptr);

/// `x.name(...)` reads only metadata of `x` (sym_sizes, dim, options, ...).
bool isMetadataMethod(llvm::StringRef name);
/// `name(x, ...)` reads only metadata of its first argument (zeros_like,
/// TensorGeometry, to_args_sizes, to_args_scalartypes).
bool isMetadataFunction(llvm::StringRef name);
/// `x.name(y)` reads only metadata of `y` (expand_as, view_as, reshape_as:
/// the binder reads y's static shape).
bool isShapeOfArgumentMethod(llvm::StringRef name);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_SAVEDVALUES_H
