//===- CombineMatmulSums.cpp - sums of thin matmuls as one matmul ---------===//
//
// See TadCombineMatmulSumsPass in Passes.td: a1 @ b1 + a2 @ b2 becomes
// [a1 a2] @ [b1; b2] where the products are thin in their shared dimension.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "dialects/Tad/TadOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADCOMBINEMATMULSUMSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// `value`'s defining op if it is an `OpTy` used only by `user`.
template <typename OpTy> OpTy soleUseBy(Value value, Operation *user) {
  auto op = value.getDefiningOp<OpTy>();
  if (!op || !op->hasOneUse() || *op->user_begin() != user)
    return {};
  return op;
}

/// The pieces of `whole` along `dim` where it is a concatenation only
/// `user` reads, else {whole}. Columns (`dim` 1) stored as
/// `t(cat(x_i, 0))` (see concatColumns) come apart as `t(x_i)` again.
SmallVector<Value> pieces(PatternRewriter &rewriter, Value whole, int64_t dim,
                          Operation *user) {
  if (auto cat = soleUseBy<CatOp>(whole, user);
      cat && static_cast<int64_t>(cat.getDim()) == dim)
    return llvm::to_vector(cat.getTensors());
  if (auto t = soleUseBy<TOp>(whole, user); t && dim == 1)
    if (auto cat = soleUseBy<CatOp>(t.getSelf(), t); cat && cat.getDim() == 0)
      return llvm::map_to_vector(cat.getTensors(), [&](Value x) -> Value {
        return TOp::create(rewriter, t.getLoc(), x);
      });
  return {whole};
}

/// Whether `mm`'s operands are concatenations only it reads (as this pattern
/// makes them): merged into a larger one, they are copied no more often.
bool isConcatenatedProduct(MmOp mm) {
  Value lhs = mm.getSelf();
  if (auto t = soleUseBy<TOp>(lhs, mm))
    lhs = t.getSelf();
  return lhs.getDefiningOp<CatOp>() && lhs.hasOneUse() &&
         soleUseBy<CatOp>(mm.getMat2(), mm);
}

/// Columns `lhs` (each [m, k_i]) side by side: `t(cat(x_i, 0))` where every
/// piece is `t(x_i)` (one transpose of the whole instead of one per piece,
/// and the shape the pieces come apart from), else `cat(lhs, 1)`.
Value concatColumns(PatternRewriter &rewriter, Location loc,
                    ArrayRef<Value> lhs) {
  SmallVector<Value> rows;
  for (Value piece : lhs) {
    auto t = piece.getDefiningOp<TOp>();
    if (!t)
      break;
    rows.push_back(t.getSelf());
  }
  if (rows.size() == lhs.size())
    return TOp::create(rewriter, loc, CatOp::create(rewriter, loc, rows, 0));
  return CatOp::create(rewriter, loc, lhs, 1);
}

/// add(mm(a1, b1), mm(a2, b2)) -> mm(cat(a1, a2, 1), cat(b1, b2, 0)) where
/// each product is used only by the sum and copying its operands once costs
/// less than a pass over the [m, n] result (see the pass description).
struct CombineSumOfProducts : OpRewritePattern<AddTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddTensorOp add,
                                PatternRewriter &rewriter) const override {
    if (add.getAlpha() != 1.0)
      return failure();
    MmOp mms[2] = {soleUseBy<MmOp>(add.getSelf(), add),
                   soleUseBy<MmOp>(add.getOther(), add)};
    if (!mms[0] || !mms[1] || add.getSelf() == add.getOther())
      return failure();
    auto type = cast<RankedTensorType>(add.getType());
    if (!type.hasStaticShape() || mms[0].getType() != type ||
        mms[1].getType() != type)
      return failure();
    int64_t m = type.getDimSize(0), n = type.getDimSize(1);
    for (MmOp mm : mms) {
      auto lhs = cast<RankedTensorType>(mm.getSelf().getType());
      if (lhs.getElementType() != type.getElementType())
        return failure();
      // A dynamic k (a weight gradient summed over a dynamic batch) is
      // merged too; versionDynamicProducts decides at run time.
      if (!lhs.isDynamicDim(1) && !isConcatenatedProduct(mm) &&
          2 * lhs.getDimSize(1) * (m + n) > m * n)
        return failure();
    }

    SmallVector<Value> lhs, rhs;
    for (MmOp mm : mms) {
      llvm::append_range(lhs, pieces(rewriter, mm.getSelf(), 1, mm));
      llvm::append_range(rhs, pieces(rewriter, mm.getMat2(), 0, mm));
    }
    Location loc = add.getLoc();
    Value a = concatColumns(rewriter, loc, lhs);
    Value b = CatOp::create(rewriter, loc, rhs, 0);
    rewriter.replaceOpWithNewOp<MmOp>(add, a, b);
    return success();
  }
};

/// Stacks of a loop's thin products larger than this are not made: they
/// add to what the loop stores per iteration already (an LSTM's weight
/// over 1,000 steps of batch 16 would stack 33 MB).
constexpr int64_t kMaxLoopStackBytes = 16 << 20;

/// A loop-carried sum of thin products, `acc' = acc + a_t @ b_t` in every
/// iteration of an scf.for with a static trip count T (the weight gradient
/// of a recurrent layer imported as a loop, in its reverse loop): the loop
/// stacks x_t = t(a_t) ([T, k, M]) and b_t ([T, k, N]) instead, and the
/// sum is one product after it, `acc + t(X) @ B` with X and B the stacks
/// viewed as [T k, M] and [T k, N], as CombineSumOfProducts makes of the
/// same sum unrolled. Not in a loop marked kBoundedMemoryAttr.
struct CombineLoopSumOfProducts : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->getSExtValue() < 2 ||
        loop->hasAttr(kBoundedMemoryAttr))
      return failure();
    int64_t count = trips->getSExtValue();
    Operation *yield = loop.getBody()->getTerminator();
    for (auto [index, acc] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto add = yield->getOperand(index).getDefiningOp<AddTensorOp>();
      if (!add || add->getBlock() != loop.getBody() || !add->hasOneUse() ||
          add.getAlpha() != 1.0 || !acc.hasOneUse())
        continue;
      Value product = add.getSelf() == acc    ? add.getOther()
                      : add.getOther() == acc ? add.getSelf()
                                              : Value();
      MmOp mm = product ? soleUseBy<MmOp>(product, add) : MmOp();
      if (!mm || mm.getType() != acc.getType())
        continue;
      auto type = cast<RankedTensorType>(mm.getType());
      auto lhs = cast<RankedTensorType>(mm.getSelf().getType());
      auto rhs = cast<RankedTensorType>(mm.getMat2().getType());
      if (!type.hasStaticShape() || !lhs.hasStaticShape() ||
          !rhs.hasStaticShape() ||
          lhs.getElementType() != type.getElementType() ||
          rhs.getElementType() != type.getElementType())
        continue;
      int64_t m = type.getDimSize(0), n = type.getDimSize(1),
              k = lhs.getDimSize(1);
      int64_t bytes = count * k * (m + n) *
                      (type.getElementType().getIntOrFloatBitWidth() / 8);
      if (2 * k * (m + n) > m * n || bytes > kMaxLoopStackBytes)
        continue;
      rewrite(rewriter, loop, index, mm, count);
      return success();
    }
    return failure();
  }

private:
  static void rewrite(PatternRewriter &rewriter, scf::ForOp loop,
                      unsigned index, MmOp mm, int64_t count) {
    Location loc = mm.getLoc();
    auto lhs = cast<RankedTensorType>(mm.getSelf().getType());
    auto rhs = cast<RankedTensorType>(mm.getMat2().getType());
    int64_t m = lhs.getDimSize(0), k = lhs.getDimSize(1),
            n = rhs.getDimSize(1);
    Type element = lhs.getElementType();
    rewriter.setInsertionPoint(loop);
    SmallVector<Value> stacks{
        tensor::EmptyOp::create(rewriter, loc,
                                ArrayRef<int64_t>{count, k, m}, element),
        tensor::EmptyOp::create(rewriter, loc,
                                ArrayRef<int64_t>{count, k, n}, element)};
    Value iv = loop.getInductionVar();
    FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
        rewriter, stacks, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location, ArrayRef<BlockArgument> args) {
          Value offset = arith::SubIOp::create(b, loc, iv, loop.getLowerBound());
          Value slot = getValueOrCreateCastToIndexLike(
              b, loc, b.getIndexType(),
              arith::DivSIOp::create(b, loc, offset, loop.getStep()));
          Value x = mm.getSelf();
          if (auto t = soleUseBy<TOp>(x, mm))
            x = t.getSelf();
          else
            x = TOp::create(b, loc, x);
          Value values[] = {x, mm.getMat2()};
          int64_t widths[] = {m, n};
          SmallVector<Value> written;
          for (auto [stack, value, width] :
               llvm::zip_equal(args, values, widths)) {
            SmallVector<OpFoldResult> offsets{slot, b.getIndexAttr(0),
                                              b.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes{b.getIndexAttr(1),
                                            b.getIndexAttr(k),
                                            b.getIndexAttr(width)};
            SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
            written.push_back(tensor::InsertSliceOp::create(
                b, loc, value, stack, offsets, sizes, strides));
          }
          return written;
        });
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    // The accumulator passes through the loop; the products are summed
    // after it.
    Operation *yield = newLoop.getBody()->getTerminator();
    Value acc = newLoop.getRegionIterArgs()[index];
    Operation *add = yield->getOperand(index).getDefiningOp();
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, acc); });
    rewriter.eraseOp(add);
    rewriter.eraseOp(mm);

    rewriter.setInsertionPointAfter(newLoop);
    unsigned results = newLoop.getNumResults();
    Value xs = ReshapeOp::create(rewriter, loc, newLoop.getResult(results - 2),
                                 ArrayRef<int64_t>{count * k, m});
    Value bs = ReshapeOp::create(rewriter, loc, newLoop.getResult(results - 1),
                                 ArrayRef<int64_t>{count * k, n});
    Value sum = MmOp::create(rewriter, loc, TOp::create(rewriter, loc, xs), bs);
    Value total = newLoop.getResult(index);
    auto accumulated = AddTensorOp::create(rewriter, loc, total, sum,
                                           rewriter.getF64FloatAttr(1.0));
    rewriter.replaceAllUsesExcept(total, accumulated, accumulated);
  }
};

/// Where a merged product's shared dimension is dynamic, whether its pieces
/// are thin enough to copy is known only at run time: `mm(cat(a_i),
/// cat(b_i))` becomes `scf.if` on the total k, the merged product where the
/// pieces average at most the static limit (2 k (m + n) <= m n), the sum of
/// the pieces' products elsewhere.
void versionDynamicProducts(Operation *root) {
  SmallVector<MmOp> merged;
  root->walk([&](MmOp mm) {
    auto lhs = cast<RankedTensorType>(mm.getSelf().getType());
    auto type = cast<RankedTensorType>(mm.getType());
    if (lhs.isDynamicDim(1) && type.hasStaticShape() &&
        isConcatenatedProduct(mm))
      merged.push_back(mm);
  });
  for (MmOp mm : merged) {
    PatternRewriter rewriter(mm.getContext());
    rewriter.setInsertionPoint(mm);
    Location loc = mm.getLoc();
    auto type = cast<RankedTensorType>(mm.getType());
    int64_t m = type.getDimSize(0), n = type.getDimSize(1);
    SmallVector<Value> lhs = pieces(rewriter, mm.getSelf(), 1, mm);
    SmallVector<Value> rhs = pieces(rewriter, mm.getMat2(), 0, mm);
    // The transposes of the pieces that `pieces` made: only the sum uses
    // them, so they move into its branch.
    SmallVector<Operation *> made;
    for (Value piece : lhs)
      if (Operation *op = piece.getDefiningOp(); op && op->use_empty())
        made.push_back(op);
    if (lhs.size() != rhs.size() || lhs.size() < 2) {
      for (Operation *op : made)
        rewriter.eraseOp(op);
      continue;
    }
    int64_t count = lhs.size();
    Value k = tensor::DimOp::create(rewriter, loc, mm.getSelf(), 1);
    Value limit = arith::ConstantIndexOp::create(
        rewriter, loc, count * m * n / (2 * (m + n)));
    Value thin = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule,
                                       k, limit);
    auto branch = scf::IfOp::create(rewriter, loc, type, thin,
                                    /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    Operation *combined = rewriter.clone(*mm);
    scf::YieldOp::create(rewriter, loc, combined->getResult(0));
    rewriter.setInsertionPointToStart(branch.elseBlock());
    Value sum;
    for (auto [a, b] : llvm::zip(lhs, rhs)) {
      Value product = MmOp::create(rewriter, loc, a, b);
      sum = sum ? AddTensorOp::create(rewriter, loc, sum, product,
                                      rewriter.getF64FloatAttr(1.0))
                      .getResult()
                : product;
    }
    scf::YieldOp::create(rewriter, loc, sum);
    for (Operation *op : llvm::reverse(made))
      op->moveBefore(&branch.elseBlock()->front());
    rewriter.replaceOp(mm, branch.getResults());
  }
}

struct TadCombineMatmulSumsPass
    : tad::impl::TadCombineMatmulSumsPassBase<TadCombineMatmulSumsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CombineSumOfProducts, CombineLoopSumOfProducts>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    versionDynamicProducts(getOperation());
  }
};

} // namespace
