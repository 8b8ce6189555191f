//===- DuplicateEmptyTensors.cpp - one tensor.empty per use ---------------===//
//
// See TadDuplicateEmptyTensorsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDUPLICATEEMPTYTENSORSPASS
#include "passes/CPU/Passes.h.inc"
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
    duplicateSharedFills(b);
  }

  /// A fill of a tensor.empty that several ops take as their init (CSE
  /// made one zero-filled accumulator of each shape) would be bufferized as
  /// one filled buffer copied into each op's output: an LSTM's backward
  /// copied a 1 MiB zero buffer 31 times per call. Each such use gets its
  /// own fill, which bufferizes in place into the op's output (a memset).
  void duplicateSharedFills(OpBuilder &b) {
    SmallVector<linalg::FillOp> shared;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->hasOneUse() &&
          !fill->use_empty() &&
          fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
        shared.push_back(fill);
    });
    for (linalg::FillOp fill : shared) {
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : fill->getUses()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (dps && dps.isDpsInit(&use))
          inits.push_back(&use);
      }
      // The original stays with the reads; with no reads, with the first
      // init.
      bool onlyInits = llvm::range_size(fill->getUses()) == inits.size();
      for (OpOperand *use : llvm::drop_begin(inits, onlyInits ? 1 : 0)) {
        b.setInsertionPoint(use->getOwner());
        Operation *empty = b.clone(*fill.getOutputs()[0].getDefiningOp());
        IRMapping map;
        map.map(fill.getOutputs()[0], empty->getResult(0));
        use->set(b.clone(*fill, map)->getResult(0));
      }
    }
  }
};

} // namespace
