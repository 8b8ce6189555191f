//===- TadDialect.cpp - the tad dialect -----------------------------------===//
#include "dialects/Tad/TadDialect.h"
#include "dialects/Tad/TadOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tad;

#include "dialects/Tad/TadDialect.cpp.inc"

void TadDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Tad/TadOps.cpp.inc"
      >();
}

Operation *TadDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

namespace {
/// A side-effect-free tad op whose results all have no elements is replaced
/// by empty constants: nothing it computes can be read, and the lowering of
/// many ops (a convolution with no filters, a slice of an empty tensor) need
/// not consider that case. Operands with no elements are left to each op's
/// lowering (a sum over an empty dimension is zeros).
struct FoldEmptyResults : RewritePattern {
  FoldEmptyResults(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getDialect() == nullptr ||
        !isa<TadDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumResults() == 0 || !isMemoryEffectFree(op))
      return failure();
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != 0)
        return failure();
    }
    SmallVector<Value> empties;
    for (Type type : op->getResultTypes()) {
      auto tensor = cast<RankedTensorType>(type);
      empties.push_back(ConstantOp::create(
          rewriter, op->getLoc(), tensor,
          DenseElementsAttr::get(tensor, ArrayRef<Attribute>())));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }
};
} // namespace

void TadDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<FoldEmptyResults>(getContext());
}
