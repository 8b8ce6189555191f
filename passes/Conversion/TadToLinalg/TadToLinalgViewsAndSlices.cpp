//===- TadToLinalgViewsAndSlices.cpp - views, slices, joins to linalg -----===//
//
// Views become tensor reshapes or linalg.transpose (permute); slice, select
// and the split family become tensor.extract_slice (rank-reducing for select
// and unbind); their backward ops, cat, stack and constant_pad_nd insert
// slices into a filled tensor (tad-lower-copies turns the strided copies
// into linalg.copy later). repeat and flip are all-parallel generics whose
// input maps do the work (d mod size, size - 1 - d); tril selects on the
// loop indices; _to_copy converts elements in a generic; clone is the
// identity under value semantics.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/TadOps.h"
#include "dialects/Tad/RuntimeSliceBounds.h"
#include "dialects/Tad/TensorShapes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

/// Whether `type` has no elements whatever its dynamic sizes are.
bool isEmpty(RankedTensorType type) {
  return llvm::is_contained(type.getShape(), 0);
}

/// Per-dimension offsets, sizes and strides of a slice of `shape` that
/// selects [start, start + length * step) with `step` along `dim`.
struct SliceSpec {
  SmallVector<int64_t> offsets, sizes, strides;
};
SliceSpec sliceSpec(ArrayRef<int64_t> shape, int64_t dim, int64_t start,
                    int64_t length, int64_t step) {
  SliceSpec spec{SmallVector<int64_t>(shape.size(), 0),
                 SmallVector<int64_t>(shape),
                 SmallVector<int64_t>(shape.size(), 1)};
  spec.offsets[dim] = start;
  spec.sizes[dim] = length;
  spec.strides[dim] = step;
  return spec;
}

/// The slice `spec` of `source`; its dynamic sizes are the source's (a
/// slice cuts a static dimension). A zero-size slice is an empty tensor:
/// its offsets may equal the source's size (the last piece of a split),
/// which tensor.extract_slice does not accept.
Value extract(OpBuilder &b, Location loc, Value source, RankedTensorType type,
              const SliceSpec &spec) {
  if (isEmpty(type)) {
    SmallVector<SizeSource> sources;
    for (int64_t d = 0, e = type.getRank(); d < e; ++d)
      sources.push_back({source, d});
    return emptyTensor(b, loc, type, sources);
  }
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, indexAttrs(b, spec.offsets),
      mixedSizes(b, loc, spec.sizes, source), indexAttrs(b, spec.strides));
}

/// `dest` with `source` written at the slice `spec` (dynamic sizes: the
/// destination's); unchanged for a zero-size `source` (see extract).
Value insert(OpBuilder &b, Location loc, Value source, Value dest,
             const SliceSpec &spec) {
  if (isEmpty(cast<RankedTensorType>(source.getType())))
    return dest;
  return tensor::InsertSliceOp::create(
      b, loc, source, dest, indexAttrs(b, spec.offsets),
      mixedSizes(b, loc, spec.sizes, dest), indexAttrs(b, spec.strides));
}

/// `value` as `type`, a type of the same sizes where either is static
/// (the sizes of a gradient that the op's result type knows statically).
Value castTo(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

/// The sources of the sizes of a tensor with `like`'s dimensions and,
/// when `insertedDim` is set, one more there (stack, select_backward).
SmallVector<SizeSource> sourcesLike(Value like, int64_t rank,
                                    std::optional<int64_t> insertedDim = {}) {
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    sources.push_back(
        {like, insertedDim && d > *insertedDim ? d - 1 : d});
  return sources;
}

/// A tensor of `type` whose dynamic sizes are those of `like` (same rank).
Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type, Value like) {
  return emptyTensor(b, loc, type, sourcesLike(like, type.getRank()));
}

/// Zeros of `type`, dynamic sizes from `sources`.
Value zeros(OpBuilder &b, Location loc, RankedTensorType type,
            ArrayRef<SizeSource> sources) {
  return filledTensor(b, loc, type, zeroConstant(b, loc, type.getElementType()),
                      sources);
}

template <typename OpTy>
Value lowerReshape2(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return reshapeTo(b, op.getLoc(), adaptor.getSelf(),
                   cast<RankedTensorType>(op.getType()));
}

Value lowerPermute(PermuteOp op, PermuteOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm;
  for (int64_t d : op.getDims())
    perm.push_back(*wrapDim(d, rank));
  if (llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
    return adaptor.getSelf();
  SmallVector<SizeSource> sources;
  for (int64_t d : perm)
    sources.push_back({adaptor.getSelf(), d});
  Value init = emptyTensor(b, op.getLoc(), type, sources);
  return linalg::TransposeOp::create(b, op.getLoc(), adaptor.getSelf(), init,
                                     perm)
      .getResult()[0];
}

Value lowerSlice(SliceTensorOp op, SliceTensorOp::Adaptor adaptor,
                 OpBuilder &b) {
  ArrayRef<int64_t> shape = op.getSelf().getType().getShape();
  int64_t dim = *wrapDim(op.getDim(), shape.size());
  std::optional<int64_t> start, end;
  if (op.getStart())
    start = static_cast<int64_t>(*op.getStart());
  if (op.getEnd())
    end = static_cast<int64_t>(*op.getEnd());
  int64_t step = op.getStep();
  if (ShapedType::isDynamic(shape[dim])) {
    // Clamped at run time; the other sizes are the source's.
    Location loc = op.getLoc();
    Value self = adaptor.getSelf();
    int64_t rank = shape.size();
    auto [offset, length] = buildSliceBounds(
        b, loc, tensor::DimOp::create(b, loc, self, dim), start, end, step);
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
        strides(rank, b.getIndexAttr(1)),
        sizes = tensor::getMixedSizes(b, loc, self);
    offsets[dim] = offset;
    sizes[dim] = length;
    strides[dim] = b.getIndexAttr(step);
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, self, offsets, sizes, strides);
    return tensor::CastOp::create(b, loc, op.getType(), slice);
  }
  SliceBounds bounds = sliceBounds(shape[dim], start, end, step);
  return extract(b, op.getLoc(), adaptor.getSelf(),
                 cast<RankedTensorType>(op.getType()),
                 sliceSpec(shape, dim, bounds.start, bounds.length, step));
}

Value lowerSliceBackward(SliceBackwardOp op, SliceBackwardOp::Adaptor adaptor,
                         OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t dim = *wrapDim(op.getDim(), shape.size());
  int64_t step = op.getStep();
  SliceBounds bounds =
      sliceBounds(shape[dim], static_cast<int64_t>(op.getStart()),
                  static_cast<int64_t>(op.getEnd()), step);
  SmallVector<int64_t> sliced(shape);
  sliced[dim] = bounds.length;
  Value grad = castTo(b, op.getLoc(), adaptor.getGradOutput(),
                      type.clone(sliced));
  return insert(b, op.getLoc(), grad,
                zeros(b, op.getLoc(), type, sourcesLike(grad, type.getRank())),
                sliceSpec(shape, dim, bounds.start, bounds.length, step));
}

Value lowerSelect(SelectIntOp op, SelectIntOp::Adaptor adaptor, OpBuilder &b) {
  ArrayRef<int64_t> shape = op.getSelf().getType().getShape();
  int64_t dim = *wrapDim(op.getDim(), shape.size());
  int64_t index = op.getIndex();
  if (index < 0)
    index += shape[dim];
  return extract(b, op.getLoc(), adaptor.getSelf(),
                 cast<RankedTensorType>(op.getType()),
                 sliceSpec(shape, dim, index, 1, 1));
}

Value lowerSelectBackward(SelectBackwardOp op, SelectBackwardOp::Adaptor adaptor,
                          OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t dim = *wrapDim(op.getDim(), shape.size());
  int64_t index = op.getIndex();
  if (index < 0)
    index += shape[dim];
  SmallVector<int64_t> selected(shape);
  selected.erase(selected.begin() + dim);
  Value grad = castTo(b, op.getLoc(), adaptor.getGradOutput(),
                      type.clone(selected));
  return insert(b, op.getLoc(), grad,
                zeros(b, op.getLoc(), type, sourcesLike(grad, type.getRank(), dim)),
                sliceSpec(shape, dim, index, 1, 1));
}

Value lowerClone(CloneOp, CloneOp::Adaptor adaptor, OpBuilder &) {
  return adaptor.getSelf();
}

/// After differentiation a detach is its operand.
Value lowerDetach(DetachOp, DetachOp::Adaptor adaptor, OpBuilder &) {
  return adaptor.getSelf();
}

Value lowerToCopy(ToCopyOp op, ToCopyOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  if (type == op.getSelf().getType())
    return adaptor.getSelf();
  Type element = type.getElementType();
  return buildElementwise(b, op.getLoc(), type, adaptor.getSelf(),
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            return convertScalar(nb, nl, args[0], element);
                          });
}

/// A join along `dim` of dynamic size: the pieces at offsets summed at run
/// time (the other sizes are the first piece's).
Value catDynamic(OpBuilder &b, Location loc, RankedTensorType type,
                 int64_t dim, ValueRange pieces) {
  int64_t rank = type.getRank();
  auto sizesOf = [&](Value piece) {
    return tensor::getMixedSizes(b, loc, piece);
  };
  SmallVector<OpFoldResult> sizes = sizesOf(pieces[0]);
  auto add = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx + *cy);
    if (cx == 0)
      return y;
    return arith::AddIOp::create(b, loc,
                                 getValueOrCreateConstantIndexOp(b, loc, x),
                                 getValueOrCreateConstantIndexOp(b, loc, y))
        .getResult();
  };
  OpFoldResult total = b.getIndexAttr(0);
  for (Value piece : pieces)
    total = add(total, tensor::getMixedSize(b, loc, piece, dim));
  sizes[dim] = total;
  Value result =
      tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  OpFoldResult offset = b.getIndexAttr(0);
  for (Value piece : pieces) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    offsets[dim] = offset;
    SmallVector<OpFoldResult> extent = sizesOf(piece);
    result = tensor::InsertSliceOp::create(b, loc, piece, result, offsets,
                                           extent, strides);
    offset = add(offset, extent[dim]);
  }
  return tensor::CastOp::create(b, loc, type, result);
}

Value lowerCat(CatOp op, CatOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = *wrapDim(op.getDim(), type.getRank());
  Location loc = op.getLoc();
  if (adaptor.getTensors().size() == 1)
    return adaptor.getTensors()[0];
  // The dimensions but `dim` are every piece's (tad-check-shapes).
  if (ShapedType::isDynamic(type.getDimSize(dim)))
    return catDynamic(b, loc, type, dim, adaptor.getTensors());
  Value result = emptyLike(b, loc, type, adaptor.getTensors()[0]);
  int64_t offset = 0;
  for (Value piece : adaptor.getTensors()) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(piece.getType()).getShape();
    result = insert(b, loc, piece, result,
                    sliceSpec(shape, dim, offset, shape[dim], 1));
    offset += shape[dim];
  }
  return result;
}

Value lowerStack(StackOp op, StackOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = *wrapDim(op.getDim(), type.getRank());
  Location loc = op.getLoc();
  // Every piece has the result's sizes without `dim` (tad-check-shapes).
  Value result = emptyTensor(
      b, loc, type, sourcesLike(adaptor.getTensors()[0], type.getRank(), dim));
  for (auto [i, piece] : llvm::enumerate(adaptor.getTensors()))
    result = insert(b, loc, piece, result,
                    sliceSpec(type.getShape(), dim, i, 1, 1));
  return result;
}

/// Consecutive slices along `dim` with the sizes of `op`'s result types
/// (rank-reduced when `dropDim`).
SmallVector<Value> pieces(Operation *op, Value self, int64_t dimAttr,
                          bool dropDim, OpBuilder &b) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(self.getType()).getShape();
  int64_t dim = *wrapDim(dimAttr, shape.size());
  SmallVector<Value> results;
  int64_t offset = 0;
  for (Type resultType : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(resultType);
    int64_t length = dropDim ? 1 : type.getDimSize(dim);
    results.push_back(extract(b, op->getLoc(), self, type,
                              sliceSpec(shape, dim, offset, length, 1)));
    offset += length;
  }
  return results;
}

SmallVector<Value> lowerSplit(SplitTensorOp op, SplitTensorOp::Adaptor adaptor,
                              OpBuilder &b) {
  return pieces(op, adaptor.getSelf(), op.getDim(), false, b);
}

SmallVector<Value> lowerSplitWithSizes(SplitWithSizesOp op,
                                       SplitWithSizesOp::Adaptor adaptor,
                                       OpBuilder &b) {
  return pieces(op, adaptor.getSelf(), op.getDim(), false, b);
}

SmallVector<Value> lowerUnbind(UnbindIntOp op, UnbindIntOp::Adaptor adaptor,
                               OpBuilder &b) {
  return pieces(op, adaptor.getSelf(), op.getDim(), true, b);
}

/// An all-parallel generic over `type` reading `input` through `map`.
/// Dynamic sizes of `type` are read from `sources` (see emptyTensor).
Value gatherByMap(OpBuilder &b, Location loc, RankedTensorType type,
                  Value input, AffineMap map,
                  ArrayRef<SizeSource> sources = {}) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  Value init = emptyTensor(b, loc, type, sources);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
             {map, AffineMap::getMultiDimIdentityMap(rank, ctx)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, args[0]);
             })
      .getResult(0);
}

Value lowerRepeat(RepeatOp op, RepeatOp::Adaptor adaptor, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> shape = op.getSelf().getType().getShape();
  ArrayRef<int64_t> repeats = op.getRepeats();
  int64_t rank = type.getRank(), lead = rank - shape.size();
  // A dynamic size is repeated once (lowersDynamicShapes): the result has
  // it where self does.
  SmallVector<SizeSource> sources(lead);
  for (int64_t j = 0, e = shape.size(); j < e; ++j)
    sources.push_back({adaptor.getSelf(), j});
  if (llvm::is_contained(type.getShape(), 0))
    return emptyTensor(b, op.getLoc(), type, sources);
  SmallVector<AffineExpr> exprs;
  for (auto [j, size] : llvm::enumerate(shape)) {
    int64_t o = lead + j;
    AffineExpr d = getAffineDimExpr(o, ctx);
    if (size == 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else if (repeats[o] == 1)
      exprs.push_back(d);
    else
      exprs.push_back(d % size);
  }
  return gatherByMap(b, op.getLoc(), type, adaptor.getSelf(),
                     AffineMap::get(rank, 0, exprs, ctx), sources);
}

Value lowerFlip(FlipOp op, FlipOp::Adaptor adaptor, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  if (op.getDims().empty() || rank == 0)
    return adaptor.getSelf();
  SmallVector<int64_t> dims = wrappedDims(op.getDims(), rank);
  Location loc = op.getLoc();
  Value self = adaptor.getSelf();
  if (llvm::any_of(dims, [&](int64_t d) { return type.isDynamicDim(d); })) {
    // A flipped dimension of run-time size n: element i reads n - 1 - i,
    // which an indexing map cannot say (no symbols), so the body reads it.
    SmallVector<Value> lasts(rank);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d : dims)
      lasts[d] = arith::SubIOp::create(
          b, loc, tensor::DimOp::create(b, loc, self, d).getResult(), one);
    Value init = emptyLike(b, loc, type, self);
    return linalg::GenericOp::create(
               b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
               {AffineMap::getMultiDimIdentityMap(rank, ctx)},
               SmallVector<utils::IteratorType>(rank,
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location nl, ValueRange) {
                 SmallVector<Value> coords;
                 for (int64_t d = 0; d < rank; ++d) {
                   Value i = linalg::IndexOp::create(nb, nl, d);
                   coords.push_back(lasts[d] ? arith::SubIOp::create(
                                                   nb, nl, lasts[d], i)
                                                   .getResult()
                                             : i);
                 }
                 linalg::YieldOp::create(
                     nb, nl,
                     tensor::ExtractOp::create(nb, nl, self, coords)
                         .getResult());
               })
        .getResult(0);
  }
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    AffineExpr e = getAffineDimExpr(d, ctx);
    exprs.push_back(llvm::is_contained(dims, d)
                        ? getAffineConstantExpr(type.getDimSize(d) - 1, ctx) - e
                        : e);
  }
  return gatherByMap(b, loc, type, self, AffineMap::get(rank, 0, exprs, ctx),
                     sourcesLike(self, rank));
}

Value lowerTril(TrilOp op, TrilOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  int64_t diagonal = op.getDiagonal();
  return buildElementwise(
      b, op.getLoc(), type, adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value i = loopIndex(nb, nl, rank - 2), j = loopIndex(nb, nl, rank - 1);
        Value offset = arith::SubIOp::create(nb, nl, j, i);
        Value limit =
            arith::ConstantIntOp::create(nb, nl, nb.getI64Type(), diagonal);
        Value keep = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sle,
                                           offset, limit);
        Value zero = zeroConstant(nb, nl, args[0].getType());
        return arith::SelectOp::create(nb, nl, keep, args[0], zero).getResult();
      });
}

Value lowerConstantPad(ConstantPadNdOp op, ConstantPadNdOp::Adaptor adaptor,
                       OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  auto selfType = op.getSelf().getType();
  ArrayRef<int64_t> shape = selfType.getShape();
  ArrayRef<int64_t> pad = op.getPad();
  int64_t rank = shape.size();
  // Dynamic sizes are in dimensions without padding (lowersDynamicShapes):
  // the result has self's there.
  Value filled = filledTensor(
      b, loc, type, floatConstant(b, loc, type.getElementType(), op.getValue()),
      sourcesLike(adaptor.getSelf(), rank));
  SliceSpec source{SmallVector<int64_t>(rank, 0), SmallVector<int64_t>(shape),
                   SmallVector<int64_t>(rank, 1)};
  SliceSpec dest = source;
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = rank - 1 - i, lo = pad[2 * i], hi = pad[2 * i + 1];
    int64_t cropLo = std::max<int64_t>(-lo, 0), cropHi = std::max<int64_t>(-hi, 0);
    int64_t size = shape[d] - cropLo - cropHi;
    if (size <= 0)
      return filled;
    source.offsets[d] = cropLo;
    source.sizes[d] = size;
    dest.offsets[d] = std::max<int64_t>(lo, 0);
    dest.sizes[d] = size;
  }
  Value piece = adaptor.getSelf();
  if (source.sizes != SmallVector<int64_t>(shape))
    piece = extract(b, loc, piece,
                    RankedTensorType::get(source.sizes, type.getElementType()),
                    source);
  if (dest.sizes == SmallVector<int64_t>(type.getShape()))
    return piece;
  return insert(b, loc, piece, filled, dest);
}

} // namespace

void lowering::populateViewsAndSlicesPatterns(RewritePatternSet &patterns) {
  addLowering<UnsafeViewOp>(patterns, lowerReshape2<UnsafeViewOp>);
  addLowering<SqueezeOp>(patterns, lowerReshape2<SqueezeOp>);
  addLowering<PermuteOp>(patterns, lowerPermute);
  addLowering<SliceTensorOp>(patterns, lowerSlice);
  addLowering<SliceBackwardOp>(patterns, lowerSliceBackward);
  addLowering<SelectIntOp>(patterns, lowerSelect);
  addLowering<SelectBackwardOp>(patterns, lowerSelectBackward);
  addLowering<CloneOp>(patterns, lowerClone);
  addLowering<DetachOp>(patterns, lowerDetach);
  addLowering<ToCopyOp>(patterns, lowerToCopy);
  addLowering<CatOp>(patterns, lowerCat);
  addLowering<StackOp>(patterns, lowerStack);
  addMultiLowering<SplitTensorOp>(patterns, lowerSplit);
  addMultiLowering<SplitWithSizesOp>(patterns, lowerSplitWithSizes);
  addMultiLowering<UnbindIntOp>(patterns, lowerUnbind);
  addLowering<RepeatOp>(patterns, lowerRepeat);
  addLowering<FlipOp>(patterns, lowerFlip);
  addLowering<TrilOp>(patterns, lowerTril);
  addLowering<ConstantPadNdOp>(patterns, lowerConstantPad);
}
