//===- TadCompositeOps.cpp - inference of the composite ops ---------------===//
//
// Result types of the composite ops of TadCompositeOps.td with ATen's shape
// rules. They have no lowering: tad-decompose replaces them.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/NNShapes.h"
#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TensorInference.h"
#include "dialects/Tad/TensorShapes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tad;

namespace {
RankedTensorType typeOf(Value v) {
  return v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
}
} // namespace

template <typename OpTy>
static TensorInference composite(std::optional<Location> loc) {
  return TensorInference{loc, OpTy::getOperationName(), {}};
}

#define TAD_INFER_SIGNATURE(OP)                                                \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, ValueRange operands,  \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &results)

/// Ops whose result has the type of their first operand (the decomposition
/// checks the rest).
#define TAD_INFER_SAME_AS_INPUT(OP)                                            \
  TAD_INFER_SIGNATURE(OP) {                                                    \
    auto input = typeOf(operands.empty() ? Value() : operands[0]);             \
    if (!input)                                                                \
      return composite<OP>(loc).fail("expects a ranked tensor input");         \
    results.push_back(input);                                                  \
    return success();                                                          \
  }
TAD_INFER_SAME_AS_INPUT(BatchNormOp)
#undef TAD_INFER_SAME_AS_INPUT

TAD_INFER_SIGNATURE(LayerNormOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<LayerNormOp>(loc);
  auto input = typeOf(adaptor.getInput());
  if (!input || !adaptor.getNormalizedShapeAttr())
    return infer.fail("requires an input and 'normalized_shape'");
  ArrayRef<int64_t> normalized = adaptor.getNormalizedShape();
  if (normalized.empty() || normalized.size() > input.getShape().size() ||
      input.getShape().take_back(normalized.size()) != normalized)
    return infer.fail("'normalized_shape' ", shapeToString(normalized),
                      " is not a non-empty suffix of the input shape ",
                      shapeToString(input.getShape()));
  results.push_back(input);
  return success();
}

TAD_INFER_SIGNATURE(GroupNormOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<GroupNormOp>(loc);
  auto input = typeOf(adaptor.getInput());
  if (!input || input.getRank() < 2 || !adaptor.getNumGroupsAttr())
    return infer.fail("expects an input [N, C, ...] and 'num_groups'");
  int64_t groups = adaptor.getNumGroups();
  if (groups <= 0 ||
      (!input.isDynamicDim(1) && input.getDimSize(1) % groups != 0))
    return infer.fail("'num_groups' ", groups, " must divide the ",
                      input.getDimSize(1), " channels");
  results.push_back(input);
  return success();
}

TAD_INFER_SIGNATURE(LinearOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<LinearOp>(loc);
  auto input = typeOf(adaptor.getInput()), weight = typeOf(adaptor.getWeight());
  if (!input || !weight || input.getRank() < 1 || weight.getRank() != 2 ||
      !dimsCompatible(input.getShape().back(), weight.getDimSize(1)))
    return infer.fail("expects input [..., in] and weight [out, in]");
  SmallVector<int64_t> shape(input.getShape().drop_back());
  shape.push_back(weight.getDimSize(0));
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

/// nll_loss / cross_entropy_loss: self [C], [N, C] or [N, C, d...] and a
/// target without the class dimension.
template <typename OpTy>
static LogicalResult inferClassLoss(std::optional<Location> loc, ValueRange operands,
                                    DictionaryAttr attributes,
                                    OpaqueProperties properties, RegionRange regions,
                                    SmallVectorImpl<Type> &results) {
  typename OpTy::Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<OpTy>(loc);
  auto self = typeOf(adaptor.getSelf()), target = typeOf(adaptor.getTarget());
  if (!self || !target || self.getRank() < 1)
    return infer.fail("expects ranked self and target");
  SmallVector<int64_t> expected(self.getShape());
  expected.erase(expected.begin() + (self.getRank() == 1 ? 0 : 1));
  if (!shapesCompatible(target.getShape(), expected))
    return infer.fail("target of shape ", shapeToString(target.getShape()),
                      " does not match self ", shapeToString(self.getShape()),
                      " without its class dimension");
  int64_t reduction = adaptor.getReduction();
  if (reduction < 0 || reduction > 2)
    return infer.fail("'reduction' must be 0, 1 or 2, got ", reduction);
  results.push_back(RankedTensorType::get(
      reduction == 0 ? ArrayRef<int64_t>(expected) : ArrayRef<int64_t>(),
      self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(CrossEntropyLossOp) {
  return inferClassLoss<CrossEntropyLossOp>(loc, operands, attributes, properties,
                                            regions, results);
}
TAD_INFER_SIGNATURE(NllLossOp) {
  return inferClassLoss<NllLossOp>(loc, operands, attributes, properties, regions,
                                   results);
}

template <typename OpTy>
static LogicalResult inferConvNd(std::optional<Location> loc, ValueRange operands,
                                 DictionaryAttr attributes, OpaqueProperties properties,
                                 RegionRange regions, SmallVectorImpl<Type> &results,
                                 int64_t spatial) {
  typename OpTy::Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<OpTy>(loc);
  auto input = typeOf(adaptor.getInput()), weight = typeOf(adaptor.getWeight());
  if (!input || !weight || input.getRank() != spatial + 2 ||
      weight.getRank() != spatial + 2)
    return infer.fail("expects input and weight of rank ", spatial + 2);
  auto param = [&](std::optional<ArrayRef<int64_t>> given, int64_t fallback) {
    return given ? expandParam(*given, spatial)
                 : std::optional<SmallVector<int64_t>>(
                       SmallVector<int64_t>(spatial, fallback));
  };
  auto stride = param(adaptor.getStride(), 1), padding = param(adaptor.getPadding(), 0),
       dilation = param(adaptor.getDilation(), 1);
  int64_t groups = adaptor.getGroups();
  if (!stride || !padding || !dilation || groups <= 0 ||
      input.getDimSize(1) != weight.getDimSize(1) * groups ||
      weight.getDimSize(0) % groups != 0)
    return infer.fail("invalid stride, padding, dilation, groups or channels");
  SmallVector<int64_t> shape{input.getDimSize(0), weight.getDimSize(0)};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t out = convOutputSize(input.getDimSize(2 + i), weight.getDimSize(2 + i),
                                 (*stride)[i], (*padding)[i], (*dilation)[i]);
    if (!ShapedType::isDynamic(out) && out < 1)
      return infer.fail("the kernel does not fit the padded input");
    shape.push_back(out);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(Conv1dOp) {
  return inferConvNd<Conv1dOp>(loc, operands, attributes, properties, regions,
                               results, 1);
}
TAD_INFER_SIGNATURE(Conv2dOp) {
  return inferConvNd<Conv2dOp>(loc, operands, attributes, properties, regions,
                               results, 2);
}

TAD_INFER_SIGNATURE(MaxPool2dOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<MaxPool2dOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self || (self.getRank() != 3 && self.getRank() != 4) ||
      !adaptor.getKernelSizeAttr())
    return infer.fail("expects a 3-D or 4-D input and 'kernel_size'");
  auto k = expandParam(adaptor.getKernelSize(), 2);
  std::optional<ArrayRef<int64_t>> strideAttr = adaptor.getStride();
  auto s = strideAttr && !strideAttr->empty() ? expandParam(*strideAttr, 2) : k;
  auto p = adaptor.getPadding() ? expandParam(*adaptor.getPadding(), 2)
                                : SmallVector<int64_t>{0, 0};
  auto d = adaptor.getDilation() ? expandParam(*adaptor.getDilation(), 2)
                                 : SmallVector<int64_t>{1, 1};
  if (!k || !s || !p || !d)
    return infer.fail("pooling parameters need 1 or 2 values");
  SmallVector<int64_t> shape(self.getShape().drop_back(2));
  for (int i = 0; i < 2; ++i) {
    // Checked before the output size, which divides by the stride.
    if ((*k)[i] <= 0 || (*s)[i] <= 0 || (*d)[i] <= 0 || (*p)[i] < 0 ||
        (*p)[i] * 2 > (*k)[i])
      return infer.fail("invalid pooling parameters for input ",
                        shapeToString(self.getShape()));
    int64_t out = poolOutputSize(self.getShape()[self.getRank() - 2 + i], (*k)[i],
                                 (*s)[i], (*p)[i], (*d)[i], adaptor.getCeilMode());
    if (!ShapedType::isDynamic(out) && out < 1)
      return infer.fail("invalid pooling parameters for input ",
                        shapeToString(self.getShape()));
    shape.push_back(out);
  }
  results.push_back(RankedTensorType::get(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(AdaptiveAvgPool2dCompositeOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<AdaptiveAvgPool2dCompositeOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self || (self.getRank() != 3 && self.getRank() != 4) ||
      !adaptor.getOutputSizeAttr() || adaptor.getOutputSize().size() != 2)
    return infer.fail("expects a 3-D or 4-D input and two output sizes");
  SmallVector<int64_t> shape(self.getShape().drop_back(2));
  shape.append(adaptor.getOutputSize().begin(), adaptor.getOutputSize().end());
  results.push_back(RankedTensorType::get(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(FlattenUsingIntsOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<FlattenUsingIntsOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self)
    return infer.fail("expects a ranked tensor");
  int64_t rank = self.getRank();
  if (rank == 0) {
    results.push_back(RankedTensorType::get({1}, self.getElementType()));
    return success();
  }
  auto start = wrapDim(adaptor.getStartDim(), rank), end = wrapDim(adaptor.getEndDim(), rank);
  if (!start || !end || *start > *end)
    return infer.fail("start_dim ", static_cast<int64_t>(adaptor.getStartDim()),
                      " and end_dim ", static_cast<int64_t>(adaptor.getEndDim()),
                      " are invalid for rank ", rank);
  SmallVector<int64_t> shape(self.getShape().take_front(*start));
  int64_t merged = 1;
  for (int64_t i = *start; i <= *end; ++i)
    merged = mulSizes(merged, self.getDimSize(i));
  shape.push_back(merged);
  shape.append(self.getShape().begin() + *end + 1, self.getShape().end());
  results.push_back(RankedTensorType::get(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(NarrowOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<NarrowOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self || self.getRank() == 0 || !adaptor.getDimAttr() ||
      !adaptor.getStartAttr() || !adaptor.getLengthAttr())
    return infer.fail("expects a tensor of rank >= 1 and 'dim', 'start', 'length'");
  auto dim = wrapDim(adaptor.getDim(), self.getRank());
  if (!dim)
    return infer.fail("'dim' is out of range");
  int64_t size = self.getDimSize(*dim);
  // I64Attr getters return uint64_t.
  int64_t start = static_cast<int64_t>(adaptor.getStart());
  if (start < 0)
    start += size;
  int64_t length = static_cast<int64_t>(adaptor.getLength());
  // Against a dynamic size, the bounds are the decomposition's (a slice
  // whose start reads the size where it is negative).
  bool inBounds = ShapedType::isDynamic(size)
                      ? length >= 0
                      : start >= 0 && length >= 0 && start + length <= size;
  if (!inBounds)
    return infer.fail("start ", static_cast<int64_t>(adaptor.getStart()), " and length ",
                      length, " exceed dimension ", *dim, " of size ", size);
  SmallVector<int64_t> shape(self.getShape());
  shape[*dim] = length;
  results.push_back(RankedTensorType::get(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(GluOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<GluOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self || self.getRank() == 0)
    return infer.fail("expects a tensor of rank >= 1");
  auto dim = wrapDim(static_cast<int64_t>(adaptor.getDim()), self.getRank());
  if (!dim)
    return infer.fail("'dim' is out of range");
  if (!self.isDynamicDim(*dim) && self.getDimSize(*dim) % 2)
    return infer.fail("halves dimension ", *dim, " but its size ",
                      self.getDimSize(*dim), " is odd");
  SmallVector<int64_t> shape(self.getShape());
  if (!self.isDynamicDim(*dim))
    shape[*dim] /= 2;
  results.push_back(RankedTensorType::get(shape, self.getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(ChunkOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  TensorInference infer = composite<ChunkOp>(loc);
  auto self = typeOf(adaptor.getSelf());
  if (!self || self.getRank() == 0 || !adaptor.getChunksAttr() ||
      static_cast<int64_t>(adaptor.getChunks()) <= 0)
    return infer.fail("expects a tensor of rank >= 1 and a positive 'chunks'");
  auto dim = wrapDim(adaptor.getDim(), self.getRank());
  if (!dim)
    return infer.fail("'dim' is out of range");
  int64_t size = self.getDimSize(*dim), chunks = static_cast<int64_t>(adaptor.getChunks());
  if (ShapedType::isDynamic(size))
    return infer.fail("cannot chunk dimension ", *dim, ", whose size is "
                      "dynamic: the number of results would depend on it");
  int64_t piece = size / chunks + (size % chunks != 0);
  if (size > 0 && splitPieceCount(size, piece) > kMaxSplitPieces)
    return infer.fail("chunking a dimension of size ", size, " into ", chunks,
                      " gives ", splitPieceCount(size, piece), " results; at most ",
                      kMaxSplitPieces, " are supported");
  SmallVector<int64_t> shape(self.getShape());
  for (int64_t start = 0; start < size || (size == 0 && start == 0); start += piece) {
    shape[*dim] = std::min(piece, size - start);
    results.push_back(RankedTensorType::get(shape, self.getElementType()));
    if (piece == 0)
      break;
  }
  return success();
}

/// NumPy matmul shapes: 1-D operands are promoted and the added dimension
/// removed, batch dimensions broadcast.
TAD_INFER_SIGNATURE(MatmulOp) {
  TensorInference infer = composite<MatmulOp>(loc);
  auto a = typeOf(operands.size() > 0 ? operands[0] : Value());
  auto b = typeOf(operands.size() > 1 ? operands[1] : Value());
  if (!a || !b || a.getRank() == 0 || b.getRank() == 0)
    return infer.fail("expects two tensors of rank >= 1");
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape();
  int64_t k1 = as.back(), k2 = bs.size() == 1 ? bs[0] : bs[bs.size() - 2];
  if (k1 != k2)
    return infer.fail("cannot multiply shapes ", shapeToString(as), " and ",
                      shapeToString(bs));
  ArrayRef<int64_t> aBatch = as.size() > 2 ? as.drop_back(2) : ArrayRef<int64_t>();
  ArrayRef<int64_t> bBatch = bs.size() > 2 ? bs.drop_back(2) : ArrayRef<int64_t>();
  auto batch = broadcastShapes(aBatch, bBatch);
  if (!batch)
    return infer.fail("batch dimensions ", shapeToString(aBatch), " and ",
                      shapeToString(bBatch), " do not broadcast");
  SmallVector<int64_t> shape(*batch);
  if (as.size() > 1)
    shape.push_back(as[as.size() - 2]);
  if (bs.size() > 1)
    shape.push_back(bs.back());
  results.push_back(RankedTensorType::get(shape, a.getElementType()));
  return success();
}

#undef TAD_INFER_SIGNATURE
