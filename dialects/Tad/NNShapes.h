//===- NNShapes.h - shape rules of convolution and pooling -------*- C++ -*-===//
//
// ATen's output-size rules for convolution and 2-D pooling, shared by type
// inference (TadNNOps.cpp) and the lowering (TadToLinalgConv.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_DIALECT_NNSHAPES_H
#define TAD_DIALECT_NNSHAPES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tad {

/// A per-spatial-dimension parameter given as one value for all or one per
/// dimension (ATen's expand_param_if_needed); nullopt for another length.
std::optional<SmallVector<int64_t>> expandParam(ArrayRef<int64_t> param,
                                                int64_t spatialDims);

/// Convolution output size of one spatial dimension (may be < 1: invalid).
int64_t convOutputSize(int64_t in, int64_t kernel, int64_t stride,
                       int64_t padding, int64_t dilation);

/// 2-D pooling parameters resolved against the defaults of the schema
/// (empty stride = kernel, padding 0, dilation 1; one value = both dims).
struct Pool2dParams {
  SmallVector<int64_t> kernel, stride, padding, dilation;
  bool ceilMode = false;
};

/// Pooling output size of one dimension (ATen's pooling_output_shape).
int64_t poolOutputSize(int64_t in, int64_t kernel, int64_t stride,
                       int64_t padding, int64_t dilation, bool ceilMode);

/// Start and end (exclusive) of adaptive-pooling window `i` of `out` over
/// `in` elements.
inline int64_t adaptiveStart(int64_t i, int64_t out, int64_t in) {
  return (i * in) / out;
}
inline int64_t adaptiveEnd(int64_t i, int64_t out, int64_t in) {
  return ((i + 1) * in + out - 1) / out;
}

} // namespace mlir::tad

#endif // TAD_DIALECT_NNSHAPES_H
