//===- RuntimeSliceBounds.h - ATen slice bounds over a run-time size -*- C++ -*-===//
//
// sliceBounds (TensorShapes.h) clamps a slice's start and end to a static
// size; over a dynamic size the same clamping is computed at run time.
// Shared by the lowering of slice.Tensor and the reverse pass's
// slice_backward over a dynamic dimension.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_DIALECT_RUNTIMESLICEBOUNDS_H
#define TAD_DIALECT_RUNTIMESLICEBOUNDS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::tad {

/// The start and length (index values) of ATen's slice [start, end) with
/// `step` of a dimension of run-time size `size` (an index): missing bounds
/// are 0 and the size, negative ones count from the end, both are clamped
/// to [0, size] and the end to at least the start.
inline std::pair<Value, Value>
buildSliceBounds(OpBuilder &b, Location loc, Value size,
                 std::optional<int64_t> start, std::optional<int64_t> end,
                 int64_t step) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = constant(0);
  auto wrapped = [&](std::optional<int64_t> bound, Value otherwise) -> Value {
    if (!bound)
      return otherwise;
    // Bounds past any size (PyTorch's x[1:] ends at 2^63 - 1) stay clamped.
    int64_t v = std::clamp<int64_t>(*bound, -(int64_t(1) << 62),
                                    int64_t(1) << 62);
    Value value = constant(v);
    if (v < 0)
      value = arith::AddIOp::create(b, loc, value, size);
    return value;
  };
  Value s = wrapped(start, zero);
  s = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, s, zero),
                             size);
  Value e = wrapped(end, size);
  e = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, e, s),
                             size);
  Value length = arith::SubIOp::create(b, loc, e, s);
  if (step != 1)
    length = arith::CeilDivSIOp::create(b, loc, length, constant(step));
  return {s, length};
}

} // namespace mlir::tad

#endif // TAD_DIALECT_RUNTIMESLICEBOUNDS_H
