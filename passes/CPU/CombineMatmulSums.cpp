//===- CombineMatmulSums.cpp - sums of thin matmuls as one matmul ---------===//
//
// See TadCombineMatmulSumsPass in Passes.td: a1 @ b1 + a2 @ b2 becomes
// [a1 a2] @ [b1; b2] where the products are thin in their shared dimension.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "dialects/Tad/TadOps.h"

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
  if (auto cat = soleUseBy<CatOp>(whole, user); cat && cat.getDim() == dim)
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
      if (!lhs.hasStaticShape() || lhs.getElementType() != type.getElementType())
        return failure();
      if (!isConcatenatedProduct(mm) && 2 * lhs.getDimSize(1) * (m + n) > m * n)
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

struct TadCombineMatmulSumsPass
    : tad::impl::TadCombineMatmulSumsPassBase<TadCombineMatmulSumsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CombineSumOfProducts>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
