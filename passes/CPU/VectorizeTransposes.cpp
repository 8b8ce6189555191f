//===- VectorizeTransposes.cpp - transposes as register-tile shuffles -----===//
//
// See TadVectorizeTransposesPass in Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/HostMachine.h"
#include "passes/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADVECTORIZETRANSPOSESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Tiles above this many elements are not ours (a tiling that failed).
constexpr int64_t kMaxTileElements = 32 * 32;

struct TadVectorizeTransposesPass
    : tad::impl::TadVectorizeTransposesPassBase<TadVectorizeTransposesPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// `loop` (no results) as an scf.parallel with the same bounds and body.
void parallelize(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()},
      [&](OpBuilder &b, Location, ValueRange ivs) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), ivs[0]);
        for (Operation &op : loop.getBody()->without_terminator())
          b.clone(op, mapping);
      });
  rewriter.eraseOp(loop);
}

/// A transpose of bf16/f16 vectors moves bits: done on i16 vectors, whose
/// shuffles the x86 backend selects (it cannot promote bf16 ones).
struct TransposeHalfFloatsAsIntegers : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    Type element = type.getElementType();
    if (!element.isBF16() && !element.isF16())
      return failure();
    Location loc = op.getLoc();
    Type i16 = rewriter.getI16Type();
    Value bits = vector::BitCastOp::create(rewriter, loc, type.clone(i16),
                                           op.getVector());
    Value moved = vector::TransposeOp::create(rewriter, loc, bits,
                                              op.getPermutation());
    rewriter.replaceOpWithNewOp<vector::BitCastOp>(op, op.getResultVectorType(),
                                                   moved);
    return success();
  }
};

/// Tiles `op` so that each tile transposes a lanes x lanes block (smaller
/// where a dimension is); ops it cannot tile stay as they are (scalar loops
/// later). With `minParallel` > 0, the outermost tile loop of a transpose
/// of at least that many elements runs in parallel.
void tileTranspose(RewriterBase &rewriter, linalg::TransposeOp op,
                   int64_t vectorBits, int64_t minParallel) {
  ArrayRef<int64_t> perm = op.getPermutation();
  auto initType = dyn_cast<MemRefType>(op.getInit().getType());
  if (!op.hasPureBufferSemantics() || !initType ||
      !initType.hasStaticShape() ||
      cast<MemRefType>(op.getInput().getType()).getNumDynamicDims() != 0)
    return;
  unsigned rank = perm.size();
  if (rank < 2 || perm.back() == int64_t(rank) - 1)
    return; // the innermost dimension stays: rows are copied whole
  Type elemType = initType.getElementType();
  if (!elemType.isIntOrFloat() || elemType.getIntOrFloatBitWidth() % 8)
    return;
  int64_t lanes =
      std::max<int64_t>(2, vectorBits / elemType.getIntOrFloatBitWidth());

  // The loops are the output's dimensions: `rows` is the one the input's
  // innermost dimension goes to, `cols` the output's innermost.
  unsigned cols = rank - 1;
  unsigned rows = llvm::find(perm, int64_t(rank) - 1) - perm.begin();
  ArrayRef<int64_t> shape = initType.getShape();
  SmallVector<OpFoldResult> sizes(rank, rewriter.getIndexAttr(1));
  int64_t rowTile = std::min(lanes, shape[rows]);
  int64_t colTile = std::min(lanes, shape[cols]);
  sizes[rows] = rewriter.getIndexAttr(rowTile);
  sizes[cols] = rewriter.getIndexAttr(colTile);

  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return;
  rewriter.eraseOp(op);

  // Peel the tile loops that do not divide (cols first: it is inner), so
  // that every tile has a static shape.
  SmallVector<scf::ForOp> loops;
  for (LoopLikeOpInterface loop : tiled->loops)
    if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
      loops.push_back(forOp);
  auto loopOf = [&](unsigned dim, int64_t tile) -> scf::ForOp {
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      if (step == tile && ub == shape[dim])
        return loop;
    }
    return nullptr;
  };
  if (shape[cols] % colTile != 0)
    if (scf::ForOp loop = loopOf(cols, colTile)) {
      scf::ForOp partial;
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
    }
  if (shape[rows] % rowTile != 0)
    if (scf::ForOp loop = loopOf(rows, rowTile)) {
      scf::ForOp partial;
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
    }
  // The outermost loop (peeled, it is the main part) of a large transpose.
  if (minParallel > 0 && initType.getNumElements() >= minParallel &&
      !loops.empty()) {
    scf::ForOp outer = loops.front();
    std::optional<int64_t> lb = getConstantIntValue(outer.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(outer.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(outer.getStep());
    if (lb && ub && step && *ub - *lb >= 2 * *step)
      parallelize(rewriter, outer);
  }
}

void TadVectorizeTransposesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();
  int64_t bits =
      vectorBits ? int64_t(vectorBits) : tad::hostMachine().vectorBits;

  SmallVector<linalg::TransposeOp> transposes;
  func.walk([&](linalg::TransposeOp op) { transposes.push_back(op); });
  if (transposes.empty())
    return;
  IRRewriter rewriter(ctx);
  for (linalg::TransposeOp op : transposes)
    tileTranspose(rewriter, op, bits, parallel ? int64_t(minParallelElements) : 0);

  // The peeled bounds fold into static subviews (and tile types).
  OpPassManager canonicalize(func::FuncOp::getOperationName());
  canonicalize.addPass(createCanonicalizerPass());
  if (failed(runPipeline(canonicalize, func)))
    return signalPassFailure();

  // Every small static transpose is a tile (or was that small already).
  // The canonicalizer leaves memref.casts to the tiling's dynamic types
  // (linalg.transpose does not fold them): the tile reads the static views.
  SmallVector<linalg::TransposeOp> tiles;
  func.walk([&](linalg::TransposeOp op) {
    for (OpOperand &operand : op->getOpOperands())
      if (auto cast = operand.get().getDefiningOp<memref::CastOp>())
        if (cast.getSource().getType().hasStaticShape())
          operand.set(cast.getSource());
    auto in = dyn_cast<MemRefType>(op.getInput().getType());
    auto out = dyn_cast<MemRefType>(op.getInit().getType());
    if (in && out && in.hasStaticShape() && out.hasStaticShape() &&
        out.getNumElements() <= kMaxTileElements)
      tiles.push_back(op);
  });
  for (linalg::TransposeOp tile : tiles) {
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, tile);
    if (succeeded(result))
      rewriter.eraseOp(tile);
  }

  // Transposed reads become a row-wise read and a vector.transpose; subviews
  // fold into the transfers; rows are single vector loads and stores; the
  // 2-D transpose becomes shuffles (the 16x16 f32 one as AVX-512's
  // two-source shuffle network).
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    vector::populateDropUnitDimWithShapeCastPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    patterns.add<TransposeHalfFloatsAsIntegers>(ctx, /*benefit=*/2);
    VectorTransferToSCFOptions toScf;
    toScf.setTargetRank(1).enableFullUnroll(true);
    populateVectorToSCFConversionPatterns(patterns, toScf);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    // Not converging within the iteration limit is no error: the IR is
    // valid after every rewrite.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
}

} // namespace
