//===- TadLinearAlgebraOps.cpp - inference of the linear-algebra ops ------===//
//
// Result types of TadLinearAlgebraOps.td: the operand is a batch of square
// matrices `(*, n, n)` (rank >= 2, an error otherwise); the factors keep
// its type, the per-matrix values have the batch shape `*`, the pivots
// `(*, n)`; `info` and `pivots` are i32, as ATen.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"
#include "dialects/Tad/TensorInference.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tad;

/// The operand as a batch of square matrices, or an error.
static FailureOr<RankedTensorType> squareMatrices(const TensorInference &infer) {
  FailureOr<RankedTensorType> a = infer.tensor(0);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  if (shape.size() < 2) {
    (void)infer.fail("expected a batch of matrices (rank >= 2), got rank ",
                     shape.size());
    return failure();
  }
  int64_t m = shape[shape.size() - 2], n = shape.back();
  if (m != n) {
    auto size = [](int64_t n) {
      return ShapedType::isDynamic(n) ? std::string("?") : std::to_string(n);
    };
    (void)infer.fail("expected square matrices, got ", size(m), "x", size(n));
    return failure();
  }
  return *a;
}

static RankedTensorType batchType(RankedTensorType a, Type element,
                                  int64_t drop) {
  return RankedTensorType::get(a.getShape().drop_back(drop), element);
}

TAD_INFER(LinalgInvExOp) {
  FailureOr<RankedTensorType> a =
      squareMatrices(tensorInference<LinalgInvExOp>(loc, operands));
  if (failed(a))
    return failure();
  results.push_back(*a);
  results.push_back(batchType(*a, IntegerType::get(context, 32), 2));
  return success();
}

TAD_INFER(LinalgSlogdetOp) {
  FailureOr<RankedTensorType> a =
      squareMatrices(tensorInference<LinalgSlogdetOp>(loc, operands));
  if (failed(a))
    return failure();
  results.push_back(batchType(*a, a->getElementType(), 2));
  results.push_back(batchType(*a, a->getElementType(), 2));
  results.push_back(*a);
  results.push_back(batchType(*a, IntegerType::get(context, 32), 1));
  return success();
}

TAD_INFER(LinalgCholeskyExOp) {
  FailureOr<RankedTensorType> a =
      squareMatrices(tensorInference<LinalgCholeskyExOp>(loc, operands));
  if (failed(a))
    return failure();
  results.push_back(*a);
  results.push_back(batchType(*a, IntegerType::get(context, 32), 2));
  return success();
}
