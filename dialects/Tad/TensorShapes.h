//===- TensorShapes.h - shape rules of the tensor op families ----*- C++ -*-===//
//
// ATen's shape rules for slicing, padding, splitting and advanced indexing,
// shared by type inference (Tad{Reduction,Matmul,Shape,Indexing}Ops.cpp)
// and the lowering (passes/Conversion/TadToLinalg/).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_DIALECT_TENSORSHAPES_H
#define TAD_DIALECT_TENSORSHAPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <optional>

namespace mlir::tad {

/// Start and length of `slice(start, end, step)` on a dimension of `size`,
/// with ATen's rules: missing start/end are 0/size, negative ones count from
/// the end, both are clamped to [0, size], and an empty range has length 0.
struct SliceBounds {
  int64_t start = 0, length = 0;
};
inline SliceBounds sliceBounds(int64_t size, std::optional<int64_t> start,
                               std::optional<int64_t> end, int64_t step) {
  // Over a dynamic size the clamping happens at run time: the length is
  // dynamic too.
  if (ShapedType::isDynamic(size))
    return {start.value_or(0), ShapedType::kDynamic};
  int64_t s = start.value_or(0), e = end.value_or(size);
  if (s < 0)
    s += size;
  if (e < 0)
    e += size;
  s = std::clamp<int64_t>(s, 0, size);
  e = std::clamp<int64_t>(e, s, size);
  return {s, (e - s + step - 1) / step};
}

/// Most results a split-like op (split, chunk, unbind) may have. Type
/// inference builds one type per piece, so without a bound its time would
/// grow with a dimension's size (a 2^40 dimension would never finish).
constexpr int64_t kMaxSplitPieces = int64_t(1) << 16;

/// Number of pieces of `split(size, split_size)` for a positive split_size
/// (one empty piece for an empty dimension); computed without overflow.
inline int64_t splitPieceCount(int64_t size, int64_t splitSize) {
  return size == 0 ? 1 : size / splitSize + (size % splitSize != 0);
}

/// Sizes of the pieces of `split(size, split_size)`: all `split_size`, the
/// last one the remainder (one empty piece for an empty dimension). Callers
/// bound splitPieceCount first.
inline SmallVector<int64_t> splitSizes(int64_t size, int64_t splitSize) {
  SmallVector<int64_t> sizes;
  if (size == 0)
    return {0};
  for (int64_t start = 0; start < size; start += std::min(splitSize, size - start))
    sizes.push_back(std::min(splitSize, size - start));
  return sizes;
}

/// Result shape of `constant_pad_nd(shape, pad)`: pad holds (low, high)
/// pairs from the last dimension backwards; negative values crop. nullopt
/// if pad is too long, odd or a size would become negative.
inline std::optional<SmallVector<int64_t>> paddedShape(ArrayRef<int64_t> shape,
                                                       ArrayRef<int64_t> pad) {
  int64_t rank = shape.size();
  if (pad.size() % 2 != 0 || static_cast<int64_t>(pad.size()) > 2 * rank)
    return std::nullopt;
  SmallVector<int64_t> result(shape);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t dim = rank - 1 - i;
    result[dim] += pad[2 * i] + pad[2 * i + 1];
    if (result[dim] < 0)
      return std::nullopt;
  }
  return result;
}

/// Inverse of a permutation of [0, n).
inline SmallVector<int64_t> invertPermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

} // namespace mlir::tad

#endif // TAD_DIALECT_TENSORSHAPES_H
