//===- TadShapeOps.cpp - inference of the shape/data-movement family -------===//
//
// Result types of TadShapeOps.td with ATen's rules (TensorShapes.h for
// slicing, splitting and padding).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/TensorInference.h"
#include "dialects/Tad/TensorShapes.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tad;

static LogicalResult pushShape(SmallVectorImpl<Type> &results,
                               ArrayRef<int64_t> shape, Type element) {
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

TAD_INFER(PermuteOp) {
  TensorInference infer = tensorInference<PermuteOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimsAttr())
    return infer.fail("requires attribute 'dims'");
  ArrayRef<int64_t> dims = adaptor.getDims();
  int64_t rank = self->getRank();
  std::optional<SmallVector<int64_t>> sorted = wrapDims(dims, rank);
  if (static_cast<int64_t>(dims.size()) != rank ||
      (rank > 0 && (!sorted || static_cast<int64_t>(sorted->size()) != rank)))
    return infer.fail("'dims' ", shapeToString(dims),
                      " is not a permutation of the ", rank, " dimensions");
  SmallVector<int64_t> shape;
  for (int64_t d : dims)
    shape.push_back(self->getDimSize(*wrapDim(d, rank)));
  return pushShape(results, shape, self->getElementType());
}

TAD_INFER(SqueezeOp) {
  TensorInference infer = tensorInference<SqueezeOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  // Whether a dynamic size is squeezed is decided at run time, the rank
  // at compile time.
  if (!self->hasStaticShape())
    return infer.fail("cannot squeeze ", shapeToString(self->getShape()),
                      ": whether a dynamic size is 1 is known at run time "
                      "only (squeeze the static dimensions by index)");
  SmallVector<int64_t> shape;
  for (int64_t size : self->getShape())
    if (size != 1)
      shape.push_back(size);
  return pushShape(results, shape, self->getElementType());
}

TAD_INFER(SliceTensorOp) {
  TensorInference infer = tensorInference<SliceTensorOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), self->getRank());
  if (failed(dim))
    return failure();
  int64_t step = adaptor.getStep();
  if (step <= 0)
    return infer.fail("'step' must be positive, got ", step);
  std::optional<int64_t> start, end;
  if (adaptor.getStartAttr())
    start = static_cast<int64_t>(*adaptor.getStart());
  if (adaptor.getEndAttr())
    end = static_cast<int64_t>(*adaptor.getEnd());
  SmallVector<int64_t> shape(self->getShape());
  shape[*dim] = sliceBounds(shape[*dim], start, end, step).length;
  return pushShape(results, shape, self->getElementType());
}

TAD_INFER(SliceBackwardOp) {
  TensorInference infer = tensorInference<SliceBackwardOp>(loc, operands);
  FailureOr<RankedTensorType> grad = infer.tensor(0);
  if (failed(grad))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getInputSizesAttr() || !adaptor.getDimAttr() ||
      !adaptor.getStartAttr() || !adaptor.getEndAttr() || !adaptor.getStepAttr())
    return infer.fail("requires attributes 'input_sizes', 'dim', 'start', "
                      "'end' and 'step'");
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), sizes.size());
  if (failed(dim))
    return failure();
  int64_t step = adaptor.getStep();
  if (step <= 0)
    return infer.fail("'step' must be positive, got ", step);
  SmallVector<int64_t> expected(sizes);
  expected[*dim] = sliceBounds(sizes[*dim], static_cast<int64_t>(adaptor.getStart()),
                               static_cast<int64_t>(adaptor.getEnd()), step)
                       .length;
  if (!shapesCompatible(grad->getShape(), expected))
    return infer.fail("grad_output has shape ", shapeToString(grad->getShape()),
                      " but the slice has shape ", shapeToString(expected));
  return pushShape(results, sizes, grad->getElementType());
}

TAD_INFER(ShapeAsTensorOp) {
  TensorInference infer = tensorInference<ShapeAsTensorOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  return pushShape(results, {self->getRank()},
                   IntegerType::get(context, 64));
}

OpFoldResult ShapeAsTensorOp::fold(FoldAdaptor) {
  RankedTensorType self = getSelf().getType();
  if (!self.hasStaticShape())
    return {};
  return DenseElementsAttr::get(getType(), self.getShape());
}

TAD_INFER(ExpandAsOp) {
  TensorInference infer = tensorInference<ExpandAsOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  FailureOr<RankedTensorType> other = infer.tensor(1);
  if (failed(self) || failed(other))
    return failure();
  // expand's rule with other's sizes: self's sizes, aligned from the last,
  // are 1 or other's (a dynamic size on either side is checked at run time).
  int64_t lead = other->getRank() - self->getRank();
  bool fits = lead >= 0;
  for (int64_t d = 0; fits && d < self->getRank(); ++d) {
    int64_t from = self->getDimSize(d), to = other->getDimSize(d + lead);
    fits = from == 1 || from == to || ShapedType::isDynamic(from) ||
           ShapedType::isDynamic(to);
  }
  if (!fits)
    return infer.fail("cannot expand shape ", shapeToString(self->getShape()),
                      " to shape ", shapeToString(other->getShape()));
  return pushShape(results, other->getShape(), self->getElementType());
}

OpFoldResult ExpandAsOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

TAD_INFER(SelectIntOp) {
  TensorInference infer = tensorInference<SelectIntOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr() || !adaptor.getIndexAttr())
    return infer.fail("requires attributes 'dim' and 'index'");
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), self->getRank());
  if (failed(dim))
    return failure();
  int64_t size = self->getDimSize(*dim);
  int64_t index = adaptor.getIndex();
  if (!ShapedType::isDynamic(size) && (index < -size || index >= size))
    return infer.fail("'index' ", index, " is out of range for size ", size);
  SmallVector<int64_t> shape(self->getShape());
  shape.erase(shape.begin() + *dim);
  return pushShape(results, shape, self->getElementType());
}

TAD_INFER(SelectBackwardOp) {
  TensorInference infer = tensorInference<SelectBackwardOp>(loc, operands);
  FailureOr<RankedTensorType> grad = infer.tensor(0);
  if (failed(grad))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getInputSizesAttr() || !adaptor.getDimAttr() ||
      !adaptor.getIndexAttr())
    return infer.fail("requires attributes 'input_sizes', 'dim' and 'index'");
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), sizes.size());
  if (failed(dim))
    return failure();
  int64_t index = adaptor.getIndex();
  if (!ShapedType::isDynamic(sizes[*dim]) &&
      (index < -sizes[*dim] || index >= sizes[*dim]))
    return infer.fail("'index' ", index, " is out of range for size ",
                      sizes[*dim]);
  SmallVector<int64_t> expected(sizes);
  expected.erase(expected.begin() + *dim);
  if (!shapesCompatible(grad->getShape(), expected))
    return infer.fail("grad_output has shape ", shapeToString(grad->getShape()),
                      " but the selected slice has shape ",
                      shapeToString(expected));
  return pushShape(results, sizes, grad->getElementType());
}

TAD_INFER(ToCopyOp) {
  TensorInference infer = tensorInference<ToCopyOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  Type element = self->getElementType();
  if (TypeAttr dtype = adaptor.getDtypeAttr()) {
    element = dtype.getValue();
    if (!element.isF32() && !element.isF64() && !element.isBF16() &&
        !element.isF16() && !element.isInteger(64) &&
        !element.isInteger(32) && !element.isInteger(1))
      return infer.fail("'dtype' must be f32, f64, bf16, f16, i64, i32 or i1, got ",
                        element);
  }
  return pushShape(results, self->getShape(), element);
}

/// Checks the operands of cat/stack; returns the first one's type.
static FailureOr<RankedTensorType> joinOperands(const TensorInference &infer,
                                                bool sameShape,
                                                int64_t catDim) {
  if (infer.operands.empty()) {
    (void)infer.fail("expects at least one tensor");
    return failure();
  }
  FailureOr<RankedTensorType> first = infer.tensor(0);
  if (failed(first))
    return failure();
  for (unsigned i = 1; i < infer.operands.size(); ++i) {
    FailureOr<RankedTensorType> other = infer.tensor(i);
    if (failed(other) || failed(infer.sameElementType(*first, *other)))
      return failure();
    bool ok = other->getRank() == first->getRank();
    for (int64_t d = 0; ok && d < first->getRank(); ++d)
      ok = (!sameShape && d == catDim) ||
           other->getDimSize(d) == first->getDimSize(d);
    if (!ok) {
      (void)infer.fail("tensor #", i, " of shape ",
                       shapeToString(other->getShape()),
                       sameShape ? " differs from tensor #0 of shape "
                                 : " does not match outside 'dim' tensor #0 "
                                   "of shape ",
                       shapeToString(first->getShape()));
      return failure();
    }
  }
  return first;
}

TAD_INFER(CatOp) {
  TensorInference infer = tensorInference<CatOp>(loc, operands);
  if (operands.empty())
    return infer.fail("expects at least one tensor");
  FailureOr<RankedTensorType> first = infer.tensor(0);
  if (failed(first))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), first->getRank());
  if (failed(dim) || failed(joinOperands(infer, false, *dim)))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape[*dim] = 0;
  for (Value operand : operands)
    shape[*dim] = addSizes(
        shape[*dim], cast<RankedTensorType>(operand.getType()).getDimSize(*dim));
  return pushShape(results, shape, first->getElementType());
}

TAD_INFER(StackOp) {
  TensorInference infer = tensorInference<StackOp>(loc, operands);
  FailureOr<RankedTensorType> first = joinOperands(infer, true, -1);
  if (failed(first))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), first->getRank() + 1);
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape.insert(shape.begin() + *dim, operands.size());
  return pushShape(results, shape, first->getElementType());
}

/// One result per piece of `sizes` along `dim` of `self`.
static LogicalResult pushPieces(const TensorInference &infer,
                                RankedTensorType self, int64_t dim,
                                ArrayRef<int64_t> sizes,
                                SmallVectorImpl<Type> &results) {
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (ShapedType::isDynamic(size))
      return infer.fail("split sizes ", shapeToString(sizes),
                        " include a dynamic size: pieces of dynamic size "
                        "are not supported");
    if (size < 0)
      return infer.fail("split sizes must be non-negative, got ",
                        shapeToString(sizes));
    if (llvm::AddOverflow(total, size, total))
      return infer.fail("split sizes ", shapeToString(sizes),
                        " overflow a 64-bit size");
  }
  if (!self.isDynamicDim(dim) && total != self.getDimSize(dim))
    return infer.fail("split sizes ", shapeToString(sizes), " do not add up to ",
                      self.getDimSize(dim), ", the size of dimension ", dim);
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(self.getShape());
    shape[dim] = size;
    results.push_back(RankedTensorType::get(shape, self.getElementType()));
  }
  return success();
}

TAD_INFER(SplitTensorOp) {
  TensorInference infer = tensorInference<SplitTensorOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getSplitSizeAttr())
    return infer.fail("requires attribute 'split_size'");
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), self->getRank());
  if (failed(dim))
    return failure();
  int64_t splitSize = adaptor.getSplitSize();
  if (splitSize <= 0)
    return infer.fail("'split_size' must be positive, got ", splitSize);
  int64_t size = self->getDimSize(*dim);
  if (ShapedType::isDynamic(size))
    return infer.fail("cannot split dimension ", *dim, ", whose size is "
                      "dynamic: the number of results would depend on it");
  if (int64_t pieces = splitPieceCount(size, splitSize); pieces > kMaxSplitPieces)
    return infer.fail("splitting a dimension of size ", size, " by ", splitSize,
                      " gives ", pieces, " results; at most ", kMaxSplitPieces,
                      " are supported");
  return pushPieces(infer, *self, *dim,
                    splitSizes(self->getDimSize(*dim), splitSize), results);
}

TAD_INFER(SplitWithSizesOp) {
  TensorInference infer = tensorInference<SplitWithSizesOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getSplitSizesAttr())
    return infer.fail("requires attribute 'split_sizes'");
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), self->getRank());
  if (failed(dim))
    return failure();
  return pushPieces(infer, *self, *dim, adaptor.getSplitSizes(), results);
}

TAD_INFER(UnbindIntOp) {
  TensorInference infer = tensorInference<UnbindIntOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  FailureOr<int64_t> dim = infer.dim(adaptor.getDim(), self->getRank());
  if (failed(dim))
    return failure();
  if (self->isDynamicDim(*dim))
    return infer.fail("cannot unbind dimension ", *dim, ", whose size is "
                      "dynamic: the number of results would depend on it");
  if (self->getDimSize(*dim) > kMaxSplitPieces)
    return infer.fail("unbinding a dimension of size ", self->getDimSize(*dim),
                      " gives as many results; at most ", kMaxSplitPieces,
                      " are supported");
  SmallVector<int64_t> shape(self->getShape());
  shape.erase(shape.begin() + *dim);
  for (int64_t i = 0; i < self->getDimSize(*dim); ++i)
    results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

TAD_INFER(RepeatOp) {
  TensorInference infer = tensorInference<RepeatOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getRepeatsAttr())
    return infer.fail("requires attribute 'repeats'");
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  int64_t rank = self->getRank(), n = repeats.size();
  if (n < rank)
    return infer.fail("'repeats' ", shapeToString(repeats),
                      " has fewer entries than the rank ", rank);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < n; ++i) {
    if (repeats[i] < 0)
      return infer.fail("'repeats' must be non-negative, got ",
                        shapeToString(repeats));
    int64_t size = i < n - rank ? 1 : self->getDimSize(i - (n - rank));
    shape.push_back(mulSizes(size, repeats[i]));
  }
  return pushShape(results, shape, self->getElementType());
}

TAD_INFER(ConstantPadNdOp) {
  TensorInference infer = tensorInference<ConstantPadNdOp>(loc, operands);
  FailureOr<RankedTensorType> self = infer.tensor(0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getPadAttr())
    return infer.fail("requires attribute 'pad'");
  ArrayRef<int64_t> pad = adaptor.getPad();
  for (int64_t i = 0, e = pad.size() / 2; i < e; ++i) {
    int64_t d = self->getRank() - 1 - i;
    if (d >= 0 && self->isDynamicDim(d) && (pad[2 * i] || pad[2 * i + 1]))
      return infer.fail("'pad' ", shapeToString(pad), " pads dimension ", d,
                        ", whose size is dynamic; tad pads static dimensions "
                        "only (docs/dynamic-shapes.md)");
  }
  std::optional<SmallVector<int64_t>> shape =
      paddedShape(self->getShape(), pad);
  if (!shape)
    return infer.fail("'pad' ", shapeToString(adaptor.getPad()),
                      " is invalid for shape ", shapeToString(self->getShape()),
                      " (pairs per dimension, at most two per dimension, no "
                      "negative sizes)");
  return pushShape(results, *shape, self->getElementType());
}

LogicalResult FlipOp::verify() {
  int64_t rank = getSelf().getType().getRank();
  if (!wrapDims(getDims(), rank) && !getDims().empty())
    return emitOpError("'dims' ") << shapeToString(getDims())
                                  << " is out of range or repeated for rank "
                                  << rank;
  return success();
}

LogicalResult TrilOp::verify() {
  if (getSelf().getType().getRank() < 2)
    return emitOpError("expects a tensor of rank >= 2, got rank ")
           << getSelf().getType().getRank();
  return success();
}
