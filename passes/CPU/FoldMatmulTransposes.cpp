//===- FoldMatmulTransposes.cpp - read transposed operands in place -------===//
//
// See TadFoldMatmulTransposesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/HostMachine.h"
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

/// Makes `op` read its input `i`, a transpose, from the transpose's input:
/// the operand's dimension d is the input's dimension permutation[d], so the
/// input's dimension j is indexed by what indexed the operand's dimension
/// inverse[j].
template <typename OpTy>
void readThroughTranspose(OpTy op, unsigned i, linalg::TransposeOp transpose,
                          PatternRewriter &rewriter) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[i] = AffineMap::get(
      maps[i].getNumDims(), 0,
      applyPermutation(maps[i].getResults(),
                       invertPermutationVector(transpose.getPermutation())),
      op.getContext());
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    op->setOperand(i, transpose.getInput());
  });
}

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
    readThroughTranspose(op, 0, transpose, rewriter);
    return success();
  }
};

/// Folds a `linalg.transpose` of the last two dimensions into the B operand
/// of a bf16 x bf16 -> f32 `linalg.matmul` or `linalg.batch_matmul`: the
/// bf16 kernels (passes/CPU/Bf16Matmul.cpp) pack B into k-pair panels from
/// either layout, so B^T is read once instead of written and read again.
template <typename OpTy>
struct FoldTransposedBf16Rhs : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    auto elementType = [](Value v) {
      return cast<ShapedType>(v.getType()).getElementType();
    };
    if (!elementType(op.getInputs()[0]).isBF16() ||
        !elementType(op.getInputs()[1]).isBF16() ||
        !elementType(op.getOutputs()[0]).isF32())
      return rewriter.notifyMatchFailure(op, "not a bf16 product");
    auto transpose = op.getInputs()[1].template getDefiningOp<
        linalg::TransposeOp>();
    if (!transpose || !transpose.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "B is no transpose");
    // Only the swap of the last two dimensions: the kernels read B as
    // (n, k) or (k, n) per batch.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    unsigned rank = permutation.size();
    for (unsigned i = 0; i + 2 < rank; ++i)
      if (permutation[i] != int64_t(i))
        return rewriter.notifyMatchFailure(op, "moves the batch dimension");
    if (permutation[rank - 2] != int64_t(rank) - 1 ||
        permutation[rank - 1] != int64_t(rank) - 2)
      return rewriter.notifyMatchFailure(op, "not a matrix transpose");
    readThroughTranspose(op, 1, transpose, rewriter);
    return success();
  }
};

struct TadFoldMatmulTransposesPass
    : tad::impl::TadFoldMatmulTransposesPassBase<TadFoldMatmulTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldTransposedLhs<linalg::MatmulOp>,
                 FoldTransposedLhs<linalg::BatchMatmulOp>>(&getContext());
    const tad::HostMachine &host = tad::hostMachine();
    if (bf16Rhs > 0 || (bf16Rhs < 0 && (host.amxBf16 || host.bf16Dot)))
      patterns.add<FoldTransposedBf16Rhs<linalg::MatmulOp>,
                   FoldTransposedBf16Rhs<linalg::BatchMatmulOp>>(
          &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
