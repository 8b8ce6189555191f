//===- Activity.h - which values carry derivatives --------------*- C++ -*-===//
//
// A value is active when it depends on a differentiable argument: only active
// values get adjoints (reverse mode) or tangents (forward mode). Loops and
// branches are followed: a loop-carried value is active when its initial
// value or what the body yields for it is, which is found by iterating to a
// fixed point over the body.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_ACTIVITY_H
#define TAD_PASSES_AD_ACTIVITY_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tad {

class Activity {
public:
  /// Marks `value` active if it can carry a derivative.
  void seed(Value value);

  /// Propagates activity through `block`'s ops in order, into the regions
  /// of scf.for and scf.if.
  void propagate(Block &block);

  bool isActive(Value value) const { return active.contains(value); }
  const DenseSet<Value> &getActive() const { return active; }

private:
  /// Whether any operand of `op` is active.
  bool anyOperandActive(Operation *op) const;

  DenseSet<Value> active;
};

} // namespace mlir::tad

#endif // TAD_PASSES_AD_ACTIVITY_H
