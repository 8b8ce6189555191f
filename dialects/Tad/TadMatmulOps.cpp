//===- TadMatmulOps.cpp - inference of bmm, baddbmm, dot, mv ---------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tad;

/// [b, n, k] x [b, k, m] -> [b, n, m] for operands `lhs` and `lhs + 1`.
static FailureOr<RankedTensorType> inferBatched(const TensorInference &infer,
                                                unsigned lhsIndex) {
  FailureOr<RankedTensorType> lhs = infer.tensor(lhsIndex);
  FailureOr<RankedTensorType> rhs = infer.tensor(lhsIndex + 1);
  if (failed(lhs) || failed(rhs) || failed(infer.sameElementType(*lhs, *rhs)))
    return failure();
  if (lhs->getRank() != 3 || rhs->getRank() != 3) {
    (void)infer.fail("expects 3-D batches of matrices, got shapes ",
                     shapeToString(lhs->getShape()), " and ",
                     shapeToString(rhs->getShape()));
    return failure();
  }
  if (!dimsCompatible(lhs->getDimSize(0), rhs->getDimSize(0)) ||
      !dimsCompatible(lhs->getDimSize(2), rhs->getDimSize(1))) {
    (void)infer.fail("cannot multiply batches of shapes ",
                     shapeToString(lhs->getShape()), " and ",
                     shapeToString(rhs->getShape()));
    return failure();
  }
  return RankedTensorType::get(
      {lhs->getDimSize(0), lhs->getDimSize(1), rhs->getDimSize(2)},
      lhs->getElementType());
}

TAD_INFER(BmmOp) {
  FailureOr<RankedTensorType> type =
      inferBatched(tensorInference<BmmOp>(loc, operands), 0);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER(BaddbmmOp) {
  TensorInference infer = tensorInference<BaddbmmOp>(loc, operands);
  FailureOr<RankedTensorType> product = inferBatched(infer, 1);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(product) || failed(self) ||
      failed(infer.sameElementType(*self, *product)))
    return failure();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(self->getShape(), product->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != product->getShape())
    return infer.fail("self of shape ", shapeToString(self->getShape()),
                      " does not broadcast to the product's shape ",
                      shapeToString(product->getShape()));
  results.push_back(*product);
  return success();
}

TAD_INFER(DotOp) {
  TensorInference infer = tensorInference<DotOp>(loc, operands);
  FailureOr<RankedTensorType> lhs = infer.tensor(0), rhs = infer.tensor(1);
  if (failed(lhs) || failed(rhs) || failed(infer.sameElementType(*lhs, *rhs)))
    return failure();
  if (lhs->getRank() != 1 || rhs->getRank() != 1 ||
      !dimsCompatible(lhs->getDimSize(0), rhs->getDimSize(0)))
    return infer.fail("expects two 1-D tensors of the same size, got shapes ",
                      shapeToString(lhs->getShape()), " and ",
                      shapeToString(rhs->getShape()));
  results.push_back(RankedTensorType::get({}, lhs->getElementType()));
  return success();
}

TAD_INFER(MvOp) {
  TensorInference infer = tensorInference<MvOp>(loc, operands);
  FailureOr<RankedTensorType> lhs = infer.tensor(0), rhs = infer.tensor(1);
  if (failed(lhs) || failed(rhs) || failed(infer.sameElementType(*lhs, *rhs)))
    return failure();
  if (lhs->getRank() != 2 || rhs->getRank() != 1 ||
      !dimsCompatible(lhs->getDimSize(1), rhs->getDimSize(0)))
    return infer.fail("expects a [n, m] matrix and a [m] vector, got shapes ",
                      shapeToString(lhs->getShape()), " and ",
                      shapeToString(rhs->getShape()));
  results.push_back(
      RankedTensorType::get({lhs->getDimSize(0)}, lhs->getElementType()));
  return success();
}
