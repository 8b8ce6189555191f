//===- ShapeUtils.cpp - ATen shape rules on static shapes -----------------===//
#include "dialects/Tad/ShapeUtils.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::optional<SmallVector<int64_t>>
mlir::tad::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the trailing dimension.
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    std::optional<int64_t> size = broadcastDims(l, r);
    if (!size)
      return std::nullopt;
    result[i] = *size;
  }
  return result;
}

std::optional<int64_t> mlir::tad::broadcastDims(int64_t lhs, int64_t rhs) {
  if (lhs == rhs || rhs == 1)
    return lhs;
  if (lhs == 1)
    return rhs;
  // A dynamic size never broadcasts: it equals the other size at run time.
  if (ShapedType::isDynamic(lhs))
    return rhs;
  if (ShapedType::isDynamic(rhs))
    return lhs;
  return std::nullopt;
}

bool mlir::tad::dimsCompatible(int64_t lhs, int64_t rhs) {
  return lhs == rhs || ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs);
}

bool mlir::tad::shapesCompatible(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  return lhs.size() == rhs.size() &&
         llvm::all_of(llvm::zip_equal(lhs, rhs), [](auto pair) {
           return dimsCompatible(std::get<0>(pair), std::get<1>(pair));
         });
}

std::optional<int64_t> mlir::tad::wrapDim(int64_t dim, int64_t rank) {
  // ATen treats a scalar as rank 1 for dimension wrapping.
  int64_t bound = std::max<int64_t>(rank, 1);
  if (dim < -bound || dim >= bound)
    return std::nullopt;
  return dim < 0 ? dim + bound : dim;
}

std::optional<SmallVector<int64_t>> mlir::tad::wrapDims(ArrayRef<int64_t> dims,
                                                        int64_t rank) {
  SmallVector<int64_t> result;
  if (dims.empty()) {
    for (int64_t d = 0; d < rank; ++d)
      result.push_back(d);
    return result;
  }
  for (int64_t dim : dims) {
    std::optional<int64_t> wrapped = wrapDim(dim, rank);
    if (!wrapped || llvm::is_contained(result, *wrapped))
      return std::nullopt;
    result.push_back(*wrapped);
  }
  llvm::sort(result);
  // A rank-0 tensor reduced over dim 0 (or -1) is still rank 0.
  if (rank == 0)
    result.clear();
  return result;
}

SmallVector<int64_t> mlir::tad::reducedShape(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> dims,
                                             bool keepdim) {
  SmallVector<int64_t> result;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(i)))
      result.push_back(size);
    else if (keepdim)
      result.push_back(1);
  }
  return result;
}

std::optional<SmallVector<int64_t>>
mlir::tad::sumToSizeDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (to.size() > from.size())
    return std::nullopt;
  size_t lead = from.size() - to.size();
  SmallVector<int64_t> dims;
  for (size_t i = 0; i < lead; ++i)
    dims.push_back(i);
  for (size_t i = 0; i < to.size(); ++i) {
    int64_t f = from[lead + i], t = to[i];
    // A dynamic size never broadcasts, so `to` keeps it whole.
    if (t == f || ShapedType::isDynamic(t))
      continue;
    if (t != 1)
      return std::nullopt;
    dims.push_back(lead + i);
  }
  return dims;
}

std::optional<SmallVector<int64_t>>
mlir::tad::inferViewShape(ArrayRef<int64_t> size, int64_t numel) {
  SmallVector<int64_t> result(size);
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (auto [i, s] : llvm::enumerate(size)) {
    if (s == -1) {
      if (inferred)
        return std::nullopt;
      inferred = i;
    } else if (s < 0) {
      return std::nullopt;
    } else {
      known *= s;
    }
  }
  if (inferred) {
    if (known == 0 || numel % known != 0)
      return std::nullopt;
    result[*inferred] = numel / known;
    return result;
  }
  if (known != numel)
    return std::nullopt;
  return result;
}

std::optional<SmallVector<int64_t>>
mlir::tad::inferExpandShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> size) {
  if (size.size() < shape.size())
    return std::nullopt;
  size_t lead = size.size() - shape.size();
  SmallVector<int64_t> result;
  for (auto [i, s] : llvm::enumerate(size)) {
    if (i < lead) {
      // New leading dimensions cannot be -1.
      if (s < 0)
        return std::nullopt;
      result.push_back(s);
      continue;
    }
    int64_t old = shape[i - lead];
    if (s == -1 || s == old) {
      result.push_back(old);
    } else if (old == 1 && s >= 0) {
      result.push_back(s);
    } else {
      return std::nullopt;
    }
  }
  return result;
}

bool mlir::tad::refinesTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() != to.size())
    return false;
  return llvm::all_of(llvm::zip_equal(from, to), [](auto sizes) {
    auto [a, b] = sizes;
    return a == b || (ShapedType::isDynamic(a) && b != 1) ||
           (ShapedType::isDynamic(b) && a != 1);
  });
}

std::optional<SmallVector<int64_t>>
mlir::tad::staticSumTarget(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  int64_t lead = static_cast<int64_t>(from.size()) - static_cast<int64_t>(to.size());
  SmallVector<int64_t> resolved(to);
  bool any = false;
  for (auto [i, size] : llvm::enumerate(resolved)) {
    int64_t source = lead + static_cast<int64_t>(i) >= 0 ? from[lead + i] : 1;
    if (ShapedType::isDynamic(size) && !ShapedType::isDynamic(source) &&
        source != 1) {
      size = source;
      any = true;
    }
  }
  if (!any)
    return std::nullopt;
  return resolved;
}

int64_t mlir::tad::addSizes(int64_t lhs, int64_t rhs) {
  if (ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs))
    return ShapedType::kDynamic;
  return lhs + rhs;
}

int64_t mlir::tad::mulSizes(int64_t lhs, int64_t rhs) {
  if (lhs == 0 || rhs == 0)
    return 0;
  if (ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs))
    return ShapedType::kDynamic;
  return lhs * rhs;
}

std::string mlir::tad::shapeToString(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "]";
  return text;
}
