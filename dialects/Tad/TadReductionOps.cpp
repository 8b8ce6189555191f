//===- TadReductionOps.cpp - inference of the reduction family ------------===//
//
// Result types of TadReductionOps.td with ATen's shape rules: reductions
// over a wrapped, duplicate-free dimension list (all dimensions when it is
// empty or absent) with or without keepdim; max.dim/min.dim also give the
// i64 indices of the same shape.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tad;

/// Shape of `self` reduced over `dims` (empty: all dimensions).
static FailureOr<RankedTensorType> reduceType(const TensorInference &infer,
                                              ArrayRef<int64_t> dims,
                                              bool keepdim) {
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  std::optional<SmallVector<int64_t>> wrapped = wrapDims(dims, self->getRank());
  if (!wrapped) {
    (void)infer.fail("'dim' ", shapeToString(dims),
                     " is out of range or repeated for rank ", self->getRank());
    return failure();
  }
  return RankedTensorType::get(
      reducedShape(self->getShape(), *wrapped, keepdim),
      self->getElementType());
}

template <typename OpTy>
static LogicalResult inferExtremum(std::optional<Location> loc,
                                   ValueRange operands,
                                   typename OpTy::Adaptor adaptor,
                                   SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> type =
      reduceType(tensorInference<OpTy>(loc, operands), adaptor.getDim(),
                 adaptor.getKeepdim());
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER(AmaxOp) {
  return inferExtremum<AmaxOp>(loc, operands,
                               Adaptor(operands, attributes, properties, regions),
                               results);
}

TAD_INFER(AminOp) {
  return inferExtremum<AminOp>(loc, operands,
                               Adaptor(operands, attributes, properties, regions),
                               results);
}

template <typename OpTy>
static LogicalResult inferFull(std::optional<Location> loc,
                               ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> self =
      tensorInference<OpTy>(loc, operands).tensor(0);
  if (failed(self))
    return failure();
  results.push_back(RankedTensorType::get({}, self->getElementType()));
  return success();
}

TAD_INFER(MaxOp) { return inferFull<MaxOp>(loc, operands, results); }
TAD_INFER(MinOp) { return inferFull<MinOp>(loc, operands, results); }

template <typename OpTy>
static LogicalResult inferSelecting(std::optional<Location> loc,
                                    ValueRange operands,
                                    typename OpTy::Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  TensorInference infer = tensorInference<OpTy>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  // ATen allows dim 0 (and -1) on a rank-0 tensor.
  int64_t rank = std::max<int64_t>(self->getRank(), 1);
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), rank);
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(self->getShape());
  if (self->getRank() > 0) {
    if (adaptor.getKeepdim())
      shape[*dim] = 1;
    else
      shape.erase(shape.begin() + *dim);
  }
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  results.push_back(
      RankedTensorType::get(shape, IntegerType::get(self->getContext(), 64)));
  return success();
}

TAD_INFER(MaxDimOp) {
  return inferSelecting<MaxDimOp>(
      loc, operands, Adaptor(operands, attributes, properties, regions),
      results);
}

TAD_INFER(MinDimOp) {
  return inferSelecting<MinDimOp>(
      loc, operands, Adaptor(operands, attributes, properties, regions),
      results);
}

TAD_INFER(ValueSelectingReductionBackwardOp) {
  TensorInference infer =
      tensorInference<ValueSelectingReductionBackwardOp>(loc, operands);
  FailureOr<RankedTensorType> grad = infer.tensor(0);
  FailureOr<RankedTensorType> indices = infer.tensor(1);
  if (failed(grad) || failed(indices))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr() || !adaptor.getSizesAttr() ||
      !adaptor.getKeepdimAttr())
    return infer.fail("requires attributes 'dim', 'sizes' and 'keepdim'");
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  int64_t rank = sizes.size();
  FailureOr<int64_t> dim =
      infer.dim(adaptor.getDim(), std::max<int64_t>(rank, 1));
  if (failed(dim))
    return failure();
  SmallVector<int64_t> expected(sizes);
  if (rank > 0) {
    if (adaptor.getKeepdim())
      expected[*dim] = 1;
    else
      expected.erase(expected.begin() + *dim);
  }
  if (grad->getShape() != ArrayRef<int64_t>(expected) ||
      indices->getShape() != ArrayRef<int64_t>(expected))
    return infer.fail("grad and indices must have shape ",
                      shapeToString(expected), " for sizes ",
                      shapeToString(sizes), ", got ",
                      shapeToString(grad->getShape()), " and ",
                      shapeToString(indices->getShape()));
  results.push_back(RankedTensorType::get(sizes, grad->getElementType()));
  return success();
}

template <typename OpTy>
static FailureOr<RankedTensorType>
inferVariance(std::optional<Location> loc, ValueRange operands,
              typename OpTy::Adaptor adaptor) {
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = adaptor.getDim())
    dim = *given;
  return reduceType(tensorInference<OpTy>(loc, operands), dim,
                    adaptor.getKeepdim());
}

TAD_INFER(VarCorrectionOp) {
  FailureOr<RankedTensorType> type = inferVariance<VarCorrectionOp>(
      loc, operands, Adaptor(operands, attributes, properties, regions));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER(StdCorrectionOp) {
  FailureOr<RankedTensorType> type = inferVariance<StdCorrectionOp>(
      loc, operands, Adaptor(operands, attributes, properties, regions));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER(VarMeanCorrectionOp) {
  FailureOr<RankedTensorType> type = inferVariance<VarMeanCorrectionOp>(
      loc, operands, Adaptor(operands, attributes, properties, regions));
  if (failed(type))
    return failure();
  results.push_back(*type);
  results.push_back(*type);
  return success();
}

TAD_INFER(LogsumexpOp) {
  TensorInference infer = tensorInference<LogsumexpOp>(loc, operands);
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  FailureOr<RankedTensorType> type =
      reduceType(infer, adaptor.getDim(), adaptor.getKeepdim());
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER(LinalgVectorNormOp) {
  TensorInference infer = tensorInference<LinalgVectorNormOp>(loc, operands);
  Adaptor adaptor(operands, attributes, properties, regions);
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = adaptor.getDim())
    dim = *given;
  FailureOr<RankedTensorType> type =
      reduceType(infer, dim, adaptor.getKeepdim());
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult CumsumOp::verify() {
  int64_t rank = std::max<int64_t>(getSelf().getType().getRank(), 1);
  if (!wrapDim(getDim(), rank))
    return emitOpError("'dim' ") << static_cast<int64_t>(getDim()) << " is out of range for rank "
                                 << getSelf().getType().getRank();
  return success();
}
