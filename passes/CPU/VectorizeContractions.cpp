//===- VectorizeContractions.cpp - register-blocked matmul kernels --------===//
//
// See TadVectorizeContractionsPass in Passes.td and docs/performance.md.
// The blocked schedule of optimized BLAS libraries (Goto, BLIS): cache tiles,
// register tiles (peeled where they do not divide), vector.contract,
// accumulators hoisted out of the k loop, outer-product FMAs.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Bf16Matmul.h"
#include "passes/CPU/HostMachine.h"
#include "passes/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

namespace mlir::tad {
#define GEN_PASS_DEF_TADVECTORIZECONTRACTIONSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

using Machine = tad::HostMachine;

/// Tile sizes for the (m, n, k) dimensions of a contraction.
struct Schedule {
  int64_t mc, nc, kc; // cache tiles
  int64_t mr, nr;     // register tile (k step 1)
};

/// The default schedule for elements of `elemBytes` bytes (docs/performance.md):
/// - register tile mr x nr with nr = 2 vectors and 2·mr accumulators: half
///   the vector registers with 32 of them (8x32 f32 with AVX-512), all but
///   four with 16 (6x16 f32 with AVX2: four rows left the FMA pipes of AMD
///   Zen 3 waiting, 1024^3 at 150 against 175 GFLOP/s); the rest hold the B
///   row and the broadcast A elements;
/// - kc so that a B micro-panel kc·nr fills L1; mc so that an A block mc·kc
///   fits in L1 as well; nc so that a B block kc·nc uses a quarter of L2.
Schedule defaultSchedule(const Machine &m, int64_t elemBytes) {
  Schedule s;
  int64_t lanes = std::max<int64_t>(1, m.vectorBits / 8 / elemBytes);
  s.nr = 2 * lanes;
  s.mr = std::max<int64_t>(1, m.numVectors >= 32 ? m.numVectors / 4
                                                 : (m.numVectors - 4) / 2);
  s.kc = std::max<int64_t>(16, m.l1Bytes / (s.nr * elemBytes));
  s.mc = std::max<int64_t>(s.mr, m.l1Bytes / (s.kc * elemBytes));
  s.nc = std::max<int64_t>(s.nr, m.l2Bytes / 4 / (s.kc * elemBytes));
  return s;
}

/// A cache tile for a dimension of `size` close to `target`: a divisor of
/// `size` (full tiles keep the register tiles static), a multiple of the
/// register tile `reg` when one divides, else the whole dimension.
int64_t cacheTile(int64_t size, int64_t target, int64_t reg) {
  if (size <= target)
    return size;
  for (int64_t c = target; c >= reg && c >= target / 4; --c)
    if (size % c == 0 && c % reg == 0)
      return c;
  for (int64_t c = target; c >= reg && c >= target / 4; --c)
    if (size % c == 0)
      return c;
  return size;
}

/// What the canonicalizer pass would apply.
void addCanonicalizations(RewritePatternSet &patterns, MLIRContext *ctx) {
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, ctx);
}

/// Multiply-adds below which a contraction stays on one thread: an OpenMP
/// fork/join costs a few microseconds, 2^18 FMAs about 2-5 us on one core.
constexpr int64_t kMinParallelWork = int64_t(1) << 18;

/// Fewer iterations than this of the outer parallel loop balance badly over
/// the cores (5 m tiles on 2 threads: one runs 3, the other waits after 2):
/// the next parallel loop joins it.
constexpr int64_t kMinParallelTiles = 8;

/// Makes the outermost cache loop with at least two iterations over a
/// parallel dimension (every loop but the last, k) an `scf.parallel`:
/// its iterations write disjoint tiles of the result. With fewer than
/// kMinParallelTiles iterations, the next parallel loop, perfectly nested
/// in it, becomes the second dimension of the same `scf.parallel`.
void parallelizeOuterLoop(RewriterBase &rewriter,
                          ArrayRef<LoopLikeOpInterface> loops) {
  auto tripCount = [](scf::ForOp forOp) -> int64_t {
    std::optional<APInt> trips = forOp.getStaticTripCount();
    return trips ? trips->getSExtValue() : -1;
  };
  ArrayRef<LoopLikeOpInterface> parallelLoops = loops.drop_back();
  for (size_t i = 0; i < parallelLoops.size(); ++i) {
    auto forOp = dyn_cast<scf::ForOp>(
        LoopLikeOpInterface(parallelLoops[i]).getOperation());
    if (!forOp || forOp.getNumRegionIterArgs() != 0)
      return;
    int64_t trips = tripCount(forOp);
    if (trips < 0)
      return;
    if (trips < 2)
      continue;
    SmallVector<scf::ForOp> nest{forOp};
    if (trips < kMinParallelTiles && i + 1 < parallelLoops.size()) {
      auto inner = dyn_cast<scf::ForOp>(
          LoopLikeOpInterface(parallelLoops[i + 1]).getOperation());
      if (inner && inner->getParentOp() == forOp.getOperation() &&
          inner.getNumRegionIterArgs() == 0 && tripCount(inner) >= 2 &&
          forOp.getBody()->getOperations().size() == 2)
        nest.push_back(inner);
    }
    SmallVector<Value> lbs, ubs, steps;
    for (scf::ForOp l : nest) {
      lbs.push_back(l.getLowerBound());
      ubs.push_back(l.getUpperBound());
      steps.push_back(l.getStep());
    }
    rewriter.setInsertionPoint(forOp);
    auto par = scf::ParallelOp::create(rewriter, forOp.getLoc(), lbs, ubs,
                                       steps);
    Block *parBody = par.getBody();
    for (auto [l, iv] : llvm::zip(nest, parBody->getArguments()))
      rewriter.replaceAllUsesWith(l.getInductionVar(), iv);
    Block *body = nest.back().getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, parBody->getTerminator(),
                               parBody->getArguments().take_back());
    rewriter.eraseOp(forOp);
    return;
  }
}

/// A contraction of bf16/f16 vectors into an f32 accumulator (a product
/// that tad-widen-low-precision left narrow) as one of f32 vectors: the
/// outer-product lowering needs one element type.
struct ExtendContractOperands : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<FloatType>(getElementTypeOrSelf(op.getAccType()));
    if (!accType)
      return failure();
    auto extend = [&](Value v) -> Value {
      auto type = cast<VectorType>(v.getType());
      auto element = dyn_cast<FloatType>(type.getElementType());
      if (!element || element == accType ||
          element.getWidth() >= accType.getWidth())
        return v;
      return arith::ExtFOp::create(rewriter, op.getLoc(),
                                   type.clone(accType), v);
    };
    Value lhs = extend(op.getLhs()), rhs = extend(op.getRhs());
    if (lhs == op.getLhs() && rhs == op.getRhs())
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
    });
    return success();
  }
};

/// A register tile narrower than a vector register (6 columns with 8
/// lanes) is vectorized at full width with its n lanes masked: the reads
/// of B and C fill the masked lanes with zeros and the write of C skips
/// them. The contraction itself needs no mask: its masked lanes only ever
/// reach the accumulator's masked lanes, which the k loop carries and the
/// masked write drops.
struct UnmaskContraction : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp op,
                                PatternRewriter &rewriter) const override {
    auto contract =
        dyn_cast_or_null<vector::ContractionOp>(op.getMaskableOp());
    if (!contract || op.hasPassthru())
      return failure();
    rewriter.setInsertionPoint(op);
    Operation *unmasked = rewriter.clone(*contract);
    rewriter.replaceOp(op, unmasked->getResults());
    return success();
  }
};

/// The A values of an outer-product register tile read from a transposed
/// A's panel as one vector of mr elements, each then extracted and
/// broadcast: every extract becomes a scalar load (a broadcast load on
/// x86). LLVM splits a vector load of no power-of-two width (6 = 4 + 2)
/// and moves the elements through shuffles, which compete with the FMAs
/// for the vector pipes.
struct ScalarizeExtractedLoad : OpRewritePattern<vector::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getSource().getDefiningOp<vector::LoadOp>();
    if (!load || load.getVectorType().getRank() != 1 ||
        isa<VectorType>(op.getType()) || op.hasDynamicPosition())
      return failure();
    // Only where no user needs the vector itself.
    if (!llvm::all_of(load->getUsers(), [](Operation *user) {
          auto extract = dyn_cast<vector::ExtractOp>(user);
          return extract && !isa<VectorType>(extract.getType());
        }))
      return failure();
    SmallVector<Value> indices(load.getIndices());
    AffineExpr d0;
    bindDims(rewriter.getContext(), d0);
    indices.back() = affine::makeComposedAffineApply(
        rewriter, op.getLoc(), d0 + op.getStaticPosition()[0],
        {indices.back()});
    rewriter.replaceOpWithNewOp<memref::LoadOp>(op, load.getBase(), indices);
    return success();
  }
};

struct TadVectorizeContractionsPass
    : tad::impl::TadVectorizeContractionsPassBase<
          TadVectorizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override;

  /// Tiles `op` (static shapes, buffer semantics) into cache and register
  /// tiles and vectorizes the register tiles. Ops it cannot handle stay as
  /// they are (they become scalar loops later).
  void scheduleContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                           const Machine &machine, bool allowParallel);
};

/// The position of the m, n, k (and batch) dimensions in `op`'s loops.
struct ContractionDims {
  SmallVector<unsigned> batch, m, n, k;
};

/// Whether two transfers of the same buffer touch disjoint elements: in some
/// dimension their indices differ by a constant at least the extent of the
/// lower one (upstream's vector::isDisjointTransferSet only compares
/// transfers of the same vector type; a register tile row split into
/// 16 + 8 columns has two).
bool areDisjoint(VectorTransferOpInterface a, VectorTransferOpInterface b) {
  if (a.getBase() != b.getBase() || !a.getPermutationMap().isMinorIdentity() ||
      !b.getPermutationMap().isMinorIdentity())
    return false;
  int64_t rank = a.getIndices().size();
  auto extent = [&](VectorTransferOpInterface t, int64_t dim) -> int64_t {
    ArrayRef<int64_t> shape = t.getVectorType().getShape();
    int64_t first = rank - static_cast<int64_t>(shape.size());
    return dim < first ? 1 : shape[dim - first];
  };
  for (int64_t dim = 0; dim < rank; ++dim) {
    FailureOr<int64_t> delta = ValueBoundsConstraintSet::computeConstantDelta(
        b.getIndices()[dim], a.getIndices()[dim]);
    if (succeeded(delta) &&
        (*delta >= extent(a, dim) || -*delta >= extent(b, dim)))
      return true;
  }
  return false;
}

/// Keeps each register tile's accumulators in registers across its k loop:
/// the C tile's transfer_read / transfer_write pair moves out of the loop and
/// the tile becomes a loop-carried vector. Upstream's
/// linalg::hoistRedundantVectorTransfers refuses whenever the C buffer has a
/// view-like user anywhere in the function (the extract_strided_metadata of
/// an outlined fill of the same buffer, a subview for another op), which left
/// the C tile loaded and stored on every k step (4x slower kernels). Here C
/// is the output of the contraction being scheduled: inside its k loop the
/// only accesses to it are the pair itself and transfers of other elements
/// (checked), and A and B are other
/// operands of the same linalg op, which the tiling above already assumes
/// do not overlap C. A masked tile (a row narrower than a vector) moves
/// when its read and write share the mask.
void hoistAccumulators(RewriterBase &rewriter, func::FuncOp func) {
  func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  SmallVector<vector::TransferWriteOp> writes;
  func.walk([&](vector::TransferWriteOp write) { writes.push_back(write); });
  for (vector::TransferWriteOp write : writes) {
    auto loop = dyn_cast<scf::ForOp>(write->getParentOp());
    auto contract = write.getVector().getDefiningOp<vector::ContractionOp>();
    if (!loop || !contract)
      continue;
    auto read = contract.getAcc().getDefiningOp<vector::TransferReadOp>();
    if (!read || read->getParentOp() != loop.getOperation() ||
        !read->hasOneUse() || read.getBase() != write.getBase() ||
        read.getIndices() != write.getIndices() ||
        read.getVectorType() != write.getVectorType() ||
        read.getPermutationMap() != write.getPermutationMap() ||
        read.getMask() != write.getMask())
      continue;
    if (!llvm::all_of(read->getOperands(), [&](Value v) {
          return loop.isDefinedOutsideOfLoop(v);
        }))
      continue;
    // Other accesses in the loop must be transfers of elements of their
    // own (the other part of a register tile row split in two).
    if (llvm::any_of(read.getBase().getUsers(), [&](Operation *user) {
          if (user == read.getOperation() || user == write.getOperation() ||
              !loop->isAncestor(user))
            return false;
          auto other = dyn_cast<VectorTransferOpInterface>(user);
          return !other || !areDisjoint(read, other);
        }))
      continue;
    // Static tiles: the k loop runs at least once.
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->isZero())
      continue;
    loop.moveOutOfLoop(read);
    rewriter.moveOpAfter(write, loop);
    NewYieldValuesFn yieldAcc = [&](OpBuilder &, Location,
                                    ArrayRef<BlockArgument>) {
      return SmallVector<Value>{write.getVector()};
    };
    FailureOr<LoopLikeOpInterface> newLoop = loop.replaceWithAdditionalYields(
        rewriter, read.getVector(), /*replaceInitOperandUsesInLoop=*/true,
        yieldAcc);
    if (failed(newLoop))
      continue;
    write.getValueToStoreMutable().assign(
        newLoop->getOperation()->getResults().back());
  }
}

/// The offsets of `view` in `base`, where `view` is a chain of unit-stride,
/// rank-preserving subviews of `base` (what tiling a buffer operand makes).
FailureOr<SmallVector<OpFoldResult>> offsetsInBase(OpBuilder &b, Location loc,
                                                   Value view, Value base) {
  auto rank = cast<MemRefType>(base.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  AffineExpr d0, d1;
  bindDims(b.getContext(), d0, d1);
  while (view != base) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    if (!subview || !subview.hasUnitStride() ||
        subview.getType().getRank() != rank)
      return failure();
    for (auto [total, offset] :
         llvm::zip_equal(offsets, subview.getMixedOffsets()))
      total = affine::makeComposedFoldedAffineApply(b, loc, d0 + d1,
                                                    {total, offset});
    view = subview.getSource();
  }
  return offsets;
}

/// Elements below which a copy stays on one thread (as for transposes).
constexpr int64_t kMinParallelCopy = int64_t(1) << 17;
/// Panels a core copies row by row in one go (8 x 16 f32: a 512-byte run
/// of each source row).
constexpr int64_t kPanelsPerGroup = 8;

/// The panels [ceil(n/nr)][k][nr] of the k x n matrix `source`: the
/// register tiles read their nr-wide rows of B from consecutive addresses
/// there instead of a leading dimension apart (the kc rows of a
/// micro-panel on kc pages once rows are a page apart). A last partial
/// panel holds n mod nr columns; the rest of it is never read. A
/// transposed A operand (k x m) is copied the same way, in panels of a
/// cache tile's mc columns.
MemRefType panelsType(Value source, int64_t nr) {
  auto type = cast<MemRefType>(source.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  return MemRefType::get({llvm::divideCeilSigned(n, nr), k, nr},
                         type.getElementType());
}

/// Copies the k x n matrix `source` into `packed` (of panelsType): one
/// vector per panel row, the panels split over the cores if large.
void copyToPanels(OpBuilder &b, Location loc, Value source, Value packed,
                  int64_t nr, bool parallel) {
  auto type = cast<MemRefType>(source.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  int64_t fullPanels = n / nr, tail = n % nr;
  Type elemType = type.getElementType();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value depth = arith::ConstantIndexOp::create(b, loc, k);
  // Copies the panels [first, last) of width `width`.
  auto copyPanels = [&](int64_t first, int64_t last, int64_t width) {
    auto vectorType = VectorType::get({width}, elemType);
    auto copyRow = [&](OpBuilder &nested, Location nestedLoc, Value panel,
                       Value row) {
      Value column = arith::MulIOp::create(
          nested, nestedLoc, panel,
          arith::ConstantIndexOp::create(nested, nestedLoc, nr));
      Value v = vector::TransferReadOp::create(
          nested, nestedLoc, vectorType, source, ValueRange{row, column},
          /*padding=*/std::nullopt, ArrayRef<bool>{true});
      vector::TransferWriteOp::create(nested, nestedLoc, v, packed,
                                      ValueRange{panel, row, zero},
                                      ArrayRef<bool>{true});
    };
    Value lo = arith::ConstantIndexOp::create(b, loc, first);
    Value hi = arith::ConstantIndexOp::create(b, loc, last);
    // Rows outermost, then the panels [panelLo, panelHi): each row's part
    // is read from consecutive lines rather than one line a row apart per
    // panel (16x1024x1024, B copied per cache block: 60-75 -> 104-123
    // GFLOP/s).
    auto rowsThenPanels = [&](OpBuilder &nested, Location nestedLoc,
                              Value panelLo, Value panelHi) {
      scf::ForOp::create(
          nested, nestedLoc, zero, depth, one, ValueRange{},
          [&](OpBuilder &inner, Location innerLoc, Value row, ValueRange) {
            scf::ForOp::create(inner, innerLoc, panelLo, panelHi, one,
                               ValueRange{},
                               [&](OpBuilder &body, Location bodyLoc,
                                   Value panel, ValueRange) {
                                 copyRow(body, bodyLoc, panel, row);
                                 scf::YieldOp::create(body, bodyLoc);
                               });
            scf::YieldOp::create(inner, innerLoc);
          });
    };
    int64_t panels = last - first;
    if (parallel && panels >= 2 && panels * k * width >= kMinParallelCopy) {
      // Groups of panels over the cores, at least 8 groups when there are
      // enough panels.
      int64_t group = std::clamp<int64_t>(panels / 8, 1, kPanelsPerGroup);
      int64_t groups = llvm::divideCeil(panels, group);
      scf::ParallelOp::create(
          b, loc, ValueRange{zero},
          ValueRange{arith::ConstantIndexOp::create(b, loc, groups)},
          ValueRange{one},
          [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
            AffineExpr g;
            bindDims(nested.getContext(), g);
            Value panelLo = affine::AffineApplyOp::create(
                nested, nestedLoc, g * group + first, ValueRange{ivs[0]});
            Value panelHi = affine::AffineMinOp::create(
                nested, nestedLoc,
                AffineMap::get(
                    1, 0,
                    {g * group + first + group,
                     getAffineConstantExpr(last, nested.getContext())},
                    nested.getContext()),
                ValueRange{ivs[0]});
            rowsThenPanels(nested, nestedLoc, panelLo, panelHi);
          });
    } else {
      rowsThenPanels(b, loc, lo, hi);
    }
  };
  if (fullPanels > 0)
    copyPanels(0, fullPanels, nr);
  if (tail)
    copyPanels(fullPanels, fullPanels + 1, tail);
}

/// A new buffer of panelsType holding `source`.
Value packPanels(OpBuilder &b, Location loc, Value source, int64_t nr,
                 bool parallel) {
  Value packed = memref::AllocOp::create(b, loc, panelsType(source, nr));
  copyToPanels(b, loc, source, packed, nr, parallel);
  return packed;
}

/// Makes the register tile `tile` read its operand `operandNumber` (a
/// chain of subviews of `source`, k x n, or k x m for a transposed A) from the
/// panels `packed` of packPanels, `nr` wide. With `alignedToPanels` the
/// tile's column offset is a multiple of nr (B's register tiles); else the
/// tile lies inside one panel (A's register tiles inside an mc-wide cache
/// tile) at the offset's remainder.
LogicalResult readFromPanels(RewriterBase &rewriter, linalg::LinalgOp tile,
                             unsigned operandNumber, Value source, Value packed,
                             int64_t nr, bool alignedToPanels) {
  OpOperand &operand = tile->getOpOperand(operandNumber);
  auto view = operand.get().getDefiningOp<memref::SubViewOp>();
  if (!view)
    return failure();
  rewriter.setInsertionPoint(tile);
  Location loc = tile.getLoc();
  FailureOr<SmallVector<OpFoldResult>> offsets =
      offsetsInBase(rewriter, loc, operand.get(), source);
  if (failed(offsets))
    return failure();
  AffineExpr d0;
  bindDims(rewriter.getContext(), d0);
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, d0.floorDiv(nr), {(*offsets)[1]});
  OpFoldResult inPanel =
      alignedToPanels ? OpFoldResult(rewriter.getIndexAttr(0))
                      : affine::makeComposedFoldedAffineApply(
                            rewriter, loc, d0 % nr, {(*offsets)[1]});
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  SmallVector<OpFoldResult> panelOffsets = {panel, (*offsets)[0], inPanel};
  SmallVector<OpFoldResult> panelSizes = {rewriter.getIndexAttr(1), sizes[0],
                                          sizes[1]};
  SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
  auto type = memref::SubViewOp::inferRankReducedResultType(
      view.getType().getShape(), cast<MemRefType>(packed.getType()),
      panelOffsets, panelSizes, strides);
  Value panelView = memref::SubViewOp::create(rewriter, loc, type, packed,
                                              panelOffsets, panelSizes,
                                              strides);
  rewriter.modifyOpInPlace(tile, [&] { operand.set(panelView); });
  return success();
}

/// Copies the cache block `blockRhs` (the k x n operand of the cache tile
/// `block`) into panels just before `copyPoint` (`block` or a loop around
/// it) and returns them. The buffer is allocated once per iteration of the
/// enclosing `scf.parallel` (each core writes its own) or, without one,
/// once before the loop nest.
Value packCacheBlocks(RewriterBase &rewriter, linalg::LinalgOp block,
                      Value blockRhs, int64_t nr, Operation *copyPoint) {
  Operation *outer = copyPoint;
  while (isa<scf::ForOp>(outer->getParentOp()))
    outer = outer->getParentOp();
  auto parallel = dyn_cast<scf::ParallelOp>(outer->getParentOp());
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  if (parallel)
    rewriter.setInsertionPointToStart(parallel.getBody());
  else
    rewriter.setInsertionPoint(outer);
  Value packed =
      memref::AllocOp::create(rewriter, loc, panelsType(blockRhs, nr));
  if (parallel)
    rewriter.setInsertionPoint(parallel.getBody()->getTerminator());
  else
    rewriter.setInsertionPointAfter(outer);
  memref::DeallocOp::create(rewriter, loc, packed);
  rewriter.setInsertionPoint(copyPoint);
  copyToPanels(rewriter, loc, blockRhs, packed, nr, /*parallel=*/false);
  return packed;
}

/// Parts to split a k of `K` into over `cores` cores: the most (up to 8)
/// that divide K into parts of at least two k cache tiles.
int64_t splitKParts(int64_t K, int64_t kc, int64_t cores) {
  for (int64_t parts = std::min<int64_t>(cores, 8); parts > 1; --parts)
    if (K % parts == 0 && K / parts >= 2 * kc)
      return parts;
  return 1;
}

/// Replaces the matmul `op` by `parts` matmuls over consecutive ranges of
/// k, the iterations of an `scf.parallel`, into zero-filled partial
/// products [parts][m][n], and a sum of the partial products into the
/// output. Returns the matmul of one part (in the parallel loop's body,
/// just after the fill of its partial product).
linalg::LinalgOp splitK(RewriterBase &rewriter, linalg::LinalgOp op,
                        unsigned kDim, int64_t K, int64_t parts) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value output = op.getDpsInits()[0];
  auto outputType = cast<MemRefType>(output.getType());
  Type elemType = outputType.getElementType();
  int64_t rank = outputType.getRank(), partK = K / parts;

  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> partialShape{parts};
  llvm::append_range(partialShape, outputType.getShape());
  Value partials = memref::AllocOp::create(
      rewriter, loc, MemRefType::get(partialShape, elemType));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, parts);
  auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                      ValueRange{count}, ValueRange{one});
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  Value index = loop.getInductionVars()[0];
  Value kOffset = arith::MulIOp::create(
      rewriter, loc, index,
      arith::ConstantIndexOp::create(rewriter, loc, partK));
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto type = cast<MemRefType>(input->get().getType());
    SmallVector<OpFoldResult> offsets(type.getRank(),
                                      rewriter.getIndexAttr(0)),
        sizes, strides(type.getRank(), rewriter.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (map.getDimPosition(r) == kDim) {
        offsets[r] = kOffset;
        sizes[r] = rewriter.getIndexAttr(partK);
      }
    mapping.map(input->get(),
                memref::SubViewOp::create(rewriter, loc, input->get(),
                                          offsets, sizes, strides));
  }
  SmallVector<OpFoldResult> offsets(rank + 1, rewriter.getIndexAttr(0)),
      sizes{rewriter.getIndexAttr(1)}, strides(rank + 1,
                                               rewriter.getIndexAttr(1));
  offsets[0] = index;
  for (int64_t size : outputType.getShape())
    sizes.push_back(rewriter.getIndexAttr(size));
  auto partialType = cast<MemRefType>(partials.getType());
  Value partial = memref::SubViewOp::create(
      rewriter, loc,
      memref::SubViewOp::inferRankReducedResultType(
          outputType.getShape(), partialType, offsets, sizes, strides),
      partials, offsets, sizes, strides);
  linalg::FillOp::create(
      rewriter, loc,
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elemType))
          .getResult(),
      partial);
  mapping.map(output, partial);
  auto part = cast<linalg::LinalgOp>(rewriter.clone(*op, mapping));

  // output += the partial products (a fill of the output stays before).
  rewriter.setInsertionPointAfter(loop);
  SmallVector<AffineExpr> partExprs{rewriter.getAffineDimExpr(rank)};
  for (int64_t d = 0; d < rank; ++d)
    partExprs.push_back(rewriter.getAffineDimExpr(d));
  SmallVector<AffineMap> maps{
      AffineMap::get(rank + 1, 0, partExprs, ctx),
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  linalg::GenericOp::create(
      rewriter, loc, ValueRange{partials}, ValueRange{output}, maps,
      iterators,
      [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(
            b, nestedLoc,
            arith::AddFOp::create(b, nestedLoc, args[1], args[0]).getResult());
      });
  memref::DeallocOp::create(rewriter, loc, partials);
  rewriter.eraseOp(op);
  return part;
}

/// Marks the output tile fills that scheduleContraction creates.
constexpr llvm::StringLiteral kTileFill = "tad.tile_fill";

/// The buffer a memref view is a view of.
Value viewRoot(Value view) {
  return memref::skipViewLikeOps(cast<MemrefValue>(view));
}

/// An output tile fill (in the first k step, maybe under an `scf.if`)
/// whose values only the register tiles' hoisted accumulator reads after it
/// would load: each of those reads becomes the fill value itself in the
/// first k step (`scf.if`, or unconditionally where the k loop had one
/// step), and the fill goes. The register tiles partition the output tile,
/// and each one stores its accumulators, so every element is still written.
void forwardTileFills(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<linalg::FillOp> fills;
  func.walk([&](linalg::FillOp fill) {
    if (fill->hasAttr(kTileFill))
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills) {
    fill->removeAttr(kTileFill);
    auto guard = dyn_cast<scf::IfOp>(fill->getParentOp());
    Operation *anchor = guard ? guard.getOperation() : fill.getOperation();
    Value base = viewRoot(fill.getDpsInits()[0]);
    // Every read of the output after the fill in its block must be an
    // accumulator tile: the initial value of a loop's iter_arg.
    SmallVector<vector::TransferReadOp> reads;
    bool onlyAccumulators = true;
    for (Operation *op = anchor->getNextNode(); op && onlyAccumulators;
         op = op->getNextNode())
      op->walk([&](Operation *nested) {
        if (auto read = dyn_cast<vector::TransferReadOp>(nested)) {
          if (viewRoot(read.getBase()) != base)
            return;
          // A masked read's masked lanes may take the fill value too:
          // the accumulator's write drops them (hoistAccumulators).
          bool isInit = read->hasOneUse() &&
                        isa<scf::ForOp>(*read->getUsers().begin());
          if (isInit)
            reads.push_back(read);
          else
            onlyAccumulators = false;
          return;
        }
        auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
        if (!effects) {
          if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
              nested->getNumRegions() == 0)
            onlyAccumulators = false; // unknown effects
          return;
        }
        if (effects.getEffectOnValue<MemoryEffects::Read>(base) ||
            llvm::any_of(nested->getOperands(), [&](Value v) {
              return isa<MemRefType>(v.getType()) && viewRoot(v) == base &&
                     effects.getEffectOnValue<MemoryEffects::Read>(v);
            }))
          onlyAccumulators = false;
      });
    if (!onlyAccumulators || reads.empty())
      continue;
    Value value = fill.getInputs()[0];
    for (vector::TransferReadOp read : reads) {
      rewriter.setInsertionPoint(read);
      Location loc = read.getLoc();
      VectorType type = read.getVectorType();
      auto splat = [&](OpBuilder &b, Location l) -> Value {
        return vector::BroadcastOp::create(b, l, type, value);
      };
      if (!guard) {
        rewriter.replaceOp(read, splat(rewriter, loc));
        continue;
      }
      auto choice = scf::IfOp::create(
          rewriter, loc, guard.getCondition(),
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, splat(b, l));
          },
          [&](OpBuilder &b, Location l) {
            Operation *clone = b.clone(*read.getOperation());
            scf::YieldOp::create(b, l, clone->getResult(0));
          });
      rewriter.replaceOp(read, choice.getResults());
    }
    rewriter.eraseOp(anchor);
  }
}

std::optional<ContractionDims> matmulDims(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  return ContractionDims{llvm::to_vector(dims->batch),
                         llvm::to_vector(dims->m),
                         llvm::to_vector(dims->n),
                         llvm::to_vector(dims->k)};
}

void TadVectorizeContractionsPass::scheduleContraction(
    RewriterBase &rewriter, linalg::LinalgOp op, const Machine &machine,
    bool allowParallel) {
  std::optional<ContractionDims> dims = matmulDims(op);
  if (!dims || !op.hasPureBufferSemantics() || op.hasDynamicShape())
    return;
  // bf16 products accumulating in f32 on the host's bf16 units: AMX tiles,
  // else AVX512-BF16 dot products.
  for (auto [available, kernel, what] :
       {std::tuple(machine.amxBf16, tad::Bf16Kernel::Amx,
                   "bf16 on AMX tiles (32x32 blocks)"),
        std::tuple(machine.bf16Dot, tad::Bf16Kernel::AvxDot,
                   "bf16 on AVX512-BF16 dot products (8x32 register tiles)")}) {
    if (!available ||
        failed(tad::buildBf16Matmul(rewriter, op, kernel, machine.l2Bytes,
                                    machine.cores, allowParallel)))
      continue;
    if (printSchedule)
      llvm::errs() << ("tad schedule: " + op->getName().getStringRef() + " " +
                       what + "\n")
                          .str();
    return;
  }
  auto elemType = dyn_cast<FloatType>(
      getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()));
  if (!elemType)
    return;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned mDim = dims->m[0], nDim = dims->n[0], kDim = dims->k[0];
  int64_t M = bounds[mDim], N = bounds[nDim], K = bounds[kDim];

  Schedule s = defaultSchedule(machine, elemType.getWidth() / 8);
  if (cacheTiles.size() == 3) {
    s.mc = cacheTiles[0];
    s.nc = cacheTiles[1];
    s.kc = cacheTiles[2];
  }
  if (registerTile.size() == 2) {
    s.mr = registerTile[0];
    s.nr = registerTile[1];
  }
  int64_t mr = std::min(s.mr, M), nr = std::min(s.nr, N);
  int64_t mc = cacheTile(M, s.mc, mr), nc = cacheTile(N, s.nc, nr),
          kc = cacheTile(K, s.kc, 1);
  // A contraction large enough for both cores whose m and n fit in one
  // cache tile (16 x 256 x 1024 in an LSTM's backward) would run on one
  // thread: halve the n (else m) cache tile so the parallel loop has two
  // iterations. Batch dimensions are parallel already.
  int64_t batch = 1;
  for (unsigned b : dims->batch)
    batch *= bounds[b];
  bool isParallel = allowParallel && batch * M * N * K >= kMinParallelWork;
  if (isParallel && batch == 1 && M == mc && N == nc &&
      cacheTiles.size() != 3) {
    if (nc % (2 * nr) == 0)
      nc /= 2;
    else if (mc % (2 * mr) == 0)
      mc /= 2;
  }
  // A small output with a long reduction (the weight gradient of an
  // implicit-GEMM convolution, 192 x 64 x 26912): one m and n cache tile,
  // so that A and B stream through once instead of once per m tile, and k
  // splits over the cores below (where it can: else the tiles above keep
  // both cores busy). Measured (docs/performance.md): that weight gradient
  // 16.5 -> 12.0-12.8 ms. The output may take half of L2: 384 x 128 x
  // 28800 (a 128-channel convolution's) streamed its B from memory once
  // per 12-row m tile, 82 -> 101 GFLOP/s as one tile.
  int64_t elemBytes = elemType.getWidth() / 8;
  if (cacheTiles.size() != 3 && batch == 1 &&
      M * N * elemBytes <= machine.l2Bytes / 2 && K >= 8 * std::max(M, N) &&
      (!isParallel || splitKParts(K, kc, machine.cores) > 1)) {
    mc = M;
    nc = N;
  }
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (fill && (!fill.hasPureBufferSemantics() ||
               fill.getDpsInits()[0] != op.getDpsInits()[0]))
    fill = {};
  // Still one m and n tile (a convolution's weight gradient, 25 x 6 x
  // 50176): split k over the cores instead, each part a contraction of its
  // own on one thread.
  if (isParallel && batch == 1 && M == mc && N == nc &&
      isa<linalg::MatmulOp>(op)) {
    int64_t parts = splitKParts(
        K, kc, machine.cores);
    if (parts > 1) {
      if (printSchedule)
        llvm::errs() << ("tad schedule: " + op->getName().getStringRef() +
                         " k of " + Twine(K) + " split into " + Twine(parts) +
                         " parts on the cores\n")
                            .str();
      linalg::LinalgOp part = splitK(rewriter, op, kDim, K, parts);
      scheduleContraction(rewriter, part, machine, /*allowParallel=*/false);
      return;
    }
  }
  // B in panels (packPanels) where its rows are a page or more apart
  // (a B micro-panel then touches kc pages, beyond the L1 TLB) and the
  // cache tiles stream it often enough to repay the copy, about two passes
  // over B: M/mc >= 8 passes. Measured on Zen 4 (docs/performance.md):
  // 1024x1024x1024 12-25% faster, m,n,k = 1024,1024,256 12%, 256,1024,1024
  // (a weight gradient whose B comes from DRAM in a training step) 10%;
  // with shorter rows or m = 128 the copy cost as much as it saved or more
  // (up to 30%). With 256-bit vectors a micro-panel row is one cache line,
  // and rows a kilobyte apart already share four L1 sets: on an AVX2 AMD
  // EPYC 1024x256x1024 (a transformer's FFN) ran at 123 GFLOP/s unpacked
  // and 182 packed, 1024x512x512 128 and 188.
  int64_t packRowBytes = machine.vectorBits >= 512 ? 4096 : 1024;
  // The tiles' n offsets must be multiples of nr, the matmul plain with B
  // as (k, n).
  // Whether input `operand` is indexed (d0, d1) by the loop dimensions.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto indexedAs = [&](unsigned operand, unsigned d0, unsigned d1) {
    return maps[operand] == AffineMap::get(3, 0,
                                           {rewriter.getAffineDimExpr(d0),
                                            rewriter.getAffineDimExpr(d1)},
                                           rewriter.getContext());
  };
  Value rhs = op.getDpsInputOperand(1)->get();
  // B too large for the caches (see largeRhs's uses below): over 8 times
  // L2, or over L2 where its rows are shorter than the above, which are
  // never copied whole. Per-block copies (steps 11 and 12) pay for those
  // already: the weight gradient col @ g^T of a convolution with 128
  // filters (1152x128x25088, B 12.8 MB) streamed B from L3 once per 12-row
  // m tile at 36-72 GFLOP/s, 130-177 with its blocks copied once and m
  // innermost; 1152x128x6272 (B 3.2 MB, 6 times L2) 107 -> 155,
  // 256x128x8192 127 -> 163, 1152x128x2048 99 -> 128 (AVX2 EPYC, 512 KiB
  // of L2). Step 12 takes such a B from mc/8 times L2 on (below).
  bool shortRows = N * elemBytes < packRowBytes;
  int64_t rhsBytes = K * N * elemBytes;
  bool largeRhs = rhsBytes > (shortRows ? 1 : 8) * machine.l2Bytes;
  bool plainRhs = pack && isa<linalg::MatmulOp>(op) && dims->batch.empty() &&
                  (!shortRows || largeRhs) && indexedAs(1, kDim, nDim);
  bool packRhs =
      plainRhs && !shortRows && M >= 8 * mc && (nc % nr == 0 || nc == N);
  // A transposed A (k, m) in panels of mc columns, where its rows are a
  // kilobyte or more apart: an A block then takes kc rows of a large
  // power-of-two stride, which fall into a few cache sets (1024 floats: one
  // L1 set, 16 of L2's) and come from L3 at every pass; its mc-wide panels
  // are contiguous instead. Each n cache tile passes over A once, so at
  // least two repay the copy. The register tile loads its mr values of a
  // panel row one by one (ScalarizeExtractedLoad), so mr need not divide
  // mc. The weight gradient dY^T X of a linear layer; measured on an AVX2
  // AMD EPYC (docs/performance.md).
  Value lhs = op.getDpsInputOperand(0)->get();
  bool packLhs = pack && isa<linalg::MatmulOp>(op) && dims->batch.empty() &&
                 mc < M && N >= 2 * nc && M * elemBytes >= 1024 &&
                 indexedAs(0, kDim, mDim);
  // Fewer rows of A (a batch of 8 to 100 times a weight matrix) pass over
  // B too few times to repay a copy of all of it (16x1024x1024: 75 -> 62
  // GFLOP/s), yet unpacked every register tile row streams a block of B
  // whose rows fall into a few cache sets, from L3. Instead all of m
  // becomes one cache tile (its A block in L2) and B is copied one kc x nc
  // cache block at a time (BLIS), just before the register loops pass over
  // it, each core into its own buffer. Measured on an AVX2 AMD EPYC
  // (docs/performance.md): 16x1024x1024 83 -> 117 GFLOP/s, 64x1024x1024
  // 78 -> 159, 16x4096x1024 44 -> 100.
  bool plainLhs = indexedAs(0, mDim, kDim);
  // The same where all of B would be copied but is too large for the
  // caches (largeRhs): that copy goes to memory and back. A shorter
  // k cache tile (at least 128) keeps the A block in L2 (AVX2 EPYC:
  // 256x4096x4096 86 -> 143 GFLOP/s, 512x4096x4096 90 -> 111,
  // 128x1024x4096 92 -> 157; with B of 4 MB, 512x1024x1024, the whole
  // copy stayed faster: 180 against 168).
  int64_t blockKc = kc;
  if (largeRhs && cacheTiles.size() != 3 &&
      M * kc * elemBytes > machine.l2Bytes / 2) {
    int64_t target = machine.l2Bytes / 2 / (M * elemBytes);
    int64_t shorter = cacheTile(K, target, 1);
    blockKc = shorter <= target && shorter >= 128 ? shorter : kc;
  }
  bool packRhsBlocks =
      plainRhs && plainLhs && (!packRhs || largeRhs) && M > mr &&
      nc % nr == 0 && blockKc * nc * elemBytes <= machine.l2Bytes / 2 &&
      (mc == M || (cacheTiles.size() != 3 &&
                   M * blockKc * elemBytes <= machine.l2Bytes / 2 &&
                   (!isParallel || N >= 2 * nc)));
  if (packRhsBlocks) {
    packRhs = false;
    mc = M;
    kc = blockKc;
    // Register tiles of equal height rather than a short last one: a
    // 2-row tile keeps 4 accumulators, too few chains to cover the FMA
    // latency (AVX2 EPYC: 8x1024x1024 as 6 + 2 rows 77 GFLOP/s, 4 + 4 97;
    // 20x1024x1024 as 6 + 6 + 6 + 2 124, 4 x 5 134).
    if (registerTile.size() != 2 && M % mr != 0)
      mr = llvm::divideCeil(M, llvm::divideCeil(M, mr));
  }
  // A large B (largeRhs) with too many rows of A for one m cache tile
  // (1024x4096x4096, a wide layer at batch 1024: even a 128-deep A block
  // overflows half of L2): m keeps its cache tiles and the cache loops run
  // n, k, m, so that each kc x nc block of B is copied once, before the m
  // loop, and serves every m tile; A's mc x kc tiles come from L3, once
  // per block. Step 7's whole copy of B instead went to memory and was
  // read back M / mc times. The parallel loop is n's: its tiles must share
  // out evenly (2048x192x4096, three n tiles on two cores, ran at 95
  // GFLOP/s against 102 unpacked), and one n tile becomes two halves
  // (1152x128 with 1 MiB of L2, whose nc is 128; with 512 KiB, nc = 64 and
  // two tiles ran at 130-177 GFLOP/s where m outermost ran at 36-72).
  auto sharesOut = [&](int64_t tiles) {
    return tiles >= 2 &&
           (tiles % machine.cores == 0 || tiles >= kMinParallelTiles);
  };
  // A B with short rows streams from L3 once per m tile when not copied,
  // so the taller that tile, the larger B must be for the copies to pay:
  // over mc/8 times L2. On a Zen 5 with AVX-512 (1 MiB of L2, mc = 32),
  // B of 3-4 MB ran 5-11% slower copied (2048x192x4096 362 -> 321
  // GFLOP/s), of 6.4 MB 8% faster, 1152x128x25088 215 -> 314; with AVX2
  // (mc = 12) copies paid from 2 times L2 on (above).
  bool shortRowsLarge =
      !shortRows ||
      rhsBytes > std::max<int64_t>(1, mc / 8) * machine.l2Bytes;
  bool mInnermost = plainRhs && plainLhs && largeRhs && shortRowsLarge &&
                    !packRhsBlocks && cacheTiles.size() != 3 && mc < M &&
                    nc % nr == 0 && kc * nc * elemBytes <= machine.l2Bytes / 2;
  if (mInnermost && isParallel && nc == N && nc % (2 * nr) == 0 && sharesOut(2))
    nc /= 2;
  mInnermost = mInnermost && (!isParallel || sharesOut(N / nc));
  if (mInnermost) {
    packRhs = false;
    packRhsBlocks = true;
  }
  // Cache-loop order. With n outermost (BLIS's order) the k x nc block of
  // B is read from memory once and stays in L2 while every m tile uses it,
  // and the parallel loop gives each core its own columns, so that B, the
  // operand that streams, is split between the cores rather than read by
  // each. That needs the block to fit in half of L2 beside A's tiles;
  // otherwise m stays outermost (A's mc x kc block reused from L1 across n).
  // Measured on an Intel Xeon with 2 MiB of L2 (docs/performance.md):
  // 1024^3 1.20x, 256x4096x256 1.34x, 256x1024x1024 1.19x, a convolution's
  // 64x25088x576 1.10x, none slower.
  bool nOuter = K * nc * elemBytes <= machine.l2Bytes / 2;
  if (printSchedule) {
    // One write per line: functions are scheduled on several threads.
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "tad schedule: " << op->getName() << " ";
    llvm::interleave(bounds, os, "x");
    os << " " << elemType << " (m,n,k = " << M << "," << N << "," << K
       << "): cache tiles " << mc << "x" << nc << "x" << kc
       << ", register tile " << mr << "x" << nr << "x1, " << machine.vectorBits
       << "-bit vectors" << (nOuter ? ", n outer" : "")
       << (packLhs ? ", A packed" : "") << (packRhs ? ", B packed" : "")
       << (packRhsBlocks ? ", B packed per cache block" : "")
       << (mInnermost ? ", m innermost" : "") << "\n";
    llvm::errs() << line;
  }

  auto packOperand = [&](Value operand, int64_t width) {
    rewriter.setInsertionPoint(op);
    Value packed = packPanels(rewriter, op.getLoc(), operand, width, isParallel);
    rewriter.setInsertionPointAfter(op);
    memref::DeallocOp::create(rewriter, op.getLoc(), packed);
    return packed;
  };
  Value packed = packRhs ? packOperand(rhs, nr) : Value();
  Value packedLhs = packLhs ? packOperand(lhs, mc) : Value();

  // Loop-dimension tile sizes: batch dimensions one at a time.
  unsigned numLoops = op.getNumLoops();
  auto tileSizes = [&](int64_t m, int64_t n, int64_t k) {
    SmallVector<OpFoldResult> sizes(numLoops, rewriter.getIndexAttr(0));
    for (unsigned b : dims->batch)
      sizes[b] = rewriter.getIndexAttr(1);
    sizes[mDim] = rewriter.getIndexAttr(m);
    sizes[nDim] = rewriter.getIndexAttr(n);
    sizes[kDim] = rewriter.getIndexAttr(k);
    return sizes;
  };

  // Cache tiles (they divide the dimensions: static tiles).
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions cacheOptions;
  cacheOptions.setTileSizes(tileSizes(mc, nc, kc));
  SmallVector<int64_t> cacheOrder(dims->batch.begin(), dims->batch.end());
  if (mInnermost)
    cacheOrder.append({nDim, kDim, mDim});
  else if (nOuter)
    cacheOrder.append({nDim, mDim, kDim});
  else
    cacheOrder.append({mDim, nDim, kDim});
  cacheOptions.setInterchange(cacheOrder);
  FailureOr<scf::SCFTilingResult> cached = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), cacheOptions);
  if (failed(cached))
    return;
  rewriter.eraseOp(op);
  auto block = cast<linalg::LinalgOp>(cached->tiledOps.back());
  // A fill of the whole output just before the contraction (outlined with
  // it) becomes a fill of each output tile in its first k step, which
  // forwardTileFills then turns into the accumulators' initial value.
  // The loops are outermost first; k is innermost but with m innermost.
  auto kLoop = cached->loops.size() == numLoops
                   ? dyn_cast<scf::ForOp>(
                         cached->loops[numLoops - (mInnermost ? 2 : 1)]
                             .getOperation())
                   : scf::ForOp();
  if (fill && kLoop) {
    rewriter.setInsertionPoint(block);
    Location loc = fill.getLoc();
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        kLoop.getInductionVar(),
                                        kLoop.getLowerBound());
    Value value = fill.getInputs()[0], tile = block.getDpsInits()[0];
    scf::IfOp::create(rewriter, loc, first,
                      [&](OpBuilder &b, Location nestedLoc) {
                        auto tileFill = linalg::FillOp::create(
                            b, nestedLoc, value, tile);
                        tileFill->setAttr(kTileFill, b.getUnitAttr());
                        scf::YieldOp::create(b, nestedLoc);
                      });
    rewriter.eraseOp(fill);
  }
  // The parallel loop is never k's (the last loop passed).
  if (isParallel)
    parallelizeOuterLoop(rewriter, mInnermost
                                       ? ArrayRef(cached->loops).drop_back()
                                       : ArrayRef(cached->loops));
  Value blockRhs = block.getDpsInputOperand(1)->get();
  // With m innermost the block's copy goes before the m loop, out of which
  // B's view of the block (of n and k only) is hoisted.
  Operation *copyPoint = block;
  if (auto mLoop = dyn_cast<scf::ForOp>(block->getParentOp());
      mInnermost && mLoop) {
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(mLoop.getOperation()));
    if (!mLoop->isAncestor(blockRhs.getParentBlock()->getParentOp()))
      copyPoint = mLoop;
  }
  Value packedBlock =
      packRhsBlocks ? packCacheBlocks(rewriter, block, blockRhs, nr, copyPoint)
                    : Value();

  // Register tiles, k innermost with step 1.
  rewriter.setInsertionPoint(block);
  scf::SCFTilingOptions registerOptions;
  SmallVector<OpFoldResult> regSizes = tileSizes(mr, nr, 1);
  // Interchange: batch, m, n, k (the loops the tiling creates are ordered
  // by dimension otherwise, and k must be innermost for the hoisting).
  SmallVector<int64_t> interchange;
  for (unsigned b : dims->batch)
    interchange.push_back(b);
  interchange.append({mDim, nDim, kDim});
  for (unsigned d = 0; d < numLoops; ++d)
    if (!llvm::is_contained(interchange, d))
      interchange.push_back(d);
  registerOptions.setTileSizes(regSizes);
  registerOptions.setInterchange(interchange);
  FailureOr<scf::SCFTilingResult> registers = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(block.getOperation()), registerOptions);
  if (failed(registers))
    return;
  rewriter.eraseOp(block);
  // Should the tile not read an operand through subviews, it reads the
  // operand itself and the panels are merely unused.
  auto registerOp = cast<linalg::LinalgOp>(registers->tiledOps.back());
  if (packed)
    (void)readFromPanels(rewriter, registerOp, 1, rhs, packed, nr,
                         /*alignedToPanels=*/true);
  if (packedLhs)
    (void)readFromPanels(rewriter, registerOp, 0, lhs, packedLhs, mc,
                         /*alignedToPanels=*/false);
  if (packedBlock)
    (void)readFromPanels(rewriter, registerOp, 1, blockRhs, packedBlock, nr,
                         /*alignedToPanels=*/true);

  // Peel the m and n register loops where the tile does not divide the cache
  // tile: inner (n) first, so that peeling m copies the peeled n loop.
  SmallVector<scf::ForOp> regLoops;
  for (LoopLikeOpInterface loop : registers->loops)
    if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
      regLoops.push_back(forOp);
  unsigned firstMN = dims->batch.size();
  if (regLoops.size() >= firstMN + 2) {
    for (int i : {1, 0}) {
      scf::ForOp loop = regLoops[firstMN + i];
      int64_t tile = i == 0 ? mr : nr, extent = i == 0 ? mc : nc;
      if (extent % tile == 0)
        continue;
      scf::ForOp partial;
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
    }
  }
}

/// Where to split a register tile row of `width` elements so that each part
/// fills a power of two of vector registers of `lanes` elements or is a
/// power of two below one: 0 where it does already (8, 16, 32 f32 with
/// AVX2; 1, 2, 4...). LLVM widens other vector lengths to the next power of
/// two: a 4x24 tile with 8 lanes ran at 12 GFLOP/s, 16 + 8 at ~70.
int64_t registerRowSplit(int64_t width, int64_t lanes) {
  if (llvm::isPowerOf2_64(width) ||
      (width % lanes == 0 && llvm::isPowerOf2_64(width / lanes)))
    return 0;
  if (width > lanes)
    return int64_t(llvm::bit_floor(uint64_t(width / lanes))) * lanes;
  return int64_t(llvm::bit_floor(uint64_t(width)));
}

/// Whether a register tile row of `width` elements narrower than a vector
/// register is vectorized at full width with masked lanes (6 of 8) rather
/// than split into powers of two (4 + 2, twice the FMAs and accumulators:
/// a 6x6 tile spilled on AVX2). Operands of 32- and 64-bit elements only
/// (`elemBits`: the narrowest): x86 has no masked loads of 16-bit elements
/// before AVX-512BW, and LLVM scalarizes them.
bool maskedRow(int64_t width, int64_t lanes, int64_t elemBits) {
  return width < lanes && !llvm::isPowerOf2_64(width) &&
         (elemBits == 32 || elemBits == 64);
}

void TadVectorizeContractionsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();
  if ((!cacheTiles.empty() && cacheTiles.size() != 3) ||
      (!registerTile.empty() && registerTile.size() != 2) ||
      llvm::any_of(cacheTiles, [](int64_t v) { return v <= 0; }) ||
      llvm::any_of(registerTile, [](int64_t v) { return v <= 0; })) {
    func.emitError("tad-vectorize-contractions: cache-tiles takes three "
                   "positive sizes and register-tile two");
    return signalPassFailure();
  }
  Machine machine = tad::hostMachine().withOverrides(
      {vectorBits, vectorRegisters, l1Bytes, l2Bytes, cores, amx, bf16Dot});
  if (printSchedule) {
    llvm::errs() << "tad schedule: machine model\n";
    machine.print(llvm::errs());
  }

  SmallVector<linalg::LinalgOp> contractions;
  func.walk([&](linalg::LinalgOp op) {
    // Named ops only: vectorizing a generic gives broadcast + mulf +
    // multi_reduction instead of vector.contract (the recipe, point 1).
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      contractions.push_back(op);
  });
  if (contractions.empty())
    return;
  IRRewriter rewriter(ctx);
  for (linalg::LinalgOp op : contractions)
    scheduleContraction(rewriter, op, machine, parallel);

  // Fold the peeled bounds into static subviews.
  {
    RewritePatternSet patterns(ctx);
    addCanonicalizations(patterns, ctx);
    // Not converging within the iteration limit is no error: the IR is
    // valid after every rewrite.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }

  // Vectorize the register tiles: the contractions inside scf.for loops
  // whose shapes are small and static.
  SmallVector<linalg::LinalgOp> tiles;
  func.walk([&](linalg::LinalgOp op) {
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
        op->getParentOfType<scf::ForOp>() && !op.hasDynamicShape() &&
        matmulDims(op) && op.hasPureBufferSemantics())
      tiles.push_back(op);
  });
  for (size_t i = 0; i < tiles.size(); ++i) {
    linalg::LinalgOp op = tiles[i];
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    int64_t volume = 1;
    for (int64_t b : bounds)
      volume *= b;
    if (volume > 4096) // not a register tile (a schedule that failed)
      continue;
    // A row of odd width (a peeled tile of 24 or 10 columns) splits into
    // rows LLVM keeps in whole registers (16 + 8, 8 + 2): vector<24xf32>
    // FMAs and transfers were legalized through the stack, 4x slower for
    // the whole 64x120x400 matmul than for 64x128x400.
    unsigned nDim = matmulDims(op)->n[0];
    int64_t elemBits =
        getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType())
            .getIntOrFloatBitWidth();
    int64_t lanes = std::max<int64_t>(1, machine.vectorBits / elemBits);
    // The narrowest operand decides the masked loads (bf16 A and B with an
    // f32 C: 16-bit masked loads).
    int64_t narrowestBits = elemBits;
    for (Value operand : op->getOperands())
      narrowestBits = std::min<int64_t>(
          narrowestBits,
          getElementTypeOrSelf(operand.getType()).getIntOrFloatBitWidth());
    SmallVector<int64_t> vectorSizes;
    if (maskedRow(bounds[nDim], lanes, narrowestBits)) {
      vectorSizes = bounds;
      vectorSizes[nDim] = lanes;
    } else if (int64_t split = registerRowSplit(bounds[nDim], lanes)) {
      rewriter.setInsertionPoint(op);
      auto [head, tail] = linalg::splitOp(
          rewriter, cast<TilingInterface>(op.getOperation()), nDim,
          rewriter.getIndexAttr(split));
      tiles.push_back(cast<linalg::LinalgOp>(head.getOperation()));
      tiles.push_back(cast<linalg::LinalgOp>(tail.getOperation()));
      continue;
    }
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/vectorSizes,
        /*inputScalableVecDims=*/
        SmallVector<bool>(vectorSizes.size(), false),
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (succeeded(result))
      rewriter.eraseOp(op);
  }

  // Masked tiles: transfers that take their masks as operands.
  {
    RewritePatternSet patterns(ctx);
    patterns.add<UnmaskContraction>(ctx);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
  // Transfers straight on the original buffers (the hoisting refuses
  // transfers through subviews), then the C tile stays in registers across
  // the k loop.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    addCanonicalizations(patterns, ctx);
    // Not converging within the iteration limit is no error: the IR is
    // valid after every rewrite.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
  hoistAccumulators(rewriter, func);
  forwardTileFills(rewriter, func);

  // vector.contract -> outer products -> vector.fma with broadcast A.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    patterns.add<ExtendContractOperands>(ctx);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    // Not converging within the iteration limit is no error: the IR is
    // valid after every rewrite.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
  // Rank-1 transfers (one load or store per row), unrolled.
  {
    RewritePatternSet patterns(ctx);
    VectorTransferToSCFOptions toScf;
    toScf.setTargetRank(1).enableFullUnroll(true);
    populateVectorToSCFConversionPatterns(patterns, toScf);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    patterns.add<ScalarizeExtractedLoad>(ctx);
    // Not converging within the iteration limit is no error: the IR is
    // valid after every rewrite.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
}

} // namespace
