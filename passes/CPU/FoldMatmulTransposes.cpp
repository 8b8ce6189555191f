//===- FoldMatmulTransposes.cpp - read a transposed A in place ------------===//
//
// See TadFoldMatmulTransposesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADFOLDMATMULTRANSPOSESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Folds `linalg.transpose` into the A operand of a `linalg.matmul` or
/// `linalg.batch_matmul` on tensors: the contraction reads the transpose's
/// input through a permuted indexing map. Only A: the register tiles read
/// an mr-long column of A per k (consecutive once A is transposed) but an
/// nr-wide row of B, which a transposed B would turn into a strided gather.
template <typename OpTy>
struct FoldTransposedLhs : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    auto transpose = op.getInputs()[0].template getDefiningOp<
        linalg::TransposeOp>();
    if (!transpose || !transpose.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "A is no transpose");
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    // A batch dimension stays in front: the schedule tiles it one by one.
    if (isa<linalg::BatchMatmulOp>(op.getOperation()) && permutation[0] != 0)
      return rewriter.notifyMatchFailure(op, "moves the batch dimension");
    // A's dimension i is the input's dimension permutation[i], so the
    // input's dimension j is indexed by what indexed A's dimension
    // inverse[j].
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[0] = AffineMap::get(
        maps[0].getNumDims(), 0,
        applyPermutation(maps[0].getResults(),
                         invertPermutationVector(permutation)),
        op.getContext());
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      op->setOperand(0, transpose.getInput());
    });
    return success();
  }
};

struct TadFoldMatmulTransposesPass
    : tad::impl::TadFoldMatmulTransposesPassBase<TadFoldMatmulTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldTransposedLhs<linalg::MatmulOp>,
                 FoldTransposedLhs<linalg::BatchMatmulOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
