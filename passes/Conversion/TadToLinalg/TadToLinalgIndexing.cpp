//===- TadToLinalgIndexing.cpp - gather/scatter/indexing ops to linalg ----===//
//
// Reads at computed positions (index_select, gather, embedding, index.Tensor)
// are all-parallel generics over the result that read the index operands
// through indexing maps and `self` with tensor.extract. Writes at computed
// positions (scatter*, index_add, index_put, embedding_dense_backward) are
// generics over the result and the index space, with the index space as
// reduction loops: every result element compares its position with each
// index and accumulates (sum, or the last match for scatter/index_put). That
// is O(result x index) work, but pure linalg on tensors with static maps,
// deterministic, and correct for repeated indices. Index values are
// assumed in range (CPU pipelines check them first: tad-check-indices);
// index.Tensor and index_put wrap negative indices as ATen does.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

SmallVector<utils::IteratorType> parallel(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

/// An all-parallel generic over `type` whose inputs are read through `maps`
/// and whose element is `body(args)`; its dynamic sizes are read from
/// `sources` (see emptyTensor).
Value readGeneric(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange inputs, SmallVector<AffineMap> maps,
                  ScalarFn body, ArrayRef<SizeSource> sources = {}) {
  MLIRContext *ctx = b.getContext();
  maps.push_back(AffineMap::getMultiDimIdentityMap(type.getRank(), ctx));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs,
             ValueRange{emptyTensor(b, loc, type, sources)},
             maps, parallel(type.getRank()),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args.drop_back()));
             })
      .getResult(0);
}

Value asIndex(OpBuilder &b, Location loc, Value i64) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
}

/// Inside a generic over a tensor of self's rank: self at the loop's
/// position, but at `index` (an i64) in dimension `dim`.
Value extractAlong(OpBuilder &b, Location loc, Value self, int64_t dim,
                   Value index) {
  int64_t rank = cast<RankedTensorType>(self.getType()).getRank();
  SmallVector<Value> coords;
  for (int64_t d = 0; d < rank; ++d)
    coords.push_back(d == dim ? asIndex(b, loc, index)
                              : linalg::IndexOp::create(b, loc, d).getResult());
  return tensor::ExtractOp::create(b, loc, self, coords).getResult();
}

Value lowerIndexSelect(IndexSelectOp op, IndexSelectOp::Adaptor adaptor,
                       OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  Value self = adaptor.getSelf();
  if (rank == 0)
    return self;
  int64_t dim = *wrapDim(op.getDim(), rank);
  bool scalarIndex = op.getIndex().getType().getRank() == 0;
  AffineMap indexMap =
      scalarIndex ? AffineMap::get(rank, 0, {}, ctx)
                  : AffineMap::get(rank, 0, getAffineDimExpr(dim, ctx));
  // Dynamic sizes are self's (the indexed one is the index's, static).
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    sources.push_back({self, d});
  return readGeneric(
      b, op.getLoc(), type, adaptor.getIndex(), {indexMap},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        return extractAlong(nb, nl, self, dim, args[0]);
      },
      sources);
}

Value lowerGather(GatherOp op, GatherOp::Adaptor adaptor, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  Value self = adaptor.getSelf();
  if (rank == 0)
    return self;
  int64_t dim = *wrapDim(op.getDim(), rank);
  // The result has the index's sizes (dynamic ones too).
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    sources.push_back({adaptor.getIndex(), d});
  return readGeneric(
      b, op.getLoc(), type, adaptor.getIndex(),
      {AffineMap::getMultiDimIdentityMap(rank, ctx)},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        return extractAlong(nb, nl, self, dim, args[0]);
      },
      sources);
}

Value lowerEmbedding(EmbeddingOp op, EmbeddingOp::Adaptor adaptor,
                     OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  Value weight = adaptor.getWeight();
  Value indices = adaptor.getIndices();
  // The result's sizes are the indices' and then the weight's row width.
  SmallVector<AffineExpr> exprs;
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    exprs.push_back(getAffineDimExpr(d, ctx));
    sources.push_back({indices, d});
  }
  sources.push_back({weight, 1});
  return readGeneric(b, op.getLoc(), type, indices,
                     {AffineMap::get(rank, 0, exprs, ctx)},
                     [&](OpBuilder &nb, Location nl, ValueRange args) {
                       Value row = asIndex(nb, nl, args[0]);
                       Value col = linalg::IndexOp::create(nb, nl, rank - 1);
                       return tensor::ExtractOp::create(nb, nl, weight,
                                                        ValueRange{row, col})
                           .getResult();
                     },
                     sources);
}

/// The leading [0, shape) corner of `value`; a dynamic size of `shape` is
/// `value`'s own (the scatter's operands agree in their dynamic sizes,
/// lowersDynamicShapes and tad-check-shapes).
Value corner(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      indexAttrs(b, zeros), mixedSizes(b, loc, shape, value),
      indexAttrs(b, ones));
}

enum class ScatterKind { Add, Src, Value };

/// scatter_add / scatter.src / scatter.value: the result is self with, for
/// every position q of index, src[q] (or `value`) combined into position
/// q with q[dim] = index[q]. Positions outside index's extent (in dims other
/// than `dim`) are untouched, so the generic runs on that corner of self.
Value buildScatter(OpBuilder &b, Location loc, Value self, Value index,
                   Value src, int64_t dimAttr, ScatterKind kind, double value) {
  MLIRContext *ctx = b.getContext();
  auto selfType = cast<RankedTensorType>(self.getType());
  auto indexType = cast<RankedTensorType>(index.getType());
  int64_t rank = selfType.getRank();
  if (rank == 0) {
    // A 0-d index holds 0: the single element is written.
    if (kind == ScatterKind::Value)
      return filledTensor(b, loc, selfType,
                          floatConstant(b, loc, selfType.getElementType(), value));
    if (kind == ScatterKind::Src)
      return src;
    return buildElementwise(b, loc, selfType, {self, src},
                            [](OpBuilder &nb, Location nl, ValueRange args) {
                              return arith::AddFOp::create(nb, nl, args[0],
                                                           args[1])
                                  .getResult();
                            });
  }
  int64_t dim = *wrapDim(dimAttr, rank);
  SmallVector<int64_t> small(indexType.getShape());
  small[dim] = selfType.getDimSize(dim);
  if (llvm::is_contained(indexType.getShape(), 0))
    return self;
  Value init = corner(b, loc, self, small);
  // Loops (p_0, ..., p_{rank-1}, k): q = p with q[dim] = k.
  SmallVector<AffineExpr> q, p;
  for (int64_t d = 0; d < rank; ++d) {
    q.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
    p.push_back(getAffineDimExpr(d, ctx));
  }
  AffineMap qMap = AffineMap::get(rank + 1, 0, q, ctx);
  SmallVector<Value> inputs{index};
  SmallVector<AffineMap> maps{qMap};
  if (kind != ScatterKind::Value) {
    inputs.push_back(corner(b, loc, src, indexType.getShape()));
    maps.push_back(qMap);
  }
  maps.push_back(AffineMap::get(rank + 1, 0, p, ctx));
  SmallVector<utils::IteratorType> iterators = parallel(rank);
  iterators.push_back(utils::IteratorType::reduction);
  Type element = selfType.getElementType();
  Value updated =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value acc = args.back();
            Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                              args[0], loopIndex(nb, nl, dim));
            Value result;
            if (kind == ScatterKind::Add) {
              Value zero = zeroConstant(nb, nl, element);
              Value term = arith::SelectOp::create(nb, nl, hit, args[1], zero);
              result = arith::AddFOp::create(nb, nl, acc, term);
            } else {
              Value written = kind == ScatterKind::Src
                                  ? args[1]
                                  : floatConstant(nb, nl, element, value);
              result = arith::SelectOp::create(nb, nl, hit, written, acc);
            }
            linalg::YieldOp::create(nb, nl, result);
          })
          .getResult(0);
  if (updated.getType() == self.getType())
    return updated;
  SmallVector<int64_t> zeros(rank, 0), ones(rank, 1);
  return tensor::InsertSliceOp::create(
      b, loc, updated, self, indexAttrs(b, zeros),
      mixedSizes(b, loc, small, updated), indexAttrs(b, ones));
}

Value lowerScatterAdd(ScatterAddOp op, ScatterAddOp::Adaptor adaptor,
                      OpBuilder &b) {
  return buildScatter(b, op.getLoc(), adaptor.getSelf(), adaptor.getIndex(),
                      adaptor.getSrc(), op.getDim(), ScatterKind::Add, 0.0);
}

Value lowerScatterSrc(ScatterSrcOp op, ScatterSrcOp::Adaptor adaptor,
                      OpBuilder &b) {
  return buildScatter(b, op.getLoc(), adaptor.getSelf(), adaptor.getIndex(),
                      adaptor.getSrc(), op.getDim(), ScatterKind::Src, 0.0);
}

Value lowerScatterValue(ScatterValueOp op, ScatterValueOp::Adaptor adaptor,
                        OpBuilder &b) {
  return buildScatter(b, op.getLoc(), adaptor.getSelf(), adaptor.getIndex(),
                      Value(), op.getDim(), ScatterKind::Value, op.getValue());
}

Value lowerIndexAdd(IndexAddOp op, IndexAddOp::Adaptor adaptor, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  double alpha = op.getAlpha();
  if (rank == 0)
    return buildElementwise(b, loc, type,
                            {adaptor.getSelf(), adaptor.getSource()},
                            [&](OpBuilder &nb, Location nl, ValueRange args) {
                              Value s = scaleBy(nb, nl, args[1], alpha);
                              return arith::AddFOp::create(nb, nl, args[0], s)
                                  .getResult();
                            });
  int64_t dim = *wrapDim(op.getDim(), rank);
  auto indexType = op.getIndex().getType();
  if (indexType.getNumElements() == 0)
    return adaptor.getSelf();
  SmallVector<AffineExpr> q, p;
  for (int64_t d = 0; d < rank; ++d) {
    q.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
    p.push_back(getAffineDimExpr(d, ctx));
  }
  AffineMap indexMap =
      indexType.getRank() == 0
          ? AffineMap::get(rank + 1, 0, {}, ctx)
          : AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, ctx));
  SmallVector<AffineMap> maps{indexMap, AffineMap::get(rank + 1, 0, q, ctx),
                              AffineMap::get(rank + 1, 0, p, ctx)};
  SmallVector<utils::IteratorType> iterators = parallel(rank);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type},
             ValueRange{adaptor.getIndex(), adaptor.getSource()},
             ValueRange{adaptor.getSelf()}, maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value hit = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::eq, args[0],
                   loopIndex(nb, nl, dim));
               Value zero = zeroConstant(nb, nl, type.getElementType());
               Value term = arith::SelectOp::create(
                   nb, nl, hit, scaleBy(nb, nl, args[1], alpha), zero);
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{
                       arith::AddFOp::create(nb, nl, args[2], term).getResult()});
             })
      .getResult(0);
}

/// Broadcast shape of the index tensors.
SmallVector<int64_t> indexShape(ValueRange indices) {
  SmallVector<int64_t> shape;
  for (Value index : indices)
    shape = *broadcastShapes(shape,
                             cast<RankedTensorType>(index.getType()).getShape());
  return shape;
}

Value lowerIndexTensor(IndexTensorOp op, IndexTensorOp::Adaptor adaptor,
                       OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  ArrayRef<int64_t> selfShape = op.getSelf().getType().getShape();
  ValueRange indices = adaptor.getIndices();
  SmallVector<int64_t> bshape = indexShape(indices);
  int64_t k = indices.size(), nb = bshape.size();
  SmallVector<AffineMap> maps;
  for (Value index : indices) {
    AffineMap m = broadcastMap(
        ctx, cast<RankedTensorType>(index.getType()).getShape(), bshape);
    maps.push_back(AffineMap::get(rank, 0, m.getResults(), ctx));
  }
  Value self = adaptor.getSelf();
  return readGeneric(
      b, op.getLoc(), type, indices, maps,
      [&](OpBuilder &nbld, Location nl, ValueRange args) {
        SmallVector<Value> coords;
        for (int64_t j = 0; j < k; ++j)
          coords.push_back(wrappedIndex(nbld, nl, args[j], selfShape[j], true));
        for (int64_t t = k; t < static_cast<int64_t>(selfShape.size()); ++t)
          coords.push_back(linalg::IndexOp::create(nbld, nl, nb + t - k));
        return tensor::ExtractOp::create(nbld, nl, self, coords).getResult();
      });
}

Value lowerIndexPut(IndexPutOp op, IndexPutOp::Adaptor adaptor, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  ValueRange indices = adaptor.getIndices();
  SmallVector<int64_t> bshape = indexShape(indices);
  int64_t k = indices.size(), nb = bshape.size(), loops = rank + nb;
  // Loops (p_0, ..., p_{rank-1}, q_0, ..., q_{nb-1}).
  SmallVector<AffineMap> maps;
  for (Value index : indices)
    maps.push_back(broadcastMap(ctx,
                                cast<RankedTensorType>(index.getType()).getShape(),
                                bshape)
                       .shiftDims(rank));
  SmallVector<int64_t> indexed(bshape);
  llvm::append_range(indexed, shape.drop_front(k));
  SmallVector<AffineExpr> toIndexed;
  for (int64_t i = 0; i < nb; ++i)
    toIndexed.push_back(getAffineDimExpr(rank + i, ctx));
  for (int64_t t = k; t < rank; ++t)
    toIndexed.push_back(getAffineDimExpr(t, ctx));
  AffineMap valuesMap =
      broadcastMap(ctx, op.getValues().getType().getShape(), indexed)
          .compose(AffineMap::get(loops, 0, toIndexed, ctx));
  maps.push_back(valuesMap);
  SmallVector<AffineExpr> out;
  for (int64_t d = 0; d < rank; ++d)
    out.push_back(getAffineDimExpr(d, ctx));
  maps.push_back(AffineMap::get(loops, 0, out, ctx));
  SmallVector<utils::IteratorType> iterators = parallel(rank);
  iterators.append(nb, utils::IteratorType::reduction);
  SmallVector<Value> inputs(indices.begin(), indices.end());
  inputs.push_back(adaptor.getValues());
  bool accumulate = op.getAccumulate();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{adaptor.getSelf()},
             maps, iterators,
             [&](OpBuilder &nbld, Location nl, ValueRange args) {
               Value hit;
               for (int64_t j = 0; j < k; ++j) {
                 Value position = wrappedIndex(nbld, nl, args[j], shape[j], true);
                 Value here = linalg::IndexOp::create(nbld, nl, j);
                 Value eq = arith::CmpIOp::create(
                     nbld, nl, arith::CmpIPredicate::eq, position, here);
                 hit = hit ? arith::AndIOp::create(nbld, nl, hit, eq).getResult()
                           : eq;
               }
               Value v = args[k], acc = args[k + 1];
               Value result;
               if (accumulate) {
                 Value zero = zeroConstant(nbld, nl, v.getType());
                 Value term = arith::SelectOp::create(nbld, nl, hit, v, zero);
                 result = arith::AddFOp::create(nbld, nl, acc, term);
               } else {
                 result = arith::SelectOp::create(nbld, nl, hit, v, acc);
               }
               linalg::YieldOp::create(nbld, nl, result);
             })
      .getResult(0);
}

/// embedding_dense_backward's operands flattened: the zero table, the
/// indices as [n] and the gradient rows as [n, width]; only the zeros
/// where there is nothing to add. The indices' count n may be dynamic (a
/// batch of token ids): the gradient's leading sizes are the indices'
/// (tad-check-shapes).
struct EmbeddingRows {
  Value zeros, indices, grad;
};

EmbeddingRows flatRows(EmbeddingDenseBackwardOp op,
                       EmbeddingDenseBackwardOp::Adaptor adaptor,
                       OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  Value zeros = filledTensor(b, loc, type, zeroConstant(b, loc, element));
  auto indicesType = op.getIndices().getType();
  int64_t n = indicesType.hasStaticShape() ? indicesType.getNumElements()
                                           : ShapedType::kDynamic;
  int64_t width = type.getDimSize(1);
  if (n == 0 || width == 0)
    return {zeros, Value(), Value()};
  return {zeros,
          reshapeTo(b, loc, adaptor.getIndices(),
                    RankedTensorType::get({n}, b.getI64Type())),
          reshapeTo(b, loc, adaptor.getGradOutput(),
                    RankedTensorType::get({n, width}, element))};
}

Value lowerEmbeddingDenseBackward(EmbeddingDenseBackwardOp op,
                                  EmbeddingDenseBackwardOp::Adaptor adaptor,
                                  OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  EmbeddingRows rows = flatRows(op, adaptor, b);
  if (!rows.indices)
    return rows.zeros;
  Value zeros = rows.zeros, indices = rows.indices, grad = rows.grad;
  AffineExpr w = getAffineDimExpr(0, ctx), d = getAffineDimExpr(1, ctx),
             j = getAffineDimExpr(2, ctx);
  SmallVector<AffineMap> maps{AffineMap::get(3, 0, {j}, ctx),
                              AffineMap::get(3, 0, {j, d}, ctx),
                              AffineMap::get(3, 0, {w, d}, ctx)};
  int64_t padding = op.getPaddingIdx();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{indices, grad},
             ValueRange{zeros}, maps,
             {utils::IteratorType::parallel, utils::IteratorType::parallel,
              utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value row = loopIndex(nb, nl, 0);
               Value hit = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::eq, args[0], row);
               Value pad =
                   arith::ConstantIntOp::create(nb, nl, nb.getI64Type(), padding);
               Value notPad = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::ne, row, pad);
               Value take = arith::AndIOp::create(nb, nl, hit, notPad);
               Value zero = zeroConstant(nb, nl, element);
               Value term = arith::SelectOp::create(nb, nl, take, args[1], zero);
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{
                       arith::AddFOp::create(nb, nl, args[2], term).getResult()});
             })
      .getResult(0);
}

/// embedding_dense_backward as a loop over the indices that adds each
/// gradient row to the row of the result it indexes, in place: O(indices x
/// width), as ATen's CPU kernel, where the generic above compares every
/// row of the table with every index (a vocabulary of 10,000 rows made it
/// 200 times slower than PyTorch). Rows are summed in the indices' order,
/// as there.
Value lowerEmbeddingDenseBackwardSerial(
    EmbeddingDenseBackwardOp op, EmbeddingDenseBackwardOp::Adaptor adaptor,
    OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  EmbeddingRows rows = flatRows(op, adaptor, b);
  if (!rows.indices)
    return rows.zeros;
  Value zeros = rows.zeros, indices = rows.indices, grad = rows.grad;
  int64_t width = type.getDimSize(1);
  auto rowType = RankedTensorType::get({1, width}, element);
  int64_t padding = op.getPaddingIdx();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = tensor::DimOp::create(b, loc, indices, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, step, ValueRange{zeros},
      [&](OpBuilder &lb, Location ll, Value j, ValueRange carried) {
        Value acc = carried[0];
        Value index = tensor::ExtractOp::create(lb, ll, indices, ValueRange{j});
        Value pad =
            arith::ConstantIntOp::create(lb, ll, lb.getI64Type(), padding);
        Value isPad = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::eq,
                                            index, pad);
        auto add = scf::IfOp::create(
            lb, ll, isPad,
            [&](OpBuilder &tb, Location tl) {
              scf::YieldOp::create(tb, tl, acc);
            },
            [&](OpBuilder &eb, Location el) {
              SmallVector<OpFoldResult> at{asIndex(eb, el, index),
                                           eb.getIndexAttr(0)};
              SmallVector<OpFoldResult> from{j, eb.getIndexAttr(0)};
              SmallVector<OpFoldResult> sizes{eb.getIndexAttr(1),
                                              eb.getIndexAttr(width)};
              SmallVector<OpFoldResult> unit(2, eb.getIndexAttr(1));
              Value row = tensor::ExtractSliceOp::create(eb, el, rowType, acc,
                                                         at, sizes, unit);
              Value g = tensor::ExtractSliceOp::create(eb, el, rowType, grad,
                                                       from, sizes, unit);
              Value sum =
                  linalg::GenericOp::create(
                      eb, el, TypeRange{rowType}, ValueRange{g},
                      ValueRange{row},
                      SmallVector<AffineMap>{identity, identity}, parallel(2),
                      [&](OpBuilder &nb, Location nl, ValueRange args) {
                        linalg::YieldOp::create(
                            nb, nl,
                            ValueRange{arith::AddFOp::create(nb, nl, args[1],
                                                             args[0])
                                           .getResult()});
                      })
                      .getResult(0);
              scf::YieldOp::create(
                  eb, el,
                  ValueRange{tensor::InsertSliceOp::create(eb, el, sum, acc,
                                                           at, sizes, unit)
                                 .getResult()});
            });
        scf::YieldOp::create(lb, ll, add.getResults());
      });
  return loop.getResult(0);
}

} // namespace

void lowering::populateIndexingPatterns(RewritePatternSet &patterns,
                                        bool serialScatters) {
  addLowering<IndexSelectOp>(patterns, lowerIndexSelect);
  addLowering<GatherOp>(patterns, lowerGather);
  addLowering<EmbeddingOp>(patterns, lowerEmbedding);
  addLowering<ScatterAddOp>(patterns, lowerScatterAdd);
  addLowering<ScatterSrcOp>(patterns, lowerScatterSrc);
  addLowering<ScatterValueOp>(patterns, lowerScatterValue);
  addLowering<IndexAddOp>(patterns, lowerIndexAdd);
  addLowering<IndexTensorOp>(patterns, lowerIndexTensor);
  addLowering<IndexPutOp>(patterns, lowerIndexPut);
  addLowering<EmbeddingDenseBackwardOp>(
      patterns, serialScatters ? lowerEmbeddingDenseBackwardSerial
                               : lowerEmbeddingDenseBackward);
}
