//===- TadToLinalgReduction.cpp - tad reductions and losses to linalg -----===//
//
// Sums are one linalg.generic with reduction iterators into a zero-filled
// init of the reduced shape (see buildSum); keepdim and sum_to_size reshape
// that result with tensor.expand_shape. mean divides the sum by the number of
// reduced elements (0 / 0 = NaN for an empty reduction, as in ATen).
// mse_loss squares the broadcast difference inside the reduction's body, so
// no (self - target)^2 tensor is materialized.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

Value identity(OpBuilder &, Location, ValueRange args) { return args[0]; }

/// `sum` divided by the number of elements of `shape` (the broadcast shape
/// of `inputs`) in `dims`.
Value divideByCount(OpBuilder &b, Location loc, Value sum,
                    ArrayRef<int64_t> shape, ArrayRef<int64_t> dims,
                    ValueRange inputs) {
  auto type = cast<RankedTensorType>(sum.getType());
  if (llvm::none_of(dims, [&](int64_t d) {
        return ShapedType::isDynamic(shape[d]);
      }))
    return divideBy(b, loc, sum, static_cast<double>(numElements(shape, dims)));
  return divideBy(b, loc, sum,
                  elementCount(b, loc, shape, dims,
                               broadcastSources(shape, inputs),
                               type.getElementType()));
}

/// Sum of `self` over the wrapped, sorted `dims`, reshaped to `type` (which
/// carries keepdim's size-1 dimensions when asked for); the mean when `mean`.
Value sumOver(OpBuilder &b, Location loc, Value self, ArrayRef<int64_t> dims,
              RankedTensorType type, bool mean) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(self.getType()).getShape();
  if (dims.empty())
    return reshapeTo(b, loc, self, type);
  Value sum = buildSum(b, loc, shape, type.getElementType(), self, dims,
                       identity);
  if (mean)
    sum = divideByCount(b, loc, sum, shape, dims, self);
  return reshapeTo(b, loc, sum, type);
}

/// All dimensions of `value`.
SmallVector<int64_t> allDims(Value value) {
  return llvm::to_vector(
      llvm::seq<int64_t>(0, cast<RankedTensorType>(value.getType()).getRank()));
}

/// The wrapped, sorted `dim` attribute of a dim reduction (all dimensions
/// when absent or empty). The verifier has checked it.
template <typename OpTy>
SmallVector<int64_t> reductionDims(OpTy op) {
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = op.getDim())
    dim = *given;
  return *wrapDims(dim, op.getSelf().getType().getRank());
}

Value lowerSum(SumOp op, SumOp::Adaptor adaptor, OpBuilder &b) {
  return sumOver(b, op.getLoc(), adaptor.getSelf(), allDims(adaptor.getSelf()),
                 op.getType(), /*mean=*/false);
}

Value lowerMean(MeanOp op, MeanOp::Adaptor adaptor, OpBuilder &b) {
  return sumOver(b, op.getLoc(), adaptor.getSelf(), allDims(adaptor.getSelf()),
                 op.getType(), /*mean=*/true);
}

Value lowerSumDim(SumDimIntListOp op, SumDimIntListOp::Adaptor adaptor,
                  OpBuilder &b) {
  return sumOver(b, op.getLoc(), adaptor.getSelf(), reductionDims(op),
                 op.getType(), /*mean=*/false);
}

Value lowerMeanDim(MeanDimOp op, MeanDimOp::Adaptor adaptor, OpBuilder &b) {
  return sumOver(b, op.getLoc(), adaptor.getSelf(), reductionDims(op),
                 op.getType(), /*mean=*/true);
}

Value lowerSumToSize(SumToSizeOp op, SumToSizeOp::Adaptor adaptor,
                     OpBuilder &b) {
  SmallVector<int64_t> dims =
      *sumToSizeDims(op.getSelf().getType().getShape(), op.getSize());
  return sumOver(b, op.getLoc(), adaptor.getSelf(), dims, op.getType(),
                 /*mean=*/false);
}

enum Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };

Value squaredDifference(OpBuilder &b, Location loc, ValueRange args) {
  Value diff = arith::SubFOp::create(b, loc, args[0], args[1]);
  return arith::MulFOp::create(b, loc, diff, diff);
}

Value lowerMseLoss(MseLossOp op, MseLossOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  ValueRange inputs = adaptor.getOperands();
  if (op.getReduction() == None)
    return buildElementwise(b, loc, type, inputs, squaredDifference);
  // The iteration space is the broadcast shape of self and target.
  SmallVector<int64_t> domain =
      *broadcastShapes(op.getSelf().getType().getShape(),
                       op.getTarget().getType().getShape());
  SmallVector<int64_t> dims = llvm::to_vector(
      llvm::seq<int64_t>(0, static_cast<int64_t>(domain.size())));
  Value sum = buildSum(b, loc, domain, type.getElementType(), inputs, dims,
                       squaredDifference);
  if (op.getReduction() == Mean)
    sum = divideByCount(b, loc, sum, domain, dims, inputs);
  return sum;
}

/// 2 * (self - target) * grad_output, divided by the number of elements for
/// the mean. ATen divides by self.numel(); here self and target may
/// broadcast, and the count is that of their broadcast shape, which is what
/// the forward mean divides by (the two agree when shapes match, the only
/// case ATen's own mse_loss reaches).
Value lowerMseLossBackward(MseLossBackwardOp op,
                           MseLossBackwardOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  Location loc = op.getLoc();
  SmallVector<Value> inputs{adaptor.getGradOutput(), adaptor.getSelf(),
                            adaptor.getTarget()};
  Type element = type.getElementType();
  // Static shapes: 2 / numel rounded once from double, as ATen computes its
  // scalar, inside the body. Dynamic: computed at run time, outside.
  bool dynamicMean = op.getReduction() == Mean && !type.hasStaticShape();
  double staticNorm = 2.0;
  if (op.getReduction() == Mean && type.hasStaticShape())
    staticNorm /= static_cast<double>(type.getNumElements());
  Value dynamicNorm;
  if (dynamicMean) {
    SmallVector<int64_t> all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    dynamicNorm = arith::DivFOp::create(
        b, loc, floatConstant(b, loc, element, 2.0),
        elementCount(b, loc, type.getShape(), all,
                     broadcastSources(type.getShape(), inputs), element));
  }
  return buildElementwise(
      b, loc, type, inputs,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value grad = args[0];
        Value diff = arith::SubFOp::create(nb, nl, args[1], args[2]);
        Value norm = dynamicNorm ? dynamicNorm
                                 : floatConstant(nb, nl, grad.getType(),
                                                 staticNorm);
        Value scaledDiff = arith::MulFOp::create(nb, nl, norm, diff);
        return arith::MulFOp::create(nb, nl, scaledDiff, grad);
      });
}

} // namespace

void lowering::populateReductionPatterns(RewritePatternSet &patterns) {
  addLowering<SumOp>(patterns, lowerSum);
  addLowering<MeanOp>(patterns, lowerMean);
  addLowering<SumDimIntListOp>(patterns, lowerSumDim);
  addLowering<MeanDimOp>(patterns, lowerMeanDim);
  addLowering<SumToSizeOp>(patterns, lowerSumToSize);
  addLowering<MseLossOp>(patterns, lowerMseLoss);
  addLowering<MseLossBackwardOp>(patterns, lowerMseLossBackward);
}
