//===- TadToLinalg.cpp - the tad-to-linalg pass ---------------------------===//
//
// Lowers every tad op to linalg, tensor, arith and math on tensors with the
// dialect conversion framework. The tad dialect is illegal, so an op without
// a lowering is reported as "failed to legalize operation 'tad.<op>'" at its
// location. The patterns live in one file per op family,
// TadToLinalg<Family>.cpp; the IR builders they share in TadToLinalgUtils.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/Passes.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadDialect.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tad {
#define GEN_PASS_DEF_CONVERTTADTOLINALGPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// Explains why a tad op with a dynamic shape will fail to legalize (the
/// lowerings build static tensor.empty ops and reshapes).
LogicalResult checkStaticShapes(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!isa_and_present<TadDialect>(op->getDialect()) ||
        isa<ZerosLikeOp>(op) || lowering::hasStaticShapes(op) ||
        lowering::lowersDynamicShapes(op))
      return;
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      auto shaped = dyn_cast<ShapedType>(type);
      if (shaped && !shaped.hasStaticShape()) {
        op->emitOpError("tad-to-linalg does not lower this op with dynamic "
                        "shapes (docs/dynamic-shapes.md lists those it does), "
                        "got ")
            << type;
        break;
      }
    }
    ok = false;
  });
  return success(ok);
}

struct ConvertTadToLinalgPass
    : tad::impl::ConvertTadToLinalgPassBase<ConvertTadToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Reported first, the reason precedes the conversion's own
    // "failed to legalize" error for the same op.
    bool shapesOk = succeeded(checkStaticShapes(module));

    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TadDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           bufferization::BufferizationDialect,
                           memref::MemRefDialect, func::FuncDialect>();

    RewritePatternSet patterns(ctx);
    lowering::populateElementwisePatterns(patterns);
    lowering::populateMatmulPatterns(patterns);
    lowering::populateReductionPatterns(patterns);
    lowering::populateShapePatterns(patterns);
    lowering::populateNNPatterns(patterns);
    lowering::populateConvPatterns(patterns, directConvolutions);
    lowering::populateExtremaAndStatisticsPatterns(patterns);
    lowering::populateViewsAndSlicesPatterns(patterns);
    lowering::populateIndexingPatterns(patterns);
    lowering::populateActivationPatterns(patterns);
    lowering::populateGammaPatterns(patterns);
    lowering::populateLinearAlgebraPatterns(patterns, runtimeCalls);
    lowering::populateCollectivePatterns(patterns, runtimeCalls);

    if (failed(applyPartialConversion(module, target, std::move(patterns))) ||
        !shapesOk)
      signalPassFailure();
  }
};

} // namespace
