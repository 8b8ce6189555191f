//===- DuplicateEmptyTensors.cpp - one tensor.empty per use ---------------===//
//
// See TadDuplicateEmptyTensorsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDUPLICATEEMPTYTENSORSPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadDuplicateEmptyTensorsPass
    : tad::impl::TadDuplicateEmptyTensorsPassBase<
          TadDuplicateEmptyTensorsPass> {
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> shared;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (!op->hasOneUse() && !op->use_empty())
        shared.push_back(op);
    });
    OpBuilder b(&getContext());
    for (tensor::EmptyOp op : shared) {
      // A clone right before each user (the dynamic sizes dominate the
      // original, so they dominate the users too).
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          op->getUses(), [](OpOperand &use) { return &use; });
      for (OpOperand *use : uses) {
        b.setInsertionPoint(use->getOwner());
        use->set(b.clone(*op)->getResult(0));
      }
      op->erase();
    }
  }
};

} // namespace
