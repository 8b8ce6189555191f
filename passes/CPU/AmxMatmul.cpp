//===- AmxMatmul.cpp - bf16 matmuls on AMX tiles --------------------------===//
//
// A bf16 x bf16 -> f32 matmul (tad-widen-low-precision's products) on a CPU
// with AMX: TDPBF16PS multiplies a 16x32 bf16 tile of A by a 16x32 tile of B
// holding 16 k-pairs of 16 columns ("VNNI" layout: B[k, n] and B[k+1, n]
// side by side) into a 16x16 f32 tile of C, 16K multiply-adds per
// instruction. Measured on an Intel Xeon with AMX (docs/performance.md):
// 14x the f32 FMA rate of one core in registers.
//
// Linux gives a process AMX state on request only: the runtime asks for it
// before the first call (runtime/src/cpu/amx.c).
//
// The kernel: B is copied once into panels of 32 columns in that layout
// (vector loads of two rows, interleaved as i16); the rows of A are read in
// place. Four C tiles (32x32) stay in tile registers across k, with two A
// and two B tiles: all eight tile registers. Rows of A are blocked so that
// a block's rows stay in L2 while every B panel passes by; the row blocks
// run in parallel.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/AmxMatmul.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tad;

namespace {

/// The AMX tile sizes: 16 rows of 64 bytes.
constexpr int64_t kTileRows = 16, kTileK = 32;
/// The C block each innermost loop keeps in tile registers (2x2 tiles).
constexpr int64_t kBlock = 2 * kTileRows;

/// Whether `type`'s rows are contiguous with a static row stride (what
/// amx.tile_load and tile_store read the stride from).
bool hasContiguousRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.size() != 2)
    return false;
  return strides[1] == 1 && !ShapedType::isDynamic(strides[0]);
}

Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A loop over [0, ub) by `step` whose body `body` builds at the induction
/// variable: an scf.parallel when `parallel` (convert-scf-to-openmp), else
/// an scf.for.
void buildLoop(OpBuilder &b, Location loc, int64_t ub, int64_t step,
               bool parallel, function_ref<void(OpBuilder &, Value)> body) {
  Value lb = index(b, loc, 0), upper = index(b, loc, ub),
        stepValue = index(b, loc, step);
  if (parallel && ub / step > 1) {
    scf::ParallelOp::create(
        b, loc, ValueRange{lb}, ValueRange{upper}, ValueRange{stepValue},
        [&](OpBuilder &nb, Location, ValueRange ivs) { body(nb, ivs[0]); });
    return;
  }
  scf::ForOp::create(b, loc, lb, upper, stepValue, ValueRange{},
                     [&](OpBuilder &nb, Location nl, Value iv, ValueRange) {
                       body(nb, iv);
                       scf::YieldOp::create(nb, nl);
                     });
}

/// B (K x N, bf16) copied into N/32 panels of K/2 rows: row kk of panel p
/// holds B[2kk, 32p + c] and B[2kk + 1, 32p + c] side by side for c in
/// [0, 32): a B tile is 16 consecutive rows of 32 elements of one panel.
Value packVnniPanels(OpBuilder &b, Location loc, Value rhs, int64_t K,
                     int64_t N, bool parallel) {
  Type bf16 = b.getBF16Type(), i16 = b.getI16Type();
  auto packedType = MemRefType::get({N / kBlock, K / 2, 2 * kBlock}, bf16);
  Value packed = memref::AllocOp::create(b, loc, packedType);
  constexpr int64_t lanes = 16;
  buildLoop(b, loc, K / 2, 1, parallel, [&](OpBuilder &nb, Value kk) {
    Value row0 = arith::MulIOp::create(nb, loc, kk, index(nb, loc, 2));
    Value row1 = arith::AddIOp::create(nb, loc, row0, index(nb, loc, 1));
    for (int64_t n = 0; n < N; n += lanes) {
      Value col = index(nb, loc, n);
      auto load = [&](Value row) -> Value {
        Value v = vector::LoadOp::create(
            nb, loc, VectorType::get({lanes}, bf16), rhs, ValueRange{row, col});
        return vector::BitCastOp::create(nb, loc,
                                         VectorType::get({lanes}, i16), v);
      };
      Value pairs =
          vector::InterleaveOp::create(nb, loc, load(row0), load(row1));
      Value bits = vector::BitCastOp::create(
          nb, loc, VectorType::get({2 * lanes}, bf16), pairs);
      vector::StoreOp::create(
          nb, loc, bits, packed,
          ValueRange{index(nb, loc, n / kBlock), kk,
                     index(nb, loc, 2 * (n % kBlock))});
    }
  });
  return packed;
}

/// Rows of A per parallel block: a block's rows (rows x K bf16) fill at
/// most half of L2, and there are at least `cores` blocks where M allows;
/// a multiple of kBlock dividing M.
int64_t rowBlock(int64_t M, int64_t K, int64_t l2Bytes, int64_t cores) {
  int64_t rows = std::max<int64_t>(kBlock, l2Bytes / 2 / (2 * K));
  rows = std::min(rows, std::max<int64_t>(kBlock, M / std::max<int64_t>(
                                                          cores, 1)));
  rows = std::min(M, rows / kBlock * kBlock);
  while (M % rows != 0)
    rows -= kBlock;
  return rows;
}

} // namespace

LogicalResult tad::buildAmxMatmul(RewriterBase &rewriter, linalg::MatmulOp op,
                                  int64_t l2Bytes, int64_t cores,
                                  bool parallel) {
  if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
    return failure();
  auto lhsType = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto rhsType = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto outType = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!lhsType || !rhsType || !outType || !lhsType.hasStaticShape() ||
      !rhsType.hasStaticShape() || !outType.hasStaticShape() ||
      !lhsType.getElementType().isBF16() ||
      !rhsType.getElementType().isBF16() ||
      !outType.getElementType().isF32() || !hasContiguousRows(lhsType) ||
      !hasContiguousRows(rhsType) || !hasContiguousRows(outType))
    return failure();
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1),
          N = rhsType.getDimSize(1);
  if (M % kBlock != 0 || N % kBlock != 0 || K % kTileK != 0)
    return failure();

  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1],
        out = op.getDpsInits()[0];
  rewriter.setInsertionPoint(op);
  Value packed = packVnniPanels(rewriter, loc, rhs, K, N, parallel);
  Type bf16 = rewriter.getBF16Type(), f32 = rewriter.getF32Type();
  auto inTile = amx::TileType::get({kTileRows, kTileK}, bf16);
  auto accTile = amx::TileType::get({kTileRows, kTileRows}, f32);
  int64_t rows = rowBlock(M, K, l2Bytes, parallel ? cores : 1);

  buildLoop(rewriter, loc, M, rows, parallel, [&](OpBuilder &b, Value m0) {
    buildLoop(b, loc, N, kBlock, false, [&](OpBuilder &b, Value n0) {
      Value panel = arith::DivUIOp::create(b, loc, n0, index(b, loc, kBlock));
      buildLoop(b, loc, rows, kBlock, false, [&](OpBuilder &b, Value dm) {
        Value m = arith::AddIOp::create(b, loc, m0, dm);
        auto offset = [&](Value base, int64_t by) -> Value {
          return by ? arith::AddIOp::create(b, loc, base, index(b, loc, by))
                          .getResult()
                    : base;
        };
        SmallVector<Value> acc;
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j)
            acc.push_back(amx::TileLoadOp::create(
                b, loc, accTile, out,
                ValueRange{offset(m, kTileRows * i),
                           offset(n0, kTileRows * j)}));
        auto kLoop = scf::ForOp::create(
            b, loc, index(b, loc, 0), index(b, loc, K),
            index(b, loc, kTileK), acc,
            [&](OpBuilder &b, Location, Value k, ValueRange c) {
              Value kk = arith::DivUIOp::create(b, loc, k, index(b, loc, 2));
              Value a[2], bt[2];
              for (int64_t i = 0; i < 2; ++i)
                a[i] = amx::TileLoadOp::create(
                    b, loc, inTile, lhs,
                    ValueRange{offset(m, kTileRows * i), k});
              for (int64_t j = 0; j < 2; ++j)
                bt[j] = amx::TileLoadOp::create(
                    b, loc, inTile, packed,
                    ValueRange{panel, kk, index(b, loc, kTileK * j)});
              SmallVector<Value> next;
              for (int64_t i = 0; i < 2; ++i)
                for (int64_t j = 0; j < 2; ++j)
                  next.push_back(amx::TileMulFOp::create(
                      b, loc, accTile, a[i], bt[j], c[2 * i + j]));
              scf::YieldOp::create(b, loc, next);
            });
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j)
            amx::TileStoreOp::create(
                b, loc, out,
                ValueRange{offset(m, kTileRows * i), offset(n0, kTileRows * j)},
                kLoop.getResult(2 * i + j));
      });
    });
  });
  memref::DeallocOp::create(rewriter, loc, packed);
  rewriter.eraseOp(op);
  return success();
}
