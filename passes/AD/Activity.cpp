//===- Activity.cpp - which values carry derivatives ----------------------===//
#include "passes/AD/Activity.h"
#include "passes/AD/Differentiation.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tad;

void Activity::seed(Value value) {
  if (carriesDerivative(value.getType()))
    active.insert(value);
}

bool Activity::anyOperandActive(Operation *op) const {
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return active.contains(v); });
}

void Activity::propagate(Block &block) {
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg] :
           llvm::zip_equal(loop.getInitArgs(), loop.getRegionIterArgs()))
        if (active.contains(init))
          seed(arg);
      // Each round can only add values, so this ends; a loop-carried value
      // that becomes active through the yield makes the body run again.
      bool changed = true;
      while (changed) {
        propagate(*loop.getBody());
        changed = false;
        for (auto [yielded, arg] :
             llvm::zip_equal(loop.getYieldedValues(), loop.getRegionIterArgs()))
          if (active.contains(yielded) && !active.contains(arg) &&
              carriesDerivative(arg.getType())) {
            active.insert(arg);
            changed = true;
          }
      }
      for (auto [arg, result] :
           llvm::zip_equal(loop.getRegionIterArgs(), loop.getResults()))
        if (active.contains(arg))
          active.insert(result);
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      propagate(*branch.thenBlock());
      if (branch.elseBlock())
        propagate(*branch.elseBlock());
      for (auto [index, result] : llvm::enumerate(branch.getResults())) {
        bool fromThen = active.contains(branch.thenYield().getOperand(index));
        bool fromElse = branch.elseBlock() &&
                        active.contains(branch.elseYield().getOperand(index));
        if (fromThen || fromElse)
          seed(result);
      }
      continue;
    }
    // After ExpandWhile (ExpandWhile.h) an scf.while only counts
    // iterations: the replay that follows it computes the results, and the
    // loop's own results are not differentiated.
    if (isa<scf::WhileOp>(op))
      continue;
    if (anyOperandActive(&op))
      for (Value result : op.getResults())
        seed(result);
  }
}
