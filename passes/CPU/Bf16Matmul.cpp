//===- Bf16Matmul.cpp - bf16 matmuls on AMX tiles or AVX512-BF16 ----------===//
//
// A bf16 x bf16 -> f32 matmul (tad-widen-low-precision's products) on the
// CPU's bf16 units, with one of two kernels over the same data layout:
//
// - AMX: TDPBF16PS multiplies a 16x32 bf16 tile of A by a 16x32 tile of B
//   holding 16 k-pairs of 16 columns ("VNNI" layout: B[k, n] and B[k+1, n]
//   side by side) into a 16x16 f32 tile of C, 16K multiply-adds per
//   instruction. Measured on an Intel Xeon with AMX (docs/performance.md):
//   14x the f32 FMA rate of one core in registers. Linux gives a process
//   AMX state on request only: the runtime asks for it before the first
//   call (runtime/src/cpu/amx.c).
// - AVX512-BF16 (CPUs with it but no AMX: AMD Zen 4 and 5): VDPBF16PS adds
//   the products of 16 k-pairs of A and B to 16 f32 sums, 32 multiply-adds
//   per instruction where an f32 FMA does 16. A register tile of 8 rows x 32
//   columns (16 accumulators); each row's k-pair of A is broadcast as one
//   32-bit value against two vectors of a B panel row.
//
// B is copied once into panels of 32 columns in that layout (vector loads
// of two rows, interleaved as i16); the rows of A are read in place. On
// AMX, four C tiles (32x32) stay in tile registers across k, with two A and
// two B tiles: all eight tile registers. Rows of A are blocked so that a
// block's rows stay in L2 while every B panel passes by; the row blocks run
// in parallel. A long reduction into a small C (a convolution's weight
// gradient) streams B instead: each core packs blocks of rows of its own
// panels into an L2-sized buffer as it goes.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Bf16Matmul.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tad;

namespace {

/// The AMX tile sizes: 16 rows of 64 bytes.
constexpr int64_t kTileRows = 16, kTileK = 32;
/// The C block each innermost loop keeps in tile registers (2x2 tiles).
constexpr int64_t kBlock = 2 * kTileRows;

/// Whether `type`'s rows are contiguous with static row (and batch)
/// strides (what amx.tile_load and tile_store read the stride from).
bool hasContiguousRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.size() < 2)
    return false;
  return strides.back() == 1 &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `base` + `by` (no op for 0).
Value offset(OpBuilder &b, Location loc, Value base, int64_t by) {
  return by ? arith::AddIOp::create(b, loc, base, index(b, loc, by))
                  .getResult()
            : base;
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

/// A bf16 matrix of a batch (or the matrix itself without one): the
/// rank-reduced subview at batch `b` of a 3-D `value`, else `value`.
Value matrixAt(OpBuilder &b, Location loc, Value value, Value batch) {
  auto type = cast<MemRefType>(value.getType());
  if (type.getRank() == 2)
    return value;
  SmallVector<OpFoldResult> offsets = {batch, b.getIndexAttr(0),
                                       b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                     b.getIndexAttr(type.getDimSize(1)),
                                     b.getIndexAttr(type.getDimSize(2))};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto resultType = memref::SubViewOp::inferRankReducedResultType(
      {type.getDimSize(1), type.getDimSize(2)}, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(resultType), value,
                                   offsets, sizes, strides);
}

/// B (K x N, bf16; per batch) copied into N/32 panels of K/2 rows: row kk
/// of panel p holds B[2kk, 32p + c] and B[2kk + 1, 32p + c] side by side
/// for c in [0, 32): a B tile is 16 consecutive rows of 32 elements of one
/// panel.
Value packVnniPanels(OpBuilder &b, Location loc, Value rhs, int64_t batch,
                     int64_t K, int64_t N, bool parallelBatches,
                     bool parallelRows) {
  Type bf16 = b.getBF16Type(), i16 = b.getI16Type();
  auto packedType =
      MemRefType::get({batch, N / kBlock, K / 2, 2 * kBlock}, bf16);
  Value packed = memref::AllocOp::create(b, loc, packedType);
  constexpr int64_t lanes = 16;
  buildLoop(b, loc, batch, 1, parallelBatches, [&](OpBuilder &b, Value bi) {
    Value matrix = matrixAt(b, loc, rhs, bi);
    buildLoop(b, loc, K / 2, 1, parallelRows, [&](OpBuilder &b, Value kk) {
      Value row0 = arith::MulIOp::create(b, loc, kk, index(b, loc, 2));
      Value row1 = arith::AddIOp::create(b, loc, row0, index(b, loc, 1));
      // A loop over the panels, not one unrolled over N: a convolution's
      // im2col B has N = 100352 columns (6272 copies of the body, which
      // LLVM's loop passes did not finish analysing in 15 minutes).
      buildLoop(b, loc, N, kBlock, false, [&](OpBuilder &nb, Value n0) {
        Value panel = arith::DivUIOp::create(nb, loc, n0, index(nb, loc, kBlock));
        for (int64_t n = 0; n < kBlock; n += lanes) {
          Value col = offset(nb, loc, n0, n);
          auto load = [&](Value row) -> Value {
            Value v = vector::LoadOp::create(nb, loc,
                                             VectorType::get({lanes}, bf16),
                                             matrix, ValueRange{row, col});
            return vector::BitCastOp::create(nb, loc,
                                             VectorType::get({lanes}, i16), v);
          };
          Value pairs =
              vector::InterleaveOp::create(nb, loc, load(row0), load(row1));
          Value bits = vector::BitCastOp::create(
              nb, loc, VectorType::get({2 * lanes}, bf16), pairs);
          vector::StoreOp::create(
              nb, loc, bits, packed,
              ValueRange{bi, panel, kk, index(nb, loc, 2 * n)});
        }
      });
    });
  });
  return packed;
}

/// Rows of A per parallel block: a block's rows (rows x K bf16) fill at
/// most half of L2, and there are at least `cores` blocks where M allows;
/// a multiple of kBlock dividing M, into a number of blocks the cores split
/// evenly where one exists (768 rows in blocks of 256 on 2 cores: one core
/// would run two blocks while the other waits after one).
int64_t rowBlock(int64_t M, int64_t K, int64_t l2Bytes, int64_t cores) {
  cores = std::max<int64_t>(cores, 1);
  int64_t rows = std::max<int64_t>(kBlock, l2Bytes / 2 / (2 * K));
  rows = std::min(rows, std::max<int64_t>(kBlock, M / cores));
  rows = std::min(M, rows / kBlock * kBlock);
  while (M % rows != 0)
    rows -= kBlock;
  for (int64_t even = rows; even >= kBlock; even -= kBlock)
    if (M % even == 0 && (M / even) % cores == 0)
      return even;
  return rows;
}

/// How a contraction's operands are laid out: whether A is stored (k, m)
/// and B (n, k); nullopt for other indexing maps.
struct Layout {
  bool lhsTransposed = false, rhsTransposed = false;
};

std::optional<Layout> layoutOf(linalg::LinalgOp op, bool batched) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *ctx = op.getContext();
  unsigned b = 0, m = batched, n = m + 1, k = n + 1;
  auto map = [&](std::initializer_list<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    if (batched)
      exprs.push_back(getAffineDimExpr(b, ctx));
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(k + 1, 0, exprs, ctx);
  };
  if (maps.size() != 3 || maps[2] != map({m, n}))
    return std::nullopt;
  Layout layout;
  if (maps[0] == map({k, m}))
    layout.lhsTransposed = true;
  else if (maps[0] != map({m, k}))
    return std::nullopt;
  if (maps[1] == map({n, k}))
    layout.rhsTransposed = true;
  else if (maps[1] != map({k, n}))
    return std::nullopt;
  return layout;
}

int64_t roundUp(int64_t size, int64_t multiple) {
  return (size + multiple - 1) / multiple * multiple;
}

/// The leading `sizes` corner of `buffer` (the rows and columns that are not
/// padding), or `buffer` itself when that is all of it.
Value corner(OpBuilder &b, Location loc, Value buffer, ArrayRef<int64_t> sizes) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getShape() == sizes)
    return buffer;
  SmallVector<OpFoldResult> offsets(sizes.size(), b.getIndexAttr(0)),
      strides(sizes.size(), b.getIndexAttr(1)), extents;
  for (int64_t size : sizes)
    extents.push_back(b.getIndexAttr(size));
  return memref::SubViewOp::create(b, loc, buffer, offsets, extents, strides);
}

/// `value` (batch x rows x cols, or rows x cols, in the plain layout after
/// transposing when `transposed`) in a new contiguous buffer whose rows and
/// columns are padded with zeros to `paddedRows` x `paddedCols`: copied by
/// linalg.copy or linalg.transpose (tad-vectorize-transposes makes those
/// shuffles).
Value paddedCopy(OpBuilder &b, Location loc, Value value, bool transposed,
                 int64_t paddedRows, int64_t paddedCols) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  unsigned rank = shape.size();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (transposed) {
    std::swap(shape[rank - 1], shape[rank - 2]);
    std::swap(perm[rank - 1], perm[rank - 2]);
  }
  SmallVector<int64_t> padded(shape);
  padded[rank - 2] = paddedRows;
  padded[rank - 1] = paddedCols;
  Type element = type.getElementType();
  Value copy =
      memref::AllocOp::create(b, loc, MemRefType::get(padded, element));
  if (padded != shape) {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    linalg::FillOp::create(b, loc, zero, copy);
  }
  Value into = corner(b, loc, copy, shape);
  if (transposed)
    linalg::TransposeOp::create(b, loc, value, into, perm);
  else
    linalg::CopyOp::create(b, loc, value, into);
  return copy;
}

/// The transpose of 16 rows of 16 lanes as 4 rounds of the perfect
/// shuffle: row 2i + h of a round interleaves half h of rows i and i + 8
/// of the one before. Each round moves an element at (row r, lane c) to
/// (r << 1 | c >> 3, c << 1 | r >> 3) (4-bit indices), so after four
/// rounds row and lane have traded places. Two-source shuffles (vpermt2ps),
/// not element moves the canonicalizer would scalarize.
SmallVector<Value> transpose16x16(OpBuilder &b, Location loc,
                                  SmallVector<Value> rows) {
  constexpr int64_t n = 16;
  SmallVector<int64_t> halves[2];
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t j = 0; j < n / 2; ++j) {
      halves[h].push_back(h * n / 2 + j);
      halves[h].push_back(n + h * n / 2 + j);
    }
  for (int round = 0; round < 4; ++round) {
    SmallVector<Value> next;
    for (int64_t i = 0; i < n / 2; ++i)
      for (int64_t h = 0; h < 2; ++h)
        next.push_back(vector::ShuffleOp::create(b, loc, rows[i],
                                                 rows[i + n / 2], halves[h]));
    rows = std::move(next);
  }
  return rows;
}

/// The same panels from B^T (N x K bf16, per batch, as stored; N a multiple
/// of 32) and K padded to `paddedK` with zeros: a k-pair of column n of B is
/// the 32-bit word kk of row n of B^T, so each 16 x 16 block of words (16
/// rows n, 16 k-pairs) is transposed as f32 bit patterns into 16 packed rows
/// of 16 column pairs. The rows of B^T are read whole where K allows, masked
/// at its end; packed rows past paddedK / 2 are not written.
Value packTransposedVnniPanels(OpBuilder &b, Location loc, Value rhsT,
                               int64_t batch, int64_t K, int64_t paddedK,
                               int64_t N, bool parallelBatches,
                               bool parallelPanels) {
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();
  constexpr int64_t lanes = 16;
  int64_t pairs = paddedK / 2;
  auto packedType =
      MemRefType::get({batch, N / kBlock, pairs, 2 * kBlock}, bf16);
  Value packed = memref::AllocOp::create(b, loc, packedType);
  auto rowType = VectorType::get({2 * lanes}, bf16);
  auto wordsType = VectorType::get({lanes}, f32);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bf16));
  buildLoop(b, loc, batch, 1, parallelBatches, [&](OpBuilder &b, Value bi) {
    Value matrix = matrixAt(b, loc, rhsT, bi);
    buildLoop(b, loc, N, kBlock, parallelPanels, [&](OpBuilder &b, Value n0) {
      Value panel = arith::DivUIOp::create(b, loc, n0, index(b, loc, kBlock));
      buildLoop(b, loc, pairs, lanes, false, [&](OpBuilder &b, Value kk0) {
        Value k0 = arith::MulIOp::create(b, loc, kk0, index(b, loc, 2));
        for (int64_t c0 = 0; c0 < kBlock; c0 += lanes) {
          SmallVector<Value> words;
          for (int64_t i = 0; i < lanes; ++i) {
            Value row = offset(b, loc, n0, c0 + i);
            Value v = vector::TransferReadOp::create(
                b, loc, rowType, matrix, ValueRange{row, k0}, zero,
                ArrayRef<bool>{K % (2 * lanes) == 0});
            words.push_back(vector::BitCastOp::create(b, loc, wordsType, v));
          }
          words = transpose16x16(b, loc, words);
          for (int64_t j = 0; j < lanes; ++j) {
            Value bits = vector::BitCastOp::create(b, loc, rowType, words[j]);
            Value kk = offset(b, loc, kk0, j);
            // Rows past the padded k do not exist (pairs % 16 != 0).
            if (pairs % lanes == 0) {
              vector::StoreOp::create(
                  b, loc, bits, packed,
                  ValueRange{bi, panel, kk, index(b, loc, 2 * c0)});
              continue;
            }
            Value inside = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, kk, index(b, loc, pairs));
            scf::IfOp::create(b, loc, inside, [&](OpBuilder &nb, Location nl) {
              vector::StoreOp::create(
                  nb, nl, bits, packed,
                  ValueRange{bi, panel, kk, index(nb, nl, 2 * c0)});
              scf::YieldOp::create(nb, nl);
            });
          }
        }
      });
    });
  });
  return packed;
}

/// The 32x32 block of C at rows `m`, columns `n0` (panel `panel` of the
/// packed B of batch `bi`), accumulated on AMX over the K packed rows of
/// the panel and A's columns from `k0` on: 2x2 C tiles in tile registers,
/// loaded from C or zeroed when `zeroInit`.
void amxBlock(OpBuilder &b, Location loc, Value a, Value packed, Value c,
              Value bi, Value panel, Value m, Value n0, Value k0, int64_t K,
              bool zeroInit) {
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();
  auto inTile = amx::TileType::get({kTileRows, kTileK}, bf16);
  auto accTile = amx::TileType::get({kTileRows, kTileRows}, f32);
  SmallVector<Value> acc;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      acc.push_back(zeroInit
                        ? amx::TileZeroOp::create(b, loc, accTile).getResult()
                        : amx::TileLoadOp::create(
                              b, loc, accTile, c,
                              ValueRange{offset(b, loc, m, kTileRows * i),
                                         offset(b, loc, n0, kTileRows * j)})
                              .getResult());
  auto kLoop = scf::ForOp::create(
      b, loc, index(b, loc, 0), index(b, loc, K), index(b, loc, kTileK), acc,
      [&](OpBuilder &b, Location, Value k, ValueRange sums) {
        Value kk = arith::DivUIOp::create(b, loc, k, index(b, loc, 2));
        Value at[2], bt[2];
        for (int64_t i = 0; i < 2; ++i)
          at[i] = amx::TileLoadOp::create(
              b, loc, inTile, a,
              ValueRange{offset(b, loc, m, kTileRows * i),
                         arith::AddIOp::create(b, loc, k0, k)});
        for (int64_t j = 0; j < 2; ++j)
          bt[j] = amx::TileLoadOp::create(
              b, loc, inTile, packed,
              ValueRange{bi, panel, kk, index(b, loc, kTileK * j)});
        SmallVector<Value> next;
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j)
            next.push_back(amx::TileMulFOp::create(b, loc, accTile, at[i],
                                                   bt[j], sums[2 * i + j]));
        scf::YieldOp::create(b, loc, next);
      });
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      amx::TileStoreOp::create(b, loc, c,
                               ValueRange{offset(b, loc, m, kTileRows * i),
                                          offset(b, loc, n0, kTileRows * j)},
                               kLoop.getResult(2 * i + j));
}

/// Rows of the AVX512-BF16 register tile (x 32 columns: 16 accumulators,
/// two B vectors and a broadcast of the 32 registers).
constexpr int64_t kDotRows = 8;

/// The same block with VDPBF16PS, in register tiles of kDotRows x 32: per
/// k-pair, two vectors of a packed B row (16 column pairs each) against
/// the k-pair of each row of A broadcast as one 32-bit value.
void dotBlock(OpBuilder &b, Location loc, Value a, Value packed, Value c,
              Value bi, Value panel, Value m0, Value n0, Value k0, int64_t K,
              bool zeroInit) {
  constexpr int64_t lanes = 16;
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type(), i32 = b.getI32Type();
  auto accType = VectorType::get({lanes}, f32);
  auto pairsType = VectorType::get({2 * lanes}, bf16);
  buildLoop(b, loc, kBlock, kDotRows, false, [&](OpBuilder &b, Value dm) {
    Value m = arith::AddIOp::create(b, loc, m0, dm);
    SmallVector<Value> rows, cols;
    for (int64_t i = 0; i < kDotRows; ++i)
      rows.push_back(offset(b, loc, m, i));
    for (int64_t j = 0; j < 2; ++j)
      cols.push_back(offset(b, loc, n0, lanes * j));
    SmallVector<Value> acc;
    Value zero;
    if (zeroInit)
      zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
    for (int64_t i = 0; i < kDotRows; ++i)
      for (int64_t j = 0; j < 2; ++j)
        acc.push_back(zeroInit ? zero
                               : vector::LoadOp::create(
                                     b, loc, accType, c,
                                     ValueRange{rows[i], cols[j]})
                                     .getResult());
    auto kLoop = scf::ForOp::create(
        b, loc, index(b, loc, 0), index(b, loc, K / 2), index(b, loc, 1), acc,
        [&](OpBuilder &b, Location, Value kk, ValueRange sums) {
          Value k = arith::MulIOp::create(b, loc, kk, index(b, loc, 2));
          Value bv[2];
          for (int64_t j = 0; j < 2; ++j)
            bv[j] = vector::LoadOp::create(
                b, loc, pairsType, packed,
                ValueRange{bi, panel, kk, index(b, loc, 2 * lanes * j)});
          SmallVector<Value> next(sums);
          for (int64_t i = 0; i < kDotRows; ++i) {
            // A[m + i, k..k+1] as one i32, in every lane.
            Value pair = vector::LoadOp::create(
                b, loc, VectorType::get({2}, bf16), a,
                ValueRange{rows[i], arith::AddIOp::create(b, loc, k0, k)});
            Value word = vector::BitCastOp::create(
                b, loc, VectorType::get({1}, i32), pair);
            Value scalar =
                vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
            Value splat = vector::BroadcastOp::create(
                b, loc, VectorType::get({lanes}, i32), scalar);
            Value av = vector::BitCastOp::create(b, loc, pairsType, splat);
            for (int64_t j = 0; j < 2; ++j)
              next[2 * i + j] = x86vector::DotBF16Op::create(
                  b, loc, sums[2 * i + j], av, bv[j]);
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t i = 0; i < kDotRows; ++i)
      for (int64_t j = 0; j < 2; ++j)
        vector::StoreOp::create(b, loc, kLoop.getResult(2 * i + j), c,
                                ValueRange{rows[i], cols[j]});
  });
}

/// Rows of B per streamed block: A's columns (M x kc) and a core's packed
/// block of B (kc x N) fill at most half of its L2; a multiple of the AMX
/// tile's k.
int64_t streamBlock(int64_t M, int64_t N, int64_t K, int64_t l2Bytes) {
  int64_t kc = l2Bytes / 2 / (2 * (M + N)) / kTileK * kTileK;
  return std::min(roundUp(K, kTileK), std::max(kTileK, kc));
}

/// Rows [k0, k0 + rows) of panels [p0, pEnd) of B (K x N bf16, plain)
/// packed into `buffer` [1, panels, rows/2, 64] like packVnniPanels (panel
/// p at p - p0); the rows from `valid` on are zeros (B ends there).
void packBlock(OpBuilder &b, Location loc, Value rhs, Value buffer, Value p0,
               Value pEnd, Value k0, int64_t rows, int64_t valid) {
  constexpr int64_t lanes = 16;
  Type bf16 = b.getBF16Type(), i16 = b.getI16Type();
  auto half = VectorType::get({lanes}, i16);
  Value zero = index(b, loc, 0);
  auto forLoop = [&](OpBuilder &b, Value lb, Value ub,
                     function_ref<void(OpBuilder &, Value)> body) {
    scf::ForOp::create(b, loc, lb, ub, index(b, loc, 1), ValueRange{},
                       [&](OpBuilder &nb, Location nl, Value iv, ValueRange) {
                         body(nb, iv);
                         scf::YieldOp::create(nb, nl);
                       });
  };
  forLoop(b, p0, pEnd, [&](OpBuilder &b, Value p) {
    Value slot = arith::SubIOp::create(b, loc, p, p0);
    Value col0 = arith::MulIOp::create(b, loc, p, index(b, loc, kBlock));
    // One k-pair row of the panel from B's rows row0 and row1 (zeros for
    // a null row).
    auto packRow = [&](OpBuilder &b, Value kk, Value row0, Value row1) {
      for (int64_t n = 0; n < kBlock; n += lanes) {
        Value col = offset(b, loc, col0, n);
        auto load = [&](Value row) -> Value {
          if (!row)
            return arith::ConstantOp::create(b, loc, b.getZeroAttr(half));
          Value v = vector::LoadOp::create(
              b, loc, VectorType::get({lanes}, bf16), rhs, ValueRange{row, col});
          return vector::BitCastOp::create(b, loc, half, v);
        };
        Value pairs = vector::InterleaveOp::create(b, loc, load(row0), load(row1));
        Value bits = vector::BitCastOp::create(
            b, loc, VectorType::get({2 * lanes}, bf16), pairs);
        vector::StoreOp::create(b, loc, bits, buffer,
                                ValueRange{zero, slot, kk, index(b, loc, 2 * n)});
      }
    };
    forLoop(b, zero, index(b, loc, valid / 2), [&](OpBuilder &b, Value kk) {
      Value row0 = arith::AddIOp::create(
          b, loc, k0, arith::MulIOp::create(b, loc, kk, index(b, loc, 2)));
      packRow(b, kk, row0, offset(b, loc, row0, 1));
    });
    int64_t pairs = valid / 2;
    if (valid % 2)
      packRow(b, index(b, loc, pairs++), offset(b, loc, k0, valid - 1), Value());
    for (int64_t kk = pairs; kk < rows / 2; ++kk)
      packRow(b, index(b, loc, kk), Value(), Value());
  });
}

} // namespace

LogicalResult tad::buildBf16Matmul(RewriterBase &rewriter, linalg::LinalgOp op,
                                   Bf16Kernel kernel, int64_t l2Bytes,
                                   int64_t cores, bool parallel) {
  bool batched = isa<linalg::BatchMatmulOp>(op);
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
      !op.hasPureBufferSemantics())
    return failure();
  std::optional<Layout> layout = layoutOf(op, batched);
  auto lhsType = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto rhsType = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto outType = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!layout || !lhsType || !rhsType || !outType ||
      !lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
      !outType.hasStaticShape() || !lhsType.getElementType().isBF16() ||
      !rhsType.getElementType().isBF16() || !outType.getElementType().isF32())
    return failure();
  unsigned r = batched;
  int64_t batch = batched ? outType.getDimSize(0) : 1;
  int64_t M = outType.getDimSize(r), N = outType.getDimSize(r + 1),
          K = lhsType.getDimSize(layout->lhsTransposed ? r : r + 1);
  // Padded to whole 32x32 blocks (and k to whole AMX tiles, or pairs):
  // zeros add nothing.
  int64_t Mp = roundUp(M, kBlock), Np = roundUp(N, kBlock),
          Kp = roundUp(K, kernel == Bf16Kernel::Amx ? kTileK : 2);

  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1],
        out = op.getDpsInits()[0];
  // A long reduction into a small C (a convolution's weight gradient over
  // all its positions: 64 x 192 x 26912) streams B: its panels packed whole
  // would be many times L2 and be read back from memory by every core.
  // Instead each core packs blocks of rows of its own panels as it goes,
  // the block and A's columns for it staying in L2.
  bool stream = !layout->rhsTransposed &&
                hasContiguousRows(rhsType) && N % kBlock == 0 &&
                K >= 4 * std::max(M, N) && Kp * Np * 2 > l2Bytes / 2;
  // A zero fill of C just before (tad-to-linalg's products) becomes zeroed
  // accumulator tiles: C is then written once, by the tile stores (not when
  // streaming: C is small and accumulates across the blocks).
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  bool zeroInit = !stream && fill && fill.hasPureBufferSemantics() &&
                  fill.getDpsInits()[0] == out &&
                  matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  if (zeroInit)
    rewriter.eraseOp(fill);
  rewriter.setInsertionPoint(op);
  // Operands the tiles cannot read in place -- transposed (the gradients'
  // A^T B and A B^T), not whole blocks, rows not contiguous -- are copied
  // into the plain layout, padded with zeros.
  SmallVector<Value> temporaries;
  if (layout->lhsTransposed || M != Mp || K != Kp ||
      !hasContiguousRows(lhsType))
    temporaries.push_back(lhs = paddedCopy(rewriter, loc, lhs,
                                           layout->lhsTransposed, Mp, Kp));
  // A transposed B (the forward product's W^T) with whole panels is packed
  // from its rows directly.
  bool packTransposed = layout->rhsTransposed && N == Np &&
                        hasContiguousRows(rhsType);
  if (!stream && !packTransposed &&
      (layout->rhsTransposed || K != Kp || N != Np ||
       !hasContiguousRows(rhsType)))
    temporaries.push_back(rhs = paddedCopy(rewriter, loc, rhs,
                                           layout->rhsTransposed, Kp, Np));
  // C likewise: the tiles accumulate into a padded copy, whose corner is
  // copied back at the end.
  Value acc = out;
  SmallVector<int64_t> outShape(outType.getShape());
  if (M != Mp || N != Np || !hasContiguousRows(outType)) {
    SmallVector<int64_t> padded(outShape);
    padded[r] = Mp;
    padded[r + 1] = Np;
    acc = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(padded, outType.getElementType()));
    temporaries.push_back(acc);
    if (!zeroInit) {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(outType.getElementType()));
      linalg::FillOp::create(rewriter, loc, zero, acc);
      linalg::CopyOp::create(rewriter, loc, out,
                             corner(rewriter, loc, acc, outShape));
    }
  }
  int64_t validK = K;
  M = Mp, N = Np, K = Kp;
  auto block = [&](OpBuilder &b, Value a, Value packed, Value c, Value bi,
                   Value panel, Value m, Value n0, Value k0, int64_t k) {
    if (kernel == Bf16Kernel::Amx)
      amxBlock(b, loc, a, packed, c, bi, panel, m, n0, k0, k, zeroInit);
    else
      dotBlock(b, loc, a, packed, c, bi, panel, m, n0, k0, k, zeroInit);
  };
  if (stream) {
    // Panels in groups, one per core; per group, blocks of kc rows of B:
    // packed, then every 32x32 block of C of the group's panels
    // accumulates them.
    int64_t panels = N / kBlock;
    int64_t group = parallel ? (panels + cores - 1) / std::max<int64_t>(cores, 1)
                             : panels;
    int64_t kc = streamBlock(M, group * kBlock, K, l2Bytes);
    int64_t fullBlocks = validK / kc, tail = K - fullBlocks * kc;
    auto bufferType = MemRefType::get({1, group, kc / 2, 2 * kBlock},
                                      rewriter.getBF16Type());
    buildLoop(rewriter, loc, panels, group, parallel, [&](OpBuilder &b,
                                                          Value p0) {
      Value pEnd = arith::MinSIOp::create(b, loc, offset(b, loc, p0, group),
                                          index(b, loc, panels));
      Value buffer = memref::AllocOp::create(b, loc, bufferType);
      Value zero = index(b, loc, 0);
      // The batches inside the blocks: an A shared by the batches (batch
      // stride 0: a convolution's kernel rows) stays in L2 for all of them.
      auto accumulate = [&](OpBuilder &b, Value k0, int64_t rows,
                            int64_t valid) {
        buildLoop(b, loc, batch, 1, false, [&](OpBuilder &b, Value bi) {
          Value a = matrixAt(b, loc, lhs, bi), c = matrixAt(b, loc, acc, bi);
          packBlock(b, loc, matrixAt(b, loc, rhs, bi), buffer, p0, pEnd, k0, rows,
                    valid);
          scf::ForOp::create(
              b, loc, p0, pEnd, index(b, loc, 1), ValueRange{},
              [&](OpBuilder &b, Location, Value p, ValueRange) {
                Value slot = arith::SubIOp::create(b, loc, p, p0);
                Value n0 = arith::MulIOp::create(b, loc, p, index(b, loc, kBlock));
                buildLoop(b, loc, M, kBlock, false, [&](OpBuilder &b, Value m) {
                  block(b, a, buffer, c, zero, slot, m, n0, k0, rows);
                });
                scf::YieldOp::create(b, loc);
              });
        });
      };
      buildLoop(b, loc, fullBlocks * kc, kc, false, [&](OpBuilder &b, Value k0) {
        accumulate(b, k0, kc, kc);
      });
      if (tail)
        accumulate(b, index(b, loc, fullBlocks * kc), tail,
                   validK - fullBlocks * kc);
      memref::DeallocOp::create(b, loc, buffer);
    });
    if (acc != out)
      linalg::CopyOp::create(rewriter, loc,
                             corner(rewriter, loc, acc, outShape), out);
    for (Value temporary : temporaries)
      memref::DeallocOp::create(rewriter, loc, temporary);
    rewriter.eraseOp(op);
    return success();
  }
  // Batches run in parallel where they split evenly over the cores or are
  // many (a batch of 3 on 2 cores would leave one idle for a third of the
  // time: a 3x3 convolution's kernel rows), else the row blocks of each.
  bool parallelBatches = parallel && batch > 1 &&
                         (batch % std::max<int64_t>(cores, 1) == 0 ||
                          batch >= 4 * cores);
  bool parallelRows = parallel && !parallelBatches;
  Value packed =
      packTransposed
          ? packTransposedVnniPanels(rewriter, loc, rhs, batch, validK, K, N,
                                     parallelBatches, parallelRows)
          : packVnniPanels(rewriter, loc, rhs, batch, K, N, parallelBatches,
                           parallelRows);
  temporaries.push_back(packed);
  int64_t rows = rowBlock(M, K, l2Bytes, parallelRows ? cores : 1);

  buildLoop(rewriter, loc, batch, 1, parallelBatches, [&](OpBuilder &b,
                                                          Value bi) {
    Value a = matrixAt(b, loc, lhs, bi), c = matrixAt(b, loc, acc, bi);
    buildLoop(b, loc, M, rows, parallelRows, [&](OpBuilder &b, Value m0) {
      buildLoop(b, loc, N, kBlock, false, [&](OpBuilder &b, Value n0) {
        Value panel =
            arith::DivUIOp::create(b, loc, n0, index(b, loc, kBlock));
        buildLoop(b, loc, rows, kBlock, false, [&](OpBuilder &b, Value dm) {
          Value m = arith::AddIOp::create(b, loc, m0, dm);
          block(b, a, packed, c, bi, panel, m, n0, index(b, loc, 0), K);
        });
      });
    });
  });
  if (acc != out)
    linalg::CopyOp::create(rewriter, loc, corner(rewriter, loc, acc, outShape),
                           out);
  for (Value temporary : temporaries)
    memref::DeallocOp::create(rewriter, loc, temporary);
  rewriter.eraseOp(op);
  return success();
}
