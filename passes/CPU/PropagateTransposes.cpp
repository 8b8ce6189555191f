//===- PropagateTransposes.cpp - move transposes to where they are free ---===//
//
// See TadPropagateTransposesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADPROPAGATETRANSPOSESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// A 2-D `linalg.transpose` on static tensors that swaps its two
/// dimensions (the rewrites create empty tensors of static shapes).
bool isMatrixTranspose(linalg::TransposeOp op) {
  return op && op.hasPureTensorSemantics() &&
         op.getPermutation() == ArrayRef<int64_t>{1, 0} &&
         cast<RankedTensorType>(op.getInput().getType()).hasStaticShape();
}

/// The sole input of an all-parallel 2-D elementwise generic on tensors of
/// integers or floats (identity maps, one result, its init not read), or
/// null.
Value elementwiseInput(linalg::GenericOp op) {
  auto isIntOrFloatTensor = [](Value value) {
    return getElementTypeOrSelf(value.getType()).isIntOrFloat();
  };
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      !llvm::all_of(op->getOperands(), isIntOrFloatTensor) ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 2 ||
      op.getNumParallelLoops() != 2 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) ||
      op.hasIndexSemantics())
    return {};
  return op.getDpsInputs()[0];
}

unsigned bitWidth(Value value) {
  return getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
}

/// `op` recomputed on `input` (its input's shape transposed) into a new
/// empty tensor of that shape.
Value transposedElementwise(PatternRewriter &rewriter, linalg::GenericOp op,
                            Value input) {
  auto element = getElementTypeOrSelf(op.getResult(0).getType());
  auto shape = cast<RankedTensorType>(input.getType()).getShape();
  Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), shape, element);
  auto clone = cast<linalg::GenericOp>(rewriter.clone(*op));
  rewriter.modifyOpInPlace(clone, [&] {
    clone->setOperand(0, input);
    clone->setOperand(1, init);
    clone.getResult(0).setType(init.getType());
  });
  return clone.getResult(0);
}

/// `cast(transpose(x))` -> `transpose(cast(x))` for an elementwise op that
/// narrows the element (f32 -> bf16): the transpose then moves half the
/// bytes, and where the transposed value is transposed back (a weight used
/// as B in the forward product and as B^T in the backward one) the two
/// transposes cancel.
struct SinkTransposeBelowNarrowing : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    Value input = elementwiseInput(op);
    auto transpose =
        input ? input.getDefiningOp<linalg::TransposeOp>() : nullptr;
    if (!isMatrixTranspose(transpose) || !transpose->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not an op on a transpose");
    if (bitWidth(op.getResult(0)) >= bitWidth(input))
      return rewriter.notifyMatchFailure(op, "does not narrow the element");
    Value narrowed = transposedElementwise(rewriter, op, transpose.getInput());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(
        op, narrowed, op.getDpsInits()[0], ArrayRef<int64_t>{1, 0});
    return success();
  }
};

/// Reads `operand`, a matrix transpose of a tensor, as that tensor through
/// `map` with its two results swapped -- unless `onlyInto` is given and the
/// swapped map is another.
void foldTransposedOperand(Value &operand, AffineMap &map, AffineMap onlyInto) {
  auto transpose = operand.getDefiningOp<linalg::TransposeOp>();
  if (!isMatrixTranspose(transpose) || map.getNumResults() != 2)
    return;
  AffineMap swapped = AffineMap::get(map.getNumDims(), 0,
                                     {map.getResult(1), map.getResult(0)},
                                     map.getContext());
  if (onlyInto && swapped != onlyInto)
    return;
  operand = transpose.getInput();
  map = swapped;
}

/// `transpose(f(A @ B))` -> `f(B^T @ A^T)`, for a chain `f` of elementwise
/// ops (possibly none) each read only by the next: the product reads A and
/// B through swapped indexing maps and no transpose is left. The weight
/// gradient of `x @ W^T` is `transpose(x^T @ dY)`, rounded to bf16 and back
/// in between in mixed precision; it is then computed in W's layout.
struct TransposedProduct : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isMatrixTranspose(op))
      return rewriter.notifyMatchFailure(op, "not a matrix transpose");
    SmallVector<linalg::GenericOp> chain;
    Value value = op.getInput();
    while (auto generic = value.getDefiningOp<linalg::GenericOp>()) {
      Value input = elementwiseInput(generic);
      if (!input || !generic->hasOneUse())
        break;
      chain.push_back(generic);
      value = input;
    }
    auto product = value.getDefiningOp<linalg::MatmulOp>();
    if (!product || !product->hasOneUse() ||
        !product.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not a transposed product");
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineMap> maps = product.getIndexingMapsArray();
    if (maps[2] != AffineMap::getMultiDimIdentityMap(3, ctx).getMajorSubMap(2))
      return rewriter.notifyMatchFailure(op, "C is not indexed (m, n)");
    // The product's init, transposed: zeros stay zeros.
    Value init = product.getDpsInits()[0];
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (!fill && !init.getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "accumulates into a tensor");
    auto type = cast<RankedTensorType>(init.getType());
    Value newInit = tensor::EmptyOp::create(
        rewriter, op.getLoc(),
        ArrayRef<int64_t>{type.getDimSize(1), type.getDimSize(0)},
        type.getElementType());
    if (fill)
      newInit = linalg::FillOp::create(rewriter, fill.getLoc(),
                                       fill.getInputs()[0], newInit)
                    .getResult(0);
    // C^T[i, j] = sum_k B[k, i] A[j, k]: dims 0 and 1 swap roles.
    AffineMap swap = AffineMap::get(
        3, 0,
        {getAffineDimExpr(1, ctx), getAffineDimExpr(0, ctx),
         getAffineDimExpr(2, ctx)},
        ctx);
    Value lhs = product.getDpsInputs()[1], rhs = product.getDpsInputs()[0];
    AffineMap lhsMap = maps[1].compose(swap), rhsMap = maps[0].compose(swap);
    // An operand that is itself a transpose is read in place through the
    // transposed map: always for A (as tad-fold-matmul-transposes does),
    // for B where that makes its map the plain (k, n) one.
    AffineMap plainRhs = AffineMap::get(
        3, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(1, ctx)}, ctx);
    foldTransposedOperand(lhs, lhsMap, /*onlyInto=*/{});
    foldTransposedOperand(rhs, rhsMap, plainRhs);
    SmallVector<Attribute> newMaps = {AffineMapAttr::get(lhsMap),
                                      AffineMapAttr::get(rhsMap),
                                      AffineMapAttr::get(maps[2])};
    auto swapped = linalg::MatmulOp::create(
        rewriter, product.getLoc(), TypeRange{newInit.getType()},
        ValueRange{lhs, rhs}, ValueRange{newInit});
    swapped.setIndexingMapsAttr(rewriter.getArrayAttr(newMaps));
    value = swapped.getResult(0);
    for (linalg::GenericOp generic : llvm::reverse(chain))
      value = transposedElementwise(rewriter, generic, value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// `transpose(transpose(x))` -> `x`.
struct CancelTransposes : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!isMatrixTranspose(op) || !isMatrixTranspose(inner))
      return rewriter.notifyMatchFailure(op, "not two transposes");
    rewriter.replaceOp(op, inner.getInput());
    return success();
  }
};

struct TadPropagateTransposesPass
    : tad::impl::TadPropagateTransposesPassBase<TadPropagateTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkTransposeBelowNarrowing, TransposedProduct,
                 CancelTransposes>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
