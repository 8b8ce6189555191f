//===- RowWindowMatmuls.cpp - window-row contractions as matmuls ----------===//
//
// See TadRowWindowMatmulsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADROWWINDOWMATMULSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// An index expression row·stride + col + offset of a 1-D operand.
struct WindowRows {
  unsigned row, col;
  int64_t stride, offset;
};

/// The single result of `map` as d_row·stride + d_col + offset (stride >= 1,
/// offset >= 0). With a unit stride either dimension could be the row (the
/// view's elements are the same): the first one is.
std::optional<WindowRows> windowRows(AffineMap map) {
  SmallVector<int64_t> flat;
  unsigned numDims = map.getNumDims();
  if (map.getNumResults() != 1 ||
      failed(getFlattenedAffineExpr(map.getResult(0), numDims, map.getNumSymbols(),
                                    &flat)) ||
      flat.size() != numDims + map.getNumSymbols() + 1)
    return std::nullopt;
  SmallVector<unsigned> used;
  for (unsigned d = 0; d < numDims; ++d)
    if (flat[d] != 0)
      used.push_back(d);
  if (used.size() != 2)
    return std::nullopt;
  unsigned row = used[0], col = used[1];
  if (flat[col] != 1)
    std::swap(row, col);
  int64_t offset = flat.back();
  if (flat[col] != 1 || flat[row] < 1 || offset < 0 ||
      llvm::any_of(ArrayRef(flat).slice(numDims, map.getNumSymbols()),
                   [](int64_t c) { return c != 0; }))
    return std::nullopt;
  return WindowRows{row, col, flat[row], offset};
}

/// `value` without an arith.extf in front (a bf16 operand of an f32 sum).
Value unextended(Value value) {
  auto extend = value.getDefiningOp<arith::ExtFOp>();
  return extend ? extend.getIn() : value;
}

/// Whether `op`'s body is out + in0 · in1 (either operand order), the inputs
/// possibly extended to the output's type first (what linalg.matmul's own
/// body does with narrower operands).
bool isMultiplyAdd(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues().front().getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value other = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if (add.getLhs() != acc && add.getRhs() != acc)
    return false;
  auto mul = other.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  Value lhs = unextended(mul.getLhs()), rhs = unextended(mul.getRhs());
  size_t extensions = (lhs != mul.getLhs()) + (rhs != mul.getRhs());
  return body.getOperations().size() == 3 + extensions &&
         ((lhs == a && rhs == b) || (lhs == b && rhs == a));
}

/// Whether `op` is a multiply-add on static buffers over `loops` loops, all
/// parallel but the last, a reduction: two inputs and one output.
bool isContraction(linalg::GenericOp op, unsigned loops) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != loops || op.hasDynamicShape() ||
      !isMultiplyAdd(op))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return llvm::all_of(ArrayRef(iterators).drop_back(),
                      [](utils::IteratorType t) {
                        return t == utils::IteratorType::parallel;
                      }) &&
         iterators.back() == utils::IteratorType::reduction;
}

/// `value` (a memref with static strides and offset) as `shape` with
/// `strides`, the same offset.
Value reinterpreted(RewriterBase &rewriter, Location loc, Value value,
                    ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t offset) {
  auto type = cast<MemRefType>(value.getType());
  auto viewType = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(rewriter.getContext(), offset, strides));
  return memref::ReinterpretCastOp::create(rewriter, loc, viewType, value, offset, shape,
                                           strides);
}

/// The generic as a linalg.matmul in which one operand, a 1-D buffer read at
/// row·stride + col + offset, is a [rows, cols] view with strides [stride, 1]
/// (rows overlap where stride < cols): A with {row, col} = {m, k}, or B with
/// {row, col} = {k, n} (a bf16 weight gradient's rows). Failure where it is
/// not such a contraction.
LogicalResult rewriteWindowContraction(RewriterBase &rewriter, linalg::GenericOp op) {
  MLIRContext *ctx = op.getContext();
  if (!isContraction(op, 3))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  if (maps[2] != AffineMap::get(3, 0, {m, n}, ctx))
    return failure();
  // The window operand, the loop the other operand does not share with it
  // (n for A, m for B), and the other operand's two admissible maps.
  unsigned window;
  std::optional<WindowRows> w;
  if (maps[1] == AffineMap::get(3, 0, {k, n}, ctx) ||
      maps[1] == AffineMap::get(3, 0, {n, k}, ctx)) {
    window = 0;
    w = windowRows(maps[0]);
    if (!w || w->row == 1 || w->col == 1)
      return failure();
  } else if (maps[0] == AffineMap::get(3, 0, {m, k}, ctx) ||
             maps[0] == AffineMap::get(3, 0, {k, m}, ctx)) {
    window = 1;
    w = windowRows(maps[1]);
    if (!w || w->row == 0 || w->col == 0)
      return failure();
  } else {
    return failure();
  }
  Value flat = op.getDpsInputOperand(window)->get();
  auto flatType = dyn_cast<MemRefType>(flat.getType());
  int64_t base;
  SmallVector<int64_t> strides;
  if (!flatType || flatType.getRank() != 1 ||
      failed(flatType.getStridesAndOffset(strides, base)) || strides[0] != 1 ||
      ShapedType::isDynamic(base))
    return failure();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t rows = bounds[w->row], cols = bounds[w->col];
  // Every element of the view in the buffer (as the generic read it).
  if (w->offset + (rows - 1) * w->stride + cols > flatType.getDimSize(0))
    return failure();
  rewriter.setInsertionPoint(op);
  Value view = reinterpreted(rewriter, op.getLoc(), flat, {rows, cols}, {w->stride, 1},
                             base + w->offset);
  maps[window] = AffineMap::get(
      3, 0, {getAffineDimExpr(w->row, ctx), getAffineDimExpr(w->col, ctx)}, ctx);
  SmallVector<Value> inputs{op.getDpsInputOperand(0)->get(),
                            op.getDpsInputOperand(1)->get()};
  inputs[window] = view;
  auto matmul = linalg::MatmulOp::create(rewriter, op.getLoc(), inputs,
                                         ValueRange{op.getDpsInitOperand(0)->get()});
  matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  rewriter.eraseOp(op);
  return success();
}

/// The coefficients of the single result of `map` over its dimensions and,
/// last, its constant; nullopt for other maps (symbols, several results).
std::optional<SmallVector<int64_t>> linearCoefficients(AffineMap map) {
  SmallVector<int64_t> flat;
  if (map.getNumResults() != 1 || map.getNumSymbols() != 0 ||
      failed(getFlattenedAffineExpr(map.getResult(0), map.getNumDims(), 0, &flat)) ||
      flat.size() != map.getNumDims() + 1)
    return std::nullopt;
  return flat;
}

/// The batched form, loops (b, m, n, k): A a plain [M, K] operand at (m, k)
/// shared by every batch, B a 1-D buffer read at k·stride + n +
/// b·batchStride + offset (a bf16 convolution's weight gradient over all
/// its kernel rows), as a linalg.batch_matmul of A broadcast over the
/// batches (batch stride 0) and a [batches, K, N] view of B with strides
/// [batchStride, stride, 1].
LogicalResult rewriteBatchedWindowContraction(RewriterBase &rewriter,
                                              linalg::GenericOp op) {
  MLIRContext *ctx = op.getContext();
  if (!isContraction(op, 4))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineExpr bd, m, n, k;
  bindDims(ctx, bd, m, n, k);
  if (maps[0] != AffineMap::get(4, 0, {m, k}, ctx) ||
      maps[2] != AffineMap::get(4, 0, {bd, m, n}, ctx))
    return failure();
  std::optional<SmallVector<int64_t>> flat = linearCoefficients(maps[1]);
  if (!flat || (*flat)[0] < 0 || (*flat)[1] != 0 || (*flat)[2] != 1 || (*flat)[3] < 1 ||
      (*flat)[4] < 0)
    return failure();
  int64_t batchStride = (*flat)[0], stride = (*flat)[3], offset = (*flat)[4];
  Value lhs = op.getDpsInputOperand(0)->get(), flatB = op.getDpsInputOperand(1)->get();
  auto lhsType = dyn_cast<MemRefType>(lhs.getType());
  auto flatType = dyn_cast<MemRefType>(flatB.getType());
  SmallVector<int64_t> lhsStrides, flatStrides;
  int64_t lhsOffset, base;
  if (!lhsType || lhsType.getRank() != 2 || !flatType || flatType.getRank() != 1 ||
      failed(lhsType.getStridesAndOffset(lhsStrides, lhsOffset)) ||
      failed(flatType.getStridesAndOffset(flatStrides, base)) || flatStrides[0] != 1 ||
      llvm::any_of(lhsStrides, ShapedType::isDynamic) ||
      ShapedType::isDynamic(lhsOffset) || ShapedType::isDynamic(base))
    return failure();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t batches = bounds[0], M = bounds[1], N = bounds[2], K = bounds[3];
  // Every element of B's view in the buffer (as the generic read it).
  if (offset + (batches - 1) * batchStride + (K - 1) * stride + N > flatType.getDimSize(0))
    return failure();
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value lhsView = reinterpreted(rewriter, loc, lhs, {batches, M, K},
                                {0, lhsStrides[0], lhsStrides[1]}, lhsOffset);
  Value rhsView = reinterpreted(rewriter, loc, flatB, {batches, K, N},
                                {batchStride, stride, 1}, base + offset);
  linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{lhsView, rhsView},
                                ValueRange{op.getDpsInitOperand(0)->get()});
  rewriter.eraseOp(op);
  return success();
}

struct TadRowWindowMatmulsPass
    : tad::impl::TadRowWindowMatmulsPassBase<TadRowWindowMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics)
      if (failed(rewriteWindowContraction(rewriter, op)))
        (void)rewriteBatchedWindowContraction(rewriter, op);
  }
};

} // namespace
