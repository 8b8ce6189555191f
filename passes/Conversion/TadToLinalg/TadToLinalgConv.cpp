//===- TadToLinalgConv.cpp - convolution and pooling to linalg ------------===//
//
// Convolutions run their multiply-adds through linalg.matmul (one group) or
// linalg.batch_matmul (over groups), which tad-vectorize-contractions turns
// into register-tiled FMA kernels (docs/performance.md, "Convolution and
// pooling"). With K = Cg·prod(kernel) and P = N·prod(output):
// - im2col: one all-parallel generic gathers the padded input into
//   col[G, Cg, k..., N, o...] = [G, K, P]; its innermost loop runs over the
//   output width, so reads (stride 1) and writes are contiguous and LLVM
//   vectorizes the copy.
// - forward: [G, Fg, P] = W[G, Fg, K] @ col, then one generic transposes
//   (F, N) into NCHW and adds the bias (elementwise fusion adds the ReLU).
// - grad_weight: W^T[G, K, Fg] = col @ grad^T[G, P, Fg], then a transpose of
//   the small result; col is the forward's (CSE shares it in a VJP).
// - grad_input: gcol[G, K, P] = W^T[G, K, Fg] @ grad[G, Fg, P], then col2im
//   as one generic per kernel offset that adds a slice of gcol into the
//   (strided) window of the input it came from: no scatter, no padded copy,
//   contiguous innermost loops.
// Pooling: max pooling is one generic with a value and an index result
// (first maximum wins, NaN wins, as ATen's CPU kernel), the value alone when
// the indices are unused; average pooling is linalg.pooling_nchw_sum times a
// constant table of 1/divisor; the adaptive average is a contraction with
// constant window matrices. The backward ops accumulate per kernel offset
// like col2im.
// With direct-convolutions (the CPU pipeline at -O2 and above), convolutions
// with a short reduction (passes/DirectConvolution.h) skip im2col: the
// forward is linalg.conv_2d_nchw_fchw, the weight gradient one generic, both
// computed by tad-vectorize-convolutions; 2-D depthwise convolutions with
// unit strides are generics over flattened rows (correlateRows), which LLVM
// vectorizes; longer unit-stride 2-D ones are implicit GEMM
// (correlateAsGemm): one contraction per kernel row over the input's rows in
// NHWC order, which tad-row-window-matmuls makes matmuls on strided views.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/DirectConvolution.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgNNUtils.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/NNShapes.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;
using namespace mlir::tad::lowering::nn;

namespace {

int64_t product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

/// Affine expression d_o * s + d_k * d + offset.
AffineExpr window(MLIRContext *ctx, int64_t outDim, int64_t kDim, int64_t stride,
                  int64_t dilation, int64_t offset = 0) {
  return getAffineDimExpr(outDim, ctx) * stride + getAffineDimExpr(kDim, ctx) * dilation +
         offset;
}

//===----------------------------------------------------------------------===//
// Window accumulation (col2im, pooling backward)
//===----------------------------------------------------------------------===//

/// The outputs of one kernel offset whose input position o * s + k * d - pad
/// lies inside the input: per spatial dimension the first output, their
/// count and the first input position.
struct WindowSlice {
  SmallVector<int64_t> offset, firstOut, count, firstIn;
};

/// acc [N, C, I...] starts at zero; for each kernel offset (row-major) whose
/// window touches the input, `update` computes the new value of the strided
/// slice acc[:, :, firstIn + s * j] (j < count) from its current value.
/// Inputs that several windows cover are summed in kernel-offset order.
Value accumulateWindows(
    OpBuilder &b, Location loc, RankedTensorType accType, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
    ArrayRef<int64_t> outSize,
    function_ref<Value(OpBuilder &, Location, const WindowSlice &, Value)> update) {
  int64_t S = kernel.size();
  ArrayRef<int64_t> inSize = accType.getShape().drop_front(2);
  Value acc = zeros(b, loc, accType);
  SmallVector<int64_t> k(S, 0);
  for (int64_t flat = 0, total = product(kernel); flat < total; ++flat) {
    for (int64_t i = S - 1, rest = flat; i >= 0; --i) {
      k[i] = rest % kernel[i];
      rest /= kernel[i];
    }
    WindowSlice w;
    w.offset = k;
    bool empty = false;
    for (int64_t i = 0; i < S; ++i) {
      // Input position of output o: o * s + shift.
      int64_t shift = k[i] * dilation[i] - padding[i];
      int64_t lo = shift >= 0 ? 0 : (-shift + stride[i] - 1) / stride[i];
      int64_t last = inSize[i] - 1 - shift;
      int64_t hi = last < 0 ? -1 : std::min(outSize[i] - 1, last / stride[i]);
      if (hi < lo) {
        empty = true;
        break;
      }
      w.firstOut.push_back(lo);
      w.count.push_back(hi - lo + 1);
      w.firstIn.push_back(lo * stride[i] + shift);
    }
    if (empty)
      continue;
    SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0)},
        sizes{b.getIndexAttr(accType.getDimSize(0)), b.getIndexAttr(accType.getDimSize(1))},
        strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    SmallVector<int64_t> shape(accType.getShape().take_front(2));
    for (int64_t i = 0; i < S; ++i) {
      offsets.push_back(b.getIndexAttr(w.firstIn[i]));
      sizes.push_back(b.getIndexAttr(w.count[i]));
      strides.push_back(b.getIndexAttr(stride[i]));
      shape.push_back(w.count[i]);
    }
    auto sliceType = RankedTensorType::get(shape, accType.getElementType());
    Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, acc, offsets, sizes,
                                                 strides);
    Value updated = update(b, loc, w, slice);
    acc = tensor::InsertSliceOp::create(b, loc, updated, acc, offsets, sizes, strides);
  }
  return acc;
}

/// A slice of `source` [.., O...] (trailing S dims over outputs) that covers
/// the outputs of `w`; the leading dims are taken whole except those given
/// in `fixed` (index -> offset), which are taken at size 1.
Value outputSlice(OpBuilder &b, Location loc, Value source, const WindowSlice &w,
                  ArrayRef<std::pair<int64_t, int64_t>> fixed = {}) {
  RankedTensorType type = typeOf(source);
  int64_t S = w.count.size(), lead = type.getRank() - S;
  SmallVector<OpFoldResult> offsets, sizes, strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < lead; ++i) {
    auto it = llvm::find_if(fixed, [&](auto f) { return f.first == i; });
    offsets.push_back(b.getIndexAttr(it == fixed.end() ? 0 : it->second));
    int64_t size = it == fixed.end() ? type.getDimSize(i) : 1;
    sizes.push_back(b.getIndexAttr(size));
    shape.push_back(size);
  }
  for (int64_t i = 0; i < S; ++i) {
    offsets.push_back(b.getIndexAttr(w.firstOut[i]));
    sizes.push_back(b.getIndexAttr(w.count[i]));
    shape.push_back(w.count[i]);
  }
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), source, offsets, sizes,
      strides);
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

Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> padding,
                 double value = 0.0) {
  SmallVector<int64_t> lo{0, 0}, hi{0, 0};
  lo.append(padding.begin(), padding.end());
  hi.append(padding.begin(), padding.end());
  Type element = typeOf(x).getElementType();
  return pad(b, loc, x, lo, hi, constF(b, loc, element, value));
}

/// The part of `value` of `shape` from `offsets` on (unit strides): a
/// crop of padded rows or of a padded input's gradient.
Value sliceAt(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> shape,
              ArrayRef<int64_t> offsets) {
  SmallVector<OpFoldResult> offs, sizes, strides(shape.size(), b.getIndexAttr(1));
  for (auto [size, offset] : llvm::zip_equal(shape, offsets)) {
    sizes.push_back(b.getIndexAttr(size));
    offs.push_back(b.getIndexAttr(offset));
  }
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, typeOf(value).getElementType()), value, offs,
      sizes, strides);
}

/// The bf16 kernels (passes/CPU/Bf16Matmul.cpp) work on blocks of 32
/// rows, columns and k: a product whose channel sizes are not whole blocks
/// gets padded copies of its operands (LeNet's 6 -> 16 channels: every
/// window row copied, and half the work on zeros), slower than f32.
constexpr int64_t kBf16Block = 32;

/// Replaces `a` and `b` by the bf16 tensors they extend exactly where both
/// do (the f32 operands tad-widen-low-precision gives a bf16 convolution)
/// and every one of `channels` is a whole number of kBf16Block, and says
/// whether it did: their products accumulated in f32 are the widened
/// convolution's, from half the bytes, and the CPU schedule runs them on
/// the host's bf16 units.
bool readAsBf16(Value &a, Value &b, ArrayRef<int64_t> channels) {
  if (llvm::any_of(channels, [](int64_t c) { return c % kBf16Block != 0; }))
    return false;
  Value na = extendedTensor(a), nb = extendedTensor(b);
  if (!na || !nb || !typeOf(na).getElementType().isBF16() ||
      !typeOf(nb).getElementType().isBF16())
    return false;
  a = na;
  b = nb;
  return true;
}

/// col[G, Cg·prod(k), N·prod(o)] with col[g, (c, k), (n, o)] =
/// xp[n, g·Cg + c, o·s + k·d] for the padded input `xp` [N, C, I...].
Value im2col(OpBuilder &b, Location loc, Value xp, const ConvParams &p,
             ArrayRef<int64_t> kernel, ArrayRef<int64_t> out) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(xp);
  int64_t S = p.spatial, G = p.groups, N = type.getDimSize(0),
          Cg = type.getDimSize(1) / G;
  Value xg = reshape(b, loc, xp, splitDim(type.getShape(), 1, G));
  // Domain g, c, k[S], n, o[S]: the output width innermost.
  int64_t rank = 3 + 2 * S, nDim = 2 + S;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xExprs{d(nDim), d(0), d(1)};
  SmallVector<int64_t> shape{G, Cg};
  shape.append(kernel.begin(), kernel.end());
  shape.push_back(N);
  shape.append(out.begin(), out.end());
  for (int64_t i = 0; i < S; ++i)
    xExprs.push_back(window(ctx, nDim + 1 + i, 2 + i, p.stride[i], p.dilation[i]));
  Value col = mapped(b, loc, shape, type.getElementType(), xg,
                     {AffineMap::get(rank, 0, xExprs, ctx)},
                     [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  return reshape(b, loc, col, {G, Cg * product(kernel), N * product(out)});
}

/// lhs [G, M, K] @ rhs [G, K, N] accumulated in `element`: a linalg.matmul
/// of the 2-D views for one group, else a linalg.batch_matmul.
Value groupedMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs, Type element) {
  RankedTensorType lt = typeOf(lhs), rt = typeOf(rhs);
  int64_t G = lt.getDimSize(0), M = lt.getDimSize(1), K = lt.getDimSize(2),
          N = rt.getDimSize(2);
  if (G == 1) {
    auto type = RankedTensorType::get({M, N}, element);
    Value product = linalg::MatmulOp::create(
                        b, loc, TypeRange{type},
                        ValueRange{reshape(b, loc, lhs, {M, K}), reshape(b, loc, rhs, {K, N})},
                        ValueRange{zeros(b, loc, type)})
                        .getResult(0);
    return reshape(b, loc, product, {1, M, N});
  }
  auto type = RankedTensorType::get({G, M, N}, element);
  return linalg::BatchMatmulOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                                       ValueRange{zeros(b, loc, type)})
      .getResult(0);
}

/// The copy of `value` with its dimensions permuted: result dimension i is
/// `value`'s dimension perm[i]. A linalg.transpose where the innermost
/// dimension moves (tad-vectorize-transposes turns it into register tiles
/// transposed by shuffles; as loops, every read would be strided), an
/// all-parallel generic otherwise (contiguous rows, which LLVM vectorizes).
Value permuted(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> perm) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(value);
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape, inverse(rank);
  for (int64_t i = 0; i < rank; ++i) {
    shape.push_back(type.getDimSize(perm[i]));
    inverse[perm[i]] = i;
  }
  if (perm.back() != rank - 1) {
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
  }
  return mapped(b, loc, shape, type.getElementType(), value,
                {dimsMap(ctx, rank, inverse)},
                [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

Value lowerConvolution(ConvolutionOp op, ConvolutionOp::Adaptor adaptor,
                       OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  ConvParams p = convParams(op, type.getRank());
  Value w = adaptor.getWeight();
  RankedTensorType wType = typeOf(w);
  int64_t S = p.spatial, G = p.groups, N = type.getDimSize(0),
          Fg = wType.getDimSize(0) / G;
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2),
                    out = type.getShape().drop_front(2);
  Value x = adaptor.getInput();
  readAsBf16(x, w, {Fg, wType.getNumElements() / wType.getDimSize(0)});
  Value xp = padSpatial(b, loc, x, p.padding);
  Value col = im2col(b, loc, xp, p, kernel, out);
  Value wm = reshape(b, loc, w, {G, Fg, wType.getNumElements() / (G * Fg)});
  SmallVector<int64_t> productShape{G, Fg, N};
  productShape.append(out.begin(), out.end());
  Value prod = reshape(b, loc, groupedMatmul(b, loc, wm, col, element), productShape);
  // [N, G, Fg, o...] from [G, Fg, N, o...], plus the bias [G, Fg].
  int64_t rank = 3 + S;
  SmallVector<int64_t> prodDims{1, 2, 0};
  for (int64_t i = 0; i < S; ++i)
    prodDims.push_back(3 + i);
  SmallVector<Value> inputs{prod};
  SmallVector<AffineMap> maps{dimsMap(ctx, rank, prodDims)};
  if (Value bias = adaptor.getBias()) {
    inputs.push_back(reshape(b, loc, bias, {G, Fg}));
    maps.push_back(dimsMap(ctx, rank, {1, 2}));
  }
  Value result = mapped(b, loc, splitDim(type.getShape(), 1, G), element, inputs, maps,
                        [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                          if (args.size() == 1)
                            return args[0];
                          return arith::AddFOp::create(nb, nl, args[0], args[1]);
                        });
  return reshapeTo(b, loc, result, type);
}

/// The body of a generic that accumulates input 0 times input 1 into its
/// output (convolutions computed without a matmul); narrower inputs (bf16
/// into f32) are extended first.
SmallVector<Value> multiplyAdd(OpBuilder &b, Location loc, ValueRange args) {
  Type acc = args[2].getType();
  auto extended = [&](Value v) -> Value {
    return v.getType() == acc ? v : arith::ExtFOp::create(b, loc, acc, v);
  };
  Value product = arith::MulFOp::create(b, loc, extended(args[0]), extended(args[1]));
  return {arith::AddFOp::create(b, loc, args[2], product)};
}

/// grad_bias of a convolution_backward: the gradient summed over all but the
/// channel dimension where the mask asks for it, zeros otherwise.
Value convolutionBiasGradient(OpBuilder &b, Location loc, ConvolutionBackwardOp op,
                              Value grad) {
  if (op.getOutputMask()[2])
    return sumDims(b, loc, grad, complement(typeOf(grad).getRank(), {1}));
  return zeros(b, loc, cast<RankedTensorType>(op.getGradBias().getType()));
}

//===----------------------------------------------------------------------===//
// Depthwise convolution
//===----------------------------------------------------------------------===//

/// Whether a depthwise convolution (one input channel per group, MobileNet's
/// 3x3 layers) is computed directly: 2-D with unit strides (any channel
/// multiplier, padding and dilation). Its im2col matrix is KH·KW times the
/// input and feeds batched matmuls with one row per group.
bool isDirectDepthwise(const ConvParams &p, int64_t C) {
  return p.groups > 1 && p.groups == C && p.spatial == 2 &&
         llvm::all_of(p.stride, [](int64_t s) { return s == 1; });
}

/// `x` [..., H, W] zero-padded by `low` / `high` in its last two dimensions
/// and flattened into rows of the padded width Wp: [..., (Hp + e)·Wp], with
/// e zero rows more at the bottom so that `overrun` elements past the
/// padded image can be read too. One copy: padding the image and then its
/// flat form wrote the input twice.
Value padFlatRows(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, int64_t overrun) {
  RankedTensorType type = typeOf(x);
  int64_t rank = type.getRank();
  int64_t Hp = type.getDimSize(rank - 2) + low[0] + high[0],
          Wp = type.getDimSize(rank - 1) + low[1] + high[1];
  int64_t extra = llvm::divideCeil(overrun, Wp);
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
  lo[rank - 2] = low[0];
  lo[rank - 1] = low[1];
  hi[rank - 2] = high[0] + extra;
  hi[rank - 1] = high[1];
  Value padded = pad(b, loc, x, lo, hi, constF(b, loc, type.getElementType(), 0.0));
  SmallVector<int64_t> flat(type.getShape().drop_back(2));
  flat.push_back((Hp + extra) * Wp);
  return reshape(b, loc, padded, flat);
}

/// out[n, g, f, oh, ow] = bias[g, f] + sum over (r, kh, kw) of
///   src[n, g, r, oh + kh·dh, ow + kw·dw] · weight(g, f, r, kh, kw)
/// for src [N, G, R, H, W] padded by `low` / `high` to [.., Hs, Ws]. The
/// rows are computed at the padded width Ws (the last columns of each are
/// discarded) so that the output position is one flat index t = oh·Ws + ow
/// and the source position t + kh·dh·Ws + kw·dw: the innermost loop is then
/// a long contiguous row that LLVM vectorizes (a loop over a 28-wide output
/// row it unrolls completely and vectorizes the loop around it with gathers
/// instead). `weightMap` maps the loops (n, g, f, r, kh, kw, t) to
/// `weights`.
Value correlateRows(OpBuilder &b, Location loc, Value src, ArrayRef<int64_t> low,
                    ArrayRef<int64_t> high, Value weights, AffineMap weightMap, int64_t F,
                    ArrayRef<int64_t> kernel, ArrayRef<int64_t> dilation,
                    ArrayRef<int64_t> outSize, Value bias) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(src);
  Type element = type.getElementType();
  int64_t N = type.getDimSize(0), G = type.getDimSize(1),
          Ws = type.getDimSize(4) + low[1] + high[1], T = outSize[0] * Ws;
  // The last row's discarded columns read up to (KW-1)·dw past the end.
  Value flat = padFlatRows(b, loc, src, low, high, (kernel[1] - 1) * dilation[1]);
  auto wideType = RankedTensorType::get({N, G, F, T}, element);
  Value init = bias ? mapped(b, loc, wideType.getShape(), element, bias,
                             {dimsMap(ctx, 4, {1, 2})},
                             [](OpBuilder &, Location, ValueRange args) { return args[0]; })
                    : zeros(b, loc, wideType);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineExpr at = d(6) + d(4) * (dilation[0] * Ws) + d(5) * dilation[1];
  Value wide = generic(
      b, loc, ValueRange{flat, weights}, init,
      {AffineMap::get(7, 0, {d(0), d(1), d(3), at}, ctx), weightMap,
       dimsMap(ctx, 7, {0, 1, 2, 6})},
      {Iter::parallel, Iter::parallel, Iter::parallel, Iter::reduction, Iter::reduction,
       Iter::reduction, Iter::parallel},
      multiplyAdd)[0];
  Value rows = reshape(b, loc, wide, {N, G, F, outSize[0], Ws});
  return sliceAt(b, loc, rows, {N, G, F, outSize[0], outSize[1]}, {0, 0, 0, 0, 0});
}

/// The forward: correlateRows of the padded input [N, G, 1, Hp, Wp] with
/// the weight [G, Fg, 1, KH, KW].
Value lowerDepthwiseConvolution(ConvolutionOp op, ConvolutionOp::Adaptor adaptor,
                                OpBuilder &b) {
  Location loc = op.getLoc();
  RankedTensorType type = cast<RankedTensorType>(op.getType());
  ConvParams p = convParams(op, type.getRank());
  Value x = adaptor.getInput(), w = adaptor.getWeight();
  RankedTensorType xType = typeOf(x), wType = typeOf(w);
  int64_t N = xType.getDimSize(0), G = p.groups, Fg = wType.getDimSize(0) / G,
          KH = wType.getDimSize(2), KW = wType.getDimSize(3);
  Value bias = adaptor.getBias() ? reshape(b, loc, adaptor.getBias(), {G, Fg}) : Value();
  Value out = correlateRows(
      b, loc, reshape(b, loc, x, {N, G, 1, xType.getDimSize(2), xType.getDimSize(3)}),
      p.padding, p.padding, reshape(b, loc, w, {G, Fg, 1, KH, KW}),
      dimsMap(b.getContext(), 7, {1, 2, 3, 4, 5}), Fg, {KH, KW}, p.dilation,
      type.getShape().drop_front(2), bias);
  return reshapeTo(b, loc, out, type);
}

/// The three gradients of a direct depthwise convolution. grad_input: the
/// gradient padded by (K-1)·d on each side, correlated with the flipped
/// kernel (summing over the channel multiplier) gives the padded input's
/// gradient, cropped to the input. grad_weight[g, f, kh, kw] = sum over
/// (n, t) of grad[n, g, f, t] · xp[n, g, t + kh·dh·Wp + kw·dw], with grad
/// laid out at the padded input's width (zero columns) so that t is one
/// flat contiguous index. grad_bias sums grad.
SmallVector<Value> lowerDepthwiseConvolutionBackward(
    ConvolutionBackwardOp op, ConvolutionBackwardOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value grad = adaptor.getGradOutput(), w = adaptor.getWeight();
  RankedTensorType xType = typeOf(adaptor.getInput()), wType = typeOf(w),
                   gType = typeOf(grad);
  Type element = xType.getElementType();
  ConvParams p = convParams(op, xType.getRank());
  int64_t N = xType.getDimSize(0), G = p.groups, Fg = wType.getDimSize(0) / G,
          KH = wType.getDimSize(2), KW = wType.getDimSize(3), OH = gType.getDimSize(2),
          OW = gType.getDimSize(3);
  int64_t Hp = xType.getDimSize(2) + 2 * p.padding[0],
          Wp = xType.getDimSize(3) + 2 * p.padding[1];
  int64_t rh = (KH - 1) * p.dilation[0], rw = (KW - 1) * p.dilation[1];
  Value gg = reshape(b, loc, grad, {N, G, Fg, OH, OW});
  Value zero = constF(b, loc, element, 0.0);
  ArrayRef<bool> mask = op.getOutputMask();
  SmallVector<Value> results;

  if (mask[0]) {
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    Value flipped = mapped(
        b, loc, {G, Fg, KH, KW}, element, reshape(b, loc, w, {G, Fg, KH, KW}),
        {AffineMap::get(4, 0, {d(0), d(1), -d(2) + (KH - 1), -d(3) + (KW - 1)}, ctx)},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    Value gxp = correlateRows(b, loc, gg, {rh, rw}, {rh, rw}, flipped,
                              dimsMap(ctx, 7, {1, 3, 4, 5}), 1, {KH, KW}, p.dilation,
                              {Hp, Wp}, Value());
    results.push_back(sliceAt(b, loc, reshape(b, loc, gxp, {N, G, Hp, Wp}), xType.getShape(),
                              {0, 0, p.padding[0], p.padding[1]}));
  } else {
    results.push_back(zeros(b, loc, xType));
  }

  if (mask[1]) {
    // Loops (g, f, kh, kw, n, t).
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    Value xflat = padFlatRows(b, loc, adaptor.getInput(), p.padding, p.padding, rw);
    Value gwide = reshape(b, loc, pad(b, loc, gg, {0, 0, 0, 0, 0}, {0, 0, 0, 0, Wp - OW}, zero),
                          {N, G, Fg, OH * Wp});
    AffineExpr at = d(5) + d(2) * (p.dilation[0] * Wp) + d(3) * p.dilation[1];
    Value gw = generic(
        b, loc, ValueRange{xflat, gwide}, zeros(b, loc, RankedTensorType::get({G, Fg, KH, KW}, element)),
        {AffineMap::get(6, 0, {d(4), d(0), at}, ctx), dimsMap(ctx, 6, {4, 0, 1, 5}),
         dimsMap(ctx, 6, {0, 1, 2, 3})},
        {Iter::parallel, Iter::parallel, Iter::parallel, Iter::parallel, Iter::reduction,
         Iter::reduction},
        multiplyAdd)[0];
    results.push_back(reshapeTo(b, loc, gw, wType));
  } else {
    results.push_back(zeros(b, loc, wType));
  }

  results.push_back(convolutionBiasGradient(b, loc, op, grad));
  return results;
}

//===----------------------------------------------------------------------===//
// Implicit GEMM
//===----------------------------------------------------------------------===//

/// Whether a convolution of `x` is computed as implicit GEMM (CPU, -O2):
/// 2-D, one group, unit strides and dilations, a kernel larger than 1x1 and
/// padding below it, a reduction C·KH·KW too long for the direct kernels,
/// and an im2col matrix [C·KH·KW, N·OH·OW] (KH·KW copies of the input) over
/// `im2colLimitMiB`. Below that bound im2col is faster in f32: its one
/// matmul has the whole reduction and only the output's positions, where
/// implicit GEMM runs KH matmuls of KW·C over every padded position (1.65x
/// the work at 7x7 with padding 1; docs/performance.md, "Implicit GEMM
/// convolutions"). With bf16 operands for the bf16 product kernels
/// (readAsBf16) implicit GEMM is faster wherever the padded positions add
/// at most a quarter to the work (3x3 with padding 1 from 28x28 up), so it
/// is taken there below the bound too.
bool isImplicitGemm(const ConvParams &p, Value x, Value w,
                    ArrayRef<int64_t> out, int64_t im2colLimitMiB) {
  RankedTensorType xType = typeOf(x), wType = typeOf(w);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  int64_t C = xType.getDimSize(1);
  if (p.spatial != 2 || p.groups != 1 || product(kernel) == 1 ||
      C * product(kernel) <= kMaxDirectConvolutionReduction)
    return false;
  bool bf16 = readAsBf16(x, w, wType.getShape().take_front(2));
  int64_t elementBits = bf16 ? 16 : xType.getElementTypeBitWidth();
  int64_t colBytes = xType.getDimSize(0) * product(out) * C * product(kernel) *
                     elementBits / 8;
  bool cheapPadding = false;
  if (bf16 && !xType.isDynamicDim(2) && !xType.isDynamicDim(3) &&
      !llvm::any_of(out, ShapedType::isDynamic)) {
    int64_t padded = (xType.getDimSize(2) + 2 * p.padding[0]) *
                     (xType.getDimSize(3) + 2 * p.padding[1]);
    cheapPadding = 4 * padded <= 5 * product(out);
  }
  if (colBytes <= (im2colLimitMiB << 20) && !cheapPadding)
    return false;
  for (int64_t i = 0; i < 2; ++i)
    if (p.stride[i] != 1 || p.dilation[i] != 1 || p.padding[i] >= kernel[i])
      return false;
  return true;
}

/// The rows of `src` [N, C, Hs, Ws] in NHWC order as one flat tensor,
/// src[n, c, h, w] at ((n·Hs + h)·Ws + w)·C + c, padded at the end so that
/// every window of the last positions is in bounds: position t's window row
/// kh is the KW·C consecutive elements from (t + kh·Ws)·C.
Value nhwcRows(OpBuilder &b, Location loc, Value src, int64_t KH, int64_t KW) {
  RankedTensorType type = typeOf(src);
  int64_t C = type.getDimSize(1), Ws = type.getDimSize(3);
  Value nhwc = permuted(b, loc, src, {0, 2, 3, 1});
  Value flat = reshape(b, loc, nhwc, {type.getNumElements()});
  return pad(b, loc, flat, {0}, {((KH - 1) * Ws + KW - 1) * C},
             constF(b, loc, type.getElementType(), 0.0));
}

/// The map of loop `row`·C + loop `col` + kh·Ws·C into nhwcRows' tensor: the
/// window row kh of position `row`, element `col` of its KW·C.
AffineMap windowRowMap(MLIRContext *ctx, unsigned row, unsigned col, int64_t C,
                       int64_t offset) {
  AffineExpr e = getAffineDimExpr(row, ctx) * C + getAffineDimExpr(col, ctx) + offset;
  return AffineMap::get(3, 0, e, ctx);
}

/// out[n, f, oh, ow] = bias[f] + sum over (kh, kw, c) of
///   src[n, c, oh + kh, ow + kw] · wk[kh, kw·C + c, f]
/// for src [N, C, Hs, Ws] padded already and wk [KH, KW·C, F]; the output is
/// [N, F, Hs - KH + 1, Ws - KW + 1]. Every position t of src (all N·Hs·Ws,
/// the ones past the output's edge discarded) is a row of one contraction
/// per kernel row kh: out[t, f] += rows[t, k] · wk[kh, k, f], whose A rows
/// are windows of nhwcRows (stride C, overlapping). tad-row-window-matmuls
/// turns each into a linalg.matmul on a strided view of the buffer. The
/// sums and the result are in `element` (f32 for bf16 operands).
Value correlateAsGemm(OpBuilder &b, Location loc, Value src, Value wk, int64_t KH,
                      int64_t KW, Value bias, Type element) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType type = typeOf(src), wkType = typeOf(wk);
  int64_t N = type.getDimSize(0), C = type.getDimSize(1), Hs = type.getDimSize(2),
          Ws = type.getDimSize(3), K = wkType.getDimSize(1), F = wkType.getDimSize(2),
          T = N * Hs * Ws;
  Value rows = nhwcRows(b, loc, src, KH, KW);
  auto accType = RankedTensorType::get({T, F}, element);
  Value acc = zeros(b, loc, accType);
  for (int64_t kh = 0; kh < KH; ++kh) {
    auto sliceType = RankedTensorType::get({K, F}, wkType.getElementType());
    Value wkh = tensor::ExtractSliceOp::create(
        b, loc, sliceType, wk, ArrayRef<OpFoldResult>{b.getIndexAttr(kh), b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(K), b.getIndexAttr(F)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1), b.getIndexAttr(1)});
    // Loops (t, f, k).
    acc = generic(b, loc, ValueRange{rows, wkh}, acc,
                  {windowRowMap(ctx, 0, 2, C, kh * Ws * C), dimsMap(ctx, 3, {2, 1}),
                   dimsMap(ctx, 3, {0, 1})},
                  {Iter::parallel, Iter::parallel, Iter::reduction}, multiplyAdd)[0];
  }
  int64_t OH = Hs - KH + 1, OW = Ws - KW + 1;
  Value cropped = sliceAt(b, loc, reshape(b, loc, acc, {N, Hs, Ws, F}), {N, OH, OW, F},
                          {0, 0, 0, 0});
  Value out = permuted(b, loc, cropped, {0, 3, 1, 2});
  if (!bias)
    return out;
  return mapped(b, loc, {N, F, OH, OW}, element, ValueRange{out, bias},
                {dimsMap(ctx, 4, {0, 1, 2, 3}), dimsMap(ctx, 4, {1})},
                [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                  return arith::AddFOp::create(nb, nl, args[0], args[1]);
                });
}

/// The forward: correlateAsGemm of the padded input with the weight laid
/// out as wk[kh, kw·C + c, f] = w[f, c, kh, kw].
Value lowerConvolutionAsGemm(ConvolutionOp op, ConvolutionOp::Adaptor adaptor,
                             OpBuilder &b) {
  Location loc = op.getLoc();
  RankedTensorType type = cast<RankedTensorType>(op.getType());
  ConvParams p = convParams(op, type.getRank());
  Value x = adaptor.getInput(), w = adaptor.getWeight();
  RankedTensorType wType = typeOf(w);
  readAsBf16(x, w, wType.getShape().take_front(2));
  int64_t F = wType.getDimSize(0), C = wType.getDimSize(1), KH = wType.getDimSize(2),
          KW = wType.getDimSize(3);
  Value wk = reshape(b, loc, permuted(b, loc, w, {2, 3, 1, 0}), {KH, KW * C, F});
  Value out = correlateAsGemm(b, loc, padSpatial(b, loc, x, p.padding), wk, KH, KW,
                              adaptor.getBias(), type.getElementType());
  return reshapeTo(b, loc, out, type);
}

/// grad_input of an implicit-GEMM convolution: the gradient padded by K-1
/// on each side, correlated with the flipped kernel
/// (wk[a, b·F + f, c] = w[f, c, KH-1-a, KW-1-b]), is the padded input's
/// gradient; cropped to the input.
Value convolutionInputGradientAsGemm(OpBuilder &b, Location loc, Value grad, Value w,
                                     RankedTensorType xType, const ConvParams &p) {
  MLIRContext *ctx = b.getContext();
  readAsBf16(grad, w, typeOf(w).getShape().take_front(2));
  RankedTensorType wType = typeOf(w);
  Type element = wType.getElementType();
  int64_t F = wType.getDimSize(0), C = wType.getDimSize(1), KH = wType.getDimSize(2),
          KW = wType.getDimSize(3);
  Value gp = pad(b, loc, grad, {0, 0, KH - 1, KW - 1}, {0, 0, KH - 1, KW - 1},
                 constF(b, loc, element, 0.0));
  AffineExpr a, bb, f, c;
  bindDims(ctx, a, bb, f, c);
  Value flipped = mapped(b, loc, {KH, KW, F, C}, element, w,
                         {AffineMap::get(4, 0, {f, c, -a + (KH - 1), -bb + (KW - 1)}, ctx)},
                         [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  Value gxp = correlateAsGemm(b, loc, gp, reshape(b, loc, flipped, {KH, KW * F, C}), KH,
                              KW, Value(), xType.getElementType());
  return sliceAt(b, loc, gxp, xType.getShape(), {0, 0, p.padding[0], p.padding[1]});
}

/// grad_weight of an implicit-GEMM convolution: per kernel row kh,
/// gw[kh, k, f] = sum over positions t of rows[t, k] · g[t, f], with the
/// gradient g laid out at the padded input's positions [N·Hp·Wp, F] (zeros
/// past the output's edge, so the discarded positions add nothing); a
/// matmul with a transposed window-row operand for tad-row-window-matmuls.
Value convolutionWeightGradientAsGemm(OpBuilder &b, Location loc, Value grad, Value x,
                                      RankedTensorType wType, const ConvParams &p) {
  MLIRContext *ctx = b.getContext();
  // bf16 operands swap the roles, all kernel rows in one contraction:
  // gw^T[kh, f, k] = sum over t of g^T[f, t] · rows[t + kh·Wp, k], the
  // gradient in NCHW order read in place as A (the same for every kh) and
  // the window rows of each kh as B, which the bf16 kernels pack as they
  // read it (their A operand cannot be a transposed window without a copy);
  // one pass over the positions serves all kernel rows.
  bool narrow = readAsBf16(grad, x, wType.getShape().take_front(2));
  Type element = wType.getElementType(), operand = typeOf(x).getElementType();
  int64_t F = wType.getDimSize(0), C = wType.getDimSize(1), KH = wType.getDimSize(2),
          KW = wType.getDimSize(3), K = KW * C;
  Value xp = padSpatial(b, loc, x, p.padding);
  RankedTensorType xpType = typeOf(xp);
  int64_t N = xpType.getDimSize(0), Hp = xpType.getDimSize(2), Wp = xpType.getDimSize(3),
          T = N * Hp * Wp;
  Value rows = nhwcRows(b, loc, xp, KH, KW);
  Value zero = constF(b, loc, operand, 0.0);
  if (narrow) {
    Value gT = pad(b, loc, permuted(b, loc, grad, {1, 0, 2, 3}), {0, 0, 0, 0},
                   {0, 0, KH - 1, KW - 1}, zero);
    gT = reshape(b, loc, gT, {F, T});
    // Loops (kh, f, k, t).
    AffineExpr kh, f, k, t;
    bindDims(ctx, kh, f, k, t);
    Value gw = generic(b, loc, ValueRange{gT, rows},
                       zeros(b, loc, RankedTensorType::get({KH, F, K}, element)),
                       {AffineMap::get(4, 0, {f, t}, ctx),
                        AffineMap::get(4, 0, t * C + k + kh * (Wp * C), ctx),
                        AffineMap::get(4, 0, {kh, f, k}, ctx)},
                       {Iter::parallel, Iter::parallel, Iter::parallel, Iter::reduction},
                       multiplyAdd)[0];
    // [KH, F, KW, C] -> [F, C, KH, KW].
    return permuted(b, loc, reshape(b, loc, gw, {KH, F, KW, C}), {1, 3, 0, 2});
  }
  Value g = pad(b, loc, permuted(b, loc, grad, {0, 2, 3, 1}), {0, 0, 0, 0},
                {0, KH - 1, KW - 1, 0}, zero);
  g = reshape(b, loc, g, {T, F});
  auto sliceType = RankedTensorType::get({K, F}, element);
  Value gw = zeros(b, loc, RankedTensorType::get({KH, K, F}, element));
  for (int64_t kh = 0; kh < KH; ++kh) {
    SmallVector<OpFoldResult> offsets{b.getIndexAttr(kh), b.getIndexAttr(0),
                                      b.getIndexAttr(0)},
        sizes{b.getIndexAttr(1), b.getIndexAttr(K), b.getIndexAttr(F)},
        strides(3, b.getIndexAttr(1));
    Value init = tensor::ExtractSliceOp::create(b, loc, sliceType, gw, offsets, sizes, strides);
    // Loops (k, f, t).
    Value part = generic(b, loc, ValueRange{rows, g}, init,
                         {windowRowMap(ctx, 2, 0, C, kh * Wp * C), dimsMap(ctx, 3, {2, 1}),
                          dimsMap(ctx, 3, {0, 1})},
                         {Iter::parallel, Iter::parallel, Iter::reduction}, multiplyAdd)[0];
    gw = tensor::InsertSliceOp::create(b, loc, part, gw, offsets, sizes, strides);
  }
  // [KH, KW, C, F] -> [F, C, KH, KW].
  return permuted(b, loc, reshape(b, loc, gw, {KH, KW, C, F}), {3, 2, 0, 1});
}

/// Whether a convolution is computed directly (passes/DirectConvolution.h):
/// 2-D, one group, unit strides and dilations, C·KH·KW small.
bool isDirect(const ConvParams &p, int64_t C, ArrayRef<int64_t> kernel) {
  auto ones = [](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [](int64_t x) { return x == 1; });
  };
  return p.spatial == 2 && p.groups == 1 && ones(p.stride) && ones(p.dilation) &&
         C * product(kernel) <= kMaxDirectConvolutionReduction;
}

/// `linalg.conv_2d_nchw_fchw` of the padded input into the broadcast bias
/// (zeros without one) where isDirect holds, im2col + matmul otherwise.
Value lowerConvolutionDirectly(ConvolutionOp op, ConvolutionOp::Adaptor adaptor,
                               OpBuilder &b, int64_t im2colLimitMiB) {
  Location loc = op.getLoc();
  RankedTensorType type = cast<RankedTensorType>(op.getType());
  ConvParams p = convParams(op, type.getRank());
  Value x = adaptor.getInput(), w = adaptor.getWeight();
  RankedTensorType wType = typeOf(w);
  if (isDirectDepthwise(p, typeOf(x).getDimSize(1)))
    return lowerDepthwiseConvolution(op, adaptor, b);
  if (isImplicitGemm(p, x, w, type.getShape().drop_front(2), im2colLimitMiB))
    return lowerConvolutionAsGemm(op, adaptor, b);
  if (!isDirect(p, typeOf(x).getDimSize(1), wType.getShape().drop_front(2)))
    return lowerConvolution(op, adaptor, b);
  Value init = zeros(b, loc, type);
  if (Value bias = adaptor.getBias())
    init = mapped(b, loc, type.getShape(), type.getElementType(), bias,
                  {dimsMap(b.getContext(), 4, {1})},
                  [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  return linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{type},
                                          ValueRange{padSpatial(b, loc, x, p.padding), w},
                                          ValueRange{init})
      .getResult(0);
}

/// grad_input through col2im; grad_weight directly where `direct` and
/// isDirect hold, else as col @ grad^T. With `direct`, depthwise and
/// implicit-GEMM convolutions (the latter over `im2colLimitMiB`) have
/// lowerings of their own.
SmallVector<Value> lowerConvolutionBackwardWith(ConvolutionBackwardOp op,
                                                ConvolutionBackwardOp::Adaptor adaptor,
                                                OpBuilder &b, bool direct,
                                                int64_t im2colLimitMiB) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value grad = adaptor.getGradOutput(), x = adaptor.getInput(), w = adaptor.getWeight();
  RankedTensorType xType = typeOf(x), wType = typeOf(w), gType = typeOf(grad);
  ConvParams p = convParams(op, xType.getRank());
  int64_t S = p.spatial, G = p.groups, N = xType.getDimSize(0),
          C = xType.getDimSize(1), Fg = wType.getDimSize(0) / G,
          Kg = wType.getNumElements() / wType.getDimSize(0);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2),
                    out = gType.getShape().drop_front(2);
  if (direct && isDirectDepthwise(p, C))
    return lowerDepthwiseConvolutionBackward(op, adaptor, b);
  if (direct && isImplicitGemm(p, x, w, out, im2colLimitMiB)) {
    ArrayRef<bool> mask = op.getOutputMask();
    return {mask[0] ? convolutionInputGradientAsGemm(b, loc, grad, w, xType, p)
                    : zeros(b, loc, xType),
            mask[1] ? convolutionWeightGradientAsGemm(b, loc, grad, x, wType, p)
                    : zeros(b, loc, wType),
            convolutionBiasGradient(b, loc, op, grad)};
  }
  int64_t P = N * product(out);
  ArrayRef<bool> mask = op.getOutputMask();
  SmallVector<Value> results;
  // grad as [N, G, Fg, o...].
  Value gg = reshape(b, loc, grad, splitDim(gType.getShape(), 1, G));
  SmallVector<int64_t> spatialDims = range(3, 3 + S);

  if (mask[0]) {
    // gcol[G, K, P] = W^T[G, K, Fg] @ grad[G, Fg, P].
    Value gn = grad, wn = w;
    readAsBf16(gn, wn, {Fg, Kg});
    SmallVector<int64_t> gPerm{1, 2, 0};
    gPerm.append(spatialDims);
    Value gt = reshape(b, loc, permuted(b, loc, reshape(b, loc, gn, typeOf(gg).getShape()),
                                        gPerm),
                       {G, Fg, P});
    Value wt = permuted(b, loc, reshape(b, loc, wn, {G, Fg, Kg}), {0, 2, 1});
    SmallVector<int64_t> colShape{C};
    colShape.append(kernel.begin(), kernel.end());
    colShape.push_back(N);
    colShape.append(out.begin(), out.end());
    Value gcol =
        reshape(b, loc, groupedMatmul(b, loc, wt, gt, xType.getElementType()), colShape);
    // col2im: grad_input[n, c, o·s + k·d - pad] += gcol[c, k, n, o].
    results.push_back(accumulateWindows(
        b, loc, xType, kernel, p.stride, p.padding, p.dilation, out,
        [&](OpBuilder &nb, Location nl, const WindowSlice &win, Value acc) -> Value {
          SmallVector<std::pair<int64_t, int64_t>> fixed;
          for (int64_t i = 0; i < S; ++i)
            fixed.push_back({1 + i, win.offset[i]});
          Value src = outputSlice(nb, nl, gcol, win, fixed);
          // Domain n, c, o[S]; src is [C, 1..., N, o...].
          int64_t rank = 2 + S;
          SmallVector<AffineExpr> srcExprs{getAffineDimExpr(1, ctx)};
          for (int64_t i = 0; i < S; ++i)
            srcExprs.push_back(getAffineConstantExpr(0, ctx));
          srcExprs.push_back(getAffineDimExpr(0, ctx));
          for (int64_t i = 0; i < S; ++i)
            srcExprs.push_back(getAffineDimExpr(2 + i, ctx));
          AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
          return generic(nb, nl, src, acc, {AffineMap::get(rank, 0, srcExprs, ctx), id},
                         SmallVector<Iter>(rank, Iter::parallel),
                         [](OpBuilder &bb, Location bl, ValueRange args) -> SmallVector<Value> {
                           return {arith::AddFOp::create(bb, bl, args[1], args[0])};
                         })[0];
        }));
  } else {
    results.push_back(zeros(b, loc, xType));
  }

  if (mask[1] && direct && isDirect(p, C, kernel)) {
    results.push_back(generic(
        b, loc, ValueRange{padSpatial(b, loc, x, p.padding), grad}, zeros(b, loc, wType),
        weightGradientMaps(ctx),
        {Iter::parallel, Iter::parallel, Iter::parallel, Iter::parallel, Iter::reduction,
         Iter::reduction, Iter::reduction},
        multiplyAdd)[0]);
  } else if (mask[1]) {
    // W^T[G, K, Fg] = col[G, K, P] @ grad^T[G, P, Fg].
    Value xn = x, gn = grad;
    readAsBf16(xn, gn, {Fg, Kg});
    Value col = im2col(b, loc, padSpatial(b, loc, xn, p.padding), p, kernel, out);
    SmallVector<int64_t> gPerm{1, 0};
    gPerm.append(spatialDims);
    gPerm.push_back(2);
    Value gT = reshape(b, loc, permuted(b, loc, reshape(b, loc, gn, typeOf(gg).getShape()),
                                        gPerm),
                       {G, P, Fg});
    Value gwt = groupedMatmul(b, loc, col, gT, wType.getElementType());
    results.push_back(reshapeTo(b, loc, permuted(b, loc, gwt, {0, 2, 1}), wType));
  } else {
    results.push_back(zeros(b, loc, wType));
  }

  results.push_back(convolutionBiasGradient(b, loc, op, grad));
  return results;
}

SmallVector<Value> lowerConvolutionBackward(ConvolutionBackwardOp op,
                                            ConvolutionBackwardOp::Adaptor adaptor,
                                            OpBuilder &b) {
  return lowerConvolutionBackwardWith(op, adaptor, b, /*direct=*/false,
                                      /*im2colLimitMiB=*/0);
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

/// Windows of at most this many elements are unrolled in the body of a max
/// pooling: one all-parallel generic reads every window element as an
/// input of its own, so the loop body is straight-line code (selects, no
/// branches) that LLVM vectorizes along the output row. The reduction loop
/// of a few iterations per output stays scalar, and its data-dependent
/// branches mispredict on about every other element: LeNet's 2x2 pooling
/// with indices (64x6x28x28) took 717 us that way. The winner's index is
/// tracked as its i32 window position (i64 selects beside f32 ones kept
/// LLVM from vectorizing) and turned into the flat input index by a
/// second elementwise generic.
constexpr int64_t kMaxUnrolledWindow = 16;

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
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  ArrayRef<int64_t> out = resultType.getShape().take_back(2);
  SmallVector<int64_t> outShape{xType.getDimSize(0), xType.getDimSize(1), out[0], out[1]};
  Value xp = padForPool(b, loc, x, p, out, -std::numeric_limits<double>::infinity());
  bool withIndices = !op.getIndices().use_empty();
  int64_t width = xType.getDimSize(3);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // The first maximum wins (ogt), NaN wins (uno): ATen's CPU kernel.
  auto takes = [](OpBuilder &nb, Location nl, Value v, Value cur) -> Value {
    Value greater = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT, v, cur);
    Value isNan = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, v, v);
    return arith::OrIOp::create(nb, nl, greater, isNan);
  };
  // Flat input index (o_h·s + k_h·d - p)·W + o_w·s + k_w·d - p, as i64.
  auto flatIndex = [&](OpBuilder &nb, Location nl, Value oh, Value kh, Value ow,
                       Value kw) -> Value {
    auto cst = [&](int64_t value) {
      return arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(value));
    };
    auto coord = [&](Value o, Value k, int i) -> Value {
      Value a = arith::MulIOp::create(nb, nl, o, cst(p.stride[i]));
      Value c = arith::MulIOp::create(nb, nl, k, cst(p.dilation[i]));
      return arith::SubIOp::create(nb, nl, arith::AddIOp::create(nb, nl, a, c),
                                   cst(p.padding[i]));
    };
    return arith::AddIOp::create(
        nb, nl, arith::MulIOp::create(nb, nl, coord(oh, kh, 0), cst(width)),
        coord(ow, kw, 1));
  };
  AffineMap outMap4 = AffineMap::getMultiDimIdentityMap(4, ctx);
  Value valInit = filled(b, loc, outShape, element, -std::numeric_limits<double>::infinity());
  Value idxInit = filled(b, loc, outShape, b.getI64Type(), -1);
  SmallVector<Value> res;
  if (p.kernel[0] * p.kernel[1] <= kMaxUnrolledWindow) {
    // Window element (kh, kw) of every output: a strided slice of xp.
    SmallVector<Value> inputs;
    for (int64_t kh = 0; kh < p.kernel[0]; ++kh)
      for (int64_t kw = 0; kw < p.kernel[1]; ++kw) {
        SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0),
                                          b.getIndexAttr(kh * p.dilation[0]),
                                          b.getIndexAttr(kw * p.dilation[1])};
        SmallVector<OpFoldResult> sizes, strides{b.getIndexAttr(1), b.getIndexAttr(1),
                                                 b.getIndexAttr(p.stride[0]),
                                                 b.getIndexAttr(p.stride[1])};
        for (int64_t size : outShape)
          sizes.push_back(b.getIndexAttr(size));
        inputs.push_back(tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get(outShape, element), xp, offsets, sizes, strides));
      }
    // The winning window position (row-major, -1 for none) beside the value.
    // The body starts from -inf and -1 itself: the outputs are only
    // written, so they need no fill (two passes over memory less).
    SmallVector<Value> inits{tensor::EmptyOp::create(b, loc, outShape, element)};
    if (withIndices)
      inits.push_back(tensor::EmptyOp::create(b, loc, outShape, b.getI32Type()));
    SmallVector<AffineMap> maps(inputs.size() + inits.size(), outMap4);
    int64_t numTaps = inputs.size();
    res = generic(
        b, loc, inputs, inits, maps, SmallVector<Iter>(4, Iter::parallel),
        [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
          Value cur = arith::ConstantOp::create(
              nb, nl, nb.getFloatAttr(element, -std::numeric_limits<double>::infinity()));
          Value tap = withIndices ? arith::ConstantOp::create(nb, nl, nb.getI32IntegerAttr(-1))
                                  : Value();
          for (int64_t t = 0; t < numTaps; ++t) {
            Value take = takes(nb, nl, args[t], cur);
            cur = arith::SelectOp::create(nb, nl, take, args[t], cur);
            if (withIndices)
              tap = arith::SelectOp::create(
                  nb, nl, take,
                  arith::ConstantOp::create(nb, nl, nb.getI32IntegerAttr(t)), tap);
          }
          return withIndices ? SmallVector<Value>{cur, tap} : SmallVector<Value>{cur};
        });
    if (withIndices)
      res[1] = mapped(
          b, loc, outShape, b.getI64Type(), {res[1]}, {outMap4},
          [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
            auto cst = [&](int64_t value) -> Value {
              return arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(value));
            };
            Value tap = arith::ExtSIOp::create(nb, nl, nb.getI64Type(), args[0]);
            // Unsigned: a shift and a mask for a 2-wide window (no tap, -1,
            // gives garbage that the select below discards).
            Value kh = arith::DivUIOp::create(nb, nl, tap, cst(p.kernel[1]));
            Value kw = arith::RemUIOp::create(nb, nl, tap, cst(p.kernel[1]));
            Value flat = flatIndex(nb, nl, loopIndex(nb, nl, 2), kh, loopIndex(nb, nl, 3), kw);
            Value none = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, tap, cst(0));
            return arith::SelectOp::create(nb, nl, none, cst(-1), flat);
          });
  } else {
    // Domain n, c, oh, kh, kw, ow: the innermost loop runs along an output
    // row; each output still sees its window in row-major order.
    Value win = tensor::EmptyOp::create(b, loc, p.kernel, element);
    AffineMap xMap = AffineMap::get(
        6, 0,
        {d(0), d(1), window(ctx, 2, 3, p.stride[0], p.dilation[0]),
         window(ctx, 5, 4, p.stride[1], p.dilation[1])},
        ctx);
    AffineMap winMap = dimsMap(ctx, 6, {3, 4}), outMap = dimsMap(ctx, 6, {0, 1, 2, 5});
    SmallVector<Iter> iters{Iter::parallel,  Iter::parallel,  Iter::parallel,
                            Iter::reduction, Iter::reduction, Iter::parallel};
    SmallVector<Value> inits{valInit};
    if (withIndices)
      inits.push_back(idxInit);
    SmallVector<AffineMap> maps{xMap, winMap};
    maps.append(inits.size(), outMap);
    res = generic(
        b, loc, ValueRange{xp, win}, inits, maps, iters,
        [&](OpBuilder &nb, Location nl, ValueRange args) -> SmallVector<Value> {
          Value v = args[0], cur = args[2];
          Value take = takes(nb, nl, v, cur);
          SmallVector<Value> yields{arith::SelectOp::create(nb, nl, take, v, cur)};
          if (withIndices) {
            Value flat = flatIndex(nb, nl, loopIndex(nb, nl, 2), loopIndex(nb, nl, 3),
                                   loopIndex(nb, nl, 5), loopIndex(nb, nl, 4));
            yields.push_back(arith::SelectOp::create(nb, nl, take, flat, args[3]));
          }
          return yields;
        });
  }
  Value indices = withIndices ? reshapeTo(b, loc, res[1], indicesType)
                              : tensor::EmptyOp::create(b, loc, indicesType.getShape(),
                                                        indicesType.getElementType())
                                    .getResult();
  return {reshapeTo(b, loc, res[0], resultType), indices};
}

/// grad_input of a pooling whose windows tile the input (stride = kernel,
/// dilation 1): every input position is in at most one window, so one
/// all-parallel generic over (n, c, oh, kh, ow, kw) writes the gradient of
/// the padded grid [N, C, OH·KH, OW·KW] in order (contiguous stores, no
/// accumulation); the input's part of it is a reshape (plus a slice or a
/// zero pad where padding or leftover rows differ).
Value tiledPoolBackward(OpBuilder &b, Location loc, ValueRange sources,
                        RankedTensorType inputType, const Pool2dParams &p,
                        function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType srcType = typeOf(sources[0]);
  int64_t N = srcType.getDimSize(0), C = srcType.getDimSize(1), OH = srcType.getDimSize(2),
          OW = srcType.getDimSize(3), KH = p.kernel[0], KW = p.kernel[1];
  int64_t width = inputType.getDimSize(3);
  SmallVector<AffineMap> maps(sources.size(), dimsMap(ctx, 6, {0, 1, 2, 4}));
  Value grid = mapped(
      b, loc, {N, C, OH, KH, OW, KW}, inputType.getElementType(), sources, maps,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        auto cst = [&](int64_t value) {
          return arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(value));
        };
        // Input position (oh·KH + kh - p, ow·KW + kw - p), flattened.
        auto coord = [&](int64_t o, int64_t k, int64_t size, int i) -> Value {
          Value a = arith::MulIOp::create(nb, nl, loopIndex(nb, nl, o), cst(size));
          return arith::SubIOp::create(
              nb, nl, arith::AddIOp::create(nb, nl, a, loopIndex(nb, nl, k)),
              cst(p.padding[i]));
        };
        Value flat = arith::AddIOp::create(
            nb, nl, arith::MulIOp::create(nb, nl, coord(2, 3, KH, 0), cst(width)),
            coord(4, 5, KW, 1));
        return body(nb, nl, args, flat);
      });
  grid = reshape(b, loc, grid, {N, C, OH * KH, OW * KW});
  // The grid starts at -padding; rows and columns past it get no gradient.
  SmallVector<int64_t> lo{0, 0, 0, 0}, hi{0, 0, 0, 0};
  int64_t extent[2] = {OH * KH, OW * KW};
  for (int i = 0; i < 2; ++i)
    hi[2 + i] = std::max<int64_t>(0, p.padding[i] + inputType.getDimSize(2 + i) - extent[i]);
  grid = pad(b, loc, grid, lo, hi, constF(b, loc, inputType.getElementType(), 0.0));
  SmallVector<int64_t> shape(inputType.getShape());
  if (typeOf(grid).getShape() == ArrayRef<int64_t>(shape))
    return grid;
  SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0),
                                    b.getIndexAttr(p.padding[0]), b.getIndexAttr(p.padding[1])};
  SmallVector<OpFoldResult> sizes, strides(4, b.getIndexAttr(1));
  for (int64_t d : shape)
    sizes.push_back(b.getIndexAttr(d));
  return tensor::ExtractSliceOp::create(b, loc, inputType, grid, offsets, sizes, strides);
}

/// grad_input [N, C, H, W] of a 2-D pooling: for each window offset, one
/// generic over the outputs adds body(sources at the output, input
/// position h·W + w as i64) into the input position the offset reads.
/// `sources` are [N, C, OH, OW].
Value poolBackward(OpBuilder &b, Location loc, ValueRange sources,
                   RankedTensorType inputType, const Pool2dParams &p,
                   function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  MLIRContext *ctx = b.getContext();
  if (p.stride == p.kernel && llvm::all_of(p.dilation, [](int64_t d) { return d == 1; }))
    return tiledPoolBackward(b, loc, sources, inputType, p, body);
  ArrayRef<int64_t> out = typeOf(sources[0]).getShape().take_back(2);
  int64_t width = inputType.getDimSize(3);
  return accumulateWindows(
      b, loc, inputType, p.kernel, p.stride, p.padding, p.dilation, out,
      [&](OpBuilder &nb, Location nl, const WindowSlice &win, Value acc) -> Value {
        SmallVector<Value> slices;
        for (Value source : sources)
          slices.push_back(outputSlice(nb, nl, source, win));
        AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
        SmallVector<AffineMap> maps(slices.size() + 1, id);
        return generic(
            nb, nl, slices, acc, maps, SmallVector<Iter>(4, Iter::parallel),
            [&](OpBuilder &bb, Location bl, ValueRange args) -> SmallVector<Value> {
              auto cst = [&](int64_t value) {
                return arith::ConstantOp::create(bb, bl, bb.getI64IntegerAttr(value));
              };
              auto coord = [&](int i) -> Value {
                return arith::AddIOp::create(
                    bb, bl,
                    arith::MulIOp::create(bb, bl, loopIndex(bb, bl, 2 + i),
                                          cst(p.stride[i])),
                    cst(win.firstIn[i]));
              };
              Value flat = arith::AddIOp::create(
                  bb, bl, arith::MulIOp::create(bb, bl, coord(0), cst(width)), coord(1));
              Value v = body(bb, bl, args.drop_back(), flat);
              return {arith::AddFOp::create(bb, bl, args.back(), v)};
            })[0];
      });
}

Value lowerMaxPoolBackward(MaxPool2dWithIndicesBackwardOp op,
                           MaxPool2dWithIndicesBackwardOp::Adaptor adaptor,
                           OpBuilder &b) {
  Location loc = op.getLoc();
  Pool2dParams p = poolParams(op.getKernelSize(), op.getStride(), op.getPadding(),
                              op.getDilation(), op.getCeilMode());
  RankedTensorType xType = typeOf(to4d(b, loc, adaptor.getSelf()));
  Value grad = to4d(b, loc, adaptor.getGradOutput());
  Value indices = to4d(b, loc, adaptor.getIndices());
  Value gi = poolBackward(
      b, loc, {grad, indices}, xType, p,
      [&](OpBuilder &nb, Location nl, ValueRange args, Value flat) -> Value {
        Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, args[1], flat);
        return arith::SelectOp::create(nb, nl, hit, args[0],
                                       constF(nb, nl, args[0].getType(), 0.0));
      });
  return reshapeTo(b, loc, gi, cast<RankedTensorType>(op.getType()));
}

/// A tensor of `shape` whose element at each index is `value(indices)`,
/// computed when the program runs: the IR stays the same size whatever the
/// shape (a constant holding every element would grow with it).
Value tabulated(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element,
                function_ref<Value(OpBuilder &, Location, ValueRange)> value) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = static_cast<int64_t>(shape.size());
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  SmallVector<Iter> iters(rank, Iter::parallel);
  return generic(b, loc, ValueRange{}, init,
                 {AffineMap::getMultiDimIdentityMap(rank, ctx)}, iters,
                 [&](OpBuilder &nb, Location nl, ValueRange) -> SmallVector<Value> {
                   SmallVector<Value> indices;
                   for (int64_t d = 0; d < rank; ++d)
                     indices.push_back(linalg::IndexOp::create(nb, nl, d));
                   return {value(nb, nl, indices)};
                 })[0];
}

/// 1 / `count` as a float of type `element` (`count` an index).
Value reciprocalOf(OpBuilder &b, Location loc, Value count, Type element) {
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  Value asFloat = arith::SIToFPOp::create(b, loc, element, asInt);
  return arith::DivFOp::create(b, loc, constF(b, loc, element, 1.0), asFloat);
}

/// 1 / divisor of each avg_pool2d output window, as ATen computes it.
Value avgPoolScale(OpBuilder &b, Location loc, const Pool2dParams &p,
                   ArrayRef<int64_t> inputSize, ArrayRef<int64_t> out,
                   bool countIncludePad, std::optional<int64_t> divisorOverride,
                   Type element) {
  if (divisorOverride)
    return filled(b, loc, out, element, 1.0 / static_cast<double>(*divisorOverride));
  auto body = [&](OpBuilder &nb, Location nl, ValueRange o) -> Value {
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(nb, nl, v);
    };
    Value poolSize = index(1), count = index(1);
    for (int i = 0; i < 2; ++i) {
      // The window [start, end) of output o[i], clipped to the padded and
      // to the unpadded input.
      Value start = arith::SubIOp::create(
          nb, nl, arith::MulIOp::create(nb, nl, o[i], index(p.stride[i])),
          index(p.padding[i]));
      Value end = arith::MinSIOp::create(
          nb, nl, arith::AddIOp::create(nb, nl, start, index(p.kernel[i])),
          index(inputSize[i] + p.padding[i]));
      Value inside = arith::SubIOp::create(
          nb, nl, arith::MinSIOp::create(nb, nl, end, index(inputSize[i])),
          arith::MaxSIOp::create(nb, nl, start, index(0)));
      poolSize = arith::MulIOp::create(nb, nl, poolSize,
                                       arith::SubIOp::create(nb, nl, end, start));
      count = arith::MulIOp::create(nb, nl, count, inside);
    }
    return reciprocalOf(nb, nl, countIncludePad ? poolSize : count, element);
  };
  return tabulated(b, loc, out, element, body);
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
  Value gi = poolBackward(b, loc, scaled, xType, p,
                          [](OpBuilder &, Location, ValueRange args, Value) { return args[0]; });
  return reshapeTo(b, loc, gi, cast<RankedTensorType>(op.getType()));
}

/// [out, in] matrix of adaptive-average weights: 1 / window length inside
/// output o's window [adaptiveStart, adaptiveEnd) of the input, else 0.
Value adaptiveMatrix(OpBuilder &b, Location loc, int64_t out, int64_t in, Type element) {
  auto body = [&](OpBuilder &nb, Location nl, ValueRange idx) -> Value {
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(nb, nl, v);
    };
    Value o = idx[0], i = idx[1];
    Value start = arith::DivUIOp::create(
        nb, nl, arith::MulIOp::create(nb, nl, o, index(in)), index(out));
    Value next = arith::AddIOp::create(nb, nl, o, index(1));
    Value end = arith::DivUIOp::create(
        nb, nl,
        arith::AddIOp::create(nb, nl, arith::MulIOp::create(nb, nl, next, index(in)),
                              index(out - 1)),
        index(out));
    Value weight = reciprocalOf(nb, nl, arith::SubIOp::create(nb, nl, end, start), element);
    Value within = arith::AndIOp::create(
        nb, nl, arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge, i, start),
        arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, i, end));
    return arith::SelectOp::create(nb, nl, within, weight, constF(nb, nl, element, 0.0));
  };
  return tabulated(b, loc, {out, in}, element, body);
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

} // namespace

void lowering::populateConvPatterns(RewritePatternSet &patterns,
                                    bool directConvolutions, int64_t im2colLimitMiB) {
  if (directConvolutions) {
    addLowering<ConvolutionOp>(
        patterns, [=](ConvolutionOp op, ConvolutionOp::Adaptor adaptor, OpBuilder &b) {
          return lowerConvolutionDirectly(op, adaptor, b, im2colLimitMiB);
        });
    addMultiLowering<ConvolutionBackwardOp>(
        patterns, [=](ConvolutionBackwardOp op, ConvolutionBackwardOp::Adaptor adaptor,
                      OpBuilder &b) {
          return lowerConvolutionBackwardWith(op, adaptor, b, /*direct=*/true,
                                              im2colLimitMiB);
        });
  } else {
    addLowering<ConvolutionOp>(patterns, lowerConvolution);
    addMultiLowering<ConvolutionBackwardOp>(patterns, lowerConvolutionBackward);
  }
  addMultiLowering<MaxPool2dWithIndicesOp>(patterns, lowerMaxPool);
  addLowering<MaxPool2dWithIndicesBackwardOp>(patterns, lowerMaxPoolBackward);
  addLowering<AvgPool2dOp>(patterns, lowerAvgPool);
  addLowering<AvgPool2dBackwardOp>(patterns, lowerAvgPoolBackward);
  addLowering<AdaptiveAvgPool2dOp>(patterns, lowerAdaptiveAvgPool);
  addLowering<AdaptiveAvgPool2dBackwardOp>(patterns, lowerAdaptiveAvgPoolBackward);
}
