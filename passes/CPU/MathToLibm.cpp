//===- MathToLibm.cpp - libm calls where LLVM's lowering loses digits -----===//
//
// See TadMathToLibmPass in Passes.td: upstream's math-to-llvm lowers
// math.expm1 to exp(x) - 1 and math.log1p to log(1 + x), which lose every
// digit of a small x (expm1(1e-300) = 0), so those two become libm calls
// first. f32 ops in vectorized loops have been approximated accurately
// before (tad-approximate-math); what is left is scalar or f64.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADMATHTOLIBMPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether libm has `op`'s function for its element type (f32: expm1f,
/// f64: expm1; other types keep LLVM's lowering).
bool hasLibmFunction(Operation *op) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  return element.isF32() || element.isF64();
}

struct TadMathToLibmPass
    : tad::impl::TadMathToLibmPassBase<TadMathToLibmPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<math::ExpM1Op, math::Log1pOp>(
        [](Operation *op) { return !hasLibmFunction(op); });
    RewritePatternSet patterns(ctx);
    // Upstream's patterns for every libm function; only the two illegal
    // ops are converted (vectors one element at a time).
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
