//===- TadToLinalgPatterns.h - tad-to-linalg internals -----------*- C++ -*-===//
//
// Shared by the files of the tad-to-linalg lowering: the IR builders every op
// family uses (broadcast indexing maps, elementwise and sum generics,
// reshapes, scalar constants) and one populate function per op family.
// Not a public header: only passes/TadToLinalg*.cpp include it.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGPATTERNS_H
#define TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGPATTERNS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>

namespace mlir::tad::lowering {

//===----------------------------------------------------------------------===//
// IR builders (TadToLinalgUtils.cpp)
//===----------------------------------------------------------------------===//

/// Where a dynamic size comes from at run time: dimension `dim` of `value`.
struct SizeSource {
  Value value;
  int64_t dim = 0;
};

/// Computes one element of a generic from its input elements.
using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// `value` as an `arith.constant` of float type `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value);

/// `value * factor` for a float scalar `value`; `value` itself when factor
/// is 1 (ATen's alpha/beta defaults).
Value scaleBy(OpBuilder &b, Location loc, Value value, double factor);

/// The zero of any element type, as an `arith.constant`.
Value zeroConstant(OpBuilder &b, Location loc, Type type);

/// Indexing map that reads an operand of shape `input` inside an iteration
/// space of shape `domain` with ATen broadcasting: leading dimensions that
/// `input` lacks are dropped and its size-1 dimensions that `domain`
/// broadcasts are read at constant index 0.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> input,
                       ArrayRef<int64_t> domain);

/// `values` as index attributes (static offsets, sizes and strides).
SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values);

/// `sizes` with each dynamic size read from the same dimension of `like`
/// (a tensor of the same rank that has it: the source of a slice, the
/// destination of an insert).
SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc,
                                     ArrayRef<int64_t> sizes, Value like);

/// `tensor.empty` of `type`; its dynamic sizes are read from `sources`
/// (one entry per dimension of `type`, used where the size is dynamic).
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<SizeSource> sources = {});

/// The sources of the dynamic sizes of `shape`, the broadcast of `inputs`
/// (aligned from the last dimension): a dynamic size never broadcasts, so
/// an input dynamic in that dimension has it.
SmallVector<SizeSource> broadcastSources(ArrayRef<int64_t> shape,
                                         ValueRange inputs);

/// `tensor.empty` of `type` (see emptyTensor) filled with `value` by
/// `linalg.fill`.
Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, ArrayRef<SizeSource> sources = {});

/// One all-parallel `linalg.generic` over `resultType` whose inputs broadcast
/// through `broadcastMap`; `body` computes an element from theirs.
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarFn body);

/// One `linalg.generic` over the iteration space `domain` that sums
/// `body(inputs)` over the sorted dimensions `dims` into a zero-filled
/// tensor of `domain` without `dims` (no keepdim). Inputs broadcast to
/// `domain` through `broadcastMap`.
Value buildSum(OpBuilder &b, Location loc, ArrayRef<int64_t> domain,
               Type elementType, ValueRange inputs, ArrayRef<int64_t> dims,
               ScalarFn body);

/// `beta * self + alpha * product` with `self` broadcast to `type` (the
/// epilogue of addmm and baddbmm); `beta == 0` ignores `self`, as ATen does.
Value addScaledProduct(OpBuilder &b, Location loc, RankedTensorType type,
                       Value self, Value product, double beta, double alpha);

/// `value` divided elementwise by the constant `divisor`.
Value divideBy(OpBuilder &b, Location loc, Value value, double divisor);

/// `value` divided elementwise by the float scalar `divisor`.
Value divideBy(OpBuilder &b, Location loc, Value value, Value divisor);

/// The number of elements of `shape` in `dims`, as a float scalar of
/// `floatType`: a constant, or computed at run time from the dynamic sizes'
/// `sources` (one entry per dimension of `shape`).
Value elementCount(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   ArrayRef<int64_t> dims, ArrayRef<SizeSource> sources,
                   Type floatType);

/// Reshapes `value` (row-major, same element count) to `type` with
/// `tensor.collapse_shape`/`tensor.expand_shape`: one op when a direct
/// reassociation exists, otherwise through a 1-D tensor.
Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType type);

/// reshapeTo where `value` or `type` has dynamic sizes (the element counts
/// agree at run time: tad-check-shapes).
Value reshapeDynamic(OpBuilder &b, Location loc, Value value,
                     RankedTensorType type);

/// Whether all operand and result types of `op` have static shapes.
bool hasStaticShapes(Operation *op);

/// Whether the lowering of `op` handles dynamic sizes (and tad-check-shapes
/// checks what it assumes of them); other lowerings need static shapes.
bool lowersDynamicShapes(Operation *op);

/// Product of the sizes of `shape` at `dims`.
int64_t numElements(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims);

/// The input of `value` where `value` is a linalg.generic that only extends
/// the floats of one tensor (the lowering of a widening tad._to_copy), else
/// null.
Value extendedTensor(Value value);

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Replaces an op by the single value that `lower` builds. The only
/// precondition, static shapes unless lowersDynamicShapes(op), is checked
/// here, so lowerings are plain functions that cannot fail; an op with a
/// dynamic shape it does not handle stays illegal and the conversion
/// reports it.
template <typename OpTy>
struct LowerToValue : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using LowerFn = std::function<Value(OpTy, Adaptor, OpBuilder &)>;

  LowerToValue(MLIRContext *ctx, LowerFn lower)
      : OpConversionPattern<OpTy>(ctx), lower(std::move(lower)) {}

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasStaticShapes(op) && !lowersDynamicShapes(op))
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    rewriter.replaceOp(op, lower(op, adaptor, rewriter));
    return success();
  }

  LowerFn lower;
};

template <typename OpTy>
void addLowering(RewritePatternSet &patterns,
                 typename LowerToValue<OpTy>::LowerFn lower) {
  patterns.add<LowerToValue<OpTy>>(patterns.getContext(), std::move(lower));
}

/// Unary and binary elementwise ops, scalar forms, activation backward ops,
/// creation ops and constants (TadToLinalgElementwise.cpp).
void populateElementwisePatterns(RewritePatternSet &patterns);
/// mm, addmm, bmm, baddbmm, dot and mv (TadToLinalgMatmul.cpp).
void populateMatmulPatterns(RewritePatternSet &patterns);
/// sum, mean, sum_to_size and the mse_loss pair
/// (TadToLinalgReduction.cpp).
void populateReductionPatterns(RewritePatternSet &patterns);
/// Transposes, expand and reshapes (TadToLinalgShape.cpp).
void populateShapePatterns(RewritePatternSet &patterns);
/// Elementwise math, activations and their backward ops, selects and
/// clamps, comparisons and logical ops, dropout (TadToLinalgActivation.cpp).
void populateActivationPatterns(RewritePatternSet &patterns);
/// lgamma, digamma and polygamma (TadToLinalgGamma.cpp).
void populateGammaPatterns(RewritePatternSet &patterns);
/// inverse, slogdet and Cholesky as calls of the runtime's kernels, or a
/// located error where `runtimeCalls` is false (TadToLinalgLinearAlgebra.cpp).
void populateLinearAlgebraPatterns(RewritePatternSet &patterns,
                                   bool runtimeCalls);

/// tad.all_reduce, tad.broadcast_from and tad.barrier as calls of the
/// runtime's MPI layer, the operands fused into buckets; a located error
/// where `runtimeCalls` is false (TadToLinalgCollectives.cpp).
void populateCollectivePatterns(RewritePatternSet &patterns,
                                bool runtimeCalls);

/// The tensor families of TadReductionOps.td, TadShapeOps.td and
/// TadIndexingOps.td: extremum/variance/logsumexp/norm/cumsum reductions
/// (TadToLinalgExtremaAndStatistics.cpp), views, slices, joins and splits
/// (TadToLinalgViewsAndSlices.cpp), gather/scatter/indexing
/// (TadToLinalgIndexing.cpp); `serialScatters`: see ConvertTadToLinalgPass's
/// option.
void populateExtremaAndStatisticsPatterns(RewritePatternSet &patterns);
void populateViewsAndSlicesPatterns(RewritePatternSet &patterns);
void populateIndexingPatterns(RewritePatternSet &patterns,
                              bool serialScatters);
/// Softmax, normalization and losses (TadToLinalgNN.cpp).
void populateNNPatterns(RewritePatternSet &patterns);
/// Convolution and pooling, forward and backward (TadToLinalgConv.cpp);
/// `directConvolutions`, `im2colLimitMiB`: see ConvertTadToLinalgPass's
/// options of those names.
void populateConvPatterns(RewritePatternSet &patterns, bool directConvolutions,
                          int64_t im2colLimitMiB);

} // namespace mlir::tad::lowering

#endif // TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGPATTERNS_H
