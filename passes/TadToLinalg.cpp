//===- TadToLinalg.cpp - the tad-to-linalg pass ---------------------------===//
//
// Lowers every tad op to linalg, tensor, arith and math on tensors with the
// dialect conversion framework. The tad dialect is illegal, so an op without
// a lowering is reported as "failed to legalize operation 'tad.<op>'" at its
// location. The patterns live in TadToLinalg{Elementwise,Matmul,Reduction,
// Shape}.cpp, the IR builders they share in TadToLinalgUtils.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/TadToLinalgPatterns.h"

#include "dialects/Tad/TadDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tad {
#define GEN_PASS_DEF_CONVERTTADTOLINALGPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// The lowering builds static tensor.empty and reshapes: reports each tad op
/// with a dynamic dimension instead of producing invalid IR.
LogicalResult checkStaticShapes(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() != TadDialect::getDialectNamespace())
      return;
    for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                        llvm::to_vector(op->getResultTypes()))) {
      auto shaped = dyn_cast<ShapedType>(type);
      if (shaped && !shaped.hasStaticShape()) {
        op->emitOpError("tad-to-linalg requires static shapes, got ") << type;
        ok = false;
        return;
      }
    }
  });
  return success(ok);
}

struct ConvertTadToLinalgPass
    : tad::impl::ConvertTadToLinalgPassBase<ConvertTadToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkStaticShapes(module)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TadDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect>();

    RewritePatternSet patterns(ctx);
    lowering::populateElementwisePatterns(patterns);
    lowering::populateMatmulPatterns(patterns);
    lowering::populateReductionPatterns(patterns);
    lowering::populateShapePatterns(patterns);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
