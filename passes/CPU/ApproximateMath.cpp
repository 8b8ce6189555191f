//===- ApproximateMath.cpp - polynomial approximations of math ops --------===//
//
// See TadApproximateMathPass in Passes.td: f32 tanh/exp/log/erf... become
// arithmetic (upstream's polynomial approximations), so that loops over them
// vectorize instead of calling libm once per element.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADAPPROXIMATEMATHPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The ops whose upstream approximations are accurate to a few ulp over the
/// whole f32 range (MLIR's test/mlir-runner/math-polynomial-approx.mlir);
/// the trigonometric ones reduce their argument only roughly and stay libm.
bool isApproximated(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"math.tanh", "math.exp", "math.expm1", "math.log", "math.log1p",
              "math.log2", "math.erf"},
             true)
      .Default(false);
}

/// Upstream's approximations convert their (clamped) argument to an integer
/// with `arith.fptosi`, which is poison for NaN, and clamping keeps NaN. At
/// run time the hardware's conversion happens to give a NaN result; a NaN
/// known at compile time (`a / nan` in the program) made LLVM fold the
/// result to poison and drop the store of it: a result never written. So
/// each approximated op computes on a NaN-free argument and selects its
/// NaN argument back: `isnan(x) ? x : f(isnan(x) ? 0 : x)` (each of these
/// functions maps NaN to NaN).
void guardNaNArgument(Operation *op) {
  Value x = op->getOperand(0);
  if (!getElementTypeOrSelf(x.getType()).isF32()) // f64 stays libm
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
  Value safe = arith::SelectOp::create(b, loc, isNaN, zero, x);
  op->setOperand(0, safe);
  b.setInsertionPointAfter(op);
  Value result = op->getResult(0);
  auto select = arith::SelectOp::create(b, loc, isNaN, x, result);
  result.replaceAllUsesExcept(select, select);
}

struct TadApproximateMathPass
    : tad::impl::TadApproximateMathPassBase<TadApproximateMathPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (isApproximated(op->getName().getStringRef()) &&
          op->getNumOperands() == 1 && op->getNumResults() == 1)
        guardNaNArgument(op);
    });
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
