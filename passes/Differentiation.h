//===- Differentiation.h - shared pieces of the VJP and JVP passes -*- C++ -*-===//
#ifndef TAD_PASSES_DIFFERENTIATION_H
#define TAD_PASSES_DIFFERENTIATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <string>

namespace mlir::tad {

/// Argument attribute that excludes a float argument from differentiation.
inline constexpr llvm::StringLiteral kNonDifferentiableAttr = "tad.nondiff";

/// Whether argument `index` of `func` gets a gradient/tangent: a float
/// ranked tensor not marked `tad.nondiff`.
bool isDifferentiableArgument(func::FuncOp func, unsigned index);

/// Whether `type` is a float ranked tensor (what cotangents and tangents
/// exist for).
bool isFloatTensor(Type type);

/// The primal functions to differentiate, in order: each name in `names`
/// (an error if missing), then every function `f` that has a bodiless
/// declaration `f<suffix>` (the program asks for the derivative by calling
/// it). Reports errors on the module.
FailureOr<SmallVector<std::string>>
collectDerivativeTargets(ModuleOp module, ArrayRef<std::string> names,
                         StringRef suffix);

/// Checks that `primal` can be differentiated (one block, no calls, no
/// region ops).
LogicalResult checkDifferentiable(func::FuncOp primal);

/// Creates the empty derivative function `name` of `type` next to
/// `primal`, replacing a bodiless declaration of the same name (whose type
/// must match and whose visibility is kept).
FailureOr<func::FuncOp> createDerivativeFunction(SymbolTable &symbols,
                                                 func::FuncOp primal,
                                                 StringRef name,
                                                 FunctionType type);

/// A zero tensor of `type` (a splat tad.constant).
Value createZeros(OpBuilder &b, Location loc, Type type);

} // namespace mlir::tad

#endif // TAD_PASSES_DIFFERENTIATION_H
