//===- TadToLinalgShape.cpp - tad shape ops to linalg and tensor ----------===//
//
// t and transpose.int become linalg.transpose; expand becomes an
// all-parallel generic whose input map broadcasts (linalg.broadcast cannot
// stretch size-1 dimensions, and the generic fuses with its consumers);
// view, reshape, unsqueeze and squeeze.dim become tensor.collapse_shape /
// tensor.expand_shape. Shapes are static, so the reshapes are always valid
// (see reshapeTo). Ops whose result type equals their operand's lower to the
// operand itself.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

/// `value` with dimensions `dim0` and `dim1` (wrapped) swapped.
Value buildTranspose(OpBuilder &b, Location loc, Value value, int64_t dim0,
                     int64_t dim1, RankedTensorType type) {
  if (dim0 == dim1)
    return value;
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  std::swap(permutation[dim0], permutation[dim1]);
  SmallVector<SizeSource> sources;
  for (int64_t d : permutation)
    sources.push_back({value, d});
  Value init = emptyTensor(b, loc, type, sources);
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      .getResult()[0];
}

Value lowerT(TOp op, TOp::Adaptor adaptor, OpBuilder &b) {
  if (op.getSelf().getType().getRank() < 2)
    return adaptor.getSelf();
  return buildTranspose(b, op.getLoc(), adaptor.getSelf(), 0, 1,
                        op.getType());
}

Value lowerTransposeInt(TransposeIntOp op, TransposeIntOp::Adaptor adaptor,
                        OpBuilder &b) {
  int64_t rank = op.getSelf().getType().getRank();
  if (rank < 2)
    return adaptor.getSelf();
  return buildTranspose(b, op.getLoc(), adaptor.getSelf(),
                        *wrapDim(op.getDim0(), rank),
                        *wrapDim(op.getDim1(), rank), op.getType());
}

Value lowerExpand(ExpandOp op, ExpandOp::Adaptor adaptor, OpBuilder &b) {
  if (op.getSelf().getType() == op.getType())
    return adaptor.getSelf();
  return buildElementwise(
      b, op.getLoc(), op.getType(), adaptor.getSelf(),
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

/// view, reshape, unsqueeze and squeeze.dim only change the shape.
template <typename OpTy>
Value lowerReshape(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return reshapeTo(b, op.getLoc(), adaptor.getSelf(), op.getType());
}

} // namespace

void lowering::populateShapePatterns(RewritePatternSet &patterns) {
  addLowering<TOp>(patterns, lowerT);
  addLowering<TransposeIntOp>(patterns, lowerTransposeInt);
  addLowering<ExpandOp>(patterns, lowerExpand);
  addLowering<ViewOp>(patterns, lowerReshape<ViewOp>);
  addLowering<ReshapeOp>(patterns, lowerReshape<ReshapeOp>);
  addLowering<UnsqueezeOp>(patterns, lowerReshape<UnsqueezeOp>);
  addLowering<SqueezeDimOp>(patterns, lowerReshape<SqueezeDimOp>);
}
