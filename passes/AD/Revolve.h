//===- Revolve.h - binomial checkpointing of a reverse loop -----*- C++ -*-===//
//
// A loop checkpointed with "revolve:S" (Checkpoint.h) keeps nothing per
// iteration. Its reverse loop carries up to S snapshots of the forward
// loop's carried values (slot 0 holds the initial values), each with the
// iteration it was taken at. To reverse forward iteration i, the reverse
// body drops the snapshots taken after i, restores the latest one (taken at
// iteration c) and runs the forward body from c to i, taking snapshots
// where binomial checkpointing places them (Griewank and Walther's
// revolve): with l = i + 1 - c iterations left and f free slots, the next
// one d iterations on, where
//   d = max(1, B(f+1, r-2), l - B(f, r)),  B(s, t) = C(s+t, s) (0 if t < 0),
// and r is the least count with B(f+1, r) >= l. This d minimises the total
// number of iterations run again (checked against an exhaustive search of
// all splits). The forward loop takes the snapshots of the first reverse
// iteration (i = n - 1) itself, so no iteration runs again more than
// r - 1 times (r for l = n, f = S - 1). The reverse body then recomputes
// what the rules of iteration i read from its carried values
// (ReverseStorage.h). So S snapshots and one iteration's values are live
// at a time, and the forward body runs at most (r + 1) n times in all.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_REVOLVE_H
#define TAD_PASSES_AD_REVOLVE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::tad {

/// Replaces `reverse`, the reverse loop of `forward`, by one that also
/// carries `snapshots` snapshots of `forward`'s carried values, of sizes
/// `sizes` (static sizes as attributes, dynamic ones as values defined
/// before `forward`), and builds right after `readPoint` in its body
/// `forward`'s carried values at the start of forward iteration `iteration`
/// (counted from 0). Returns those values, in the order of `forward`'s
/// iter_args.
FailureOr<SmallVector<Value>>
restoreByRevolve(scf::ForOp forward, scf::ForOp &reverse, Operation *readPoint,
                 Value iteration, int64_t snapshots,
                 ArrayRef<SmallVector<OpFoldResult>> sizes);

/// Makes `forward` (whose reverse loop `reverse` restoreByRevolve built)
/// take the snapshots that the reverse's first iteration would take on its
/// way from iteration 0 to the last, n - 1 (`tripCount`), and start the
/// reverse with them. Call it when the reverse body reads none of
/// `forward`'s own values any more: `forward` is replaced.
LogicalResult takeForwardSnapshots(scf::ForOp forward, scf::ForOp reverse,
                                   Value tripCount, int64_t snapshots,
                                   ArrayRef<SmallVector<OpFoldResult>> sizes);

/// Clones `loop`'s body at `b` as its `iteration`-th iteration (counted
/// from 0) on the carried values `carried`; returns the values it yields.
SmallVector<Value> cloneIteration(OpBuilder &b, scf::ForOp loop,
                                  Value iteration, ValueRange carried);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_REVOLVE_H
