//===- BlockDynamicRows.cpp - matmuls of a dynamic row count in blocks ----===//
//
// See TadBlockDynamicRowsPass in Passes.td. The matmul schedule
// (tad-vectorize-contractions) and the outlined, vectorized kernels
// (tad-outline-kernels) need static shapes; an op whose one dynamic size is
// the outer dimension of its operands (a dynamic batch) becomes a loop over
// blocks of a static number of rows. A matmul's rows go in large blocks,
// then small ones, and the last, partial block is computed in zero-padded
// temporaries of the small block's size, so that every matmul the schedule
// sees is static; other ops (elementwise, reductions, batch matmuls,
// transposes) leave their last, partial block to a dynamic op of fewer
// rows than a block.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADBLOCKDYNAMICROWSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether `operand` of `op` is indexed by loop dimension `dim`, and where.
std::optional<unsigned> positionOf(linalg::LinalgOp op, OpOperand &operand,
                                   unsigned dim) {
  return op.getMatchingIndexingMap(&operand).getResultPosition(
      getAffineDimExpr(dim, op.getContext()));
}

/// The loop dimension of a linalg op on buffers that is its only dynamic
/// size, if it has exactly one.
std::optional<unsigned> onlyDynamicLoopDim(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  std::optional<unsigned> dynamic;
  for (auto [d, bound] : llvm::enumerate(op.getStaticLoopRanges())) {
    if (!ShapedType::isDynamic(bound))
      continue;
    if (dynamic)
      return std::nullopt;
    dynamic = d;
  }
  return dynamic;
}

/// The loop dimension of a matmul on buffers that is its only dynamic size,
/// where every operand that uses it has it as its rows (dimension 0 of a
/// 2-D buffer): the rows of A and C (a dynamic batch), or the reduction
/// (a weight gradient A^T @ B over a dynamic batch).
std::optional<unsigned> dynamicRowDim(linalg::MatmulOp op) {
  std::optional<unsigned> dynamic = onlyDynamicLoopDim(op);
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

/// Rows [offset, offset + size) (along dimension 0) of the buffer `value`,
/// whose other dimensions are static.
Value rows(OpBuilder &b, Location loc, Value value, OpFoldResult offset,
           OpFoldResult size) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{size};
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = offset;
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(size));
  return memref::SubViewOp::create(b, loc, value, offsets, sizes, strides);
}

/// The loop dimension of a linalg op on buffers that is its only dynamic
/// size and dimension 0 of every operand that uses it (every other operand
/// static), whose body does not read that loop index: blocks of it are the
/// same op on row subviews.
std::optional<unsigned> dynamicOuterDim(linalg::LinalgOp op) {
  std::optional<unsigned> dynamic = onlyDynamicLoopDim(op);
  if (!dynamic)
    return std::nullopt;
  AffineExpr dimExpr = getAffineDimExpr(*dynamic, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      if (isa<ShapedType>(operand.get().getType()))
        return std::nullopt;
      continue; // a scalar (linalg.fill's value)
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> position = map.getResultPosition(dimExpr);
    bool restStatic = llvm::none_of(type.getShape().drop_front(),
                                    ShapedType::isDynamic);
    if (position ? *position != 0 || !restStatic || map.getResult(0) != dimExpr
                 : !type.hasStaticShape())
      return std::nullopt;
  }
  bool readsIndex = false;
  op->walk([&](linalg::IndexOp index) {
    readsIndex |= index.getDim() == *dynamic;
  });
  if (readsIndex)
    return std::nullopt;
  return dynamic;
}

/// The fill of a reduction's output (a weight gradient over a dynamic
/// batch) that its first block computes: that block's matmul writes its
/// output tiles from the fill value (tad-vectorize-contractions folds a
/// fill just before a contraction) instead of adding to memory zeroed in a
/// pass of its own. With the fill apart, a 512x784x128 weight gradient
/// took 1.45x the static time.
struct InitialFill {
  linalg::FillOp fill;
  /// i1: whether a block has written the output so far.
  Value started;
};

/// not `flag` (an i1).
Value negate(OpBuilder &b, Location loc, Value flag) {
  return arith::XOrIOp::create(
      b, loc, flag, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
}

/// The fill of `op`'s output just before it.
linalg::FillOp fillBefore(linalg::LinalgOp op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInits()[0] != op.getDpsInits()[0])
    return {};
  return fill;
}

/// Whether the output of `op` is indexed by its loop dimension `dim`.
bool outputUses(linalg::LinalgOp op, unsigned dim) {
  return positionOf(op, *op.getDpsInitOperand(0), dim).has_value();
}

/// The fill just before `op` of its output, where `dim` is a reduction
/// (the output does not use it): blocks of `op` accumulate into it.
linalg::FillOp initialFill(linalg::MatmulOp op, unsigned dim) {
  return outputUses(op, dim) ? linalg::FillOp() : fillBefore(op);
}

/// The fill just before the contraction `op` of its output over the rows
/// `dim`: it goes into each block with `op` (the pair is one kernel whose
/// tiles start from the fill value, not a pass of its own that zeroes the
/// output; 4% of a transformer block's forward went to such memsets).
linalg::FillOp rowFill(linalg::LinalgOp op, unsigned dim) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) ||
      !outputUses(op, dim))
    return {};
  return fillBefore(op);
}

/// Replaces `op` by a loop over full blocks of `block` along its dynamic
/// dimension `dim` (static ops on row subviews) and the same op on the
/// rest, fewer than `block` rows (dynamic); returns that last op. A fill
/// of the output rows just before `op` (rowFill) goes with it into each
/// block and before the rest. With `first`, the first block of all writes
/// the output after a copy of the fill (under an `scf.if`) and
/// `first->started` is updated.
Operation *splitOffBlocks(linalg::LinalgOp op, unsigned dim, int64_t block,
                          InitialFill *first = nullptr) {
  linalg::FillOp paired = rowFill(op, dim);
  OpBuilder b(op);
  Location loc = op.getLoc();
  AffineExpr dimExpr = getAffineDimExpr(dim, op.getContext());
  SmallVector<bool> usesDim;
  Value dynamicOperand;
  for (OpOperand &operand : op->getOpOperands()) {
    bool uses = isa<MemRefType>(operand.get().getType()) &&
                op.getMatchingIndexingMap(&operand)
                    .getResultPosition(dimExpr)
                    .has_value();
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
  auto cloneOn = [&](OpBuilder &cb, ValueRange operands) {
    IRMapping mapping;
    mapping.map(op->getOperands(), operands);
    if (paired)
      cb.clone(*paired, mapping);
    return cb.clone(*op, mapping);
  };
  auto cloneOnBlock = [&](OpBuilder &lb, Location ll, Value start) {
    SmallVector<Value> operands;
    for (auto [k, operand] : llvm::enumerate(op->getOperands()))
      operands.push_back(usesDim[k] ? rows(lb, ll, operand, start,
                                           lb.getIndexAttr(block))
                                    : operand);
    cloneOn(lb, operands);
  };
  Value lower = zeroIndex;
  if (first) {
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      full, zeroIndex);
    Value writes =
        arith::AndIOp::create(b, loc, any, negate(b, loc, first->started));
    scf::IfOp::create(b, loc, writes, [&](OpBuilder &tb, Location tl) {
      tb.clone(*first->fill);
      cloneOnBlock(tb, tl, zeroIndex);
      scf::YieldOp::create(tb, tl);
    });
    lower = arith::SelectOp::create(b, loc, writes, one, zeroIndex);
    first->started = arith::OrIOp::create(b, loc, first->started, any);
  }
  scf::ForOp::create(
      b, loc, lower, full, one, ValueRange{},
      [&](OpBuilder &lb, Location ll, Value i, ValueRange) {
        cloneOnBlock(lb, ll, arith::MulIOp::create(lb, ll, i, blockSize));
        scf::YieldOp::create(lb, ll);
      });
  Value rest = arith::SubIOp::create(b, loc, size, done);
  SmallVector<Value> operands;
  for (auto [k, operand] : llvm::enumerate(op->getOperands()))
    operands.push_back(usesDim[k] ? rows(b, loc, operand, done, rest)
                                  : operand);
  Operation *last = cloneOn(b, operands);
  op->erase();
  if (paired)
    paired->erase();
  return last;
}

/// Rows per block of an op whose rows (all loop sizes but the dynamic one)
/// hold `rowWork` iterations: enough rows for `target` iterations.
int64_t rowsFor(int64_t rowWork, int64_t target) {
  return std::max<int64_t>(1, llvm::divideCeil(target, std::max<int64_t>(
                                                           rowWork, 1)));
}

/// `op` again, with its indexing maps, on `operands` (inputs, then init).
void rebuild(OpBuilder &b, linalg::MatmulOp op, ArrayRef<Value> operands) {
  auto clone = linalg::MatmulOp::create(b, op.getLoc(),
                                        operands.drop_back(), operands.back());
  clone.setIndexingMapsAttr(op.getIndexingMaps());
}

/// Replaces `op` by blocks of `block` along its dynamic dimension `dim`
/// (splitOffBlocks), the last, partial one in zero-padded buffers of
/// `block` rows: zero rows add nothing to a reduction, the padded output
/// rows are dropped, the output's rows copied back. With `first`, the
/// first block writes the output after the fill, and without any block
/// the fill alone does.
void blockRows(linalg::MatmulOp op, unsigned dim, int64_t block,
               InitialFill *first = nullptr) {
  auto rest = cast<linalg::MatmulOp>(splitOffBlocks(op, dim, block, first));
  OpBuilder b(rest);
  Location loc = rest.getLoc();
  SmallVector<bool> usesDim;
  Value dynamicOperand;
  for (OpOperand &operand : rest->getOpOperands()) {
    bool uses = positionOf(rest, operand, dim).has_value();
    usesDim.push_back(uses);
    if (uses && !dynamicOperand)
      dynamicOperand = operand.get();
  }
  Value count = memref::DimOp::create(b, loc, dynamicOperand, 0);
  Value any = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt, count,
      arith::ConstantIndexOp::create(b, loc, 0));
  OpOperand *init = rest.getDpsInitOperand(0);
  // The fill where no block ran before, under `started` (i1).
  auto fillUnlessStarted = [&](OpBuilder &tb, Location tl,
                               function_ref<void(OpBuilder &)> then) {
    scf::IfOp::create(
        tb, tl, first->started,
        [&](OpBuilder &sb, Location sl) {
          then(sb);
          scf::YieldOp::create(sb, sl);
        },
        [&](OpBuilder &sb, Location sl) {
          sb.clone(*first->fill);
          then(sb);
          scf::YieldOp::create(sb, sl);
        });
  };
  auto elseBuilder = [&](OpBuilder &eb, Location el) {
    scf::IfOp::create(eb, el, negate(eb, el, first->started),
                      [&](OpBuilder &sb, Location sl) {
                        sb.clone(*first->fill);
                        scf::YieldOp::create(sb, sl);
                      });
    scf::YieldOp::create(eb, el);
  };
  scf::IfOp::create(b, loc, any, [&](OpBuilder &tb, Location tl) {
    OpFoldResult zeroIndex = tb.getIndexAttr(0);
    SmallVector<Value> operands, buffers;
    for (auto [k, operand] : llvm::enumerate(rest->getOperands())) {
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
      memref::CopyOp::create(tb, tl, operand,
                             rows(tb, tl, buffer, zeroIndex, count));
      operands.push_back(buffer);
      buffers.push_back(buffer);
    }
    if (first)
      fillUnlessStarted(tb, tl,
                        [&](OpBuilder &sb) { rebuild(sb, rest, operands); });
    else
      rebuild(tb, rest, operands);
    if (usesDim[init->getOperandNumber()])
      memref::CopyOp::create(
          tb, tl,
          rows(tb, tl, operands[init->getOperandNumber()], zeroIndex, count),
          init->get());
    for (Value buffer : buffers)
      memref::DeallocOp::create(tb, tl, buffer);
    scf::YieldOp::create(tb, tl);
  }, first ? function_ref<void(OpBuilder &, Location)>(elseBuilder) : nullptr);
  rest.erase();
}

struct TadBlockDynamicRowsPass
    : tad::impl::TadBlockDynamicRowsPassBase<TadBlockDynamicRowsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (rowBlock <= 0 || blockWork <= 0) {
      getOperation()->emitError("tad-block-dynamic-rows: row-block and "
                                "block-work must be positive, got ")
          << rowBlock << " and " << blockWork;
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::MatmulOp, unsigned>> matmuls;
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> others;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        if (std::optional<unsigned> dim = dynamicRowDim(matmul))
          matmuls.push_back({matmul, *dim});
      } else if (std::optional<unsigned> dim = dynamicOuterDim(op)) {
        others.push_back({op, *dim});
      }
    });
    // Fills that go into the blocks of the contraction after them.
    DenseSet<Operation *> paired;
    for (auto [op, dim] : matmuls)
      if (linalg::FillOp fill = rowFill(op, dim))
        paired.insert(fill);
    for (auto [op, dim] : others)
      if (linalg::FillOp fill = rowFill(op, dim))
        paired.insert(fill);
    llvm::erase_if(others, [&](auto &entry) {
      return paired.contains(entry.first.getOperation());
    });
    // Matmuls: large blocks, half as large ones on the rest, ... down
    // to the small blocks and a zero-padded rest.
    for (auto [op, dim] : matmuls) {
      std::optional<InitialFill> first;
      if (linalg::FillOp fill = initialFill(op, dim)) {
        OpBuilder b(fill);
        first = InitialFill{fill, arith::ConstantIntOp::create(
                                      b, fill.getLoc(), b.getI1Type(), 0)};
      }
      InitialFill *firstFill = first ? &*first : nullptr;
      for (int64_t block = largeBlock; block > rowBlock; block /= 2)
        op = cast<linalg::MatmulOp>(
            splitOffBlocks(op, dim, block, firstFill));
      blockRows(op, dim, rowBlock, firstFill);
      if (first)
        first->fill.erase();
    }
    // Other ops: blocks of `block-work` iterations, a quarter as many on
    // the rest, ... while a block has at least `block-work` / 16 (and one
    // row); what is left, if anything, stays a dynamic op.
    for (auto [op, dim] : others) {
      SmallVector<int64_t> bounds = op.getStaticLoopRanges();
      int64_t rowWork = 1;
      for (auto [d, bound] : llvm::enumerate(bounds))
        if (d != dim)
          rowWork *= bound;
      Operation *rest = op;
      // At least 4 rows per largest block: 4 batches of a batch matmul
      // split over the cores better than the rows of one. A power of two:
      // batches usually are, and then one block takes them whole (blocks
      // of 56 rows made a batch of 64 one block of 56, two of 3 and a
      // dynamic rest of 2).
      int64_t block = llvm::PowerOf2Ceil(
          std::max<int64_t>(4, rowsFor(rowWork, blockWork)));
      for (; block >= 1 && block * rowWork * 16 >= blockWork; block /= 4) {
        rest = splitOffBlocks(cast<linalg::LinalgOp>(rest), dim, block);
        if (block == 1) { // blocks of one row leave nothing
          if (linalg::FillOp fill =
                  rowFill(cast<linalg::LinalgOp>(rest), dim))
            fill.erase();
          rest->erase();
        }
      }
    }
  }
};

} // namespace
