//===- Checkpoint.h - segmented loops for checkpointed reverse --*- C++ -*-===//
//
// By default the reverse sweep of an scf.for stores, per iteration, every
// forward value its rules read: memory grows with the trip count n. A
// checkpointed loop stores only the loop-carried values at the start of each
// segment of k iterations (the checkpoints) and, in the reverse sweep,
// recomputes one segment forward from its checkpoint, storing that segment's
// values, before reversing it: memory O(n/k + k), the forward computed twice.
//
// Before reverse-mode differentiation each loop to checkpoint is rewritten
// (in a copy of the function; the function keeps its loop) into
//   scf.for %g = 0 to n/k {tad.recompute}     // one iteration per segment
//     scf.for %j = 0 to k                     // the segment, stored
//   scf.for %j = 0 to n mod k                 // the rest, stored
// The segment loop's reverse recomputes its body (ReverseStorage.h).
//
// The scheme is chosen per loop by the `tad.checkpoint` attribute of the
// scf.for, else by the pass option: "store" (every iteration, the default),
// "sqrt" (k = ceil(sqrt(n)), O(sqrt(n)) memory), an integer k, or
// "levels:L" (multi-level: segments of about n^((L-1)/L) iterations, each
// segmented again with L-1 levels, so about L * n^(1/L) checkpoints live at
// once for L forward passes; "levels:2" is "sqrt"), or "revolve:S"
// (binomial checkpointing with S snapshots: the loop is not segmented but
// marked, and its reverse recomputes each iteration's carried values from
// the snapshots; ReverseStorage.h).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_AD_CHECKPOINT_H
#define TAD_PASSES_AD_CHECKPOINT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::tad {

/// The loop attribute that selects a loop's scheme.
inline constexpr llvm::StringLiteral kCheckpointAttr = "tad.checkpoint";
/// Marks a segment loop whose reverse recomputes its body (internal).
inline constexpr llvm::StringLiteral kRecomputeAttr = "tad.recompute";
/// Marks a loop reversed by binomial checkpointing, with its snapshot
/// budget (internal).
inline constexpr llvm::StringLiteral kRevolveAttr = "tad.revolve";

/// How a loop's reverse sweep gets the forward values it reads.
struct CheckpointScheme {
  enum class Kind { Store, Sqrt, Every, Levels, Revolve };
  Kind kind = Kind::Store;
  /// Segment length for Kind::Every.
  int64_t every = 0;
  /// Levels of segments for Kind::Levels (at least 2).
  int64_t levels = 0;
  /// Snapshots of the carried values for Kind::Revolve (at least 1: the
  /// initial values).
  int64_t snapshots = 0;

  /// Parses "store", "sqrt", a positive integer, "levels:L" (L >= 1;
  /// "levels:1" is "store", "levels:2" is "sqrt") or "revolve:S"
  /// (1 <= S <= kMaxSnapshots); nullopt otherwise.
  static std::optional<CheckpointScheme> parse(StringRef text);
};

/// The largest snapshot budget of "revolve:S".
inline constexpr int64_t kMaxSnapshots = 1 << 16;

/// Segments every scf.for nested in `root` whose scheme (its attribute, else
/// `global`) is not "store", or marks it with kRevolveAttr for "revolve:S".
/// Reports a malformed attribute at its loop.
LogicalResult segmentCheckpointedLoops(Operation *root,
                                       CheckpointScheme global);

} // namespace mlir::tad

#endif // TAD_PASSES_AD_CHECKPOINT_H
