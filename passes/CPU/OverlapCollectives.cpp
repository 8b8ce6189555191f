//===- OverlapCollectives.cpp - start collectives as early as possible ----===//
//
// See TadOverlapCollectivesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADOVERLAPCOLLECTIVESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// What a start may be moved up with: ops without memory effects and the
/// allocation of its result buffer.
bool isMovable(Operation *op) {
  return isMemoryEffectFree(op) || isa<memref::AllocOp>(op);
}

/// Whether a start may move above `op`: anything but another collective
/// (the ranks must run theirs in one order) or a call that could contain
/// one. A start may cross a run-time check: should the check fail, the
/// runtime waits for the collectives in flight before the call ends.
bool mayCross(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  WalkResult result = op->walk([&](func::CallOp call) {
    StringRef callee = call.getCallee();
    auto fn = module ? module.lookupSymbol<func::FuncOp>(callee) : nullptr;
    if (callee.starts_with("_tad_mpi_") || (fn && !fn.isExternal()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The later of two ops of one block (null is before everything).
Operation *later(Operation *a, Operation *b) {
  if (!a || !b)
    return a ? a : b;
  return a->isBeforeInBlock(b) ? b : a;
}

/// Moves `start` and the movable ops of its block it depends on (its
/// bucket's packing, its buffers) to right after the latest op they
/// cannot cross: one they depend on that cannot move (what computes the
/// bucket's tensors; the block's start for arguments) or the nearest
/// earlier collective.
void hoist(func::CallOp start) {
  Block *block = start->getBlock();
  llvm::SetVector<Operation *> slice;
  Operation *anchor = nullptr;
  SmallVector<Operation *> worklist = {start};
  auto visit = [&](Value value) {
    Operation *def = value.getDefiningOp();
    Operation *dep = def ? block->findAncestorOpInBlock(*def) : nullptr;
    if (!dep || slice.contains(dep))
      return;
    if (!isMovable(dep)) {
      anchor = later(anchor, dep);
      return;
    }
    slice.insert(dep);
    worklist.push_back(dep);
  };
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands())
      visit(operand);
    for (Region &region : op->getRegions())
      visitUsedValuesDefinedAbove(region, region,
                                  [&](OpOperand *use) { visit(use->get()); });
  }
  for (Operation *op = start->getPrevNode(); op; op = op->getPrevNode()) {
    if (!mayCross(op)) { // (the slice itself holds no collective)
      anchor = later(anchor, op);
      break;
    }
  }
  SmallVector<Operation *> moved;
  for (Operation *op : slice)
    if (!anchor || anchor->isBeforeInBlock(op))
      moved.push_back(op);
  llvm::sort(moved, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  moved.push_back(start);
  Operation *previous = anchor;
  for (Operation *op : moved) {
    if (previous)
      op->moveAfter(previous);
    else
      op->moveBefore(block, block->begin());
    previous = op;
  }
}

struct OverlapCollectivesPass
    : tad::impl::TadOverlapCollectivesPassBase<OverlapCollectivesPass> {
  void runOnOperation() override {
    SmallVector<func::CallOp> starts;
    getOperation()->walk([&](func::CallOp call) {
      if (call.getCallee().starts_with("_tad_mpi_start_"))
        starts.push_back(call);
    });
    for (func::CallOp start : starts)
      hoist(start);
  }
};

} // namespace
