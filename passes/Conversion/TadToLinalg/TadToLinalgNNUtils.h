//===- TadToLinalgNNUtils.h - builders of the NN lowerings -------*- C++ -*-===//
//
// Small IR builders shared by TadToLinalgNN.cpp (softmax, norms, losses) and
// TadToLinalgConv.cpp (convolution, pooling): generics with explicit maps,
// filled tensors, pads and reshapes. Not a public header.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGNNUTILS_H
#define TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGNNUTILS_H

#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tad::lowering::nn {

using Iter = utils::IteratorType;

inline RankedTensorType typeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

inline Value constF(OpBuilder &b, Location loc, Type type, double value) {
  return floatConstant(b, loc, type, value);
}

/// A map from a `rank`-dimensional domain to the listed dimensions.
inline AffineMap dimsMap(MLIRContext *ctx, int64_t rank,
                         ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// The dimensions of [0, rank) not in `dims`.
inline SmallVector<int64_t> complement(int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(d);
  return kept;
}

inline SmallVector<int64_t> range(int64_t begin, int64_t end) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, end));
}

/// A generic with explicit maps; the last maps belong to `inits`.
inline SmallVector<Value>
generic(OpBuilder &b, Location loc, ValueRange inputs, ValueRange inits,
        ArrayRef<AffineMap> maps, ArrayRef<Iter> iterators,
        function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
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

/// A tensor of `shape` filled with `value` (float or integer `element`).
inline Value filled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                    Type element, double value,
                    ArrayRef<SizeSource> sources = {}) {
  Value v = isa<FloatType>(element)
                ? constF(b, loc, element, value)
                : Value(arith::ConstantOp::create(
                      b, loc,
                      b.getIntegerAttr(element, static_cast<int64_t>(value))));
  return filledTensor(b, loc, RankedTensorType::get(shape, element), v,
                      sources);
}

inline Value zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  return filled(b, loc, type.getShape(), type.getElementType(), 0.0);
}

/// tensor.pad with a constant; `value` itself when nothing is padded.
inline Value pad(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> low,
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
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value, lo,
      hi, padValue);
}

/// `value` reshaped to `shape` (same element count).
inline Value reshape(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> shape) {
  return reshapeTo(b, loc, value,
                   RankedTensorType::get(shape, typeOf(value).getElementType()));
}

/// Sum of `value` over `dims` (no keepdim).
inline Value sumDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> dims) {
  RankedTensorType type = typeOf(value);
  return buildSum(b, loc, type.getShape(), type.getElementType(), value, dims,
                  [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

/// An all-parallel generic over `shape` with explicit input maps (dynamic
/// sizes read from `sources`, see emptyTensor).
inline Value mapped(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                    Type element, ValueRange inputs,
                    ArrayRef<AffineMap> inputMaps, ScalarFn body,
                    ArrayRef<SizeSource> sources = {}) {
  MLIRContext *ctx = b.getContext();
  Value init =
      emptyTensor(b, loc, RankedTensorType::get(shape, element), sources);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::getMultiDimIdentityMap(shape.size(), ctx));
  SmallVector<Iter> iters(shape.size(), Iter::parallel);
  return generic(b, loc, inputs, init, maps, iters,
                 [&](OpBuilder &nb, Location nl,
                     ValueRange args) -> SmallVector<Value> {
                   return {body(nb, nl, args.drop_back())};
                 })[0];
}

} // namespace mlir::tad::lowering::nn

#endif // TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGNNUTILS_H
