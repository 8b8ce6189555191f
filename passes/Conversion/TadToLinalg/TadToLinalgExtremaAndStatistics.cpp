//===- TadToLinalgExtremaAndStatistics.cpp - other reductions to linalg ---===//
//
// amax/amin/max/min are linalg.generic reductions with arith.maximumf /
// minimumf (NaN propagates, as in ATen) from -inf / +inf. max.dim/min.dim
// are one generic with two outputs: the running extremum and its index;
// a later element replaces it only when strictly better (or a NaN replacing
// a number), so ties keep the first index, as ATen's CPU kernels do.
// var/std/var_mean compute the mean first and then the sum of squared
// deviations (two passes, no cancellation). logsumexp subtracts the
// maximum (0 where it is infinite). cumsum is a generic with one extra
// reduction loop k that adds x[k] for k <= i (O(n^2) per line, but one
// fusible linalg op).
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Value maxCombine(OpBuilder &b, Location loc, Value x, Value acc) {
  return arith::MaximumFOp::create(b, loc, x, acc);
}
Value minCombine(OpBuilder &b, Location loc, Value x, Value acc) {
  return arith::MinimumFOp::create(b, loc, x, acc);
}

/// Extremum of `self` over `dims` (wrapped, sorted), reshaped to `type`.
Value extremum(OpBuilder &b, Location loc, Value self, ArrayRef<int64_t> dims,
               RankedTensorType type, bool isMax) {
  if (dims.empty())
    return reshapeTo(b, loc, self, type);
  Value init = floatConstant(b, loc, type.getElementType(), isMax ? -kInf : kInf);
  Value reduced = buildReduction(b, loc, self, dims, init,
                                 isMax ? maxCombine : minCombine);
  return reshapeTo(b, loc, reduced, type);
}

template <typename OpTy, bool IsMax>
Value lowerAmaxAmin(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  int64_t rank = op.getSelf().getType().getRank();
  return extremum(b, op.getLoc(), adaptor.getSelf(),
                  wrappedDims(op.getDim(), rank),
                  cast<RankedTensorType>(op.getType()), IsMax);
}

template <typename OpTy, bool IsMax>
Value lowerFullExtremum(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  int64_t rank = op.getSelf().getType().getRank();
  return extremum(b, op.getLoc(), adaptor.getSelf(), allDimsOf(rank),
                  cast<RankedTensorType>(op.getType()), IsMax);
}

/// max.dim / min.dim: values and first indices along `dim`.
template <typename OpTy, bool IsMax>
SmallVector<Value> lowerSelecting(OpTy op, typename OpTy::Adaptor adaptor,
                                  OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  auto selfType = op.getSelf().getType();
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = selfType.getRank();
  if (rank == 0) {
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
    return {adaptor.getSelf(), filledTensor(b, loc, indicesType, zero)};
  }
  int64_t dim = *wrapDim(op.getDim(), rank);
  auto reducedValues = RankedTensorType::get(
      reducedShape(selfType.getShape(), {dim}, false), selfType.getElementType());
  auto reducedIndices =
      RankedTensorType::get(reducedValues.getShape(), b.getI64Type());
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      sources.push_back({adaptor.getSelf(), d});
  Value init = filledTensor(
      b, loc, reducedValues,
      floatConstant(b, loc, selfType.getElementType(), IsMax ? -kInf : kInf),
      sources);
  Value initIndex = filledTensor(
      b, loc, reducedIndices,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0), sources);
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == dim ? utils::IteratorType::reduction
                                 : utils::IteratorType::parallel);
    if (d != dim)
      kept.push_back(getAffineDimExpr(d, ctx));
  }
  AffineMap out = AffineMap::get(rank, 0, kept, ctx);
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx), out,
                              out};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{reducedValues, reducedIndices},
      ValueRange{adaptor.getSelf()}, ValueRange{init, initIndex}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = args[0], acc = args[1], accIndex = args[2];
        Value better = arith::CmpFOp::create(
            nb, nl, IsMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
            x, acc);
        Value xNan =
            arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, x, x);
        Value accNumber =
            arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::ORD, acc, acc);
        Value nanWins = arith::AndIOp::create(nb, nl, xNan, accNumber);
        Value take = arith::OrIOp::create(nb, nl, better, nanWins);
        Value value = arith::SelectOp::create(nb, nl, take, x, acc);
        Value index = arith::SelectOp::create(nb, nl, take,
                                              loopIndex(nb, nl, dim), accIndex);
        linalg::YieldOp::create(nb, nl, ValueRange{value, index});
      });
  return {reshapeTo(b, loc, generic.getResult(0), valuesType),
          reshapeTo(b, loc, generic.getResult(1), indicesType)};
}

/// Indexing map of a tensor reduced over `dim` (with or without keepdim)
/// read in the iteration space of the unreduced rank-`rank` tensor.
AffineMap reducedMap(MLIRContext *ctx, int64_t rank, int64_t dim,
                     bool keepdim) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dim)
      exprs.push_back(getAffineDimExpr(d, ctx));
    else if (keepdim)
      exprs.push_back(getAffineConstantExpr(0, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value lowerValueSelectingBackward(ValueSelectingReductionBackwardOp op,
                                  ValueSelectingReductionBackwardOp::Adaptor adaptor,
                                  OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  if (rank == 0)
    return reshapeTo(b, loc, adaptor.getGrad(), type);
  int64_t dim = *wrapDim(op.getDim(), rank);
  AffineMap in = reducedMap(ctx, rank, dim, op.getKeepdim());
  SmallVector<AffineMap> maps{in, in,
                              AffineMap::getMultiDimIdentityMap(rank, ctx)};
  // Dynamic sizes other than the reduced one are the gradient's.
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    sources.push_back({adaptor.getGrad(),
                       op.getKeepdim() || d < dim ? d : d - 1});
  Value init = emptyTensor(b, loc, type, sources);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type},
             ValueRange{adaptor.getGrad(), adaptor.getIndices()},
             ValueRange{init}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value hit = arith::CmpIOp::create(nb, nl,
                                                 arith::CmpIPredicate::eq,
                                                 loopIndex(nb, nl, dim), args[1]);
               Value zero = zeroConstant(nb, nl, args[0].getType());
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{arith::SelectOp::create(nb, nl, hit, args[0], zero)
                                  .getResult()});
             })
      .getResult(0);
}

Value identityElement(OpBuilder &, Location, ValueRange args) { return args[0]; }

struct Variance {
  Value var, mean; // reduced shapes without keepdim
};

/// Mean and variance of `self` over `dims` with `correction`.
Variance variance(OpBuilder &b, Location loc, Value self,
                  ArrayRef<int64_t> dims, double correction) {
  auto type = cast<RankedTensorType>(self.getType());
  Type element = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  // Counts over dynamic sizes are read at run time.
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sources.push_back({self, d});
  Value count = elementCount(b, loc, shape, dims, sources, element);
  Value sum = buildSum(b, loc, shape, element, self, dims, identityElement);
  Value mean = divideBy(b, loc, sum, count);
  auto keptType =
      RankedTensorType::get(reducedShape(shape, dims, true), element);
  Value meanKept = reshapeTo(b, loc, mean, keptType);
  Value squares = buildSum(b, loc, shape, element, {self, meanKept}, dims,
                           [](OpBuilder &nb, Location nl, ValueRange args) {
                             Value d = arith::SubFOp::create(nb, nl, args[0],
                                                             args[1]);
                             return arith::MulFOp::create(nb, nl, d, d)
                                 .getResult();
                           });
  Value divisor = arith::SubFOp::create(
      b, loc, count, floatConstant(b, loc, element, correction));
  return {divideBy(b, loc, squares, divisor), mean};
}

template <typename OpTy>
double correctionOf(OpTy op) {
  if (FloatAttr c = op.getCorrectionAttr())
    return c.getValueAsDouble();
  return 1.0;
}

template <typename OpTy>
SmallVector<int64_t> varianceDims(OpTy op) {
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = op.getDim())
    dim = *given;
  return wrappedDims(dim, op.getSelf().getType().getRank());
}

Value sqrtOf(OpBuilder &b, Location loc, Value value) {
  return buildElementwise(b, loc, cast<RankedTensorType>(value.getType()), value,
                          [](OpBuilder &nb, Location nl, ValueRange args) {
                            return math::SqrtOp::create(nb, nl, args[0])
                                .getResult();
                          });
}

Value lowerVar(VarCorrectionOp op, VarCorrectionOp::Adaptor adaptor,
               OpBuilder &b) {
  Variance v = variance(b, op.getLoc(), adaptor.getSelf(), varianceDims(op),
                        correctionOf(op));
  return reshapeTo(b, op.getLoc(), v.var, cast<RankedTensorType>(op.getType()));
}

Value lowerStd(StdCorrectionOp op, StdCorrectionOp::Adaptor adaptor,
               OpBuilder &b) {
  Variance v = variance(b, op.getLoc(), adaptor.getSelf(), varianceDims(op),
                        correctionOf(op));
  return reshapeTo(b, op.getLoc(), sqrtOf(b, op.getLoc(), v.var),
                   cast<RankedTensorType>(op.getType()));
}

SmallVector<Value> lowerVarMean(VarMeanCorrectionOp op,
                                VarMeanCorrectionOp::Adaptor adaptor,
                                OpBuilder &b) {
  Variance v = variance(b, op.getLoc(), adaptor.getSelf(), varianceDims(op),
                        correctionOf(op));
  auto type = cast<RankedTensorType>(op.getVar().getType());
  return {reshapeTo(b, op.getLoc(), v.var, type),
          reshapeTo(b, op.getLoc(), v.mean, type)};
}

Value lowerLogsumexp(LogsumexpOp op, LogsumexpOp::Adaptor adaptor,
                     OpBuilder &b) {
  Location loc = op.getLoc();
  auto selfType = op.getSelf().getType();
  auto type = cast<RankedTensorType>(op.getType());
  Type element = selfType.getElementType();
  SmallVector<int64_t> dims = wrappedDims(op.getDim(), selfType.getRank());
  ArrayRef<int64_t> shape = selfType.getShape();
  auto reducedType =
      RankedTensorType::get(reducedShape(shape, dims, false), element);
  auto keptType = RankedTensorType::get(reducedShape(shape, dims, true), element);
  // The maximum, with 0 where it is infinite (all -inf, or an inf input).
  Value max = extremum(b, loc, adaptor.getSelf(), dims, reducedType, true);
  max = buildElementwise(b, loc, reducedType, max,
                         [](OpBuilder &nb, Location nl, ValueRange args) {
                           Value m = args[0];
                           Value absM = math::AbsFOp::create(nb, nl, m);
                           Value inf = floatConstant(nb, nl, m.getType(), kInf);
                           Value isInf = arith::CmpFOp::create(
                               nb, nl, arith::CmpFPredicate::OEQ, absM, inf);
                           Value zero = floatConstant(nb, nl, m.getType(), 0.0);
                           return arith::SelectOp::create(nb, nl, isInf, zero, m)
                               .getResult();
                         });
  Value maxKept = reshapeTo(b, loc, max, keptType);
  Value sum = buildSum(b, loc, shape, element, {adaptor.getSelf(), maxKept},
                       dims, [](OpBuilder &nb, Location nl, ValueRange args) {
                         Value d = arith::SubFOp::create(nb, nl, args[0], args[1]);
                         return math::ExpOp::create(nb, nl, d).getResult();
                       });
  Value result = buildElementwise(
      b, loc, reducedType, {sum, max},
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Value log = math::LogOp::create(nb, nl, args[0]);
        return arith::AddFOp::create(nb, nl, log, args[1]).getResult();
      });
  return reshapeTo(b, loc, result, type);
}

Value lowerVectorNorm(LinalgVectorNormOp op, LinalgVectorNormOp::Adaptor adaptor,
                      OpBuilder &b) {
  Location loc = op.getLoc();
  auto selfType = op.getSelf().getType();
  auto type = cast<RankedTensorType>(op.getType());
  Type element = selfType.getElementType();
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = op.getDim())
    dim = *given;
  SmallVector<int64_t> dims = wrappedDims(dim, selfType.getRank());
  ArrayRef<int64_t> shape = selfType.getShape();
  auto reducedType =
      RankedTensorType::get(reducedShape(shape, dims, false), element);
  double p = op.getOrd();
  Value self = adaptor.getSelf();
  Value absSelf = buildElementwise(
      b, loc, selfType, self, [](OpBuilder &nb, Location nl, ValueRange args) {
        return math::AbsFOp::create(nb, nl, args[0]).getResult();
      });
  Value result;
  if (std::isinf(p)) {
    result = extremum(b, loc, absSelf, dims, reducedType, p > 0);
  } else if (p == 0.0) {
    result = buildSum(b, loc, shape, element, self, dims,
                      [](OpBuilder &nb, Location nl, ValueRange args) {
                        Type t = args[0].getType();
                        Value nonzero = arith::CmpFOp::create(
                            nb, nl, arith::CmpFPredicate::UNE, args[0],
                            floatConstant(nb, nl, t, 0.0));
                        return arith::SelectOp::create(
                                   nb, nl, nonzero, floatConstant(nb, nl, t, 1.0),
                                   floatConstant(nb, nl, t, 0.0))
                            .getResult();
                      });
  } else if (p == 1.0) {
    result = buildSum(b, loc, shape, element, absSelf, dims, identityElement);
  } else if (p == 2.0) {
    Value squares = buildSum(b, loc, shape, element, self, dims,
                             [](OpBuilder &nb, Location nl, ValueRange args) {
                               return arith::MulFOp::create(nb, nl, args[0],
                                                            args[0])
                                   .getResult();
                             });
    result = sqrtOf(b, loc, squares);
  } else {
    Value powers = buildSum(b, loc, shape, element, absSelf, dims,
                            [&](OpBuilder &nb, Location nl, ValueRange args) {
                              Value e = floatConstant(nb, nl, element, p);
                              return math::PowFOp::create(nb, nl, args[0], e)
                                  .getResult();
                            });
    result = buildElementwise(b, loc, reducedType, powers,
                              [&](OpBuilder &nb, Location nl, ValueRange args) {
                                Value e = floatConstant(nb, nl, element, 1.0 / p);
                                return math::PowFOp::create(nb, nl, args[0], e)
                                    .getResult();
                              });
  }
  return reshapeTo(b, loc, result, type);
}

Value lowerCumsum(CumsumOp op, CumsumOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  if (rank == 0)
    return adaptor.getSelf();
  int64_t dim = *wrapDim(op.getDim(), rank);
  // Loops (d0, ..., d_{rank-1}, k): result[d] += self[d with d[dim] = k]
  // for k <= d[dim].
  SmallVector<AffineExpr> input, output;
  for (int64_t d = 0; d < rank; ++d) {
    input.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
    output.push_back(getAffineDimExpr(d, ctx));
  }
  SmallVector<AffineMap> maps{AffineMap::get(rank + 1, 0, input, ctx),
                              AffineMap::get(rank + 1, 0, output, ctx)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    sources.push_back({adaptor.getSelf(), d});
  Value init = filledTensor(b, loc, type, zeroConstant(b, loc, type.getElementType()),
                            sources);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{adaptor.getSelf()},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value k = linalg::IndexOp::create(nb, nl, rank);
               Value i = linalg::IndexOp::create(nb, nl, dim);
               Value inRange = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::ule, k, i);
               Value zero = zeroConstant(nb, nl, args[0].getType());
               Value term = arith::SelectOp::create(nb, nl, inRange, args[0], zero);
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{arith::AddFOp::create(nb, nl, args[1], term)
                                  .getResult()});
             })
      .getResult(0);
}

} // namespace

void lowering::populateExtremaAndStatisticsPatterns(RewritePatternSet &patterns) {
  addLowering<AmaxOp>(patterns, lowerAmaxAmin<AmaxOp, true>);
  addLowering<AminOp>(patterns, lowerAmaxAmin<AminOp, false>);
  addLowering<MaxOp>(patterns, lowerFullExtremum<MaxOp, true>);
  addLowering<MinOp>(patterns, lowerFullExtremum<MinOp, false>);
  addMultiLowering<MaxDimOp>(patterns, lowerSelecting<MaxDimOp, true>);
  addMultiLowering<MinDimOp>(patterns, lowerSelecting<MinDimOp, false>);
  addLowering<ValueSelectingReductionBackwardOp>(patterns,
                                                 lowerValueSelectingBackward);
  addLowering<VarCorrectionOp>(patterns, lowerVar);
  addLowering<StdCorrectionOp>(patterns, lowerStd);
  addMultiLowering<VarMeanCorrectionOp>(patterns, lowerVarMean);
  addLowering<LogsumexpOp>(patterns, lowerLogsumexp);
  addLowering<LinalgVectorNormOp>(patterns, lowerVectorNorm);
  addLowering<CumsumOp>(patterns, lowerCumsum);
}
