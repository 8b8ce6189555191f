//===- TadToLinalgElementwise.cpp - elementwise tad ops to linalg ---------===//
//
// Every elementwise tad op becomes one all-parallel linalg.generic over its
// result shape; tensor operands broadcast through their indexing maps (never
// by materializing an expanded tensor) and ATen Scalar attributes become
// arith.constant ops of the element type inside the body.
//
// Numerics follow ATen's CPU kernels:
//  - relu is arith.maximumf(x, 0), which propagates NaN as ATen's relu
//    (clamp_min) does;
//  - threshold_backward is `self <= threshold ? 0 : grad` with an ordered
//    compare, so at self == threshold the gradient is 0 and a NaN self
//    passes grad through, as in ATen;
//  - sigmoid is 1 / (1 + exp(-x)).
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

RankedTensorType resultTypeOf(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

Type elementTypeOf(Operation *op) {
  return resultTypeOf(op).getElementType();
}

//===----------------------------------------------------------------------===//
// Unary math and activations
//===----------------------------------------------------------------------===//

/// Lowers a unary op whose element function is `Fn(b, loc, x)`.
template <typename OpTy, Value (*Fn)(OpBuilder &, Location, Value)>
Value lowerUnary(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
                          [](OpBuilder &nb, Location nl, ValueRange args) {
                            return Fn(nb, nl, args[0]);
                          });
}

Value negElement(OpBuilder &b, Location loc, Value x) {
  return arith::NegFOp::create(b, loc, x);
}
Value expElement(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x);
}
Value logElement(OpBuilder &b, Location loc, Value x) {
  return math::LogOp::create(b, loc, x);
}
Value tanhElement(OpBuilder &b, Location loc, Value x) {
  return math::TanhOp::create(b, loc, x);
}
Value sigmoidElement(OpBuilder &b, Location loc, Value x) {
  Value one = floatConstant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
}
Value reluElement(OpBuilder &b, Location loc, Value x) {
  return arith::MaximumFOp::create(b, loc, x, zeroConstant(b, loc, x.getType()));
}

//===----------------------------------------------------------------------===//
// Binary ops with broadcasting
//===----------------------------------------------------------------------===//

Value lowerAddTensor(AddTensorOp op, AddTensorOp::Adaptor adaptor,
                     OpBuilder &b) {
  double alpha = op.getAlpha();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, nl, args[0],
                                     scaleBy(nb, nl, args[1], alpha));
      });
}

Value lowerSubTensor(SubTensorOp op, SubTensorOp::Adaptor adaptor,
                     OpBuilder &b) {
  double alpha = op.getAlpha();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::SubFOp::create(nb, nl, args[0],
                                     scaleBy(nb, nl, args[1], alpha));
      });
}

/// Lowers `self ArithOp other` with broadcasting.
template <typename OpTy, typename ArithOp>
Value lowerBinary(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return ArithOp::create(nb, nl, args[0], args[1]);
      });
}

Value lowerThresholdBackward(ThresholdBackwardOp op,
                             ThresholdBackwardOp::Adaptor adaptor,
                             OpBuilder &b) {
  double threshold = op.getThreshold();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getGradOutput(), adaptor.getSelf()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value grad = args[0], self = args[1];
        Value t = floatConstant(nb, nl, self.getType(), threshold);
        Value zero = zeroConstant(nb, nl, grad.getType());
        Value belowOrAt = arith::CmpFOp::create(
            nb, nl, arith::CmpFPredicate::OLE, self, t);
        return arith::SelectOp::create(nb, nl, belowOrAt, zero, grad);
      });
}

Value lowerTanhBackward(TanhBackwardOp op, TanhBackwardOp::Adaptor adaptor,
                        OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getGradOutput(), adaptor.getOutput()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value grad = args[0], y = args[1];
        Value one = floatConstant(nb, nl, y.getType(), 1.0);
        Value ySquared = arith::MulFOp::create(nb, nl, y, y);
        return arith::MulFOp::create(
            nb, nl, grad, arith::SubFOp::create(nb, nl, one, ySquared));
      });
}

Value lowerSigmoidBackward(SigmoidBackwardOp op,
                           SigmoidBackwardOp::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getGradOutput(), adaptor.getOutput()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value grad = args[0], y = args[1];
        Value one = floatConstant(nb, nl, y.getType(), 1.0);
        // ATen: grad * (1 - y) * y.
        Value oneMinusY = arith::SubFOp::create(nb, nl, one, y);
        return arith::MulFOp::create(
            nb, nl, arith::MulFOp::create(nb, nl, grad, oneMinusY), y);
      });
}

//===----------------------------------------------------------------------===//
// Tensor-scalar ops
//===----------------------------------------------------------------------===//

/// Lowers `self ArithOp c` for the ATen Scalar `c`.
template <typename OpTy, typename ArithOp>
Value lowerWithScalar(OpTy op, Value self, double c, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), self,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value cst = floatConstant(nb, nl, args[0].getType(), c);
        return ArithOp::create(nb, nl, args[0], cst);
      });
}

Value lowerAddScalar(AddScalarOp op, AddScalarOp::Adaptor adaptor,
                     OpBuilder &b) {
  return lowerWithScalar<AddScalarOp, arith::AddFOp>(
      op, adaptor.getSelf(), op.getAlpha() * op.getOther(), b);
}

Value lowerSubScalar(SubScalarOp op, SubScalarOp::Adaptor adaptor,
                     OpBuilder &b) {
  return lowerWithScalar<SubScalarOp, arith::SubFOp>(
      op, adaptor.getSelf(), op.getAlpha() * op.getOther(), b);
}

Value lowerRsubScalar(RsubScalarOp op, RsubScalarOp::Adaptor adaptor,
                      OpBuilder &b) {
  double alpha = op.getAlpha(), other = op.getOther();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value c = floatConstant(nb, nl, args[0].getType(), other);
        return arith::SubFOp::create(nb, nl, c, scaleBy(nb, nl, args[0], alpha));
      });
}

Value lowerMulScalar(MulScalarOp op, MulScalarOp::Adaptor adaptor,
                     OpBuilder &b) {
  return lowerWithScalar<MulScalarOp, arith::MulFOp>(op, adaptor.getSelf(),
                                                     op.getOther(), b);
}

Value lowerDivScalar(DivScalarOp op, DivScalarOp::Adaptor adaptor,
                     OpBuilder &b) {
  return lowerWithScalar<DivScalarOp, arith::DivFOp>(op, adaptor.getSelf(),
                                                     op.getOther(), b);
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

/// zeros_like of any shape, dynamic included: derivatives of loops with a
/// run-time trip count start from zeros shaped like their stacks.
struct LowerZerosLike : OpConversionPattern<ZerosLikeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ZerosLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, adaptor.getSelf()),
        type.getElementType());
    Value zero = zeroConstant(rewriter, loc, type.getElementType());
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, loc,
                                                  ValueRange{zero},
                                                  ValueRange{empty})
                               .getResult(0));
    return success();
  }
};

/// full_like: self's sizes (dynamic ones read from it) filled.
Value lowerFullLike(FullLikeOp op, FullLikeOp::Adaptor adaptor, OpBuilder &b) {
  RankedTensorType type = resultTypeOf(op);
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sources.push_back({adaptor.getSelf(), d});
  return filledTensor(
      b, op.getLoc(), type,
      floatConstant(b, op.getLoc(), elementTypeOf(op), op.getFillValue()),
      sources);
}

Value lowerConstant(ConstantOp op, ConstantOp::Adaptor, OpBuilder &b) {
  // The verifier guarantees an ElementsAttr of the result type, and every
  // ElementsAttr is typed.
  return arith::ConstantOp::create(b, op.getLoc(),
                                   cast<TypedAttr>(op.getValueAttr()));
}

} // namespace

void lowering::populateElementwisePatterns(RewritePatternSet &patterns) {
  addLowering<NegOp>(patterns, lowerUnary<NegOp, negElement>);
  addLowering<ExpOp>(patterns, lowerUnary<ExpOp, expElement>);
  addLowering<LogOp>(patterns, lowerUnary<LogOp, logElement>);
  addLowering<TanhOp>(patterns, lowerUnary<TanhOp, tanhElement>);
  addLowering<SigmoidOp>(patterns, lowerUnary<SigmoidOp, sigmoidElement>);
  addLowering<ReluOp>(patterns, lowerUnary<ReluOp, reluElement>);

  addLowering<AddTensorOp>(patterns, lowerAddTensor);
  addLowering<SubTensorOp>(patterns, lowerSubTensor);
  addLowering<MulTensorOp>(patterns, lowerBinary<MulTensorOp, arith::MulFOp>);
  addLowering<DivTensorOp>(patterns, lowerBinary<DivTensorOp, arith::DivFOp>);
  addLowering<ThresholdBackwardOp>(patterns, lowerThresholdBackward);
  addLowering<TanhBackwardOp>(patterns, lowerTanhBackward);
  addLowering<SigmoidBackwardOp>(patterns, lowerSigmoidBackward);

  addLowering<AddScalarOp>(patterns, lowerAddScalar);
  addLowering<SubScalarOp>(patterns, lowerSubScalar);
  addLowering<RsubScalarOp>(patterns, lowerRsubScalar);
  addLowering<MulScalarOp>(patterns, lowerMulScalar);
  addLowering<DivScalarOp>(patterns, lowerDivScalar);

  patterns.add<LowerZerosLike>(patterns.getContext());
  addLowering<FullLikeOp>(patterns, lowerFullLike);
  addLowering<ConstantOp>(patterns, lowerConstant);
}
