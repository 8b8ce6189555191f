//===- ReverseSweep.h - adjoints of one region, last op first ---*- C++ -*-===//
//
// The reverse sweep visits a block's ops last to first and asks the rules for
// each op's contribution to its operands' adjoints. An scf.for becomes a
// reverse scf.for over the descending iteration number and an scf.if a
// reverse scf.if on the same condition; their bodies are swept by nested
// sweeps. The adjoints of loop-carried values and of values captured from
// above are the reverse loop's iter_args (the reverse if's results).
//
// A rule emitted in a reverse body may read a forward value that is defined
// inside the forward loop or branch and so does not dominate it. Each such
// construct is recorded as a PendingStorage; once the whole sweep is built,
// ReverseStorage.h makes those values available (stacked per iteration,
// recomputed, or yielded by the forward branch).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_REVERSESWEEP_H
#define TAD_PASSES_AD_REVERSESWEEP_H

#include "passes/AD/Activity.h"
#include "passes/AD/DerivativeRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tad {

/// A forward scf.for or scf.if whose reverse reads values defined inside it.
struct PendingStorage {
  Operation *forward = nullptr;
  Operation *reverse = nullptr;
  /// Loops only: the trip count (computed before the forward loop), the
  /// forward induction variable's value in the reverse body, the iteration
  /// number that the reverse body handles, and the op after which the
  /// reverse body may read stored values.
  Value tripCount;
  Value reverseIv;
  Value reverseIteration;
  Operation *readPoint = nullptr;
  /// Loops only: the reverse body recomputes the forward body from the
  /// stored loop-carried values instead of storing what it reads (a
  /// checkpointed segment loop, Checkpoint.h).
  bool recompute = false;
  /// Loops only, with `recompute`: the stored loop-carried values are
  /// replaced by this many snapshots, placed by binomial checkpointing
  /// (Revolve.h); 0 otherwise.
  int64_t revolveSnapshots = 0;
};

/// The number of iterations of `loop`, built at `b` (before the loop): a
/// constant when the bounds are, else max(0, ceildiv(ub - lb, step)).
Value buildTripCount(OpBuilder &b, scf::ForOp loop);

class ReverseSweep {
public:
  ReverseSweep(OpBuilder &b, DerivativeRules &rules, const Activity &activity,
               SmallVectorImpl<PendingStorage> &pending)
      : b(b), rules(rules), activity(activity), pending(pending) {}

  /// Adds `contribution` to the adjoint of `value`, reducing a broadcast
  /// contribution to `value`'s shape first.
  LogicalResult accumulate(Operation *user, Value value, Value contribution);

  /// Replaces the adjoint of `value` (null: a symbolic zero).
  void set(Value value, Value adjoint);

  Value lookup(Value value) const { return adjoints.lookup(value); }

  /// Propagates the adjoints of `op`'s results to its operands.
  LogicalResult visit(Operation *op);

  /// Visits the ops of `block` last to first, its terminator excluded.
  LogicalResult visitBlock(Block &block);

private:
  LogicalResult visitFor(scf::ForOp loop);
  LogicalResult visitIf(scf::IfOp branch);
  /// tensor.extract_slice and tensor.insert_slice are linear; their
  /// adjoints are the transposed slice ops (reading per-iteration inputs in
  /// a loop, and reverse over reverse through a loop's stacks).
  LogicalResult visitExtractSlice(tensor::ExtractSliceOp op);
  LogicalResult visitInsertSlice(tensor::InsertSliceOp op);
  /// The adjoint of `value`, or a zero tensor of its type (shaped like
  /// `like`, or `value`, when the type is dynamic).
  Value lookupOrZeros(Value value, Location loc, Value like = {});

  OpBuilder &b;
  DerivativeRules &rules;
  const Activity &activity;
  SmallVectorImpl<PendingStorage> &pending;
  DenseMap<Value, Value> adjoints;
};

} // namespace mlir::tad

#endif // TAD_PASSES_AD_REVERSESWEEP_H
