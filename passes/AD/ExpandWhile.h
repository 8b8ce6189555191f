//===- ExpandWhile.h - scf.while as a counted scf.for ------------*- C++ -*-===//
//
// An scf.while runs a data-dependent number of iterations, so its reverse
// sweep cannot know the trip count in advance. Before differentiation each
// scf.while is rewritten into
//   1. the same loop with an iteration counter, run for its count n;
//   2. an scf.for of n iterations, each the before region then the after
//      region (the condition held);
//   3. a last evaluation of the before region (where the condition failed),
//      whose forwarded values are the loop's results.
// Parts 2 and 3 compute the results and are what gets differentiated, as
// any scf.for. The regions run twice (count, then replay), so they must be
// free of side effects, which tad's tensor ops are.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_EXPANDWHILE_H
#define TAD_PASSES_AD_EXPANDWHILE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tad {

/// Expands every scf.while nested in `root`, innermost first. Reports a
/// loop whose regions have side effects.
LogicalResult expandWhileLoops(Operation *root);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_EXPANDWHILE_H
