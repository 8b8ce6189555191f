//===- AccumulateProducts.cpp - x + A @ B as a product accumulating into x -===//
//
// See TadAccumulateProductsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADACCUMULATEPRODUCTSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether `generic` is `out[i] = a[i] + b[i]` over same-shaped tensors.
static bool isElementwiseSum(linalg::GenericOp generic) {
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block &body = generic.getRegion().front();
  if (!body.getArgument(2).use_empty() ||
      !llvm::hasSingleElement(body.without_terminator()))
    return false;
  auto add = dyn_cast<arith::AddFOp>(body.front());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (!add || yield.getValues().size() != 1 ||
      yield.getValues()[0] != add.getResult())
    return false;
  Value lhs = add.getLhs(), rhs = add.getRhs();
  return (lhs == body.getArgument(0) && rhs == body.getArgument(1)) ||
         (lhs == body.getArgument(1) && rhs == body.getArgument(0));
}

/// `sum(x, P)` where P is a product into zeros used only by the sum becomes
/// the product into x: a matmul adds to its init.
template <typename ProductOp>
struct AccumulateIntoAddend : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseSum(generic))
      return rewriter.notifyMatchFailure(generic, "not an elementwise sum");
    Type type = generic.getResult(0).getType();
    for (unsigned index : {0u, 1u}) {
      Value addend = generic.getDpsInputs()[1 - index];
      auto product =
          generic.getDpsInputs()[index].template getDefiningOp<ProductOp>();
      if (!product || !product->hasOneUse() ||
          !product.hasPureTensorSemantics() || addend.getType() != type ||
          product->getResult(0).getType() != type)
        continue;
      auto fill =
          product.getDpsInits()[0].template getDefiningOp<linalg::FillOp>();
      if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
        continue;
      // Built where the sum was: the addend may be defined after the product.
      Operation *accumulated = rewriter.clone(*product);
      rewriter.modifyOpInPlace(accumulated, [&] {
        cast<ProductOp>(accumulated).getDpsInitsMutable()[0].assign(addend);
      });
      rewriter.replaceOp(generic, accumulated->getResults());
      rewriter.eraseOp(product);
      return success();
    }
    return rewriter.notifyMatchFailure(generic, "no zero-init product term");
  }
};

struct TadAccumulateProductsPass
    : tad::impl::TadAccumulateProductsPassBase<TadAccumulateProductsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AccumulateIntoAddend<linalg::MatmulOp>,
                 AccumulateIntoAddend<linalg::BatchMatmulOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
