//===- TadToLinalgNN.cpp - softmax, norms, losses to linalg ---------------===//
//
// - softmax / log_softmax: max, then sum of exp(x - max), as reductions over
//   `dim`, and one elementwise generic for the result.
// - normalization: mean and variance as sum reductions over the normalized
//   dimensions, then one elementwise generic (x - mean) * rstd * w + b.
// - losses: nll reads self[..., target, ...] with tensor.extract inside a
//   generic; the pointwise losses are elementwise generics then a sum.
// Convolution and pooling are in TadToLinalgConv.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgNNUtils.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;
using namespace mlir::tad::lowering::nn;

namespace {

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// The sources of the sizes of `value`'s dimensions `dims`.
SmallVector<SizeSource> keptSources(Value value, ArrayRef<int64_t> dims) {
  SmallVector<SizeSource> sources;
  for (int64_t d : dims)
    sources.push_back({value, d});
  return sources;
}

/// Max of `value` over `dim` (no keepdim), NaN-propagating.
Value maxDim(OpBuilder &b, Location loc, Value value, int64_t dim) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(value);
  int64_t rank = type.getRank();
  SmallVector<int64_t> kept = complement(rank, {dim});
  Value init = filled(b, loc, reducedShape(type.getShape(), {dim}, false),
                      type.getElementType(),
                      -std::numeric_limits<double>::infinity(),
                      keptSources(value, kept));
  SmallVector<Iter> iters(rank, Iter::parallel);
  iters[dim] = Iter::reduction;
  return generic(b, loc, value, init,
                 {AffineMap::getMultiDimIdentityMap(rank, ctx),
                  dimsMap(ctx, rank, kept)},
                 iters,
                 [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                   return {arith::MaximumFOp::create(nb, nl, args[0], args[1])};
                 })[0];
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

template <typename OpTy>
Value lowerSoftmaxLike(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b,
                       bool log) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value x = adaptor.getSelf();
  RankedTensorType type = typeOf(x);
  int64_t rank = type.getRank();
  if (rank == 0) // softmax of a scalar is 1, log_softmax 0
    return filled(b, loc, {}, type.getElementType(), log ? 0.0 : 1.0);
  int64_t dim = *wrapDim(op.getDim(), rank);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap reduced = dimsMap(ctx, rank, complement(rank, {dim}));
  Value max = maxDim(b, loc, x, dim);
  // sum(exp(x - max)) over dim.
  Value sumInit = filled(b, loc, reducedShape(type.getShape(), {dim}, false),
                         type.getElementType(), 0.0,
                         keptSources(x, complement(rank, {dim})));
  SmallVector<Iter> iters(rank, Iter::parallel);
  iters[dim] = Iter::reduction;
  Value sum = generic(
      b, loc, ValueRange{x, max}, sumInit, {id, reduced, reduced}, iters,
      [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
        Value e = math::ExpOp::create(nb, nl,
                                      arith::SubFOp::create(nb, nl, args[0], args[1]));
        return {arith::AddFOp::create(nb, nl, e, args[2])};
      })[0];
  return mapped(b, loc, type.getShape(), type.getElementType(), {x, max, sum},
                {id, reduced, reduced},
                [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                  Value shifted = arith::SubFOp::create(nb, nl, args[0], args[1]);
                  if (log)
                    return arith::SubFOp::create(
                        nb, nl, shifted, math::LogOp::create(nb, nl, args[2]));
                  return arith::DivFOp::create(
                      nb, nl, math::ExpOp::create(nb, nl, shifted), args[2]);
                },
                keptSources(x, range(0, rank)));
}

Value lowerSoftmax(SoftmaxOp op, SoftmaxOp::Adaptor adaptor, OpBuilder &b) {
  return lowerSoftmaxLike(op, adaptor, b, /*log=*/false);
}
Value lowerLogSoftmax(LogSoftmaxOp op, LogSoftmaxOp::Adaptor adaptor,
                      OpBuilder &b) {
  return lowerSoftmaxLike(op, adaptor, b, /*log=*/true);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Mean and 1/sqrt(biased variance + eps) of `x` over `dims`, in the
/// reduced shape (no keepdim).
std::pair<Value, Value> moments(OpBuilder &b, Location loc, Value x,
                                ArrayRef<int64_t> dims, double eps) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(x);
  int64_t rank = type.getRank();
  // The count of a dynamic size (batch norm over a dynamic batch) is read
  // at run time.
  Value count = elementCount(b, loc, type.getShape(), dims,
                             keptSources(x, range(0, rank)),
                             type.getElementType());
  Value mean = divideBy(b, loc, sumDims(b, loc, x, dims), count);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap reduced = dimsMap(ctx, rank, complement(rank, dims));
  SmallVector<Iter> iters(rank, Iter::parallel);
  for (int64_t d : dims)
    iters[d] = Iter::reduction;
  Value init = filled(b, loc, typeOf(mean).getShape(), type.getElementType(),
                      0.0, keptSources(x, complement(rank, dims)));
  Value sq = generic(
      b, loc, ValueRange{x, mean}, init, {id, reduced, reduced}, iters,
      [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
        Value d = arith::SubFOp::create(nb, nl, args[0], args[1]);
        return {arith::AddFOp::create(nb, nl,
                                      arith::MulFOp::create(nb, nl, d, d), args[2])};
      })[0];
  Value rstd = buildElementwise(
      b, loc, typeOf(sq), sq, [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Type t = args[0].getType();
        Value var = arith::DivFOp::create(nb, nl, args[0], count);
        return math::RsqrtOp::create(
            nb, nl, arith::AddFOp::create(nb, nl, var, constF(nb, nl, t, eps)));
      });
  return {mean, rstd};
}

/// (x - mean) * rstd * weight + bias over x's shape; the statistics are read
/// through `statsMap`, weight and bias through `affineMap`.
Value normalize(OpBuilder &b, Location loc, Value x, Value mean, Value rstd,
                Value weight, Value bias, AffineMap statsMap, AffineMap affineMap) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(x);
  SmallVector<Value> inputs{x, mean, rstd};
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(type.getRank(), ctx),
                              statsMap, statsMap};
  if (weight) {
    inputs.push_back(weight);
    maps.push_back(affineMap);
  }
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(affineMap);
  }
  bool hasWeight = static_cast<bool>(weight);
  return mapped(b, loc, type.getShape(), type.getElementType(), inputs, maps,
                [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                  Value y = arith::MulFOp::create(
                      nb, nl, arith::SubFOp::create(nb, nl, args[0], args[1]),
                      args[2]);
                  unsigned next = 3;
                  if (hasWeight)
                    y = arith::MulFOp::create(nb, nl, y, args[next++]);
                  if (next < args.size())
                    y = arith::AddFOp::create(nb, nl, y, args[next]);
                  return y;
                },
                keptSources(x, range(0, type.getRank())));
}

SmallVector<Value> lowerLayerNorm(NativeLayerNormOp op,
                                  NativeLayerNormOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value x = adaptor.getInput();
  int64_t rank = typeOf(x).getRank();
  int64_t axis = rank - op.getNormalizedShape().size();
  SmallVector<int64_t> dims = range(axis, rank);
  auto [mean, rstd] = moments(b, loc, x, dims, op.getEps().convertToDouble());
  Value out = normalize(b, loc, x, mean, rstd, adaptor.getWeight(),
                        adaptor.getBias(), dimsMap(ctx, rank, range(0, axis)),
                        dimsMap(ctx, rank, dims));
  auto statsType = cast<RankedTensorType>(op.getMean().getType());
  return {out, reshapeTo(b, loc, mean, statsType), reshapeTo(b, loc, rstd, statsType)};
}

/// Batch norm over all dims but 1; `training` uses batch statistics.
SmallVector<Value> batchNorm(Operation *op, OpBuilder &b, Value x, Value weight,
                             Value bias, Value runningMean, Value runningVar,
                             bool training, double eps) {
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(x);
  int64_t rank = type.getRank();
  AffineMap channel = dimsMap(ctx, rank, {1});
  if (training) {
    auto [mean, rstd] = moments(b, loc, x, complement(rank, {1}), eps);
    Value out = normalize(b, loc, x, mean, rstd, weight, bias, channel, channel);
    return {out, mean, rstd};
  }
  Value invstd = buildElementwise(
      b, loc, typeOf(runningVar), runningVar,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return math::RsqrtOp::create(
            nb, nl,
            arith::AddFOp::create(nb, nl, args[0],
                                  constF(nb, nl, args[0].getType(), eps)));
      });
  Value out = normalize(b, loc, x, runningMean, invstd, weight, bias, channel, channel);
  auto empty = RankedTensorType::get({0}, type.getElementType());
  return {out, tensor::EmptyOp::create(b, loc, empty.getShape(), empty.getElementType()),
          tensor::EmptyOp::create(b, loc, empty.getShape(), empty.getElementType())};
}

SmallVector<Value> lowerNativeBatchNorm(NativeBatchNormOp op,
                                        NativeBatchNormOp::Adaptor adaptor,
                                        OpBuilder &b) {
  return batchNorm(op, b, adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(),
                   adaptor.getRunningMean(), adaptor.getRunningVar(),
                   op.getTraining(), op.getEps().convertToDouble());
}

SmallVector<Value> lowerBatchNormLegit(NativeBatchNormLegitOp op,
                                       NativeBatchNormLegitOp::Adaptor adaptor,
                                       OpBuilder &b) {
  return batchNorm(op, b, adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(),
                   adaptor.getRunningMean(), adaptor.getRunningVar(),
                   op.getTraining(), op.getEps().convertToDouble());
}

SmallVector<Value>
lowerBatchNormNoTraining(NativeBatchNormLegitNoTrainingOp op,
                         NativeBatchNormLegitNoTrainingOp::Adaptor adaptor,
                         OpBuilder &b) {
  return batchNorm(op, b, adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(),
                   adaptor.getRunningMean(), adaptor.getRunningVar(),
                   /*training=*/false, op.getEps().convertToDouble());
}

SmallVector<Value> lowerGroupNorm(NativeGroupNormOp op,
                                  NativeGroupNormOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value x = adaptor.getInput();
  RankedTensorType type = typeOf(x);
  int64_t n = op.getN(), c = op.getC(), hxw = op.getHxW(), g = op.getGroup();
  // [N, G, C/G, HxW]: statistics over dims 2 and 3, affine per (g, c/g).
  Value grouped = reshape(b, loc, x, {n, g, c / g, hxw});
  auto [mean, rstd] = moments(b, loc, grouped, {2, 3}, op.getEps().convertToDouble());
  Value weight = adaptor.getWeight(), bias = adaptor.getBias();
  if (weight)
    weight = reshape(b, loc, weight, {g, c / g});
  if (bias)
    bias = reshape(b, loc, bias, {g, c / g});
  Value out = normalize(b, loc, grouped, mean, rstd, weight, bias,
                        dimsMap(ctx, 4, {0, 1}), dimsMap(ctx, 4, {1, 2}));
  return {reshapeTo(b, loc, out, type), mean, rstd};
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

enum Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };

/// Sum (or mean) of `unreduced` over all dims for reduction Sum (Mean).
Value reduceLoss(OpBuilder &b, Location loc, Value unreduced, int64_t reduction) {
  if (reduction == None)
    return unreduced;
  RankedTensorType type = typeOf(unreduced);
  SmallVector<int64_t> all = range(0, type.getRank());
  Value sum = sumDims(b, loc, unreduced, all);
  if (reduction != Mean)
    return sum;
  if (type.hasStaticShape())
    return divideBy(b, loc, sum, static_cast<double>(type.getNumElements()));
  // A dynamic batch: the count is read at run time.
  SmallVector<SizeSource> sources;
  for (int64_t d : all)
    sources.push_back({unreduced, d});
  return divideBy(b, loc, sum,
                  elementCount(b, loc, type.getShape(), all, sources,
                               type.getElementType()));
}

/// Weight and validity of one target: (t != ignore) ? weight[t] : 0, and
/// the class index to read (0 for ignored targets).
std::pair<Value, Value> nllWeight(OpBuilder &b, Location loc, Value target,
                                  Value weight, int64_t ignoreIndex, Type element) {
  Value ignore = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(ignoreIndex));
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, target, ignore);
  Value zeroI = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value cls = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                         arith::SelectOp::create(b, loc, valid, target, zeroI));
  Value w = weight ? Value(tensor::ExtractOp::create(b, loc, weight, ValueRange{cls}))
                   : constF(b, loc, element, 1.0);
  w = arith::SelectOp::create(b, loc, valid, w, constF(b, loc, element, 0.0));
  return {w, cls};
}

template <typename OpTy>
SmallVector<Value> lowerNllForward(OpTy op, typename OpTy::Adaptor adaptor,
                                   OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value self = adaptor.getSelf(), target = adaptor.getTarget(), weight = adaptor.getWeight();
  RankedTensorType selfType = typeOf(self), targetType = typeOf(target);
  Type element = selfType.getElementType();
  int64_t rank = targetType.getRank();
  int64_t classDim = selfType.getRank() == 1 ? 0 : 1;
  int64_t ignoreIndex = op.getIgnoreIndex();
  // Per target element: (-w * self[..., t, ...], w).
  auto body = [&](OpBuilder &nb, Location nl, Value t) -> std::pair<Value, Value> {
    auto [w, cls] = nllWeight(nb, nl, t, weight, ignoreIndex, element);
    SmallVector<Value> indices;
    for (int64_t i = 0; i < rank; ++i)
      indices.push_back(linalg::IndexOp::create(nb, nl, i));
    indices.insert(indices.begin() + classDim, cls);
    Value x = tensor::ExtractOp::create(nb, nl, self, indices);
    return {arith::NegFOp::create(nb, nl, arith::MulFOp::create(nb, nl, w, x)), w};
  };
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap scalar = AffineMap::get(rank, 0, ArrayRef<AffineExpr>{}, ctx);
  SmallVector<Iter> iters(rank, Iter::reduction);
  Value zero = filled(b, loc, {}, element, 0.0);
  SmallVector<Value> sums = generic(
      b, loc, target, ValueRange{zero, zero}, {id, scalar, scalar}, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
        auto [v, w] = body(nb, nl, args[0]);
        return {arith::AddFOp::create(nb, nl, args[1], v),
                arith::AddFOp::create(nb, nl, args[2], w)};
      });
  Value total = sums[1];
  Value output;
  if (op.getReduction() == None) {
    output = mapped(b, loc, targetType.getShape(), element, target, id,
                    [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                      return body(nb, nl, args[0]).first;
                    },
                    keptSources(target, range(0, rank)));
  } else if (op.getReduction() == Sum) {
    output = sums[0];
  } else {
    AffineMap none = AffineMap::get(0, 0, ArrayRef<AffineExpr>{}, ctx);
    output = mapped(b, loc, {}, element, {sums[0], total}, {none, none},
                    [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                      return arith::DivFOp::create(nb, nl, args[0], args[1]);
                    });
  }
  return {output, total};
}

template <typename OpTy>
Value lowerNllBackward(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value target = adaptor.getTarget(), weight = adaptor.getWeight();
  RankedTensorType selfType = typeOf(adaptor.getSelf());
  Type element = selfType.getElementType();
  int64_t rank = selfType.getRank();
  int64_t classDim = rank == 1 ? 0 : 1;
  SmallVector<int64_t> batchDims = complement(rank, {classDim});
  AffineMap batch = dimsMap(ctx, rank, batchDims);
  AffineMap scalar = AffineMap::get(rank, 0, ArrayRef<AffineExpr>{}, ctx);
  bool mean = op.getReduction() == Mean;
  int64_t ignoreIndex = op.getIgnoreIndex();
  return mapped(
      b, loc, selfType.getShape(), element,
      {target, adaptor.getGradOutput(), adaptor.getTotalWeight()},
      {batch, op.getReduction() == None ? batch : scalar, scalar},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        auto [w, cls] = nllWeight(nb, nl, args[0], weight, ignoreIndex, element);
        Value c = linalg::IndexOp::create(nb, nl, classDim);
        Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, c, cls);
        Value g = args[1];
        if (mean)
          g = arith::DivFOp::create(nb, nl, g, args[2]);
        Value v = arith::NegFOp::create(nb, nl, arith::MulFOp::create(nb, nl, w, g));
        return arith::SelectOp::create(nb, nl, hit, v, constF(nb, nl, element, 0.0));
      },
      keptSources(adaptor.getSelf(), range(0, rank)));
}

/// max(log(v), -100), as ATen's binary_cross_entropy clamps its logs.
Value clampedLog(OpBuilder &b, Location loc, Value v) {
  return arith::MaximumFOp::create(b, loc, math::LogOp::create(b, loc, v),
                                   constF(b, loc, v.getType(), -100.0));
}

Value lowerBce(BinaryCrossEntropyOp op, BinaryCrossEntropyOp::Adaptor adaptor,
               OpBuilder &b) {
  Location loc = op.getLoc();
  RankedTensorType type = typeOf(adaptor.getSelf());
  SmallVector<Value> inputs{adaptor.getSelf(), adaptor.getTarget()};
  if (adaptor.getWeight())
    inputs.push_back(adaptor.getWeight());
  Value l = buildElementwise(
      b, loc, type, inputs, [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value x = args[0], t = args[1];
        Value one = constF(nb, nl, x.getType(), 1.0);
        Value a = arith::MulFOp::create(nb, nl, t, clampedLog(nb, nl, x));
        Value c = arith::MulFOp::create(
            nb, nl, arith::SubFOp::create(nb, nl, one, t),
            clampedLog(nb, nl, arith::SubFOp::create(nb, nl, one, x)));
        Value v = arith::NegFOp::create(nb, nl, arith::AddFOp::create(nb, nl, a, c));
        return args.size() > 2 ? arith::MulFOp::create(nb, nl, v, args[2]).getResult() : v;
      });
  return reduceLoss(b, loc, l, op.getReduction());
}

Value lowerBceWithLogits(BinaryCrossEntropyWithLogitsOp op,
                         BinaryCrossEntropyWithLogitsOp::Adaptor adaptor,
                         OpBuilder &b) {
  Location loc = op.getLoc();
  RankedTensorType type = typeOf(adaptor.getSelf());
  SmallVector<Value> inputs{adaptor.getSelf(), adaptor.getTarget()};
  bool hasWeight = static_cast<bool>(adaptor.getWeight());
  bool hasPos = static_cast<bool>(adaptor.getPosWeight());
  if (hasWeight)
    inputs.push_back(adaptor.getWeight());
  if (hasPos)
    inputs.push_back(adaptor.getPosWeight());
  // (1 - t) x + (1 + (pw - 1) t) (log1p(exp(-|x|)) + max(-x, 0)), times w.
  Value l = buildElementwise(
      b, loc, type, inputs, [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value x = args[0], t = args[1];
        Type ft = x.getType();
        Value one = constF(nb, nl, ft, 1.0), zero = constF(nb, nl, ft, 0.0);
        Value negX = arith::NegFOp::create(nb, nl, x);
        Value softplus = arith::AddFOp::create(
            nb, nl,
            math::Log1pOp::create(
                nb, nl,
                math::ExpOp::create(nb, nl,
                                    arith::NegFOp::create(nb, nl, math::AbsFOp::create(nb, nl, x)))),
            arith::MaximumFOp::create(nb, nl, negX, zero));
        Value coeff = one;
        if (hasPos) {
          Value pw = args[hasWeight ? 3 : 2];
          coeff = arith::AddFOp::create(
              nb, nl, one,
              arith::MulFOp::create(nb, nl, arith::SubFOp::create(nb, nl, pw, one), t));
        }
        Value v = arith::AddFOp::create(
            nb, nl,
            arith::MulFOp::create(nb, nl, arith::SubFOp::create(nb, nl, one, t), x),
            arith::MulFOp::create(nb, nl, coeff, softplus));
        return hasWeight ? arith::MulFOp::create(nb, nl, v, args[2]).getResult() : v;
      });
  return reduceLoss(b, loc, l, op.getReduction());
}

/// Huber-type loss of d = self - target: |d| < beta ? 0.5 d^2 * quad : lin(|d|).
template <typename OpTy>
Value lowerRobustLoss(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b,
                      double threshold, bool huber) {
  Location loc = op.getLoc();
  auto type = RankedTensorType::get(
      *broadcastShapes(typeOf(adaptor.getSelf()).getShape(),
                       typeOf(adaptor.getTarget()).getShape()),
      typeOf(adaptor.getSelf()).getElementType());
  Value l = buildElementwise(
      b, loc, type, {adaptor.getSelf(), adaptor.getTarget()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Type ft = args[0].getType();
        Value d = arith::SubFOp::create(nb, nl, args[0], args[1]);
        Value ad = math::AbsFOp::create(nb, nl, d);
        Value th = constF(nb, nl, ft, threshold);
        Value half = constF(nb, nl, ft, 0.5);
        Value quad = arith::MulFOp::create(nb, nl, half, arith::MulFOp::create(nb, nl, d, d));
        Value lin = arith::SubFOp::create(nb, nl, ad, arith::MulFOp::create(nb, nl, half, th));
        if (huber) {
          lin = arith::MulFOp::create(nb, nl, th, lin);
        } else if (threshold > 0) {
          quad = arith::DivFOp::create(nb, nl, quad, th);
        }
        Value inside = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT, ad, th);
        return arith::SelectOp::create(nb, nl, inside, quad, lin);
      });
  return reduceLoss(b, loc, l, op.getReduction());
}

Value lowerSmoothL1(SmoothL1LossOp op, SmoothL1LossOp::Adaptor adaptor, OpBuilder &b) {
  return lowerRobustLoss(op, adaptor, b, op.getBeta().convertToDouble(), false);
}
Value lowerHuber(HuberLossOp op, HuberLossOp::Adaptor adaptor, OpBuilder &b) {
  return lowerRobustLoss(op, adaptor, b, op.getDelta().convertToDouble(), true);
}

} // namespace

void lowering::populateNNPatterns(RewritePatternSet &patterns) {
  addLowering<SoftmaxOp>(patterns, lowerSoftmax);
  addLowering<LogSoftmaxOp>(patterns, lowerLogSoftmax);
  addMultiLowering<NativeLayerNormOp>(patterns, lowerLayerNorm);
  addMultiLowering<NativeBatchNormOp>(patterns, lowerNativeBatchNorm);
  addMultiLowering<NativeBatchNormLegitOp>(patterns, lowerBatchNormLegit);
  addMultiLowering<NativeBatchNormLegitNoTrainingOp>(patterns, lowerBatchNormNoTraining);
  addMultiLowering<NativeGroupNormOp>(patterns, lowerGroupNorm);
  addMultiLowering<NllLossForwardOp>(patterns, lowerNllForward<NllLossForwardOp>);
  addMultiLowering<NllLoss2dForwardOp>(patterns, lowerNllForward<NllLoss2dForwardOp>);
  addLowering<NllLossBackwardOp>(patterns, lowerNllBackward<NllLossBackwardOp>);
  addLowering<NllLoss2dBackwardOp>(patterns, lowerNllBackward<NllLoss2dBackwardOp>);
  addLowering<BinaryCrossEntropyOp>(patterns, lowerBce);
  addLowering<BinaryCrossEntropyWithLogitsOp>(patterns, lowerBceWithLogits);
  addLowering<SmoothL1LossOp>(patterns, lowerSmoothL1);
  addLowering<HuberLossOp>(patterns, lowerHuber);
}
