//===- Differentiation.h - shared pieces of the VJP and JVP passes -*- C++ -*-===//
#ifndef TAD_PASSES_AD_DIFFERENTIATION_H
#define TAD_PASSES_AD_DIFFERENTIATION_H

#include "passes/AD/Checkpoint.h"
#include "passes/AD/DerivativeRules.h"
#include "passes/AD/ExpandWhile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

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
/// region ops but scf.for, scf.while and scf.if, no memrefs).
LogicalResult checkDifferentiable(func::FuncOp primal);

class Activity;
/// Checks that no scalar float (which carries no derivative) depends on an
/// active value: its derivative would be dropped silently.
LogicalResult checkActiveValues(Block &block, const Activity &activity);

/// Reverse mode (@f_vjp) or forward mode (@f_jvp).
enum class DerivativeMode { Reverse, Forward };

/// A derivative function with an empty entry block. Its arguments are the
/// primal's, then one seed per derivative position: in reverse mode the
/// cotangent of each float result, in forward mode the tangent of each
/// differentiable argument. Its results are the primal's, then the
/// derivatives: the gradient of each differentiable argument, or the
/// tangent of each float result.
struct DerivativeFunction {
  func::FuncOp func;
  DerivativeSignature signature;
  DerivativeMode mode = DerivativeMode::Reverse;
  /// The primal's arguments to the entry block's leading arguments.
  IRMapping mapping;
  unsigned numPrimalArguments = 0;

  Block &getEntryBlock() { return func.getBody().front(); }
  /// Seed `position` (an argument after the primal's).
  Value getSeed(unsigned position) {
    return getEntryBlock().getArgument(numPrimalArguments + position);
  }
  /// Ends the body with a return of `results`, one per result of the
  /// function; a null value is a symbolic zero and returns a zero tensor.
  void finish(OpBuilder &b, ArrayRef<Value> results);
};

/// Checks `primal` and creates its derivative `@<primal>_vjp` or
/// `@<primal>_jvp` next to it, replacing a bodiless declaration of the same
/// name (whose type must match and whose visibility is kept unless
/// `requested`: a derivative asked for by name is exported).
FailureOr<DerivativeFunction> createDerivativeFunction(SymbolTable &symbols,
                                                       func::FuncOp primal,
                                                       DerivativeMode mode,
                                                       bool requested);

/// A zero tensor of `type` (a splat tad.constant).
Value createZeros(OpBuilder &b, Location loc, Type type);

/// A zero tensor of `like`'s type: a constant for a static shape, else
/// tad.zeros_like of `like` (which must dominate the insertion point).
Value createZerosLike(OpBuilder &b, Location loc, Value like);

/// What tad-vjp and tad-jvp share: the rule set, loaded once in
/// initialize(), and the walk over the module's targets. For each target
/// it creates the derivative function of mode `DerivedT::kMode` and has
/// `DerivedT::buildBody(OpBuilder &, DerivativeFunction &, func::FuncOp
/// primal)` fill it; buildBody returns the values to return (null for a
/// zero). `PassBaseT` is the pass's generated base class.
template <typename DerivedT, template <typename> class PassBaseT>
class DerivativePass : public PassBaseT<DerivedT> {
public:
  template <typename... Args>
  DerivativePass(Args &&...args)
      : PassBaseT<DerivedT>(std::forward<Args>(args)...) {}

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<std::shared_ptr<DerivativeRules>> loaded =
        loadDerivativeRules(context, this->ruleFiles);
    if (failed(loaded))
      return failure();
    rules = *loaded;
    return success();
  }

  void runOnOperation() override {
    if (failed(differentiateTargets(
            this->getOperation(), this->functions,
            DerivedT::kMode == DerivativeMode::Reverse ? "_vjp" : "_jvp",
            [&](SymbolTable &symbols, func::FuncOp primal) {
              return differentiate(symbols, primal);
            })))
      this->signalPassFailure();
  }

protected:
  std::shared_ptr<DerivativeRules> rules;

private:
  LogicalResult differentiate(SymbolTable &symbols, func::FuncOp primal) {
    FailureOr<DerivativeFunction> derivative = createDerivativeFunction(
        symbols, primal, DerivedT::kMode,
        /*requested=*/llvm::is_contained(this->functions,
                                         primal.getSymName().str()));
    if (failed(derivative))
      return failure();
    // scf.while loops are differentiated in counted form (ExpandWhile.h)
    // and checkpointed loops in segments (Checkpoint.h), from a copy: the
    // primal function keeps its loops.
    func::FuncOp source = primal;
    OwningOpRef<func::FuncOp> expanded;
    if (primal->walk([](Operation *op) {
                return isa<scf::WhileOp, scf::ForOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
            .wasInterrupted()) {
      expanded = primal.clone();
      source = *expanded;
      if (failed(expandWhileLoops(source)))
        return failure();
      // What a loop body computes from values defined before the loop
      // alone (a step function's `w.t()` of a captured weight) is computed
      // once before it: the reverse sweep would store it per iteration.
      source->walk(
          [](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
      if constexpr (DerivedT::kMode == DerivativeMode::Reverse)
        if (failed(segmentCheckpointedLoops(
                source, static_cast<DerivedT &>(*this).checkpointScheme)))
          return failure();
      for (unsigned i = 0, e = source.getNumArguments(); i < e; ++i)
        derivative->mapping.map(source.getArgument(i),
                                derivative->getEntryBlock().getArgument(i));
    }
    OpBuilder b = OpBuilder::atBlockEnd(&derivative->getEntryBlock());
    FailureOr<SmallVector<Value>> results =
        static_cast<DerivedT &>(*this).buildBody(b, *derivative, source);
    if (failed(results))
      return failure();
    derivative->finish(b, *results);
    return success();
  }
};

} // namespace mlir::tad

#endif // TAD_PASSES_AD_DIFFERENTIATION_H
