//===- WidenLowPrecision.cpp - bf16/f16 arithmetic computed in f32 --------===//
//
// ATen computes a bf16 or f16 op on CPU in f32 ("opmath") and rounds its
// result once: elementwise ops convert each element, reductions and
// products accumulate in f32. This pass gives tad the same numbers: every
// tad op that reads a bf16/f16 tensor and computes with it gets f32 operands
// (tad._to_copy) and f32 results, rounded back to the original type right
// after it. Ops that only move or select elements are exact in any type and
// keep their operands. The tad-to-linalg lowering then folds the widening of
// a product's operands into the linalg contraction, which extends its
// operands itself, so a bf16 matmul reads bf16 and accumulates in f32.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/Passes.h"

#include "dialects/Tad/TadOps.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADWIDENLOWPRECISIONPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

bool isHalfFloat(Type type) { return type.isBF16() || type.isF16(); }

/// A tensor of bf16 or f16.
bool isHalfTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isHalfFloat(tensor.getElementType());
}

/// Ops whose results are elements of their operands (or zeros): no rounding
/// happens in them, so they stay in the narrow type.
bool movesElementsOnly(Operation *op) {
  return isa<ToCopyOp, CloneOp, DetachOp, ViewOp, ReshapeOp, UnsafeViewOp,
             TOp, TransposeIntOp, PermuteOp, ExpandOp, UnsqueezeOp,
             SqueezeOp, SqueezeDimOp, FlattenUsingIntsOp, SliceTensorOp,
             SliceBackwardOp, SelectIntOp, SelectBackwardOp, NarrowOp,
             ChunkOp, CatOp, StackOp, SplitTensorOp, SplitWithSizesOp,
             UnbindIntOp, RepeatOp, FlipOp, TrilOp, ConstantPadNdOp,
             IndexSelectOp, GatherOp, IndexTensorOp, EmbeddingOp,
             ZerosLikeOp, ConstantOp>(op);
}

/// Whether `op` computes with a bf16/f16 operand and can take f32 instead.
/// An op with a bf16/f16 `dtype`-like attribute asks for that type itself.
bool shouldWiden(Operation *op) {
  if (!isa_and_present<TadDialect>(op->getDialect()) ||
      op->getNumRegions() != 0 || movesElementsOnly(op) ||
      !llvm::any_of(op->getOperandTypes(), isHalfTensor))
    return false;
  return llvm::none_of(op->getAttrs(), [](NamedAttribute attr) {
    auto type = dyn_cast<TypeAttr>(attr.getValue());
    return type && isHalfFloat(getElementTypeOrSelf(type.getValue()));
  });
}

/// `value` converted to element type `element` by tad._to_copy.
Value convertTo(OpBuilder &b, Location loc, Value value, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  return ToCopyOp::create(b, loc, type.clone(element), value,
                          TypeAttr::get(element));
}

void widen(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type f32 = b.getF32Type();
  for (OpOperand &operand : op->getOpOperands())
    if (isHalfTensor(operand.get().getType()))
      operand.set(convertTo(b, loc, operand.get(), f32));
  b.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !isHalfFloat(type.getElementType()))
      continue;
    result.setType(type.clone(f32));
    Value narrow = convertTo(b, loc, result, type.getElementType());
    result.replaceAllUsesExcept(narrow, narrow.getDefiningOp());
  }
}

struct TadWidenLowPrecisionPass
    : tad::impl::TadWidenLowPrecisionPassBase<TadWidenLowPrecisionPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (shouldWiden(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      widen(op);
  }
};

} // namespace
