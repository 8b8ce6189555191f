//===- ParallelizeLoops.cpp - large loop nests on all cores ---------------===//
//
// See TadParallelizeLoopsPass in Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADPARALLELIZELOOPSPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Parallel iterations to aim for: enough for any thread count to balance.
constexpr int64_t kTargetIterations = 64;
/// Fewer parallel iterations than this balance badly (5 on 2 threads: one
/// runs 3, the other waits after 2), so the next parallel dimension joins.
constexpr int64_t kMinParallelIterations = 8;

struct TadParallelizeLoopsPass
    : tad::impl::TadParallelizeLoopsPassBase<TadParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// The tile size for a parallel dimension of `extent` whose iterations each
/// run `inner` loop iterations: about `target` tiles of at least
/// `minPerTile` iterations, a divisor of `extent` where one is close (static
/// tiles).
int64_t tileSize(int64_t extent, int64_t inner, int64_t minPerTile,
                 int64_t target) {
  int64_t tile = std::max<int64_t>(
      llvm::divideCeil(extent, target),
      llvm::divideCeil(minPerTile, std::max<int64_t>(inner, 1)));
  tile = std::min(tile, extent);
  for (int64_t t = tile; t <= std::min(extent, 2 * tile); ++t)
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

void TadParallelizeLoopsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  SmallVector<linalg::LinalgOp> candidates;
  func.walk([&](linalg::LinalgOp op) {
    // Matmuls have their own schedule; fills and copies are memset and
    // memcpy-like loops that one core already runs at memory speed.
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::FillOp,
            linalg::CopyOp>(op) ||
        !op.hasPureBufferSemantics() || op.hasDynamicShape() ||
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
    if (dims.empty())
      continue;
    unsigned last = dims.back();
    int64_t tile =
        tileSize(ranges[last], volume / (outer * ranges[last]),
                 llvm::divideCeil(minWorkPerTile, cost),
                 llvm::divideCeil(kTargetIterations, outer));
    if (outer == 1 && tile >= ranges[last])
      continue; // one iteration: nothing to share

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
