//===- VectorizeConvolutions.cpp - direct convolution kernels -------------===//
//
// See TadVectorizeConvolutionsPass in Passes.td, passes/DirectConvolution.h
// and docs/performance.md ("Convolution and pooling").
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/DirectConvolution.h"
#include "passes/CPU/HostMachine.h"
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <thread>

namespace mlir::tad {
#define GEN_PASS_DEF_TADVECTORIZECONVOLUTIONSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Multiply-adds below which a convolution stays on one thread (as for
/// contractions: a fork/join costs a few microseconds).
constexpr int64_t kMinParallelWork = int64_t(1) << 18;
/// Kernel taps unrolled in the forward kernel's body at most.
constexpr int64_t kMaxUnrolledTaps = 2 * tad::kMaxDirectConvolutionReduction;

struct TadVectorizeConvolutionsPass
    : tad::impl::TadVectorizeConvolutionsPassBase<
          TadVectorizeConvolutionsPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// Builds the kernels' IR at one insertion point: index arithmetic, row
/// vectors and loops.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  Type elemType;

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value a, int64_t offset) {
    return offset == 0 ? a : arith::AddIOp::create(b, loc, a, index(offset));
  }
  Value add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
  VectorType vectorOf(int64_t width) {
    return VectorType::get({width}, elemType);
  }
  /// `width` consecutive elements of `buffer` from `indices` (inner stride 1
  /// or not: the transfer lowering handles both).
  Value readRow(Value buffer, ValueRange indices, int64_t width) {
    return vector::TransferReadOp::create(b, loc, vectorOf(width), buffer,
                                          indices, /*padding=*/std::nullopt,
                                          ArrayRef<bool>{true});
  }
  void writeRow(Value row, Value buffer, ValueRange indices) {
    vector::TransferWriteOp::create(b, loc, row, buffer, indices,
                                    ArrayRef<bool>{true});
  }
  /// A loop over [lo, hi) step 1 without results.
  void forEach(Value lo, Value hi, function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, lo, hi, index(1), ValueRange{},
                       [&](OpBuilder &nested, Location, Value iv, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPointToStart(nested.getInsertionBlock());
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  }
  /// body(offset, count) for consecutive blocks of `block` of [0, extent):
  /// a loop over the full blocks, then the static rest.
  void forBlocks(int64_t extent, int64_t block,
                 function_ref<void(Value, int64_t)> body) {
    int64_t full = extent / block, rest = extent % block;
    if (full == 1)
      body(index(0), block);
    else if (full > 1)
      forEach(index(0), index(full), [&](Value i) {
        body(arith::MulIOp::create(b, loc, i, index(block)), block);
      });
    if (rest)
      body(index(full * block), rest);
  }
};

/// The widths of the vectors that cover `width` columns: full vectors of
/// `lanes`, the last one shorter where they do not divide.
SmallVector<int64_t> rowVectors(int64_t width, int64_t lanes) {
  SmallVector<int64_t> widths(width / lanes, lanes);
  if (width % lanes)
    widths.push_back(width % lanes);
  return widths;
}

/// A block size for `count` items of at most `maxBlock`: as even as the
/// fewest blocks allow (6 filters with room for 5: two blocks of 3).
int64_t evenBlock(int64_t count, int64_t maxBlock) {
  int64_t blocks = llvm::divideCeil(count, std::max<int64_t>(maxBlock, 1));
  return llvm::divideCeil(count, blocks);
}

bool allOnes(DenseIntElementsAttr attr) {
  return !attr || llvm::all_of(attr.getValues<int64_t>(),
                               [](int64_t v) { return v == 1; });
}

/// The float element type all operands of `op` share; null if they do not.
FloatType commonFloatType(linalg::LinalgOp op) {
  auto type = dyn_cast<FloatType>(
      getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()));
  if (!type || llvm::any_of(op->getOperands(), [&](Value v) {
        return getElementTypeOrSelf(v.getType()) != type;
      }))
    return {};
  return type;
}

/// The static shape of a memref operand.
ArrayRef<int64_t> shapeOf(Value v) {
  return cast<MemRefType>(v.getType()).getShape();
}

/// Forward: out[n, f, oh, ow] += sum_{c, kh, kw} w[f, c, kh, kw] *
/// x[n, c, oh + kh, ow + kw].
LogicalResult vectorizeForward(RewriterBase &rewriter,
                               linalg::Conv2DNchwFchwOp op,
                               const tad::HostMachine &machine,
                               bool parallel) {
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      !allOnes(op.getStrides()) || !allOnes(op.getDilations()))
    return failure();
  FloatType elemType = commonFloatType(op);
  if (!elemType)
    return failure();
  Value x = op.getDpsInputOperand(0)->get(), w = op.getDpsInputOperand(1)->get(),
        out = op.getDpsInitOperand(0)->get();
  ArrayRef<int64_t> outShape = shapeOf(out), wShape = shapeOf(w);
  int64_t N = outShape[0], F = outShape[1], OH = outShape[2], OW = outShape[3];
  int64_t C = wShape[1], KH = wShape[2], KW = wShape[3];
  if (C * KH * KW > kMaxUnrolledTaps)
    return failure();

  int64_t lanes = std::max<int64_t>(1, machine.vectorBits / elemType.getWidth());
  // Accumulators: up to two row vectors per filter, about half the vector
  // registers in all; the rest hold the input vectors and broadcasts.
  int64_t columnBlock = std::min(OW, 2 * lanes);
  int64_t vectorsPerFilter = llvm::divideCeil(columnBlock, lanes);
  int64_t filterBlock =
      evenBlock(F, (machine.numVectors / 2) / vectorsPerFilter);
  bool isParallel = parallel && N * OH >= 2 &&
                    N * F * OH * OW * C * KH * KW >= kMinParallelWork;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  KernelBuilder k{rewriter, loc, elemType};
  // One output row of a block of filters, one block of columns.
  auto rowKernel = [&](Value n, Value oh, Value f0, int64_t filters,
                       Value ow0, int64_t columns) {
    SmallVector<int64_t> widths = rowVectors(columns, lanes);
    SmallVector<Value> filter, column;
    for (int64_t i = 0; i < filters; ++i)
      filter.push_back(k.add(f0, i));
    for (int64_t v = 0; v < (int64_t)widths.size(); ++v)
      column.push_back(k.add(ow0, v * lanes));
    SmallVector<SmallVector<Value>> acc(filters);
    for (int64_t i = 0; i < filters; ++i)
      for (int64_t v = 0; v < (int64_t)widths.size(); ++v)
        acc[i].push_back(
            k.readRow(out, ValueRange{n, filter[i], oh, column[v]}, widths[v]));
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < KH; ++kh) {
        Value row = k.add(oh, kh);
        for (int64_t kw = 0; kw < KW; ++kw) {
          SmallVector<Value> in;
          for (int64_t v = 0; v < (int64_t)widths.size(); ++v)
            in.push_back(k.readRow(
                x, ValueRange{n, k.index(c), row, k.add(column[v], kw)},
                widths[v]));
          for (int64_t i = 0; i < filters; ++i) {
            Value weight = memref::LoadOp::create(
                rewriter, loc, w,
                ValueRange{filter[i], k.index(c), k.index(kh), k.index(kw)});
            for (int64_t v = 0; v < (int64_t)widths.size(); ++v) {
              Value broadcast = vector::BroadcastOp::create(
                  rewriter, loc, k.vectorOf(widths[v]), weight);
              acc[i][v] = vector::FMAOp::create(rewriter, loc, in[v],
                                                broadcast, acc[i][v]);
            }
          }
        }
      }
    for (int64_t i = 0; i < filters; ++i)
      for (int64_t v = 0; v < (int64_t)widths.size(); ++v)
        k.writeRow(acc[i][v], out, ValueRange{n, filter[i], oh, column[v]});
  };
  auto outputRow = [&](Value n, Value oh) {
    k.forBlocks(F, filterBlock, [&](Value f0, int64_t filters) {
      k.forBlocks(OW, columnBlock, [&](Value ow0, int64_t columns) {
        rowKernel(n, oh, f0, filters, ow0, columns);
      });
    });
  };
  if (isParallel) {
    scf::ParallelOp::create(
        rewriter, loc, ValueRange{k.index(0), k.index(0)},
        ValueRange{k.index(N), k.index(OH)}, ValueRange{k.index(1), k.index(1)},
        [&](OpBuilder &nested, Location, ValueRange ivs) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(nested.getInsertionBlock());
          outputRow(ivs[0], ivs[1]);
        });
  } else {
    k.forEach(k.index(0), k.index(N), [&](Value n) {
      k.forEach(k.index(0), k.index(OH), [&](Value oh) { outputRow(n, oh); });
    });
  }
  rewriter.eraseOp(op);
  return success();
}

/// Whether `op` is the weight gradient generic of DirectConvolution.h.
bool isWeightGradient(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      !llvm::equal(op.getIndexingMapsArray(),
                   tad::weightGradientMaps(op.getContext())))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (int64_t i = 0; i < 7; ++i)
    if ((iterators[i] == utils::IteratorType::parallel) != (i < 4))
      return false;
  // yield out + x * g.
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 3 || yield.getNumOperands() != 1)
    return false;
  auto sum = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!sum)
    return false;
  Value acc = body->getArgument(2);
  Value other = sum.getLhs() == acc ? sum.getRhs() : sum.getLhs();
  auto product = other.getDefiningOp<arith::MulFOp>();
  if (!product || (sum.getLhs() != acc && sum.getRhs() != acc))
    return false;
  Value a = body->getArgument(0), c = body->getArgument(1);
  return (product.getLhs() == a && product.getRhs() == c) ||
         (product.getLhs() == c && product.getRhs() == a);
}

/// Weight gradient: gw[f, c, kh, kw] += sum_{n, oh, ow} g[n, f, oh, ow] *
/// x[n, c, oh + kh, ow + kw].
LogicalResult vectorizeWeightGradient(RewriterBase &rewriter,
                                      linalg::GenericOp op,
                                      const tad::HostMachine &machine,
                                      bool parallel) {
  if (!isWeightGradient(op))
    return failure();
  FloatType elemType = commonFloatType(op);
  if (!elemType)
    return failure();
  Value x = op.getDpsInputOperand(0)->get(), g = op.getDpsInputOperand(1)->get(),
        gw = op.getDpsInitOperand(0)->get();
  ArrayRef<int64_t> gShape = shapeOf(g), wShape = shapeOf(gw);
  int64_t N = gShape[0], F = gShape[1], OH = gShape[2], OW = gShape[3];
  int64_t C = wShape[1], KH = wShape[2], KW = wShape[3];

  int64_t lanes = std::max<int64_t>(1, machine.vectorBits / elemType.getWidth());
  // Accumulators (filter, kernel column) for one row vector; besides them
  // the registers hold the KW input vectors and a gradient vector.
  int64_t filterBlock =
      evenBlock(F, (machine.numVectors - KW - 2) / std::max<int64_t>(KW, 1));
  int64_t parts = 1;
  if (parallel && N * F * C * KH * KW * OH * OW >= kMinParallelWork)
    parts = std::min<int64_t>(
        N, std::clamp<int64_t>(
               machine.cores, 1, 8));

  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  KernelBuilder k{rewriter, loc, elemType};
  // Each part's vector partial sums [F, C, KH, KW, lanes], zero at first.
  Value partials = memref::AllocOp::create(
      rewriter, loc, MemRefType::get({parts, F, C, KH, KW, lanes}, elemType));
  linalg::FillOp::create(
      rewriter, loc,
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elemType))
          .getResult(),
      partials);

  // One image, input channel and kernel row; a block of filters and one row
  // vector of `width` columns from ow0.
  auto rowKernel = [&](Value part, Value n, Value c, Value kh, Value f0,
                       int64_t filters, Value ow0, int64_t width) {
    SmallVector<Value> filter, column;
    for (int64_t i = 0; i < filters; ++i)
      filter.push_back(k.add(f0, i));
    for (int64_t kw = 0; kw < KW; ++kw)
      column.push_back(k.add(ow0, kw));
    auto slot = [&](int64_t i, int64_t kw) {
      return SmallVector<Value>{part,         filter[i], c, kh,
                                k.index(kw), k.index(0)};
    };
    SmallVector<Value> init;
    for (int64_t i = 0; i < filters; ++i)
      for (int64_t kw = 0; kw < KW; ++kw)
        init.push_back(k.readRow(partials, slot(i, kw), width));
    auto rows = scf::ForOp::create(
        rewriter, loc, k.index(0), k.index(OH), k.index(1), init,
        [&](OpBuilder &nested, Location, Value oh, ValueRange acc) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(nested.getInsertionBlock());
          Value row = k.add(oh, kh);
          SmallVector<Value> in;
          for (int64_t kw = 0; kw < KW; ++kw)
            in.push_back(k.readRow(x, ValueRange{n, c, row, column[kw]}, width));
          SmallVector<Value> next;
          for (int64_t i = 0; i < filters; ++i) {
            Value grad = k.readRow(g, ValueRange{n, filter[i], oh, ow0}, width);
            for (int64_t kw = 0; kw < KW; ++kw)
              next.push_back(vector::FMAOp::create(rewriter, loc, grad, in[kw],
                                                   acc[i * KW + kw]));
          }
          scf::YieldOp::create(rewriter, loc, next);
        });
    for (int64_t i = 0; i < filters; ++i)
      for (int64_t kw = 0; kw < KW; ++kw)
        k.writeRow(rows.getResult(i * KW + kw), partials, slot(i, kw));
  };
  // The images [first, last) of `part`.
  auto partKernel = [&](Value part) {
    Value first = arith::DivUIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, part, k.index(N)),
        k.index(parts));
    Value last = arith::DivUIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, k.add(part, 1), k.index(N)),
        k.index(parts));
    k.forEach(first, last, [&](Value n) {
      k.forEach(k.index(0), k.index(C), [&](Value c) {
        k.forEach(k.index(0), k.index(KH), [&](Value kh) {
          k.forBlocks(F, filterBlock, [&](Value f0, int64_t filters) {
            k.forBlocks(OW, lanes, [&](Value ow0, int64_t width) {
              rowKernel(part, n, c, kh, f0, filters, ow0, width);
            });
          });
        });
      });
    });
  };
  if (parts > 1) {
    scf::ParallelOp::create(
        rewriter, loc, ValueRange{k.index(0)}, ValueRange{k.index(parts)},
        ValueRange{k.index(1)},
        [&](OpBuilder &nested, Location, ValueRange ivs) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(nested.getInsertionBlock());
          partKernel(ivs[0]);
        });
  } else {
    partKernel(k.index(0));
  }

  // gw += the partial sums over parts and lanes.
  AffineExpr f, c, kh, kw, p, l;
  bindDims(ctx, f, c, kh, kw, p, l);
  SmallVector<AffineMap> maps{AffineMap::get(6, 0, {p, f, c, kh, kw, l}, ctx),
                              AffineMap::get(6, 0, {f, c, kh, kw}, ctx)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  linalg::GenericOp::create(
      rewriter, loc, ValueRange{partials}, ValueRange{gw}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(
            nb, nl, arith::AddFOp::create(nb, nl, args[1], args[0]).getResult());
      });
  memref::DeallocOp::create(rewriter, loc, partials);
  rewriter.eraseOp(op);
  return success();
}

void TadVectorizeConvolutionsPass::runOnOperation() {
  tad::HostMachine machine = tad::hostMachine().withOverrides(
      {vectorBits, vectorRegisters, /*l1Bytes=*/0, /*l2Bytes=*/0, cores});
  SmallVector<linalg::LinalgOp> ops;
  getOperation().walk([&](linalg::LinalgOp op) {
    if (isa<linalg::Conv2DNchwFchwOp, linalg::GenericOp>(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (linalg::LinalgOp op : ops) {
    if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation()))
      (void)vectorizeForward(rewriter, conv, machine, parallel);
    else
      (void)vectorizeWeightGradient(
          rewriter, cast<linalg::GenericOp>(op.getOperation()), machine,
          parallel);
  }
}

} // namespace
