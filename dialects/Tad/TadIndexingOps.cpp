//===- TadIndexingOps.cpp - inference of the indexing family ---------------===//
//
// Result types of TadIndexingOps.td with ATen's shape rules. Index operands
// are i64 (ODS checks that); sizes of index tensors are checked here.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tad;

TAD_INFER(IndexSelectOp) {
  TensorInference infer = tensorInference<IndexSelectOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0), index = infer.tensor(1);
  if (failed(self) || failed(index))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  if (index->getRank() > 1)
    return infer.fail("index must be 0-D or 1-D, got shape ",
                      shapeToString(index->getShape()));
  int64_t rank = self->getRank();
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), std::max<int64_t>(rank, 1));
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(self->getShape());
  if (rank > 0)
    shape[*dim] = index->getNumElements();
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

/// Whether an index size is at most the indexed tensor's, as far as is
/// known before run time (a dynamic size may be either).
static bool fitsIn(int64_t indexSize, int64_t size) {
  return ShapedType::isDynamic(indexSize) || ShapedType::isDynamic(size) ||
         indexSize <= size;
}

TAD_INFER(GatherOp) {
  TensorInference infer = tensorInference<GatherOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0), index = infer.tensor(1);
  if (failed(self) || failed(index))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  int64_t rank = self->getRank();
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), std::max<int64_t>(rank, 1));
  if (failed(dim))
    return failure();
  bool ok = index->getRank() == rank;
  for (int64_t d = 0; ok && d < rank; ++d)
    ok = d == *dim || fitsIn(index->getDimSize(d), self->getDimSize(d));
  if (!ok)
    return infer.fail("index of shape ", shapeToString(index->getShape()),
                      " must have the rank of self ",
                      shapeToString(self->getShape()),
                      " and no larger size outside 'dim'");
  results.push_back(
      RankedTensorType::get(index->getShape(), self->getElementType()));
  return success();
}

/// self, index (and src when `srcIndex` >= 0) of the scatter ops.
static LogicalResult inferScatter(const TensorInference &infer, int64_t dimAttr,
                                  bool hasDim, int srcIndex,
                                  SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> self = infer.tensor(0), index = infer.tensor(1);
  if (failed(self) || failed(index))
    return failure();
  if (!hasDim)
    return infer.fail("requires attribute 'dim'");
  int64_t rank = self->getRank();
  FailureOr<int64_t> dim = infer.dim(dimAttr, std::max<int64_t>(rank, 1));
  if (failed(dim))
    return failure();
  bool ok = index->getRank() == rank;
  for (int64_t d = 0; ok && d < rank; ++d)
    ok = d == *dim || fitsIn(index->getDimSize(d), self->getDimSize(d));
  if (!ok)
    return infer.fail("index of shape ", shapeToString(index->getShape()),
                      " must have the rank of self ",
                      shapeToString(self->getShape()),
                      " and no larger size outside 'dim'");
  if (srcIndex >= 0) {
    FailureOr<RankedTensorType> src = infer.tensor(srcIndex);
    if (failed(src) || failed(infer.sameElementType(*self, *src)))
      return failure();
    ok = src->getRank() == rank;
    for (int64_t d = 0; ok && d < rank; ++d)
      ok = fitsIn(index->getDimSize(d), src->getDimSize(d));
    if (!ok)
      return infer.fail("src of shape ", shapeToString(src->getShape()),
                        " is smaller than index of shape ",
                        shapeToString(index->getShape()));
  }
  results.push_back(*self);
  return success();
}

TAD_INFER(ScatterSrcOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferScatter(tensorInference<ScatterSrcOp>(loc, operands),
                      adaptor.getDimAttr() ? adaptor.getDim() : 0,
                      static_cast<bool>(adaptor.getDimAttr()), 2, results);
}

TAD_INFER(ScatterAddOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferScatter(tensorInference<ScatterAddOp>(loc, operands),
                      adaptor.getDimAttr() ? adaptor.getDim() : 0,
                      static_cast<bool>(adaptor.getDimAttr()), 2, results);
}

TAD_INFER(ScatterValueOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferScatter(tensorInference<ScatterValueOp>(loc, operands),
                      adaptor.getDimAttr() ? adaptor.getDim() : 0,
                      static_cast<bool>(adaptor.getDimAttr()), -1, results);
}

TAD_INFER(IndexAddOp) {
  TensorInference infer = tensorInference<IndexAddOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0), index = infer.tensor(1),
                              source = infer.tensor(2);
  if (failed(self) || failed(index) || failed(source) ||
      failed(infer.sameElementType(*self, *source)))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  if (index->getRank() > 1)
    return infer.fail("index must be 0-D or 1-D, got shape ",
                      shapeToString(index->getShape()));
  int64_t rank = self->getRank();
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), std::max<int64_t>(rank, 1));
  if (failed(dim))
    return failure();
  SmallVector<int64_t> expected(self->getShape());
  if (rank > 0)
    expected[*dim] = index->getNumElements();
  if (source->getShape() != ArrayRef<int64_t>(expected))
    return infer.fail("source must have shape ", shapeToString(expected),
                      ", got ", shapeToString(source->getShape()));
  results.push_back(*self);
  return success();
}

/// Shape of self[indices...]: the broadcast index shape, then the dimensions
/// of self that are not indexed.
static FailureOr<SmallVector<int64_t>>
indexedShape(const TensorInference &infer, RankedTensorType self,
             ValueRange indices) {
  if (indices.empty() ||
      static_cast<int64_t>(indices.size()) > self.getRank()) {
    (void)infer.fail("expects between 1 and ", self.getRank(),
                     " index tensors, got ", indices.size());
    return failure();
  }
  SmallVector<int64_t> shape;
  for (Value index : indices) {
    auto type = cast<RankedTensorType>(index.getType());
    std::optional<SmallVector<int64_t>> joined =
        broadcastShapes(shape, type.getShape());
    if (!joined) {
      (void)infer.fail("index shapes ", shapeToString(shape), " and ",
                       shapeToString(type.getShape()),
                       " are not broadcast-compatible");
      return failure();
    }
    shape = std::move(*joined);
  }
  llvm::append_range(shape, self.getShape().drop_front(indices.size()));
  return shape;
}

TAD_INFER(IndexTensorOp) {
  TensorInference infer = tensorInference<IndexTensorOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      indexedShape(infer, *self, operands.drop_front());
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, self->getElementType()));
  return success();
}

TAD_INFER(IndexPutOp) {
  TensorInference infer = tensorInference<IndexPutOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  FailureOr<RankedTensorType> values = infer.tensor(operands.size() - 1);
  if (failed(self) || failed(values) ||
      failed(infer.sameElementType(*self, *values)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      indexedShape(infer, *self, operands.drop_front().drop_back());
  if (failed(shape))
    return failure();
  std::optional<SmallVector<int64_t>> joined =
      broadcastShapes(values->getShape(), *shape);
  if (!joined || *joined != *shape)
    return infer.fail("values of shape ", shapeToString(values->getShape()),
                      " do not broadcast to the indexed shape ",
                      shapeToString(*shape));
  results.push_back(*self);
  return success();
}

TAD_INFER(EmbeddingOp) {
  TensorInference infer = tensorInference<EmbeddingOp>(loc, operands);
  FailureOr<RankedTensorType> weight = infer.tensor(0), indices = infer.tensor(1);
  if (failed(weight) || failed(indices))
    return failure();
  if (weight->getRank() != 2)
    return infer.fail("weight must be 2-D, got shape ",
                      shapeToString(weight->getShape()));
  SmallVector<int64_t> shape(indices->getShape());
  shape.push_back(weight->getDimSize(1));
  results.push_back(RankedTensorType::get(shape, weight->getElementType()));
  return success();
}

TAD_INFER(EmbeddingDenseBackwardOp) {
  TensorInference infer =
      tensorInference<EmbeddingDenseBackwardOp>(loc, operands);
  FailureOr<RankedTensorType> grad = infer.tensor(0), indices = infer.tensor(1);
  if (failed(grad) || failed(indices))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getNumWeightsAttr() || !adaptor.getPaddingIdxAttr() ||
      !adaptor.getScaleGradByFreqAttr())
    return infer.fail("requires attributes 'num_weights', 'padding_idx' and "
                      "'scale_grad_by_freq'");
  if (adaptor.getScaleGradByFreq())
    return infer.fail("'scale_grad_by_freq' = true is not supported");
  ArrayRef<int64_t> gshape = grad->getShape();
  if (gshape.size() != indices->getShape().size() + 1 ||
      gshape.drop_back() != indices->getShape())
    return infer.fail("grad_output of shape ", shapeToString(gshape),
                      " must be indices' shape ",
                      shapeToString(indices->getShape()), " plus one dimension");
  int64_t numWeights = adaptor.getNumWeights();
  if (numWeights < 0)
    return infer.fail("'num_weights' must be non-negative, got ", numWeights);
  results.push_back(
      RankedTensorType::get({numWeights, gshape.back()}, grad->getElementType()));
  return success();
}
