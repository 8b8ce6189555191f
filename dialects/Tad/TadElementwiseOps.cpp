//===- TadElementwiseOps.cpp - inference of the elementwise families ------===//
//
// Result types of the ops of TadElementwiseOps.td with ATen's rules: float
// operands of one element type broadcast together; comparisons and logical
// ops give i1 tensors of the broadcast shape; masks and conditions broadcast
// with the tensors they select between. The op classes themselves are
// generated into TadOps.cpp (TadOps.td includes TadElementwiseOps.td).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"

#include "dialects/Tad/ShapeUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tad;

namespace {
/// Reports inference errors as "'tad.op' op ..." at the op's location.
struct Inference : TensorInference {
  /// Broadcast shape of the operands at `indices`; with `sameElement`, they
  /// must also share their element type.
  FailureOr<SmallVector<int64_t>> broadcast(ArrayRef<unsigned> indices,
                                            bool sameElement) const {
    SmallVector<int64_t> shape;
    Type element;
    for (auto [position, index] : llvm::enumerate(indices)) {
      FailureOr<RankedTensorType> type = tensor(index);
      if (failed(type))
        return failure();
      if (position == 0) {
        shape.assign(type->getShape().begin(), type->getShape().end());
        element = type->getElementType();
        continue;
      }
      if (sameElement && type->getElementType() != element) {
        (void)fail("operands have different element types: ", element,
                   " and ", type->getElementType());
        return failure();
      }
      std::optional<SmallVector<int64_t>> joined =
          broadcastShapes(shape, type->getShape());
      if (!joined) {
        (void)fail("shapes ", shapeToString(shape), " and ",
                   shapeToString(type->getShape()),
                   " are not broadcast-compatible");
        return failure();
      }
      shape = std::move(*joined);
    }
    return shape;
  }

  /// Pushes a tensor of the broadcast shape of `shapeOf` with the element
  /// type of operand `elementOf` (or i1 when `boolean`); the operands in
  /// `sameElement` must share their element type.
  LogicalResult push(SmallVectorImpl<Type> &results,
                     ArrayRef<unsigned> sameElement,
                     ArrayRef<unsigned> shapeOf, bool boolean) const {
    if (sameElement.size() > 1 && failed(broadcast(sameElement, true)))
      return failure();
    FailureOr<SmallVector<int64_t>> shape = broadcast(shapeOf, false);
    if (failed(shape))
      return failure();
    Type element = boolean ? IntegerType::get(operands[0].getContext(), 1)
                           : cast<RankedTensorType>(
                                 operands[sameElement.front()].getType())
                                 .getElementType();
    results.push_back(RankedTensorType::get(*shape, element));
    return success();
  }
};
} // namespace

template <typename OpTy>
static Inference inference(std::optional<Location> loc, ValueRange operands) {
  return Inference{{loc, OpTy::getOperationName(), operands}};
}

#define TAD_INFER_SIGNATURE(OP)                                                \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, ValueRange operands,  \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &results)

// Float operands that broadcast together; the result has their element type.
#define TAD_INFER_FLOAT_BROADCAST(OP, ...)                                     \
  TAD_INFER_SIGNATURE(OP) {                                                    \
    return inference<OP>(loc, operands)                                        \
        .push(results, {__VA_ARGS__}, {__VA_ARGS__}, /*boolean=*/false);       \
  }
TAD_INFER_FLOAT_BROADCAST(PowTensorTensorOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(Atan2Op, 0, 1)
TAD_INFER_FLOAT_BROADCAST(PreluKernelOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(GeluBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(LeakyReluBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(SoftplusBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(HardtanhBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(HardswishBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(HardsigmoidBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(EluBackwardOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(MaximumOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(MinimumOp, 0, 1)
TAD_INFER_FLOAT_BROADCAST(LerpTensorOp, 0, 1, 2)
TAD_INFER_FLOAT_BROADCAST(AddcmulOp, 0, 1, 2)
TAD_INFER_FLOAT_BROADCAST(AddcdivOp, 0, 1, 2)
#undef TAD_INFER_FLOAT_BROADCAST

// Comparisons: operands of one element type, i1 result of the broadcast.
#define TAD_INFER_COMPARE(OP)                                                  \
  TAD_INFER_SIGNATURE(OP) {                                                    \
    return inference<OP>(loc, operands)                                        \
        .push(results, {0, 1}, {0, 1}, /*boolean=*/true);                      \
  }
TAD_INFER_COMPARE(EqTensorOp)
TAD_INFER_COMPARE(NeTensorOp)
TAD_INFER_COMPARE(LtTensorOp)
TAD_INFER_COMPARE(LeTensorOp)
TAD_INFER_COMPARE(GtTensorOp)
TAD_INFER_COMPARE(GeTensorOp)
#undef TAD_INFER_COMPARE

// One operand, i1 result of its shape.
#define TAD_INFER_PREDICATE(OP)                                                \
  TAD_INFER_SIGNATURE(OP) {                                                    \
    return inference<OP>(loc, operands)                                        \
        .push(results, {0}, {0}, /*boolean=*/true);                            \
  }
TAD_INFER_PREDICATE(EqScalarOp)
TAD_INFER_PREDICATE(NeScalarOp)
TAD_INFER_PREDICATE(LtScalarOp)
TAD_INFER_PREDICATE(LeScalarOp)
TAD_INFER_PREDICATE(GtScalarOp)
TAD_INFER_PREDICATE(GeScalarOp)
TAD_INFER_PREDICATE(IsnanOp)
TAD_INFER_PREDICATE(LogicalNotOp)
#undef TAD_INFER_PREDICATE

// Truth values of any element types, broadcast.
TAD_INFER_SIGNATURE(LogicalAndOp) {
  return inference<LogicalAndOp>(loc, operands)
      .push(results, {0}, {0, 1}, /*boolean=*/true);
}
TAD_INFER_SIGNATURE(LogicalOrOp) {
  return inference<LogicalOrOp>(loc, operands)
      .push(results, {0}, {0, 1}, /*boolean=*/true);
}

// A condition or mask broadcasts with the tensors it selects between.
TAD_INFER_SIGNATURE(WhereSelfOp) {
  return inference<WhereSelfOp>(loc, operands)
      .push(results, {1, 2}, {0, 1, 2}, /*boolean=*/false);
}
TAD_INFER_SIGNATURE(WhereScalarOtherOp) {
  return inference<WhereScalarOtherOp>(loc, operands)
      .push(results, {1}, {0, 1}, /*boolean=*/false);
}
TAD_INFER_SIGNATURE(WhereScalarSelfOp) {
  return inference<WhereScalarSelfOp>(loc, operands)
      .push(results, {1}, {0, 1}, /*boolean=*/false);
}
TAD_INFER_SIGNATURE(MaskedFillScalarOp) {
  return inference<MaskedFillScalarOp>(loc, operands)
      .push(results, {0}, {0, 1}, /*boolean=*/false);
}
TAD_INFER_SIGNATURE(NativeDropoutBackwardOp) {
  return inference<NativeDropoutBackwardOp>(loc, operands)
      .push(results, {0}, {0, 1}, /*boolean=*/false);
}

TAD_INFER_SIGNATURE(MaskedFillTensorOp) {
  Inference infer = inference<MaskedFillTensorOp>(loc, operands);
  FailureOr<RankedTensorType> value = infer.tensor(2);
  if (failed(value))
    return failure();
  // ATen: "masked_fill_ only supports a 0-dimensional value tensor".
  if (value->getRank() != 0)
    return infer.fail("'value' must be a 0-d tensor, got shape ",
                      shapeToString(value->getShape()));
  return infer.push(results, {0, 2}, {0, 1}, /*boolean=*/false);
}

TAD_INFER_SIGNATURE(NativeDropoutKeyOp) {
  Inference infer = inference<NativeDropoutKeyOp>(loc, operands);
  FailureOr<RankedTensorType> input = infer.tensor(0);
  if (failed(input))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getPAttr())
    return infer.fail("requires attribute 'p'");
  double p = adaptor.getP().convertToDouble();
  if (!(p >= 0.0 && p <= 1.0))
    return infer.fail("dropout probability has to be between 0 and 1, got ",
                      p);
  results.push_back(*input);
  results.push_back(
      RankedTensorType::get(input->getShape(), IntegerType::get(context, 1)));
  return success();
}

// The bounds present broadcast with self.
TAD_INFER_SIGNATURE(ClampTensorOp) {
  SmallVector<unsigned> all;
  for (unsigned i = 0; i < operands.size(); ++i)
    all.push_back(i);
  return inference<ClampTensorOp>(loc, operands)
      .push(results, all, all, /*boolean=*/false);
}

#undef TAD_INFER_SIGNATURE

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static LogicalResult verifyApproximate(Operation *op, StringRef approximate) {
  if (approximate != "none" && approximate != "tanh")
    return op->emitOpError("'approximate' must be \"none\" or \"tanh\", got \"")
           << approximate << "\"";
  return success();
}

LogicalResult PolygammaOp::verify() {
  if (getN() < 0)
    return emitOpError("'n' must be non-negative, got ") << getN();
  return success();
}

LogicalResult GeluOp::verify() {
  return verifyApproximate(*this, getApproximate());
}

LogicalResult GeluBackwardOp::verify() {
  return verifyApproximate(*this, getApproximate());
}

LogicalResult ClampTensorOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("at least one of 'min' or 'max' must be given");
  return success();
}

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("at least one of 'min' or 'max' must be given");
  return success();
}
