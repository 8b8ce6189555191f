//===- DirectConvolution.h - convolutions without im2col ---------*- C++ -*-===//
//
// What tad-to-linalg (direct-convolutions) and tad-vectorize-convolutions
// agree on. A 2-D convolution whose reduction per output, C·KH·KW, is a few
// dozen multiply-adds (LeNet's first layer: 1·5·5) is too short for the k
// loop of a matmul kernel, and its im2col matrix is KH·KW times the input
// (5 MB for 64 images of 32x32): the forward becomes
// `linalg.conv_2d_nchw_fchw` and the weight gradient the generic below,
// which tad-vectorize-convolutions computes with register-blocked kernels
// of their own straight from the input (docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_CONVERSION_TADTOLINALG_DIRECTCONVOLUTION_H
#define TAD_PASSES_CONVERSION_TADTOLINALG_DIRECTCONVOLUTION_H

#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tad {

/// The largest C·KH·KW computed directly.
constexpr int64_t kMaxDirectConvolutionReduction = 32;

/// Indexing maps of the weight gradient of a stride-1, dilation-1 2-D
/// convolution over the loops (f, c, kh, kw, n, oh, ow), the last three
/// reductions: grad_weight[f, c, kh, kw] +=
///   grad_output[n, f, oh, ow] * input[n, c, oh + kh, ow + kw].
/// Maps of input, grad_output, grad_weight, in that order: the input first,
/// so that linalg::isaConvolutionOpInterface recognizes the generic as a
/// convolution (of the input with grad_output as the filter).
inline SmallVector<AffineMap, 3> weightGradientMaps(MLIRContext *ctx) {
  AffineExpr f, c, kh, kw, n, oh, ow;
  bindDims(ctx, f, c, kh, kw, n, oh, ow);
  return {AffineMap::get(7, 0, {n, c, oh + kh, ow + kw}, ctx),
          AffineMap::get(7, 0, {n, f, oh, ow}, ctx),
          AffineMap::get(7, 0, {f, c, kh, kw}, ctx)};
}

} // namespace mlir::tad

#endif // TAD_PASSES_CONVERSION_TADTOLINALG_DIRECTCONVOLUTION_H
