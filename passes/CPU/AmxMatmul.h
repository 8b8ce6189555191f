//===- AmxMatmul.h - bf16 matmuls on AMX tiles ------------------*- C++ -*-===//
#ifndef TAD_PASSES_CPU_AMXMATMUL_H
#define TAD_PASSES_CPU_AMXMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tad {

/// Replaces `op`, a bf16 x bf16 -> f32 linalg.matmul or batch_matmul on
/// static buffers with contiguous rows (A and B as stored or transposed),
/// m and n multiples of 32 and k of 32, by AMX tile loops (transposed
/// operands copied into the plain layout and B into k-pair panels first;
/// row blocks of A sized to half of `l2Bytes`, at least `cores` of them
/// where m allows, in parallel when `parallel`, or the batches in
/// parallel). Fails, leaving `op` as it is, for any other contraction.
LogicalResult buildAmxMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                             int64_t l2Bytes, int64_t cores, bool parallel);

} // namespace mlir::tad

#endif // TAD_PASSES_CPU_AMXMATMUL_H
