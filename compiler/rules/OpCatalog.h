//===- OpCatalog.h - tad ops indexed by their ATen schemas ------*- C++ -*-===//
//
// The rule engine never names an op's C++ class: it finds ops by the ATen
// schema each one declares (AtenOpInterface) and builds them generically.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_OPCATALOG_H
#define TAD_COMPILER_RULES_OPCATALOG_H

#include "compiler/rules/Schema.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

namespace mlir::tad::rules {

/// A run of an op's operands (or results) that one schema argument (or
/// return) stands for: one for `Tensor`, zero or one for `Tensor?`, any
/// number for `Tensor[]`.
struct ValueGroup {
  unsigned position; // index into schema.arguments (or schema.returns)
  unsigned start, size;
};

/// One registered tad op and the schema it implements.
struct CatalogOp {
  RegisteredOperationName name;
  Schema schema;
  /// Schema arguments that are tensors, in order: the op's operand groups.
  std::vector<unsigned> operandArguments;

  bool hasAttribute(llvm::StringRef argName) const;

  /// How `op`'s operands split into the tensor arguments of the schema
  /// (from `operandSegmentSizes` when the op has it). Fails if the split is
  /// ambiguous.
  FailureOr<SmallVector<ValueGroup>> operandGroups(Operation *op) const;
  /// How `op`'s results split into the schema's returns.
  FailureOr<SmallVector<ValueGroup>> resultGroups(Operation *op) const;
};

class OpCatalog {
public:
  /// Indexes every registered op of the tad dialect.
  static llvm::FailureOr<OpCatalog> build(MLIRContext *context);

  /// The op implementing `fullName` ("add.Tensor", "relu"), or null.
  const CatalogOp *lookup(llvm::StringRef fullName) const;
  /// The op that `op` is, or null if it is not a tad op.
  const CatalogOp *lookup(Operation *op) const;
  /// Every overload with this base name ("add" -> add.Tensor, add.Scalar).
  llvm::ArrayRef<const CatalogOp *> overloads(llvm::StringRef baseName) const;

private:
  std::vector<std::unique_ptr<CatalogOp>> ops;
  llvm::StringMap<const CatalogOp *> byFullName;
  llvm::StringMap<std::vector<const CatalogOp *>> byBaseName;
};

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_OPCATALOG_H
