//===- ApproximateMath.cpp - polynomial approximations of math ops --------===//
//
// See TadApproximateMathPass in Passes.td: f32 tanh/exp/log/erf... become
// arithmetic (upstream's polynomial approximations), so that loops over them
// vectorize instead of calling libm once per element.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

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

struct TadApproximateMathPass
    : tad::impl::TadApproximateMathPassBase<TadApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
