//===- Bf16Matmul.h - bf16 matmuls on AMX tiles or AVX512-BF16 --*- C++ -*-===//
#ifndef TAD_PASSES_CPU_BF16MATMUL_H
#define TAD_PASSES_CPU_BF16MATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tad {

/// The instructions a bf16 matmul kernel computes with.
enum class Bf16Kernel {
  Amx,    // TDPBF16PS on AMX tiles
  AvxDot, // VDPBF16PS on 512-bit vectors (AVX512-BF16)
};

/// Replaces `op`, a bf16 x bf16 -> f32 linalg.matmul or batch_matmul on
/// static buffers (A and B as stored or transposed), by `kernel`'s loops:
/// operands that are transposed, not whole 32x32 blocks (k: whole AMX tiles
/// or pairs) or not contiguous rows are copied into the plain layout padded
/// with zeros, B into k-pair panels; row blocks of A sized to half of
/// `l2Bytes`, at least `cores` of them where m allows, in parallel when
/// `parallel`, or the batches in parallel. Fails, leaving `op` as it is,
/// for any other contraction.
LogicalResult buildBf16Matmul(RewriterBase &rewriter, linalg::LinalgOp op,
                              Bf16Kernel kernel, int64_t l2Bytes,
                              int64_t cores, bool parallel);

} // namespace mlir::tad

#endif // TAD_PASSES_CPU_BF16MATMUL_H
