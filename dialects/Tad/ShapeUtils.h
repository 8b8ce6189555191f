//===- ShapeUtils.h - ATen shape rules ---------------------------*- C++ -*-===//
//
// Broadcasting, dimension wrapping and reduction shapes as ATen defines
// them. Shared by type inference, the lowering and the reverse pass.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_DIALECT_SHAPEUTILS_H
#define TAD_DIALECT_SHAPEUTILS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mlir::tad {

/// NumPy/ATen broadcast of two shapes; nullopt when incompatible. Dynamic
/// sizes (ShapedType::kDynamic) never broadcast: `?` against 1 is `?`,
/// against `?` or a static size other than 1 it must equal that size at
/// run time (checked by tad-check-shapes), as torch.export assumes of its
/// dynamic dims.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs);

/// Broadcast of two sizes (see broadcastShapes); nullopt when incompatible.
std::optional<int64_t> broadcastDims(int64_t lhs, int64_t rhs);

/// Whether two sizes can be equal: equal, or one of them dynamic.
bool dimsCompatible(int64_t lhs, int64_t rhs);

/// Whether two shapes have the same rank and compatible sizes.
bool shapesCompatible(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs);

/// Wraps a possibly negative dimension into [0, rank); nullopt if out of range.
std::optional<int64_t> wrapDim(int64_t dim, int64_t rank);

/// Wraps and checks a dimension list (empty means all dimensions); nullopt
/// if a dimension is out of range or repeated. The result is sorted.
std::optional<SmallVector<int64_t>> wrapDims(ArrayRef<int64_t> dims,
                                             int64_t rank);

/// Shape of a reduction over sorted `dims`.
SmallVector<int64_t> reducedShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> dims, bool keepdim);

/// Dimensions of `from` to sum so that the result, with keepdim, reshapes to
/// `to` (the inverse of broadcasting `to` to `from`); nullopt if `to` does
/// not broadcast to `from`. Leading dimensions that `to` lacks come first.
std::optional<SmallVector<int64_t>> sumToSizeDims(ArrayRef<int64_t> from,
                                                  ArrayRef<int64_t> to);

/// Resolves a view/reshape size list with at most one -1 against `numel`.
std::optional<SmallVector<int64_t>> inferViewShape(ArrayRef<int64_t> size,
                                                   int64_t numel);

/// Resolves an expand size list (-1 keeps a dimension) against `shape`.
std::optional<SmallVector<int64_t>> inferExpandShape(ArrayRef<int64_t> shape,
                                                     ArrayRef<int64_t> size);

/// Whether a tensor of shape `from` has shape `to` once its dynamic sizes
/// are known (and `to`'s): same rank, and where they differ one side is
/// dynamic and the other is not 1 (a dynamic size never broadcasts, so
/// against 1 it must be summed, not taken as 1).
bool refinesTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to);

/// The sizes `from` sums to for `to` (aligned from the last) with each
/// dynamic size of `to` that faces a static size other than 1 replaced by
/// that size, which it must be; nullopt when none is.
std::optional<SmallVector<int64_t>> staticSumTarget(ArrayRef<int64_t> from,
                                                    ArrayRef<int64_t> to);

/// Sum and product of two sizes where either may be dynamic: dynamic, but
/// a product with a static 0 is 0.
int64_t addSizes(int64_t lhs, int64_t rhs);
int64_t mulSizes(int64_t lhs, int64_t rhs);

/// "[4, 3]" for diagnostics.
std::string shapeToString(ArrayRef<int64_t> shape);

} // namespace mlir::tad

#endif // TAD_DIALECT_SHAPEUTILS_H
