//===- FuseElementwise.cpp - elementwise fusion that keeps contractions ---===//
//
// See TadFuseElementwisePass in Passes.td: upstream's elementwise fusion,
// except that nothing is fused into a contraction, plus multi-output fusion
// of producers with several users.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADFUSEELEMENTWISEPASS
#include "passes/CPU/Passes.h.inc"
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
  // Fused into a loop body (scf.for), a producer from outside the loop
  // would be recomputed at every iteration.
  if (producer->getParentRegion() != consumer->getParentRegion())
    return false;
  // A producer that reads its own init (it accumulates into it) keeps that
  // result in the fused op. Read by the consumer through a broadcast, the
  // fused op would update each element of it once per broadcast iteration,
  // adding the producer's value again each time: col2im of a 1x1
  // convolution on a pooled [N, C, 1, 1] gradient then broadcast back over
  // the image (squeeze-and-excitation) came out 1 + 2 + ... + 16 times.
  // (The reshape folds ask this too, with a reshape as the producer.)
  auto producerOp = dyn_cast<linalg::LinalgOp>(producer);
  if (producerOp &&
      !consumer.getMatchingIndexingMap(fusedOperand).isPermutation() &&
      llvm::any_of(producerOp.getDpsInitsMutable(), [&](OpOperand &init) {
        return producerOp.payloadUsesValueFromOperand(&init);
      }))
    return false;
  return !linalg::isaContractionOpInterface(consumer) &&
         !linalg::isaConvolutionOpInterface(consumer);
}

/// Whether `value` is defined before `point` (in its block or above it),
/// or can be by moving side-effect-free ops of the block up to `point`
/// (the Adam update's bias corrections: scalars computed after the
/// gradient that the update reads); collects those, operands first. An op
/// that reads `producer` cannot move: its read would come before the fused
/// op that replaces the producer.
bool availableBefore(Value value, Operation *point, Operation *producer,
                     SetVector<Operation *> &toMove, int depth = 8) {
  Operation *def = value.getDefiningOp();
  if (def == producer)
    return false;
  if (!def || def->getBlock() != point->getBlock() ||
      def->isBeforeInBlock(point) || toMove.contains(def))
    return true;
  if (def == point || depth == 0 || !isMemoryEffectFree(def))
    return false;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(def->getRegions(), captured);
  for (Value operand : llvm::concat<Value>(def->getOperands(), captured))
    if (!availableBefore(operand, point, producer, toMove, depth - 1))
      return false;
  toMove.insert(def);
  return true;
}

/// The largest producer body (ops) that multi-output fusion may leave to be
/// copied into a consumer (multiUseFusionPoint).
constexpr int64_t kMaxCopiedBodyOps = 16;

/// Where `consumer` can take in `producer`, a generic with several users,
/// as a multi-output op: the op to put the fused op before (the consumer or
/// an earlier user of the producer, all in one block), or null, with the
/// ops that must move up before it first. The fused op computes the
/// producer once and returns its values to the other users, so it must
/// come before all of them, and so must the consumer's other operands.
/// Consumers that broadcast the producer would compute it repeatedly, so
/// only consumers reading it through a permutation of all their loops
/// qualify: each element of the producer is then computed and kept once.
/// That includes reductions with a parallel loop left (batch norm's
/// per-channel sums of its backward's elementwise terms, which otherwise
/// write the terms out and read them back: dwconv-128-28-b8 and
/// conv-64to64-56 train steps 5-9% faster, layernorm-4096x1024 7%, on an
/// AVX2 EPYC); a full reduction would run the fused op on one thread.
/// Neither may read loop indices: that keeps tad-collapse-dims from merging
/// the fused op's loops (max pooling's window position turned into a flat
/// index took its kernel from 2-D rows to 4-D loops: cnn 10% slower).
Operation *multiUseFusionPoint(OpOperand *fusedOperand,
                               SetVector<Operation *> &toMove) {
  auto producer = fusedOperand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fusedOperand->getOwner());
  if (!producer || !consumer || producer->hasOneUse() ||
      producer.hasIndexSemantics() || consumer.hasIndexSemantics() ||
      !linalg::areElementwiseOpsFusable(fusedOperand) ||
      consumer.getNumParallelLoops() == 0 ||
      linalg::isaContractionOpInterface(consumer) ||
      linalg::isaConvolutionOpInterface(consumer) ||
      !consumer.getMatchingIndexingMap(fusedOperand).isPermutation())
    return nullptr;
  // A value inserted into a larger tensor (the LSTM's four gate gradients
  // into one) is written in place there by empty-tensor elimination, which
  // the fused op's extra results miss: a copy each, and twice the code.
  auto inserted = [](Operation *op) {
    return llvm::any_of(op->getUsers(), llvm::IsaPred<tensor::InsertSliceOp>);
  };
  if (inserted(producer) || inserted(consumer))
    return nullptr;
  // A consumer that reads the producer through another operand too keeps
  // reading it after the fusion; the producer, then single-use, fuses in
  // again: its body is copied. Along a recurrence (each value read by the
  // next two, as in a Clenshaw sum) the copies compound, doubling the body
  // every few steps: 56 elementwise ops took 68 s to compile at -O3. Only
  // small bodies are copied.
  int64_t reads = llvm::count_if(consumer->getOperands(), [&](Value v) {
    return v.getDefiningOp() == producer.getOperation();
  });
  if (reads > 1 &&
      static_cast<int64_t>(producer.getBody()->getOperations().size()) >
          kMaxCopiedBodyOps)
    return nullptr;
  Block *block = consumer->getBlock();
  if (producer->getBlock() != block)
    return nullptr; // not into a loop body: recomputed every iteration
  Operation *point = consumer;
  for (Operation *user : producer->getUsers()) {
    if (user->getBlock() != block)
      return nullptr;
    if (user->isBeforeInBlock(point))
      point = user;
  }
  if (point == consumer)
    return point;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(consumer->getRegions(), captured);
  for (Value operand :
       llvm::concat<Value>(consumer->getOperands(), captured)) {
    if (operand.getDefiningOp() == producer.getOperation())
      continue;
    if (!availableBefore(operand, point, producer, toMove)) {
      toMove.clear();
      return nullptr;
    }
  }
  return point;
}

/// Fuses a producer with several users into a consumer that reads it
/// through a permutation of its loops (multiUseFusionPoint): one op that
/// computes the producer's values once, uses them and also returns them to
/// the producer's other users, where upstream's pattern would recompute
/// the producer inside the consumer and keep it for the others (or not
/// fuse at all). The gradient of a weight
/// and the optimizer's update of it (and of the bias it shares terms with)
/// become one pass instead of writing and reading back each intermediate.
struct FuseMultiUseProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    // multiUseFusionPoint takes no contraction or convolution.
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      SetVector<Operation *> toMove;
      Operation *point = multiUseFusionPoint(operand, toMove);
      if (!point)
        continue;
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      // Moving side-effect-free ops up keeps the function's meaning, even
      // where the fusion then fails.
      for (Operation *op : toMove)
        rewriter.moveOpBefore(op, point);
      Operation *next = consumer->getNextNode();
      if (point != consumer)
        rewriter.moveOpBefore(consumer, point);
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused)) {
        rewriter.moveOpBefore(consumer, next); // as it was
        return success(!toMove.empty());
      }
      // Every user of the producer and the consumer now comes after the
      // fused op: the uses move to its results. Another of the consumer's
      // operands may read the producer still (a second result of it): that
      // use stays, and the producer, then single-use, fuses in next.
      Operation *fusedOp = fused->fusedOp;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != fusedOp;
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct TadFuseElementwisePass
    : tad::impl::TadFuseElementwisePassBase<TadFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    patterns.add<FuseMultiUseProducer>(ctx);
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
