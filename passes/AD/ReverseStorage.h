//===- ReverseStorage.h - forward values for reverse bodies -----*- C++ -*-===//
//
// After the reverse sweep is built, a reverse loop or branch may read values
// defined inside its forward loop or branch. This makes them available:
//  - loops: the forward induction variable is recomputed from the reverse
//    iteration number; constants and scalar index arithmetic are recomputed
//    in the reverse body; any other value (what a rule reads, nothing more)
//    is stored per iteration in a loop-carried tensor with a leading
//    iteration dimension, written with tensor.insert_slice (tensor.insert
//    for a scalar) and read back with tensor.extract_slice; dynamic sizes
//    of a stored value are those of the first iteration, computed before
//    the loop (tad-check-shapes checks every iteration's against them);
//  - checkpointed segment loops (PendingStorage::recompute, Checkpoint.h):
//    only the loop-carried values are stored per iteration; the reverse
//    body recomputes the forward body from them;
//  - branches: the forward scf.if yields the values as extra results (the
//    other branch yields a placeholder that is never read).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_REVERSESTORAGE_H
#define TAD_PASSES_AD_REVERSESTORAGE_H

#include "passes/AD/ReverseSweep.h"

namespace mlir::tad {

/// Offsets, sizes and strides of the slice of a stack (a tensor with a
/// leading iteration or slot dimension) that holds entry `iteration` of
/// sizes `valueSizes`.
void sliceOf(OpBuilder &b, ArrayRef<OpFoldResult> valueSizes, Value iteration,
             SmallVectorImpl<OpFoldResult> &offsets,
             SmallVectorImpl<OpFoldResult> &sizes,
             SmallVectorImpl<OpFoldResult> &strides);

/// Makes the forward values that each entry's reverse reads available there.
/// `pending` is in the order the sweep records entries: innermost first.
LogicalResult storeForReverse(MutableArrayRef<PendingStorage> pending);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_REVERSESTORAGE_H
