//===- TadToLinalgTensorUtils.h - builders of the tensor op families -*- C++ -*-===//
//
// IR builders shared by TadToLinalg{ExtremaAndStatistics,ViewsAndSlices,
// Indexing,NN,Conv}.cpp on top of TadToLinalgPatterns.h: general
// reductions, multi-result lowerings, loop indices inside generics and
// scalar conversions.
// Not a public header.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGTENSORUTILS_H
#define TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGTENSORUTILS_H

#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tad::lowering {

/// Combines an element with the accumulator of a reduction.
using CombineFn = function_ref<Value(OpBuilder &, Location, Value, Value)>;

/// Reduces `input` over the sorted `dims` with `combine`, starting from the
/// scalar `init`; the result has the reduced shape without keepdim.
inline Value buildReduction(OpBuilder &b, Location loc, Value input,
                            ArrayRef<int64_t> dims, Value init,
                            CombineFn combine) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  auto resultType = RankedTensorType::get(
      reducedShape(type.getShape(), dims, /*keepdim=*/false),
      type.getElementType());
  int64_t rank = type.getRank();
  // The kept dimensions' dynamic sizes are the input's.
  SmallVector<SizeSource> sources;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      sources.push_back({input, d});
  Value acc = filledTensor(b, loc, resultType, init, sources);
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(dims, d)) {
      iterators.push_back(utils::IteratorType::reduction);
    } else {
      iterators.push_back(utils::IteratorType::parallel);
      kept.push_back(getAffineDimExpr(d, ctx));
    }
  }
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                              AffineMap::get(rank, 0, kept, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input}, ValueRange{acc},
             maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       combine(nb, nl, args[0], args[1]));
             })
      .getResult(0);
}

/// The loop index `dim` of the enclosing linalg.generic, as an i64.
inline Value loopIndex(OpBuilder &b, Location loc, int64_t dim) {
  Value index = linalg::IndexOp::create(b, loc, dim);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// An i64 index value as an `index`, wrapped by `size` when negative.
inline Value wrappedIndex(OpBuilder &b, Location loc, Value i64, int64_t size,
                          bool wrap) {
  if (wrap) {
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
    Value sizeValue = arith::ConstantIntOp::create(b, loc, b.getI64Type(), size);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           i64, zero);
    Value shifted = arith::AddIOp::create(b, loc, i64, sizeValue);
    i64 = arith::SelectOp::create(b, loc, negative, shifted, i64);
  }
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
}

/// Whether `type` is bf16 or f16: ATen converts to and from them through
/// f32 (c10::BFloat16 and c10::Half are built from a float).
inline bool isHalfFloat(Type type) { return type.isBF16() || type.isF16(); }

/// Converts a scalar to element type `to` with ATen's casts: floats extend
/// or truncate, integers become floats as signed values (i1 as 0/1), floats
/// become integers by truncation toward zero. A conversion to or from bf16
/// or f16 goes through f32 (so f64 -> bf16 rounds twice, as in ATen).
inline Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  Type f32 = b.getF32Type();
  if (isHalfFloat(from) && to != f32)
    return convertScalar(b, loc, arith::ExtFOp::create(b, loc, f32, value),
                         to);
  if (isHalfFloat(to) && from != f32)
    return arith::TruncFOp::create(b, loc, to,
                                   convertScalar(b, loc, value, f32));
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    return arith::TruncFOp::create(b, loc, to, value);
  }
  if (isa<IntegerType>(from) && isa<FloatType>(to)) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  if (isa<FloatType>(from) && isa<IntegerType>(to)) {
    if (to.isInteger(1)) {
      Value zero = floatConstant(b, loc, from, 0.0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    }
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  // Integer to integer.
  unsigned fromBits = from.getIntOrFloatBitWidth(),
           toBits = to.getIntOrFloatBitWidth();
  if (toBits == 1) {
    Value zero = arith::ConstantIntOp::create(b, loc, from, 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (fromBits < toBits)
    return fromBits == 1
               ? arith::ExtUIOp::create(b, loc, to, value).getResult()
               : arith::ExtSIOp::create(b, loc, to, value).getResult();
  return arith::TruncIOp::create(b, loc, to, value);
}

/// Replaces an op by the values that `lower` builds (ops with several or a
/// variadic number of results).
template <typename OpTy>
struct LowerToValues : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using LowerFn = std::function<SmallVector<Value>(OpTy, Adaptor, OpBuilder &)>;

  LowerToValues(MLIRContext *ctx, LowerFn lower)
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
void addMultiLowering(RewritePatternSet &patterns,
                      typename LowerToValues<OpTy>::LowerFn lower) {
  patterns.add<LowerToValues<OpTy>>(patterns.getContext(), std::move(lower));
}

/// All dimensions of a tensor of rank `rank`.
inline SmallVector<int64_t> allDimsOf(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// `dims` wrapped and sorted, all dimensions when empty.
inline SmallVector<int64_t> wrappedDims(ArrayRef<int64_t> dims, int64_t rank) {
  return *wrapDims(dims, rank);
}

} // namespace mlir::tad::lowering

#endif // TAD_PASSES_CONVERSION_TADTOLINALG_TADTOLINALGTENSORUTILS_H
