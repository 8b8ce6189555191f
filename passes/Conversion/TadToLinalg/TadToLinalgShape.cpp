//===- TadToLinalgShape.cpp - tad shape ops to linalg and tensor ----------===//
//
// t and transpose.int become linalg.transpose; expand and expand_as become an
// all-parallel generic whose input map broadcasts (linalg.broadcast cannot
// stretch size-1 dimensions, and the generic fuses with its consumers);
// view, reshape, unsqueeze and squeeze.dim become tensor.collapse_shape /
// tensor.expand_shape (reshapeTo and reshapeDynamic); _shape_as_tensor
// reads tensor.dim. Ops whose result type equals their operand's lower to the
// operand itself.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// expand with other's sizes: other gives the result's dynamic sizes and
/// is not read.
Value lowerExpandAs(ExpandAsOp op, ExpandAsOp::Adaptor adaptor, OpBuilder &b) {
  if (op.getSelf().getType() == op.getType())
    return adaptor.getSelf();
  Location loc = op.getLoc();
  RankedTensorType type = op.getType();
  MLIRContext *ctx = b.getContext();
  // Same rank and nothing broadcast (self's sizes are other's where either
  // is dynamic): self itself, with other's dynamic sizes as an
  // extract_slice of all of it, which the C ABI's size tracing follows (a
  // copy would fold to a tensor.cast from the static type).
  RankedTensorType selfType = op.getSelf().getType();
  if (selfType.getRank() == type.getRank() &&
      llvm::none_of(llvm::seq<int64_t>(0, type.getRank()), [&](int64_t d) {
        return selfType.getDimSize(d) == 1 && type.getDimSize(d) != 1;
      })) {
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(
          type.isDynamicDim(d)
              ? OpFoldResult(tensor::DimOp::create(b, loc, adaptor.getOther(), d)
                                 .getResult())
              : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    return tensor::ExtractSliceOp::create(b, loc, type, adaptor.getSelf(),
                                          offsets, sizes, strides);
  }
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sources.push_back({adaptor.getOther(), d});
  Value init = emptyTensor(b, loc, type, sources);
  SmallVector<AffineMap> maps = {
      broadcastMap(ctx, op.getSelf().getType().getShape(), type.getShape()),
      AffineMap::getMultiDimIdentityMap(type.getRank(), ctx)};
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{adaptor.getSelf()},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, args[0]);
             })
      .getResult(0);
}

/// The sizes as i64 elements (static ones fold before lowering).
Value lowerShapeAsTensor(ShapeAsTensorOp op, ShapeAsTensorOp::Adaptor adaptor,
                         OpBuilder &b) {
  Location loc = op.getLoc();
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < op.getSelf().getType().getRank(); ++d) {
    Value size = tensor::DimOp::create(b, loc, adaptor.getSelf(), d);
    sizes.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
  }
  return tensor::FromElementsOp::create(b, loc, op.getType(), sizes);
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
  addLowering<ExpandAsOp>(patterns, lowerExpandAs);
  addLowering<ShapeAsTensorOp>(patterns, lowerShapeAsTensor);
  addLowering<ViewOp>(patterns, lowerReshape<ViewOp>);
  addLowering<ReshapeOp>(patterns, lowerReshape<ReshapeOp>);
  addLowering<UnsqueezeOp>(patterns, lowerReshape<UnsqueezeOp>);
  addLowering<SqueezeDimOp>(patterns, lowerReshape<SqueezeDimOp>);
}
