//===- ParallelizeLoops.cpp - large loop nests on all cores ---------------===//
//
// See TadParallelizeLoopsPass in Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADPARALLELIZELOOPSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Parallel iterations to aim for: enough for any thread count to balance.
constexpr int64_t kTargetIterations = 64;
/// Fewer parallel iterations than this balance badly (5 on 2 threads: one
/// runs 3, the other waits after 2), so the next parallel dimension joins.
constexpr int64_t kMinParallelIterations = 8;
/// A tile of the innermost loop (a column reduction's only parallel
/// dimension) keeps at least this many iterations: LLVM unrolls a short
/// innermost loop completely and then vectorizes the reduction loop around
/// it with gathers (16 columns of a 4096x1024 column sum: 4x slower).
constexpr int64_t kMinInnermostTile = 128;

struct TadParallelizeLoopsPass
    : tad::impl::TadParallelizeLoopsPassBase<TadParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// The tile size for a parallel dimension of `extent` whose iterations each
/// run `inner` loop iterations: about `target` tiles of at least
/// `minPerTile` iterations, a divisor of `extent` where one is close (static
/// tiles). The search for a divisor is bounded, so compile time does not
/// grow with the extent (past a few hundred iterations per tile a remainder
/// tile costs little).
int64_t tileSize(int64_t extent, int64_t inner, int64_t minPerTile,
                 int64_t target) {
  constexpr int64_t kMaxDivisorCandidates = 256;
  int64_t tile = std::max<int64_t>(
      llvm::divideCeil(extent, target),
      llvm::divideCeil(minPerTile, std::max<int64_t>(inner, 1)));
  tile = std::min(tile, extent);
  int64_t last = std::min({extent, 2 * tile, tile + kMaxDivisorCandidates});
  for (int64_t t = tile; t <= last; ++t)
    if (extent % t == 0)
      return t;
  return tile;
}

/// The cost of one iteration of `op` in units of a copy's: the scalar ops
/// of its body over two, at least 1. Bodies of one or two ops run at memory
/// speed like a copy; a pooling window unrolled into a chain of compares
/// and selects costs as much as many iterations of one.
int64_t iterationCost(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return 1;
  int64_t ops = 0;
  generic.getBody()->walk([&](Operation *inner) {
    if (!isa<linalg::YieldOp, linalg::IndexOp>(inner))
      ++ops;
  });
  return std::max<int64_t>(ops / 2, 1);
}

/// Splits `op`, whose outermost loop is a reduction (a loss over 1-D
/// operands into a scalar; a column sum of [rows, features] into
/// [features]), into `parts` partial reductions of consecutive chunks of
/// that loop on the cores, each into its own slice of a buffer of partial
/// results [parts, output...] that starts at the combiner's neutral
/// element, and a final reduction of the partial results into the output
/// (which keeps its initial value). Fails (changing nothing) for other
/// shapes, for operands that index the loop other than as one whole
/// dimension, and for combiners without a neutral element.
LogicalResult splitOuterReduction(RewriterBase &rewriter, linalg::GenericOp op,
                                  int64_t parts) {
  // A part's loop starts at 0 again: linalg.index would name the row
  // within the chunk.
  if (op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      op.getIteratorTypesArray()[0] != utils::IteratorType::reduction)
    return failure();
  OpOperand *init = op.getDpsInitOperand(0);
  auto initType = dyn_cast<MemRefType>(init->get().getType());
  AffineMap initMap = op.getMatchingIndexingMap(init);
  if (!initType || !initMap.isProjectedPermutation() ||
      initMap.isFunctionOfDim(0))
    return failure();
  // Each input reads the loop as one of its dimensions (sliced per part)
  // or not at all (read whole by every part).
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr outerDim = getAffineDimExpr(0, ctx);
  SmallVector<std::optional<unsigned>> slicedDims;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isa<MemRefType>(input->get().getType()))
      return failure();
    std::optional<unsigned> sliced;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(0))
        continue;
      if (expr != outerDim || sliced)
        return failure();
      sliced = i;
    }
    slicedDims.push_back(sliced);
  }
  int64_t extent = op.getStaticLoopRanges()[0];
  if (ShapedType::isDynamic(extent) || extent % parts != 0)
    return failure();
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return failure();
  Operation *combiner = combiners.front();
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return failure();

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> partialsShape{parts};
  llvm::append_range(partialsShape, initType.getShape());
  auto partialsType =
      MemRefType::get(partialsShape, initType.getElementType());
  Value partials = memref::AllocOp::create(rewriter, loc, partialsType);
  Value neutralValue = arith::ConstantOp::create(rewriter, loc, *neutral);
  linalg::FillOp::create(rewriter, loc, neutralValue, partials);

  // Each part reduces its chunk into its own partial result.
  int64_t chunk = extent / parts;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, parts);
  auto loop = scf::ParallelOp::create(rewriter, loc, zero, count, one);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value part = loop.getInductionVars()[0];
  Value chunkSize = arith::ConstantIndexOp::create(rewriter, loc, chunk);
  Value offset = arith::MulIOp::create(rewriter, loc, part, chunkSize);
  OpFoldResult unit = rewriter.getIndexAttr(1);
  OpFoldResult zeroAttr = rewriter.getIndexAttr(0);
  IRMapping mapping;
  for (auto [input, sliced] :
       llvm::zip(op.getDpsInputOperands(), slicedDims)) {
    if (!sliced)
      continue;
    auto type = cast<MemRefType>(input->get().getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), zeroAttr);
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(ctx, type.getShape());
    SmallVector<OpFoldResult> strides(type.getRank(), unit);
    offsets[*sliced] = offset;
    sizes[*sliced] = rewriter.getIndexAttr(chunk);
    mapping.map(input->get(),
                memref::SubViewOp::create(rewriter, loc, input->get(),
                                          offsets, sizes, strides));
  }
  // The part's slice of the partial results, with the output's shape.
  SmallVector<OpFoldResult> offsets(partialsType.getRank(), zeroAttr);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(ctx, partialsType.getShape());
  SmallVector<OpFoldResult> strides(partialsType.getRank(), unit);
  offsets[0] = part;
  sizes[0] = unit;
  auto partialType =
      cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
          initType.getShape(), partialsType, offsets, sizes, strides));
  Value partial = memref::SubViewOp::create(rewriter, loc, partialType,
                                            partials, offsets, sizes, strides);
  mapping.map(init->get(), partial);
  rewriter.clone(*op.getOperation(), mapping);

  // The output (with its initial value) combines the partial results.
  rewriter.setInsertionPointAfter(loop);
  unsigned rank = initType.getRank();
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  AffineMap dropParts = AffineMap::get(
      rank + 1, 0,
      llvm::map_to_vector(llvm::seq<unsigned>(1, rank + 1),
                          [&](unsigned d) { return getAffineDimExpr(d, ctx); }),
      ctx);
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  iterators[0] = utils::IteratorType::reduction;
  linalg::GenericOp::create(
      rewriter, loc, ValueRange{partials}, ValueRange{init->get()},
      ArrayRef<AffineMap>{all, dropParts}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping operands;
        // The combiner's operands: the output argument and the value
        // reduced into it, in the order the body had them.
        Value outArg = op.getRegionOutputArgs()[0];
        for (Value operand : combiner->getOperands())
          operands.map(operand, operand == outArg ? args[1] : args[0]);
        Operation *combined = b.clone(*combiner, operands);
        linalg::YieldOp::create(b, l, combined->getResults());
      });
  memref::DeallocOp::create(rewriter, loc, partials);
  rewriter.eraseOp(op);
  return success();
}

/// Whether every indexing expression of `op` grows with its loop indices.
/// Tiling (tileUsingSCF) sizes an operand's slice from the expressions at
/// the tile's first and last indices, which holds only for those: a flip's
/// `-d1 + 9` got a slice of one column.
bool hasIncreasingMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return llvm::all_of(map.getResults(), [](AffineExpr expr) {
      bool increasing = true;
      expr.walk([&](AffineExpr e) {
        if (e.getKind() == AffineExprKind::Mod ||
            e.getKind() == AffineExprKind::FloorDiv ||
            e.getKind() == AffineExprKind::CeilDiv)
          increasing = false;
        if (auto mul = dyn_cast<AffineBinaryOpExpr>(e);
            mul && e.getKind() == AffineExprKind::Mul)
          for (AffineExpr factor : {mul.getLHS(), mul.getRHS()})
            if (auto c = dyn_cast<AffineConstantExpr>(factor);
                c && c.getValue() < 0)
              increasing = false;
      });
      return increasing;
    });
  });
}

void TadParallelizeLoopsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  SmallVector<linalg::LinalgOp> candidates;
  func.walk([&](linalg::LinalgOp op) {
    // Matmuls have their own schedule; fills are memsets that one core
    // already runs at memory speed. Strided copies (a padded buffer's
    // interior) are split: serial, the other core waited through them
    // (dwconv-128-28-b8's train step 6.49 -> 5.14 ms, docs/performance.md).
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::FillOp>(op) ||
        !op.hasPureBufferSemantics() || op.hasDynamicShape() ||
        !hasIncreasingMaps(op) ||
        op->getParentOfType<scf::ParallelOp>() ||
        op->getParentOfType<scf::ForallOp>())
      return;
    candidates.push_back(op);
  });

  IRRewriter rewriter(&getContext());
  for (linalg::LinalgOp op : candidates) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t volume = 1;
    for (int64_t r : ranges)
      volume *= r;
    int64_t cost = iterationCost(op);
    if (volume * cost < minWork)
      continue;
    // The outermost parallel dimensions with at least two iterations, as
    // many as it takes to reach kMinParallelIterations; all but the last are
    // split into single iterations.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<unsigned> dims;
    int64_t outer = 1;
    for (unsigned d = 0; d < ranges.size(); ++d) {
      if (iterators[d] != utils::IteratorType::parallel || ranges[d] < 2)
        continue;
      if (!dims.empty())
        outer *= ranges[dims.back()];
      dims.push_back(d);
      if (outer * ranges[d] >= kMinParallelIterations)
        break;
    }
    // No parallel dimension to split (a loss) or too few parallel
    // iterations (a column sum over 64 features): partial results of the
    // outermost loop, a reduction, on the cores.
    auto splitReduction = [&] {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      int64_t chunk =
          tileSize(ranges[0], volume / ranges[0],
                   llvm::divideCeil(minWorkPerTile, cost), kTargetIterations);
      if (generic && chunk < ranges[0])
        (void)splitOuterReduction(rewriter, generic, ranges[0] / chunk);
    };
    if (dims.empty()) {
      splitReduction();
      continue;
    }
    unsigned last = dims.back();
    int64_t tile =
        tileSize(ranges[last], volume / (outer * ranges[last]),
                 llvm::divideCeil(minWorkPerTile, cost),
                 llvm::divideCeil(kTargetIterations, outer));
    if (last + 1 == ranges.size())
      tile = std::min(ranges[last], std::max(tile, kMinInnermostTile));
    if (outer == 1 && tile >= ranges[last]) {
      splitReduction(); // one parallel iteration: nothing else to share
      continue;
    }

    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
    for (unsigned d : dims)
      sizes[d] = rewriter.getIndexAttr(1);
    sizes[last] = rewriter.getIndexAttr(tile);
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      continue;
    rewriter.eraseOp(op);
    for (LoopLikeOpInterface loop : tiled->loops)
      if (auto forall = dyn_cast<scf::ForallOp>(loop.getOperation())) {
        rewriter.setInsertionPoint(forall);
        if (failed(scf::forallToParallelLoop(rewriter, forall)))
          return signalPassFailure();
      }
  }
}

} // namespace
