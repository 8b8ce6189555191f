//===- SplatConstantsToFills.cpp - large splats filled at run time --------===//
//
// See TadSplatConstantsToFillsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADSPLATCONSTANTSTOFILLSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The splat value of `op` if it is a splat tensor constant of more than
/// `minBytes` bytes.
std::optional<TypedAttr> largeSplat(arith::ConstantOp op, int64_t minBytes) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
  if (!type || !splat || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  // Compared in elements: the element count of a valid type fits int64,
  // its byte size need not.
  int64_t bitsPerElement = type.getElementTypeBitWidth();
  int64_t elements = type.getNumElements();
  if (elements <= minBytes * 8 / std::max<int64_t>(bitsPerElement, 1))
    return std::nullopt;
  return splat.getSplatValue<TypedAttr>();
}

struct TadSplatConstantsToFillsPass
    : tad::impl::TadSplatConstantsToFillsPassBase<
          TadSplatConstantsToFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<arith::ConstantOp, TypedAttr>> large;
    getOperation().walk([&](arith::ConstantOp op) {
      if (std::optional<TypedAttr> value = largeSplat(op, minBytes))
        large.emplace_back(op, *value);
    });
    OpBuilder b(&getContext());
    for (auto [op, value] : large) {
      b.setInsertionPoint(op);
      auto type = cast<RankedTensorType>(op.getType());
      Value scalar = arith::ConstantOp::create(b, op.getLoc(), value);
      Value empty = tensor::EmptyOp::create(b, op.getLoc(), type.getShape(),
                                            type.getElementType());
      Value filled =
          linalg::FillOp::create(b, op.getLoc(), scalar, empty).getResult(0);
      op.replaceAllUsesWith(filled);
      op.erase();
    }
  }
};

} // namespace
