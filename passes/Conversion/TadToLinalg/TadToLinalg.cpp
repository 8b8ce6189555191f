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
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

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

/// A linalg contraction converts its operands to the accumulator's type
/// itself, so an exact extension in front of it (tad-widen-low-precision's
/// f32 operands of a bf16 product) is dropped: the contraction reads the
/// bf16 tensor and accumulates in f32, which the CPU schedule turns into
/// bf16 dot products.
template <typename ContractionOp>
void foldExtensions(ContractionOp op) {
  SmallVector<Value> inputs;
  bool folded = false;
  for (Value input : op.getDpsInputs()) {
    Value narrow = lowering::extendedTensor(input);
    folded |= bool(narrow);
    inputs.push_back(narrow ? narrow : input);
  }
  if (!folded)
    return;
  // Rebuilt, not updated: the body's block arguments have the operands'
  // element types.
  OpBuilder b(op);
  auto rebuilt = ContractionOp::create(b, op.getLoc(), op->getResultTypes(),
                                       inputs, op.getDpsInits(),
                                       linalg::getPrunedAttributeList(op));
  op->replaceAllUsesWith(rebuilt);
  op->erase();
}

void foldExtensionsIntoContractions(ModuleOp module) {
  module.walk([](Operation *op) {
    TypeSwitch<Operation *>(op)
        .Case<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::MatvecOp,
              linalg::DotOp>([](auto contraction) {
          foldExtensions(contraction);
        });
  });
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
                           memref::MemRefDialect, func::FuncDialect,
                           scf::SCFDialect>();

    RewritePatternSet patterns(ctx);
    lowering::populateElementwisePatterns(patterns);
    lowering::populateMatmulPatterns(patterns);
    lowering::populateReductionPatterns(patterns);
    lowering::populateShapePatterns(patterns);
    lowering::populateNNPatterns(patterns);
    lowering::populateConvPatterns(patterns, directConvolutions, im2colLimitMiB);
    lowering::populateExtremaAndStatisticsPatterns(patterns);
    lowering::populateViewsAndSlicesPatterns(patterns);
    lowering::populateIndexingPatterns(patterns, serialScatters);
    lowering::populateActivationPatterns(patterns);
    lowering::populateGammaPatterns(patterns);
    lowering::populateLinearAlgebraPatterns(patterns, runtimeCalls);
    lowering::populateCollectivePatterns(patterns, runtimeCalls);

    if (failed(applyPartialConversion(module, target, std::move(patterns))) ||
        !shapesOk)
      return signalPassFailure();
    foldExtensionsIntoContractions(module);
  }
};

} // namespace
