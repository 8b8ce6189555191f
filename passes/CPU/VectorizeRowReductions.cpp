//===- VectorizeRowReductions.cpp - short rows reduced by vector loads ----===//
//
// See TadVectorizeRowReductionsPass in Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/HostMachine.h"
#include "passes/CPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADVECTORIZEROWREDUCTIONSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadVectorizeRowReductionsPass
    : tad::impl::TadVectorizeRowReductionsPassBase<
          TadVectorizeRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// Element types whose vectors load and compute like their scalars: not
/// bf16 and f16 (the x86 backend cannot always promote their vectors), and
/// not i1, whose vectors LLVM packs as bits while a memref of i1 holds a
/// byte per element (a boolean mask read as a vector<10xi1> took its bits
/// from the first two bytes: where()'s VJP came out wrong).
bool hasVectorFriendlyElements(MemRefType type) {
  Type element = type.getElementType();
  return element.isF32() || element.isF64() ||
         (element.isSignlessInteger() &&
          element.getIntOrFloatBitWidth() % 8 == 0);
}

/// Whether a float sum or product combiner may be reassociated: a vector
/// reduction adds in another order than the loop.
bool isReorderable(Operation *combiner) {
  if (!isa<arith::AddFOp, arith::MulFOp>(combiner))
    return true; // max, min and integer combiners do not round
  return bitEnumContainsAll(cast<arith::ArithFastMathInterface>(combiner)
                                .getFastMathFlagsAttr()
                                .getValue(),
                            arith::FastMathFlags::reassoc);
}

/// Whether `op` reduces short contiguous rows: a static iteration space whose
/// only reduction is the innermost loop, of `lanes` to `lanes * maxVectors`
/// iterations, every operand that varies along it read with unit stride.
bool isShortRowReduction(linalg::GenericOp op, int64_t vectorBits,
                         int64_t maxVectors) {
  unsigned loops = op.getNumLoops();
  if (!op.hasPureBufferSemantics() || loops < 2 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return false;

  AffineExpr row = getAffineDimExpr(loops - 1, op.getContext());
  unsigned widestBits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !hasVectorFriendlyElements(type))
      return false;
    widestBits = std::max(widestBits, type.getElementTypeBitWidth());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    if (!map.isFunctionOfDim(loops - 1))
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (map.getResults().back() != row ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return false;
  }
  int64_t lanes = vectorBits / std::max(widestBits, 8u);
  if (ranges.back() < lanes || ranges.back() > lanes * maxVectors)
    return false;

  SmallVector<BlockArgument> outputs(op.getRegionOutputArgs());
  for (unsigned i = 0; i < outputs.size(); ++i) {
    SmallVector<Operation *> combiners;
    if (!matchReduction(outputs, i, combiners) || combiners.size() != 1 ||
        !isReorderable(combiners.front()))
      return false;
  }
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

/// Tiles `op` into one row per tile and vectorizes each row; returns the
/// outermost tile loop, or null where nothing was vectorized (`op` as it
/// was, or its tiles as scalar loops).
scf::ForOp vectorizeRows(RewriterBase &rewriter, linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<OpFoldResult> sizes(loops, rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(0);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return nullptr;
  // The tiles compute what `op` did (on buffers: no results to replace).
  rewriter.eraseOp(op);
  auto outer = tiled->loops.empty()
                   ? scf::ForOp()
                   : dyn_cast<scf::ForOp>(tiled->loops.front().getOperation());
  if (!outer || tiled->tiledOps.size() != 1)
    return nullptr; // the tiles stay scalar loops

  // A tile of size 1 divides every loop: the tile's shapes are static.
  Operation *tile = tiled->tiledOps.front();
  rewriter.setInsertionPoint(tile);
  if (succeeded(linalg::vectorize(rewriter, tile)))
    rewriter.eraseOp(tile);
  return outer;
}

/// Lowers a vectorized row to loads of whole rows and one horizontal
/// reduction into the row's accumulator.
void lowerRow(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  RewritePatternSet patterns(ctx);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerReduction);
  vector::populateVectorTransferLoweringPatterns(patterns,
                                                 /*maxTransferRank=*/1);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
  vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
  // Not converging within the iteration limit is no error: the IR is valid
  // after every rewrite.
  (void)applyPatternsGreedily(loop, std::move(patterns));

  // The combiners were reassociable (isReorderable): so are their vector
  // reductions, which LLVM then sums as a tree instead of lane by lane.
  loop.walk([](vector::ReductionOp reduction) {
    if (isa<FloatType>(reduction.getType()))
      reduction.setFastmath(reduction.getFastmath() |
                            arith::FastMathFlags::reassoc);
  });
}

void TadVectorizeRowReductionsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  int64_t bits =
      vectorBits ? int64_t(vectorBits) : tad::hostMachine().vectorBits;

  SmallVector<linalg::GenericOp> rows;
  func.walk([&](linalg::GenericOp op) {
    if (isShortRowReduction(op, bits, maxVectors))
      rows.push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (linalg::GenericOp op : rows)
    if (scf::ForOp loop = vectorizeRows(rewriter, op))
      lowerRow(loop);
}

} // namespace
