//===- SplitDynamicBatch.cpp - per-sample ops over a dynamic batch --------===//
//
// See TadSplitDynamicBatchPass in Passes.td. Convolutions and pooling treat
// each sample of a batch on its own (their weight and bias gradients sum
// over the samples), and their lowerings need static shapes: over a
// dynamic batch, such an op becomes loops over blocks of samples, each the
// same op with static types on a slice of the batch.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/Passes.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADSPLITDYNAMICBATCHPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// Whether `type` is a tensor whose only dynamic size is the batch (dim 0).
bool isDynamicBatch(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0) &&
         llvm::none_of(tensor.getShape().drop_front(), ShapedType::isDynamic);
}

bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !tensor || tensor.hasStaticShape();
}

/// The ops that compute each sample on its own: a result over the batch
/// has the batch as dimension 0, a static result (a weight or bias
/// gradient) is a sum over the samples.
bool isPerSample(Operation *op) {
  if (!isa<ConvolutionOp, ConvolutionBackwardOp, MaxPool2dWithIndicesOp,
           MaxPool2dWithIndicesBackwardOp, AvgPool2dOp, AvgPool2dBackwardOp,
           AdaptiveAvgPool2dOp, AdaptiveAvgPool2dBackwardOp>(op))
    return false;
  bool anyDynamic = false;
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes())) {
    if (isDynamicBatch(type))
      anyDynamic = true;
    else if (!isStaticTensor(type))
      return false;
  }
  return anyDynamic;
}

/// `type` with `batch` samples.
RankedTensorType withBatch(Type type, int64_t batch) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[0] = batch;
  return tensor.clone(shape);
}

/// Samples [start, start + count) of `value` (batch dimension 0).
Value samples(OpBuilder &b, Location loc, Value value, Value start,
              int64_t count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(count)};
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = start;
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(size));
  return tensor::ExtractSliceOp::create(b, loc, withBatch(type, count), value,
                                        offsets, sizes, strides);
}

/// `into` with `piece` written at samples [start, start + its batch).
Value insertSamples(OpBuilder &b, Location loc, Value piece, Value into,
                    Value start) {
  auto type = cast<RankedTensorType>(piece.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = start;
  for (int64_t size : type.getShape())
    sizes.push_back(b.getIndexAttr(size));
  return tensor::InsertSliceOp::create(b, loc, piece, into, offsets, sizes,
                                       strides);
}

/// Replaces the per-sample `op` by a loop over blocks of `block` samples,
/// loops over blocks of a quarter as many on the rest, ..., and a loop over
/// the remaining samples one by one.
void splitBatch(Operation *op, int64_t block) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value batched = *llvm::find_if(op->getOperands(), [](Value v) {
    return isDynamicBatch(v.getType());
  });
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value size = tensor::DimOp::create(b, loc, batched, 0);
  // The loop-carried results: a tensor of the batch for each result over
  // it, zeros for each sum.
  SmallVector<Value> inits;
  for (Type type : op->getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    if (isDynamicBatch(tensor)) {
      inits.push_back(
          tensor::EmptyOp::create(b, loc, tensor, ValueRange{size}));
      continue;
    }
    inits.push_back(arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensor, b.getZeroAttr(
                                                   tensor.getElementType()))));
  }
  // Samples [start, start + count) of every batched operand through a copy
  // of `op` with static types, added into the loop-carried values.
  auto step = [&](OpBuilder &lb, Location ll, Value start, int64_t count,
                  ValueRange carried) {
    IRMapping mapping;
    for (Value operand : op->getOperands())
      if (isDynamicBatch(operand.getType()))
        mapping.map(operand, samples(lb, ll, operand, start, count));
    Operation *piece = lb.clone(*op, mapping);
    SmallVector<Value> next;
    for (auto [result, acc] : llvm::zip(piece->getResults(), carried)) {
      if (isDynamicBatch(result.getType())) {
        result.setType(withBatch(result.getType(), count));
        next.push_back(insertSamples(lb, ll, result, acc, start));
      } else {
        next.push_back(AddTensorOp::create(lb, ll, acc, result,
                                           lb.getF64FloatAttr(1.0)));
      }
    }
    scf::YieldOp::create(lb, ll, next);
  };
  // Blocks of `block` samples, then of a quarter as many on the rest, ...,
  // then single samples.
  SmallVector<int64_t> sizes;
  for (int64_t count = block; count > 1; count /= 4)
    sizes.push_back(count);
  sizes.push_back(1);
  Value start = zero;
  ValueRange carried = inits;
  scf::ForOp rest;
  for (int64_t count : sizes) {
    Value countValue = arith::ConstantIndexOp::create(b, loc, count);
    // The end of the last whole block of `count` after `start`.
    Value end = arith::AddIOp::create(
        b, loc, start,
        arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(
                b, loc, arith::SubIOp::create(b, loc, size, start),
                countValue),
            countValue));
    rest = scf::ForOp::create(
        b, loc, start, end, countValue, carried,
        [&](OpBuilder &lb, Location ll, Value at, ValueRange values) {
          step(lb, ll, at, count, values);
        });
    start = end;
    carried = rest.getResults();
  }
  op->replaceAllUsesWith(rest.getResults());
  op->erase();
}

struct TadSplitDynamicBatchPass
    : tad::impl::TadSplitDynamicBatchPassBase<TadSplitDynamicBatchPass> {
  using Base::Base;
  void runOnOperation() override {
    if (block <= 0) {
      getOperation()->emitError("tad-split-dynamic-batch: block must be "
                                "positive, got ")
          << block;
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isPerSample(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      splitBatch(op, block);
  }
};

} // namespace
