//===- FuseElementwise.cpp - elementwise fusion that keeps contractions ---===//
//
// See TadFuseElementwisePass in Passes.td: upstream's elementwise fusion,
// except that nothing is fused into a contraction.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADFUSEELEMENTWISEPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Fuse a single-use producer into its consumer unless the consumer is a
/// named op, a convolution (the direct weight gradient, which
/// tad-vectorize-convolutions matches) or has reduction loops over a
/// product (a contraction): fusing
/// into a matmul recomputes the producer once per output column and turns
/// the named op into a generic that tad-vectorize-contractions cannot
/// schedule. Reductions of elementwise expressions (sum(x * y)) still fuse.
bool shouldFuse(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  if (!consumer || !isa<linalg::GenericOp>(consumer))
    return false;
  return !linalg::isaContractionOpInterface(consumer) &&
         !linalg::isaConvolutionOpInterface(consumer);
}

struct TadFuseElementwisePass
    : tad::impl::TadFuseElementwisePassBase<TadFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, shouldFuse);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
