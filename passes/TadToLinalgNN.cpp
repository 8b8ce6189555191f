//===- TadToLinalgNN.cpp - softmax, norms, conv, pooling, losses to linalg ===//
//
// - softmax / log_softmax: max, then sum of exp(x - max), as reductions over
//   `dim`, and one elementwise generic for the result.
// - normalization: mean and variance as sum reductions over the normalized
//   dimensions, then one elementwise generic (x - mean) * rstd * w + b.
// - convolution: linalg.conv_1d_ncw_fcw / conv_2d_nchw_fchw for groups = 1,
//   otherwise a linalg.generic over grouped views; padding is tensor.pad.
//   The backward for the input is a "transposed" gather: grad_output with
//   stride - 1 zeros inserted (tensor.insert_slice with strides), padded,
//   then correlated with the kernel read backwards (affine index i - k*d).
//   The weight gradient correlates the input with grad_output.
// - pooling: max pooling is a generic with a value and an index result
//   (first maximum wins, NaN wins, as ATen's CPU kernel); average pooling
//   is linalg.pooling_nchw_sum times a constant table of 1/divisor; the
//   adaptive average is a contraction with constant window matrices. The
//   backward ops use the same zero-insertion gather as convolution.
// - losses: nll reads self[..., target, ...] with tensor.extract inside a
//   generic; the pointwise losses are elementwise generics then a sum.
//
//===----------------------------------------------------------------------===//
#include "passes/TadToLinalgPatterns.h"
#include "passes/TadToLinalgTensorUtils.h"

#include "dialects/Tad/NNShapes.h"
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

namespace {

using Iter = utils::IteratorType;

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

Value constF(OpBuilder &b, Location loc, Type type, double value) {
  return floatConstant(b, loc, type, value);
}

/// A map from a `rank`-dimensional domain to the listed dimensions.
AffineMap dimsMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// The dimensions of [0, rank) not in `dims`.
SmallVector<int64_t> complement(int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(d);
  return kept;
}

SmallVector<int64_t> range(int64_t begin, int64_t end) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, end));
}

/// A generic with explicit maps; the last maps belong to `inits`.
SmallVector<Value> generic(OpBuilder &b, Location loc, ValueRange inputs,
                           ValueRange inits, ArrayRef<AffineMap> maps,
                           ArrayRef<Iter> iterators,
                           function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                           ValueRange)>
                               body) {
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  auto op = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args));
      });
  return SmallVector<Value>(op.getResults().begin(), op.getResults().end());
}

Value filled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element,
             double value) {
  Value v = isa<FloatType>(element)
                ? constF(b, loc, element, value)
                : Value(arith::ConstantOp::create(
                      b, loc, b.getIntegerAttr(element, static_cast<int64_t>(value))));
  return filledTensor(b, loc, RankedTensorType::get(shape, element), v);
}

Value zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  return filled(b, loc, type.getShape(), type.getElementType(), 0.0);
}

/// tensor.pad with a constant; `value` itself when nothing is padded.
Value pad(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> low,
          ArrayRef<int64_t> high, Value padValue) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return value;
  RankedTensorType type = typeOf(value);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> lo, hi;
  for (size_t i = 0; i < shape.size(); ++i) {
    shape[i] += low[i] + high[i];
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
  }
  return tensor::PadOp::create(b, loc,
                               RankedTensorType::get(shape, type.getElementType()),
                               value, lo, hi, padValue);
}

/// Inserts stride - 1 fill values between the elements of the trailing
/// `strides.size()` dimensions of `value`.
Value dilate(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> strides,
             double fill) {
  if (llvm::all_of(strides, [](int64_t s) { return s == 1; }))
    return value;
  RankedTensorType type = typeOf(value);
  int64_t lead = type.getRank() - strides.size();
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> offsets, sizes, steps;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t s = i < lead ? 1 : strides[i - lead];
    shape[i] = (shape[i] - 1) * s + 1;
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    steps.push_back(b.getIndexAttr(s));
  }
  Value dest = filled(b, loc, shape, type.getElementType(), fill);
  return tensor::InsertSliceOp::create(b, loc, value, dest, offsets, sizes, steps);
}

/// `value` reshaped to `shape` (same element count).
Value reshape(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> shape) {
  return reshapeTo(b, loc, value,
                   RankedTensorType::get(shape, typeOf(value).getElementType()));
}

/// Sum of `value` over `dims` (no keepdim).
Value sumDims(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> dims) {
  RankedTensorType type = typeOf(value);
  return buildSum(b, loc, type.getShape(), type.getElementType(), value, dims,
                  [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

/// Max of `value` over `dim` (no keepdim), NaN-propagating.
Value maxDim(OpBuilder &b, Location loc, Value value, int64_t dim) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(value);
  int64_t rank = type.getRank();
  SmallVector<int64_t> kept = complement(rank, {dim});
  Value init = filled(b, loc, reducedShape(type.getShape(), {dim}, false),
                      type.getElementType(),
                      -std::numeric_limits<double>::infinity());
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

/// An all-parallel generic over `shape` with explicit input maps.
Value mapped(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element,
             ValueRange inputs, ArrayRef<AffineMap> inputMaps, ScalarFn body) {
  MLIRContext *ctx = b.getContext();
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::getMultiDimIdentityMap(shape.size(), ctx));
  SmallVector<Iter> iters(shape.size(), Iter::parallel);
  return generic(b, loc, inputs, init, maps, iters,
                 [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                   return {body(nb, nl, args.drop_back())};
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
                         type.getElementType(), 0.0);
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
                });
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
  double count = static_cast<double>(numElements(type.getShape(), dims));
  Value mean = divideBy(b, loc, sumDims(b, loc, x, dims), count);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap reduced = dimsMap(ctx, rank, complement(rank, dims));
  SmallVector<Iter> iters(rank, Iter::parallel);
  for (int64_t d : dims)
    iters[d] = Iter::reduction;
  Value init = zeros(b, loc, typeOf(mean));
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
        Value var = arith::DivFOp::create(nb, nl, args[0], constF(nb, nl, t, count));
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
                });
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
// Convolution
//===----------------------------------------------------------------------===//

struct ConvParams {
  int64_t spatial, groups;
  SmallVector<int64_t> stride, padding, dilation;
};

template <typename OpTy>
ConvParams convParams(OpTy op, int64_t rank) {
  int64_t spatial = rank - 2;
  return {spatial, static_cast<int64_t>(op.getGroups()),
          *expandParam(op.getStride(), spatial), *expandParam(op.getPadding(), spatial),
          *expandParam(op.getDilation(), spatial)};
}

/// Shape with dimension `dim` split into (groups, size / groups).
SmallVector<int64_t> splitDim(ArrayRef<int64_t> shape, int64_t dim, int64_t groups) {
  SmallVector<int64_t> out(shape.take_front(dim));
  out.push_back(groups);
  out.push_back(shape[dim] / groups);
  out.append(shape.begin() + dim + 1, shape.end());
  return out;
}

/// Affine expression d_o * s + d_k * d + offset.
AffineExpr window(MLIRContext *ctx, int64_t outDim, int64_t kDim, int64_t stride,
                  int64_t dilation, int64_t offset = 0) {
  return getAffineDimExpr(outDim, ctx) * stride + getAffineDimExpr(kDim, ctx) * dilation +
         offset;
}

/// Forward convolution of padded input `xp` [N, C, *] with `w` [F, Cg, *k].
Value convForward(OpBuilder &b, Location loc, Value xp, Value w,
                  const ConvParams &p, RankedTensorType resultType) {
  MLIRContext *ctx = b.getContext();
  Type element = resultType.getElementType();
  int64_t S = p.spatial;
  if (p.groups == 1 && (S == 1 || S == 2)) {
    Value init = zeros(b, loc, resultType);
    auto strides = b.getI64TensorAttr(p.stride);
    auto dilations = b.getI64TensorAttr(p.dilation);
    if (S == 2)
      return linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{resultType},
                                              ValueRange{xp, w}, ValueRange{init},
                                              strides, dilations)
          .getResult(0);
    return linalg::Conv1DNcwFcwOp::create(b, loc, TypeRange{resultType},
                                          ValueRange{xp, w}, ValueRange{init},
                                          strides, dilations)
        ->getResult(0);
  }
  // Domain: n, g, fg, o[S], cg, k[S].
  int64_t G = p.groups;
  Value xg = reshape(b, loc, xp, splitDim(typeOf(xp).getShape(), 1, G));
  Value wg = reshape(b, loc, w, splitDim(typeOf(w).getShape(), 0, G));
  SmallVector<int64_t> outShape = splitDim(resultType.getShape(), 1, G);
  int64_t rank = 4 + 2 * S;
  int64_t cgDim = 3 + S;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xExprs{d(0), d(1), d(cgDim)}, wExprs{d(1), d(2), d(cgDim)},
      oExprs{d(0), d(1), d(2)};
  for (int64_t i = 0; i < S; ++i) {
    xExprs.push_back(window(ctx, 3 + i, cgDim + 1 + i, p.stride[i], p.dilation[i]));
    wExprs.push_back(d(cgDim + 1 + i));
    oExprs.push_back(d(3 + i));
  }
  SmallVector<Iter> iters(rank, Iter::reduction);
  for (int64_t i = 0; i < 3 + S; ++i)
    iters[i] = Iter::parallel;
  Value init = filled(b, loc, outShape, element, 0.0);
  Value out = generic(b, loc, ValueRange{xg, wg}, init,
                      {AffineMap::get(rank, 0, xExprs, ctx),
                       AffineMap::get(rank, 0, wExprs, ctx),
                       AffineMap::get(rank, 0, oExprs, ctx)},
                      iters,
                      [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                        return {arith::AddFOp::create(
                            nb, nl, args[2], arith::MulFOp::create(nb, nl, args[0], args[1]))};
                      })[0];
  return reshapeTo(b, loc, out, resultType);
}

Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> padding,
                 double value = 0.0) {
  SmallVector<int64_t> lo{0, 0}, hi{0, 0};
  lo.append(padding.begin(), padding.end());
  hi.append(padding.begin(), padding.end());
  Type element = typeOf(x).getElementType();
  return pad(b, loc, x, lo, hi, constF(b, loc, element, value));
}

Value lowerConvolution(ConvolutionOp op, ConvolutionOp::Adaptor adaptor,
                       OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = cast<RankedTensorType>(op.getType());
  ConvParams p = convParams(op, type.getRank());
  Value xp = padSpatial(b, loc, adaptor.getInput(), p.padding);
  Value out = convForward(b, loc, xp, adaptor.getWeight(), p, type);
  if (Value bias = adaptor.getBias())
    out = mapped(b, loc, type.getShape(), type.getElementType(), {out, bias},
                 {AffineMap::getMultiDimIdentityMap(type.getRank(), ctx),
                  dimsMap(ctx, type.getRank(), {1})},
                 [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                   return arith::AddFOp::create(nb, nl, args[0], args[1]);
                 });
  return out;
}

/// Gradient of a strided, dilated window gather for its input: for every
/// input position i of `inputSize`, the sum over kernel offsets k of
/// dp[i + offset - k*d], where dp is `grad` ([..., O]) with stride - 1 zeros
/// inserted and padded. Returns the padded tensor and the offsets.
std::pair<Value, SmallVector<int64_t>>
scatterSource(OpBuilder &b, Location loc, Value grad, ArrayRef<int64_t> inputSize,
              ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
              ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation, double fill) {
  int64_t S = kernel.size();
  Value dilated = dilate(b, loc, grad, stride, fill);
  RankedTensorType type = typeOf(dilated);
  int64_t lead = type.getRank() - S;
  SmallVector<int64_t> lo(lead, 0), hi(lead, 0), offsets;
  for (int64_t i = 0; i < S; ++i) {
    int64_t len = type.getDimSize(lead + i);
    int64_t low = std::max<int64_t>(0, (kernel[i] - 1) * dilation[i] - padding[i]);
    int64_t high = std::max<int64_t>(0, inputSize[i] + padding[i] - len);
    lo.push_back(low);
    hi.push_back(high);
    offsets.push_back(padding[i] + low);
  }
  Type element = type.getElementType();
  Value padValue = isa<FloatType>(element)
                       ? constF(b, loc, element, fill)
                       : Value(arith::ConstantOp::create(
                             b, loc, b.getIntegerAttr(element, static_cast<int64_t>(fill))));
  return {pad(b, loc, dilated, lo, hi, padValue), offsets};
}

SmallVector<Value> lowerConvolutionBackward(ConvolutionBackwardOp op,
                                            ConvolutionBackwardOp::Adaptor adaptor,
                                            OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value grad = adaptor.getGradOutput(), x = adaptor.getInput(), w = adaptor.getWeight();
  RankedTensorType xType = typeOf(x), wType = typeOf(w), gType = typeOf(grad);
  Type element = xType.getElementType();
  ConvParams p = convParams(op, xType.getRank());
  int64_t S = p.spatial, G = p.groups;
  ArrayRef<bool> mask = op.getOutputMask();
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  SmallVector<Value> results;

  // grad_input: domain n, g, cg, i[S], fg, k[S].
  if (mask[0]) {
    SmallVector<int64_t> inputSize(xType.getShape().drop_front(2));
    Value gg = reshape(b, loc, grad, splitDim(gType.getShape(), 1, G));
    auto [dp, offsets] = scatterSource(b, loc, gg, inputSize, kernel, p.stride,
                                       p.padding, p.dilation, 0.0);
    Value wg = reshape(b, loc, w, splitDim(wType.getShape(), 0, G));
    int64_t rank = 4 + 2 * S, fgDim = 3 + S;
    SmallVector<AffineExpr> gExprs{d(0), d(1), d(fgDim)}, wExprs{d(1), d(fgDim), d(2)},
        oExprs{d(0), d(1), d(2)};
    for (int64_t i = 0; i < S; ++i) {
      gExprs.push_back(d(3 + i) + offsets[i] - d(fgDim + 1 + i) * p.dilation[i]);
      wExprs.push_back(d(fgDim + 1 + i));
      oExprs.push_back(d(3 + i));
    }
    SmallVector<Iter> iters(rank, Iter::reduction);
    for (int64_t i = 0; i < 3 + S; ++i)
      iters[i] = Iter::parallel;
    Value init = filled(b, loc, splitDim(xType.getShape(), 1, G), element, 0.0);
    Value gi = generic(b, loc, ValueRange{dp, wg}, init,
                       {AffineMap::get(rank, 0, gExprs, ctx),
                        AffineMap::get(rank, 0, wExprs, ctx),
                        AffineMap::get(rank, 0, oExprs, ctx)},
                       iters,
                       [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                         return {arith::AddFOp::create(
                             nb, nl, args[2], arith::MulFOp::create(nb, nl, args[0], args[1]))};
                       })[0];
    results.push_back(reshapeTo(b, loc, gi, xType));
  } else {
    results.push_back(zeros(b, loc, xType));
  }

  // grad_weight: domain g, fg, cg, k[S], n, o[S].
  if (mask[1]) {
    Value xp = padSpatial(b, loc, x, p.padding);
    Value xg = reshape(b, loc, xp, splitDim(typeOf(xp).getShape(), 1, G));
    Value gg = reshape(b, loc, grad, splitDim(gType.getShape(), 1, G));
    int64_t rank = 4 + 2 * S, nDim = 3 + S;
    SmallVector<AffineExpr> gExprs{d(nDim), d(0), d(1)}, xExprs{d(nDim), d(0), d(2)},
        oExprs{d(0), d(1), d(2)};
    for (int64_t i = 0; i < S; ++i) {
      gExprs.push_back(d(nDim + 1 + i));
      xExprs.push_back(window(ctx, nDim + 1 + i, 3 + i, p.stride[i], p.dilation[i]));
      oExprs.push_back(d(3 + i));
    }
    SmallVector<Iter> iters(rank, Iter::reduction);
    for (int64_t i = 0; i < 3 + S; ++i)
      iters[i] = Iter::parallel;
    Value init = filled(b, loc, splitDim(wType.getShape(), 0, G), element, 0.0);
    Value gw = generic(b, loc, ValueRange{gg, xg}, init,
                       {AffineMap::get(rank, 0, gExprs, ctx),
                        AffineMap::get(rank, 0, xExprs, ctx),
                        AffineMap::get(rank, 0, oExprs, ctx)},
                       iters,
                       [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                         return {arith::AddFOp::create(
                             nb, nl, args[2], arith::MulFOp::create(nb, nl, args[0], args[1]))};
                       })[0];
    results.push_back(reshapeTo(b, loc, gw, wType));
  } else {
    results.push_back(zeros(b, loc, wType));
  }

  auto biasType = cast<RankedTensorType>(op.getGradBias().getType());
  results.push_back(mask[2] ? sumDims(b, loc, grad, complement(gType.getRank(), {1}))
                            : zeros(b, loc, biasType));
  return results;
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// [C, H, W] -> [1, C, H, W]; 4-D values unchanged.
Value to4d(OpBuilder &b, Location loc, Value v) {
  RankedTensorType type = typeOf(v);
  if (type.getRank() == 4)
    return v;
  SmallVector<int64_t> shape{1};
  shape.append(type.getShape().begin(), type.getShape().end());
  return reshape(b, loc, v, shape);
}

Pool2dParams poolParams(ArrayRef<int64_t> kernel, std::optional<ArrayRef<int64_t>> stride,
                        std::optional<ArrayRef<int64_t>> padding,
                        std::optional<ArrayRef<int64_t>> dilation, bool ceil) {
  Pool2dParams p;
  p.kernel = *expandParam(kernel, 2);
  p.stride = stride && !stride->empty() ? *expandParam(*stride, 2) : p.kernel;
  p.padding = padding ? *expandParam(*padding, 2) : SmallVector<int64_t>{0, 0};
  p.dilation = dilation ? *expandParam(*dilation, 2) : SmallVector<int64_t>{1, 1};
  p.ceilMode = ceil;
  return p;
}

/// Pads [N, C, H, W] so that every window of the `out` outputs is in range.
Value padForPool(OpBuilder &b, Location loc, Value x, const Pool2dParams &p,
                 ArrayRef<int64_t> out, double value) {
  RankedTensorType type = typeOf(x);
  SmallVector<int64_t> lo{0, 0}, hi{0, 0};
  for (int i = 0; i < 2; ++i) {
    int64_t in = type.getDimSize(2 + i);
    int64_t needed = (out[i] - 1) * p.stride[i] + p.dilation[i] * (p.kernel[i] - 1) + 1;
    lo.push_back(p.padding[i]);
    hi.push_back(std::max<int64_t>(p.padding[i], needed - in - p.padding[i]));
  }
  return pad(b, loc, x, lo, hi, constF(b, loc, type.getElementType(), value));
}

SmallVector<Value> lowerMaxPool(MaxPool2dWithIndicesOp op,
                                MaxPool2dWithIndicesOp::Adaptor adaptor,
                                OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Pool2dParams p = poolParams(op.getKernelSize(), op.getStride(), op.getPadding(),
                              op.getDilation(), op.getCeilMode());
  Value x = to4d(b, loc, adaptor.getSelf());
  RankedTensorType xType = typeOf(x);
  Type element = xType.getElementType();
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  ArrayRef<int64_t> out = resultType.getShape().take_back(2);
  SmallVector<int64_t> outShape{xType.getDimSize(0), xType.getDimSize(1), out[0], out[1]};
  Value xp = padForPool(b, loc, x, p, out, -std::numeric_limits<double>::infinity());
  Value win = tensor::EmptyOp::create(b, loc, p.kernel, element);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // Domain n, c, oh, ow, kh, kw.
  AffineMap xMap = AffineMap::get(
      6, 0,
      {d(0), d(1), window(ctx, 2, 4, p.stride[0], p.dilation[0]),
       window(ctx, 3, 5, p.stride[1], p.dilation[1])},
      ctx);
  AffineMap winMap = dimsMap(ctx, 6, {4, 5}), outMap = dimsMap(ctx, 6, {0, 1, 2, 3});
  Value valInit = filled(b, loc, outShape, element, -std::numeric_limits<double>::infinity());
  Value idxInit = filled(b, loc, outShape, b.getI64Type(), -1);
  int64_t width = xType.getDimSize(3);
  SmallVector<Iter> iters{Iter::parallel, Iter::parallel, Iter::parallel,
                          Iter::parallel, Iter::reduction, Iter::reduction};
  SmallVector<Value> res = generic(
      b, loc, ValueRange{xp, win}, ValueRange{valInit, idxInit},
      {xMap, winMap, outMap, outMap}, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
        Value v = args[0], cur = args[2], curIdx = args[3];
        auto idx = [&](int64_t dim) {
          return arith::IndexCastOp::create(nb, nl, nb.getI64Type(),
                                            linalg::IndexOp::create(nb, nl, dim));
        };
        auto cst = [&](int64_t value) {
          return arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(value));
        };
        // h = oh * s + kh * d - p (and w alike); index = h * W + w.
        auto coord = [&](int64_t o, int64_t k, int i) -> Value {
          Value a = arith::MulIOp::create(nb, nl, idx(o), cst(p.stride[i]));
          Value c = arith::MulIOp::create(nb, nl, idx(k), cst(p.dilation[i]));
          return arith::SubIOp::create(nb, nl, arith::AddIOp::create(nb, nl, a, c),
                                       cst(p.padding[i]));
        };
        Value flat = arith::AddIOp::create(
            nb, nl, arith::MulIOp::create(nb, nl, coord(2, 4, 0), cst(width)),
            coord(3, 5, 1));
        Value greater = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT, v, cur);
        Value isNan = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, v, v);
        Value take = arith::OrIOp::create(nb, nl, greater, isNan);
        return {arith::SelectOp::create(nb, nl, take, v, cur),
                arith::SelectOp::create(nb, nl, take, flat, curIdx)};
      });
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  return {reshapeTo(b, loc, res[0], resultType), reshapeTo(b, loc, res[1], indicesType)};
}

/// For each input position (h, w): sum over kernel offsets of
/// body(gradient source, extra sources...) read at the window position that
/// covers it. `sources` are [N, C, OH, OW] tensors (with their fill values).
Value poolScatter(OpBuilder &b, Location loc, ArrayRef<std::pair<Value, double>> sources,
                  RankedTensorType inputType, const Pool2dParams &p,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> inputSize(inputType.getShape().take_back(2));
  SmallVector<Value> inputs;
  SmallVector<int64_t> offsets;
  for (auto [value, fill] : sources) {
    auto [padded, offs] = scatterSource(b, loc, value, inputSize, p.kernel, p.stride,
                                        p.padding, p.dilation, fill);
    inputs.push_back(padded);
    offsets = offs;
  }
  Type element = inputType.getElementType();
  inputs.push_back(tensor::EmptyOp::create(b, loc, p.kernel, element));
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // Domain n, c, h, w, kh, kw.
  AffineMap srcMap = AffineMap::get(
      6, 0,
      {d(0), d(1), d(2) + offsets[0] - d(4) * p.dilation[0],
       d(3) + offsets[1] - d(5) * p.dilation[1]},
      ctx);
  SmallVector<AffineMap> maps(sources.size(), srcMap);
  maps.push_back(dimsMap(ctx, 6, {4, 5}));
  maps.push_back(dimsMap(ctx, 6, {0, 1, 2, 3}));
  Value init = zeros(b, loc, inputType);
  SmallVector<Iter> iters{Iter::parallel, Iter::parallel, Iter::parallel,
                          Iter::parallel, Iter::reduction, Iter::reduction};
  size_t n = sources.size();
  return generic(b, loc, inputs, init, maps, iters,
                 [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                   Value v = body(nb, nl, args.take_front(n));
                   return {arith::AddFOp::create(nb, nl, args.back(), v)};
                 })[0];
}

Value lowerMaxPoolBackward(MaxPool2dWithIndicesBackwardOp op,
                           MaxPool2dWithIndicesBackwardOp::Adaptor adaptor,
                           OpBuilder &b) {
  Location loc = op.getLoc();
  Pool2dParams p = poolParams(op.getKernelSize(), op.getStride(), op.getPadding(),
                              op.getDilation(), op.getCeilMode());
  Value self = to4d(b, loc, adaptor.getSelf());
  RankedTensorType xType = typeOf(self);
  Value grad = to4d(b, loc, adaptor.getGradOutput());
  Value indices = to4d(b, loc, adaptor.getIndices());
  int64_t width = xType.getDimSize(3);
  Value gi = poolScatter(
      b, loc, {{grad, 0.0}, {indices, -1.0}}, xType, p,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        auto idx = [&](int64_t dim) {
          return arith::IndexCastOp::create(nb, nl, nb.getI64Type(),
                                            linalg::IndexOp::create(nb, nl, dim));
        };
        Value flat = arith::AddIOp::create(
            nb, nl,
            arith::MulIOp::create(nb, nl, idx(2),
                                  arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(width))),
            idx(3));
        Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, args[1], flat);
        return arith::SelectOp::create(nb, nl, hit, args[0],
                                       constF(nb, nl, args[0].getType(), 0.0));
      });
  return reshapeTo(b, loc, gi, cast<RankedTensorType>(op.getType()));
}

/// An arith.constant tensor of f32 or f64 `values`.
Value denseConstant(OpBuilder &b, Location loc, RankedTensorType type,
                    ArrayRef<double> values) {
  Attribute attr;
  if (type.getElementType().isF32()) {
    SmallVector<float> narrow(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(narrow));
  } else {
    attr = DenseElementsAttr::get(type, values);
  }
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
}

/// 1 / divisor of each avg_pool2d output window, as ATen computes it.
Value avgPoolScale(OpBuilder &b, Location loc, const Pool2dParams &p,
                   ArrayRef<int64_t> inputSize, ArrayRef<int64_t> out,
                   bool countIncludePad, std::optional<int64_t> divisorOverride,
                   Type element) {
  SmallVector<double> values;
  for (int64_t oh = 0; oh < out[0]; ++oh)
    for (int64_t ow = 0; ow < out[1]; ++ow) {
      int64_t start[2], end[2], poolSize = 1, count = 1;
      int64_t o[2] = {oh, ow};
      for (int i = 0; i < 2; ++i) {
        start[i] = o[i] * p.stride[i] - p.padding[i];
        end[i] = std::min(start[i] + p.kernel[i], inputSize[i] + p.padding[i]);
        poolSize *= end[i] - start[i];
        count *= std::min(end[i], inputSize[i]) - std::max<int64_t>(start[i], 0);
      }
      double divisor = divisorOverride ? static_cast<double>(*divisorOverride)
                       : countIncludePad ? static_cast<double>(poolSize)
                                         : static_cast<double>(count);
      values.push_back(1.0 / divisor);
    }
  return denseConstant(b, loc, RankedTensorType::get(out, element), values);
}

Value lowerAvgPool(AvgPool2dOp op, AvgPool2dOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Pool2dParams p = poolParams(op.getKernelSize(), op.getStride(), op.getPadding(),
                              std::nullopt, op.getCeilMode());
  Value x = to4d(b, loc, adaptor.getSelf());
  RankedTensorType xType = typeOf(x);
  Type element = xType.getElementType();
  auto resultType = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> out(resultType.getShape().take_back(2));
  SmallVector<int64_t> outShape{xType.getDimSize(0), xType.getDimSize(1), out[0], out[1]};
  Value xp = padForPool(b, loc, x, p, out, 0.0);
  Value win = tensor::EmptyOp::create(b, loc, p.kernel, element);
  auto sumType = RankedTensorType::get(outShape, element);
  Value sum = linalg::PoolingNchwSumOp::create(
                  b, loc, TypeRange{sumType}, ValueRange{xp, win},
                  ValueRange{zeros(b, loc, sumType)}, b.getI64TensorAttr(p.stride),
                  b.getI64TensorAttr(p.dilation))
                  ->getResult(0);
  Value scale = avgPoolScale(b, loc, p, xType.getShape().take_back(2), out,
                             op.getCountIncludePad(), op.getDivisorOverride(), element);
  Value avg = mapped(b, loc, outShape, element, {sum, scale},
                     {AffineMap::getMultiDimIdentityMap(4, ctx), dimsMap(ctx, 4, {2, 3})},
                     [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                       return arith::MulFOp::create(nb, nl, args[0], args[1]);
                     });
  return reshapeTo(b, loc, avg, resultType);
}

Value lowerAvgPoolBackward(AvgPool2dBackwardOp op, AvgPool2dBackwardOp::Adaptor adaptor,
                           OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Pool2dParams p = poolParams(op.getKernelSize(), op.getStride(), op.getPadding(),
                              std::nullopt, op.getCeilMode());
  Value self = to4d(b, loc, adaptor.getSelf());
  RankedTensorType xType = typeOf(self);
  Type element = xType.getElementType();
  Value grad = to4d(b, loc, adaptor.getGradOutput());
  SmallVector<int64_t> out(typeOf(grad).getShape().take_back(2));
  Value scale = avgPoolScale(b, loc, p, xType.getShape().take_back(2), out,
                             op.getCountIncludePad(), op.getDivisorOverride(), element);
  Value scaled = mapped(b, loc, typeOf(grad).getShape(), element, {grad, scale},
                        {AffineMap::getMultiDimIdentityMap(4, ctx), dimsMap(ctx, 4, {2, 3})},
                        [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                          return arith::MulFOp::create(nb, nl, args[0], args[1]);
                        });
  Value gi = poolScatter(b, loc, {{scaled, 0.0}}, xType, p,
                         [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  return reshapeTo(b, loc, gi, cast<RankedTensorType>(op.getType()));
}

/// [out, in] matrix of adaptive-average weights 1 / window length.
Value adaptiveMatrix(OpBuilder &b, Location loc, int64_t out, int64_t in, Type element) {
  SmallVector<double> values(out * in, 0.0);
  for (int64_t o = 0; o < out; ++o) {
    int64_t start = adaptiveStart(o, out, in), end = adaptiveEnd(o, out, in);
    for (int64_t i = start; i < end; ++i)
      values[o * in + i] = 1.0 / static_cast<double>(end - start);
  }
  return denseConstant(b, loc, RankedTensorType::get({out, in}, element), values);
}

/// out[n, c, a, b] = sum_{h, w} src[n, c, h, w] * A[.., ..] * B[.., ..]; with
/// `transpose` the roles of (a, b) and (h, w) in A and B are swapped.
Value adaptiveContract(OpBuilder &b, Location loc, Value src, Value A, Value B,
                       ArrayRef<int64_t> outShape, bool transpose) {
  MLIRContext *ctx = b.getContext();
  // Domain n, c, a0, a1, r0, r1 (a: output position, r: reduced position).
  AffineMap srcMap = dimsMap(ctx, 6, {0, 1, 4, 5});
  AffineMap aMap = transpose ? dimsMap(ctx, 6, {4, 2}) : dimsMap(ctx, 6, {2, 4});
  AffineMap bMap = transpose ? dimsMap(ctx, 6, {5, 3}) : dimsMap(ctx, 6, {3, 5});
  Value init = filled(b, loc, outShape, typeOf(src).getElementType(), 0.0);
  SmallVector<Iter> iters{Iter::parallel, Iter::parallel, Iter::parallel,
                          Iter::parallel, Iter::reduction, Iter::reduction};
  return generic(b, loc, ValueRange{src, A, B}, init,
                 {srcMap, aMap, bMap, dimsMap(ctx, 6, {0, 1, 2, 3})}, iters,
                 [](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
                   Value w = arith::MulFOp::create(nb, nl, args[1], args[2]);
                   Value v = arith::MulFOp::create(nb, nl, args[0], w);
                   return {arith::AddFOp::create(nb, nl, args[3], v)};
                 })[0];
}

Value lowerAdaptiveAvgPool(AdaptiveAvgPool2dOp op, AdaptiveAvgPool2dOp::Adaptor adaptor,
                           OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = to4d(b, loc, adaptor.getSelf());
  RankedTensorType xType = typeOf(x);
  Type element = xType.getElementType();
  ArrayRef<int64_t> out = op.getOutputSize();
  Value A = adaptiveMatrix(b, loc, out[0], xType.getDimSize(2), element);
  Value B = adaptiveMatrix(b, loc, out[1], xType.getDimSize(3), element);
  Value r = adaptiveContract(b, loc, x, A, B,
                             {xType.getDimSize(0), xType.getDimSize(1), out[0], out[1]},
                             false);
  return reshapeTo(b, loc, r, cast<RankedTensorType>(op.getType()));
}

Value lowerAdaptiveAvgPoolBackward(AdaptiveAvgPool2dBackwardOp op,
                                   AdaptiveAvgPool2dBackwardOp::Adaptor adaptor,
                                   OpBuilder &b) {
  Location loc = op.getLoc();
  Value self = to4d(b, loc, adaptor.getSelf());
  Value grad = to4d(b, loc, adaptor.getGradOutput());
  RankedTensorType xType = typeOf(self), gType = typeOf(grad);
  Type element = xType.getElementType();
  Value A = adaptiveMatrix(b, loc, gType.getDimSize(2), xType.getDimSize(2), element);
  Value B = adaptiveMatrix(b, loc, gType.getDimSize(3), xType.getDimSize(3), element);
  Value r = adaptiveContract(b, loc, grad, A, B, xType.getShape(), true);
  return reshapeTo(b, loc, r, cast<RankedTensorType>(op.getType()));
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
  Value sum = sumDims(b, loc, unreduced, range(0, type.getRank()));
  if (reduction == Mean)
    sum = divideBy(b, loc, sum, static_cast<double>(type.getNumElements()));
  return sum;
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
                    });
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
      });
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
  addLowering<ConvolutionOp>(patterns, lowerConvolution);
  addMultiLowering<ConvolutionBackwardOp>(patterns, lowerConvolutionBackward);
  addMultiLowering<MaxPool2dWithIndicesOp>(patterns, lowerMaxPool);
  addLowering<MaxPool2dWithIndicesBackwardOp>(patterns, lowerMaxPoolBackward);
  addLowering<AvgPool2dOp>(patterns, lowerAvgPool);
  addLowering<AvgPool2dBackwardOp>(patterns, lowerAvgPoolBackward);
  addLowering<AdaptiveAvgPool2dOp>(patterns, lowerAdaptiveAvgPool);
  addLowering<AdaptiveAvgPool2dBackwardOp>(patterns, lowerAdaptiveAvgPoolBackward);
  addMultiLowering<NllLossForwardOp>(patterns, lowerNllForward<NllLossForwardOp>);
  addMultiLowering<NllLoss2dForwardOp>(patterns, lowerNllForward<NllLoss2dForwardOp>);
  addLowering<NllLossBackwardOp>(patterns, lowerNllBackward<NllLossBackwardOp>);
  addLowering<NllLoss2dBackwardOp>(patterns, lowerNllBackward<NllLoss2dBackwardOp>);
  addLowering<BinaryCrossEntropyOp>(patterns, lowerBce);
  addLowering<BinaryCrossEntropyWithLogitsOp>(patterns, lowerBceWithLogits);
  addLowering<SmoothL1LossOp>(patterns, lowerSmoothL1);
  addLowering<HuberLossOp>(patterns, lowerHuber);
}
