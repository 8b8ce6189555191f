//===- TadDialect.h - the tad dialect ----------------------------*- C++ -*-===//
#ifndef TAD_DIALECT_TADDIALECT_H
#define TAD_DIALECT_TADDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Tad/TadDialect.h.inc"

namespace mlir::tad {
/// Marks a loop whose memory is bounded on purpose (the loops of a
/// checkpointed loop's reverse sweep): transformations must not add storage
/// per iteration to it (tad-combine-matmul-sums' stacks).
inline constexpr llvm::StringLiteral kBoundedMemoryAttr = "tad.bounded_memory";
} // namespace mlir::tad

#endif // TAD_DIALECT_TADDIALECT_H
