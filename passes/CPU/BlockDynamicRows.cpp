//===- BlockDynamicRows.cpp - matmuls of a dynamic row count in blocks ----===//
//
// See TadBlockDynamicRowsPass in Passes.td. The matmul schedule
// (tad-vectorize-contractions) needs static shapes; a matmul whose rows
// are dynamic (a dynamic batch) becomes a loop over blocks of a static
// number of rows, and the last, partial block is computed in zero-padded
// temporaries of the block's size, so that every matmul the schedule sees
// is static.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADBLOCKDYNAMICROWSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether `operand` of `op` is indexed by loop dimension `dim`, and where.
std::optional<unsigned> positionOf(linalg::MatmulOp op, OpOperand &operand,
                                   unsigned dim) {
  return op.getMatchingIndexingMap(&operand).getResultPosition(
      getAffineDimExpr(dim, op.getContext()));
}

/// The loop dimension of a matmul on buffers that is its only dynamic size,
/// where every operand that uses it has it as its rows (dimension 0 of a
/// 2-D buffer): the rows of A and C (a dynamic batch), or the reduction
/// (a weight gradient A^T @ B over a dynamic batch).
std::optional<unsigned> dynamicRowDim(linalg::MatmulOp op) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  std::optional<unsigned> dynamic;
  for (auto [d, bound] : llvm::enumerate(bounds)) {
    if (!ShapedType::isDynamic(bound))
      continue;
    if (dynamic)
      return std::nullopt;
    dynamic = d;
  }
  if (!dynamic)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || type.getRank() != 2 || !isa<FloatType>(type.getElementType()))
      return std::nullopt;
    std::optional<unsigned> position = positionOf(op, operand, *dynamic);
    if (position ? *position != 0 || type.isDynamicDim(1)
                 : !type.hasStaticShape())
      return std::nullopt;
  }
  return dynamic;
}

/// Rows [offset, offset + size) of the 2-D buffer `value`.
Value rows(OpBuilder &b, Location loc, Value value, OpFoldResult offset,
           OpFoldResult size) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> offsets{offset, b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes{size, b.getIndexAttr(type.getDimSize(1))};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  return memref::SubViewOp::create(b, loc, value, offsets, sizes, strides);
}

/// `op` again, with its indexing maps, on `operands` (inputs, then init).
void rebuild(OpBuilder &b, linalg::MatmulOp op, ArrayRef<Value> operands) {
  auto clone = linalg::MatmulOp::create(b, op.getLoc(),
                                        operands.drop_back(), operands.back());
  clone.setIndexingMapsAttr(op.getIndexingMaps());
}

/// Replaces `op` by blocks of `block` along its dynamic dimension `dim`,
/// the last, partial one in zero-padded buffers of `block` rows.
void blockRows(linalg::MatmulOp op, unsigned dim, int64_t block) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<bool> usesDim;
  Value dynamicOperand;
  for (OpOperand &operand : op->getOpOperands()) {
    bool uses = positionOf(op, operand, dim).has_value();
    usesDim.push_back(uses);
    if (uses && !dynamicOperand)
      dynamicOperand = operand.get();
  }
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value blockSize = arith::ConstantIndexOp::create(b, loc, block);
  Value size = memref::DimOp::create(b, loc, dynamicOperand, 0);
  Value full = arith::DivUIOp::create(b, loc, size, blockSize);
  Value done = arith::MulIOp::create(b, loc, full, blockSize);
  OpOperand *init = op.getDpsInitOperand(0);

  // Full blocks: static shapes.
  scf::ForOp::create(
      b, loc, zeroIndex, full, one, ValueRange{},
      [&](OpBuilder &lb, Location ll, Value i, ValueRange) {
        Value start = arith::MulIOp::create(lb, ll, i, blockSize);
        SmallVector<Value> operands;
        for (auto [k, operand] : llvm::enumerate(op->getOperands()))
          operands.push_back(usesDim[k] ? rows(lb, ll, operand, start,
                                               lb.getIndexAttr(block))
                                        : operand);
        rebuild(lb, op, operands);
        scf::YieldOp::create(lb, ll);
      });

  // The rest, fewer than `block`: copied into zero-filled buffers of
  // `block` rows (zero rows add nothing to a reduction; padded output rows
  // are dropped), the output's rows copied back.
  Value rest = arith::SubIOp::create(b, loc, size, done);
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, rest,
                                    zeroIndex);
  scf::IfOp::create(b, loc, any, [&](OpBuilder &tb, Location tl) {
    SmallVector<Value> operands, buffers;
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      if (!usesDim[k]) {
        operands.push_back(operand);
        continue;
      }
      auto type = cast<MemRefType>(operand.getType());
      Value buffer = memref::AllocOp::create(
          tb, tl,
          MemRefType::get({block, type.getDimSize(1)}, type.getElementType()));
      Value zero = arith::ConstantOp::create(
          tb, tl, tb.getZeroAttr(type.getElementType()));
      linalg::FillOp::create(tb, tl, zero, buffer);
      memref::CopyOp::create(tb, tl, rows(tb, tl, operand, done, rest),
                             rows(tb, tl, buffer, tb.getIndexAttr(0), rest));
      operands.push_back(buffer);
      buffers.push_back(buffer);
    }
    rebuild(tb, op, operands);
    if (usesDim[init->getOperandNumber()])
      memref::CopyOp::create(
          tb, tl,
          rows(tb, tl, operands[init->getOperandNumber()], tb.getIndexAttr(0),
               rest),
          rows(tb, tl, init->get(), done, rest));
    for (Value buffer : buffers)
      memref::DeallocOp::create(tb, tl, buffer);
    scf::YieldOp::create(tb, tl);
  });
  op.erase();
}

struct TadBlockDynamicRowsPass
    : tad::impl::TadBlockDynamicRowsPassBase<TadBlockDynamicRowsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (rowBlock <= 0) {
      getOperation()->emitError("tad-block-dynamic-rows: row-block must be "
                                "positive, got ")
          << rowBlock;
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::MatmulOp, unsigned>> matmuls;
    getOperation()->walk([&](linalg::MatmulOp op) {
      if (std::optional<unsigned> dim = dynamicRowDim(op))
        matmuls.push_back({op, *dim});
    });
    for (auto [op, dim] : matmuls)
      blockRows(op, dim, rowBlock);
  }
};

} // namespace
