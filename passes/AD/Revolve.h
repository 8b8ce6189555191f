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
// and r is the least count with B(f+1, r) >= l: no iteration is advanced
// more than r times (r for l = n, f = S - 1), and this d minimises the
// total number of iterations advanced (checked against an exhaustive search
// of all splits). The reverse body then recomputes what the rules of
// iteration i read from its carried values (ReverseStorage.h). So S
// snapshots and one iteration's values are live at a time, and the
// forward body runs at most (r + 2) n times in all, the forward pass
// included.
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

/// Clones `loop`'s body at `b` as its `iteration`-th iteration (counted
/// from 0) on the carried values `carried`; returns the values it yields.
SmallVector<Value> cloneIteration(OpBuilder &b, scf::ForOp loop,
                                  Value iteration, ValueRange carried);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_REVOLVE_H
