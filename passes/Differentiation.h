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

/// Whether a value of `type` can carry a derivative: a float tensor with
/// elements. Zero-size tensors (valid, as in PyTorch) carry none, so no rule
/// is ever applied to one: their gradients and tangents are empty zeros.
bool carriesDerivative(Type type);

/// The primal functions to differentiate, in order: each name in `names`
/// (an error if missing), then every function `f` that has a bodiless
/// declaration `f<suffix>` (the program asks for the derivative by calling
/// it).
SmallVector<std::string>
collectDerivativeTargets(ModuleOp module, ArrayRef<std::string> names,
                         StringRef suffix);

/// Runs `differentiate` on each target of collectDerivativeTargets, in
/// order; a named function that does not exist is an error ("--vjp: no
/// function named 'f'" for suffix "_vjp").
LogicalResult differentiateTargets(
    ModuleOp module, ArrayRef<std::string> names, StringRef suffix,
    function_ref<LogicalResult(SymbolTable &, func::FuncOp)> differentiate);

/// The positions that carry derivatives: the differentiable arguments and
/// the float results of a primal function.
struct DerivativeSignature {
  SmallVector<unsigned> args;
  SmallVector<unsigned> results;

  static DerivativeSignature of(func::FuncOp primal);
};

/// Checks that `primal` can be differentiated (one block, no calls, no
/// region ops).
LogicalResult checkDifferentiable(func::FuncOp primal);

/// Creates the empty derivative function `name` of `type` next to
/// `primal`, replacing a bodiless declaration of the same name (whose type
/// must match and whose visibility is kept unless `requested`: a derivative
/// asked for by name is exported).
FailureOr<func::FuncOp> createDerivativeFunction(SymbolTable &symbols,
                                                 func::FuncOp primal,
                                                 StringRef name,
                                                 FunctionType type,
                                                 bool requested);

/// A zero tensor of `type` (a splat tad.constant).
Value createZeros(OpBuilder &b, Location loc, Type type);

} // namespace mlir::tad

#endif // TAD_PASSES_DIFFERENTIATION_H
