//===- GpuMatmul.cpp - shared-memory tiled matmul kernels for the GPU -----===//
//
// `tadc --target=cuda --gpu-kernels=tiled` (compiler/GpuPipeline.cpp): each
// f32/f64 `linalg.matmul` and `linalg.batch_matmul` (any transposed
// indexing maps) on buffers becomes one `gpu.launch` of the classic tiled
// kernel, instead of one thread per output element with a sequential k loop:
//
//   grid (ceil(N/64), ceil(M/64), batch), block (16, 16): each block owns a
//   64x64 tile of C, each thread a 4x4 register tile of it (rows ty + 16 i,
//   columns tx + 16 j: coalesced stores, broadcast shared-memory reads);
//   for each 16-wide slice of k, the block loads the 64x16 slice of A and
//   the 16x64 slice of B into workgroup memory (zero outside the matrices),
//   gpu.barrier, 16 rank-1 updates of the register tile, gpu.barrier.
//
// The accumulators start from C (linalg.matmul accumulates into its output)
// and add the products in increasing k, as the naive kernel and the CPU do.
//
// Reductions (a linalg op with parallel loops, then at least 64 iterations of
// reduction loops, one float output combined by addf/mulf/max/min) become a
// block of 256 threads per output element: strided partial results, then
// `gpu.all_reduce` (whose upstream lowering in convert-gpu-to-nvvm uses warp
// shuffles and workgroup memory), then thread 0 combines the total with the
// output's initial value. The order of the additions differs from the CPU
// (rounding only).
//
// Emulation (`--gpu-emulate`): the same generator writes the kernel as CPU
// loops, the way a GPU runs it between barriers: blocks in sequence, and
// within a block each barrier-free phase as a loop over all 256 threads,
// with the per-thread accumulators in an array indexed by thread. Every
// index, guard and tile computation of the GPU kernel is thereby executed
// and checked against the CPU; only the barriers and the memory spaces are
// not.
//
//===----------------------------------------------------------------------===//
#include "passes/GPU/GpuMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

#include <limits>

using namespace mlir;

namespace {

constexpr int64_t kTileM = 64, kTileN = 64, kTileK = 16;
constexpr int64_t kThreadsX = 16, kThreadsY = 16;
constexpr int64_t kThreads = kThreadsX * kThreadsY;
constexpr int64_t kRegM = kTileM / kThreadsY, kRegN = kTileN / kThreadsX;
/// Padding of the A tile's rows (k-major), against bank conflicts when the
/// threads store consecutive k of one row of A.
constexpr int64_t kPadA = 1;

/// What the generator needs of a matmul-like op.
struct Contraction {
  linalg::LinalgOp op;
  Value a, b, c;
  SmallVector<AffineMap> maps; // a, b, c over (batch?, m, n, k)
  bool batched;
  Type element;
};

FailureOr<Contraction> match(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) ||
      !op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return failure();
  Contraction c;
  c.op = op;
  c.a = op.getDpsInputOperand(0)->get();
  c.b = op.getDpsInputOperand(1)->get();
  c.c = op.getDpsInitOperand(0)->get();
  c.batched = isa<linalg::BatchMatmulOp>(op.getOperation());
  c.maps = op.getIndexingMapsArray();
  // Sizes may be dynamic (read when the kernel is launched).
  for (Value v : {c.a, c.b, c.c}) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.getLayout().isIdentity())
      return failure();
  }
  c.element = cast<MemRefType>(c.c.getType()).getElementType();
  if (!c.element.isF32() && !c.element.isF64())
    return failure();
  for (Value v : {c.a, c.b})
    if (cast<MemRefType>(v.getType()).getElementType() != c.element)
      return failure();
  for (AffineMap map : c.maps)
    if (!map.isProjectedPermutation())
      return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = c.batched ? 4 : 3;
  if (ranges.size() != numLoops || llvm::is_contained(ranges, 0))
    return failure();
  // The output must be indexed by (batch?, m, n) in order.
  AffineMap out = c.maps[2];
  if (out.getNumResults() != numLoops - 1)
    return failure();
  for (unsigned i = 0; i < numLoops - 1; ++i)
    if (out.getDimPosition(i) != i)
      return failure();
  return c;
}

/// Builds the kernel of one contraction, on the GPU or emulated.
struct KernelBuilder {
  KernelBuilder(Contraction c, bool emulate)
      : c(std::move(c)), emulate(emulate), loc(this->c.op.getLoc()) {}

  Contraction c;
  bool emulate;
  Location loc;

  // The loop sizes (index values, defined before the kernel: constants, or
  // dimensions of the operands where they are dynamic).
  Value batch, m, n, k;
  // Storage: the tiles and the accumulators.
  Value tileA, tileB, acc;
  // Block ids (batch, row tile, column tile) and, on the GPU, thread ids.
  Value blockZ, blockY, blockX, threadX, threadY;

  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(OpBuilder &b, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, int64_t v) {
    return arith::MulIOp::create(b, loc, x, index(b, v));
  }
  Value zero(OpBuilder &b) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(c.element, 0.0));
  }
  Value less(OpBuilder &b, Value x, Value bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, bound);
  }
  Value ceilDiv(OpBuilder &b, Value x, int64_t v) {
    return arith::CeilDivUIOp::create(b, loc, x, index(b, v));
  }

  /// operand[map(dims)], where dims = (batch?, m, n, k).
  Value load(OpBuilder &b, Value operand, AffineMap map, ArrayRef<Value> dims) {
    SmallVector<Value> indices;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      indices.push_back(dims[map.getDimPosition(i)]);
    return memref::LoadOp::create(b, loc, operand, indices);
  }
  void store(OpBuilder &b, Value value, Value operand, AffineMap map,
             ArrayRef<Value> dims) {
    SmallVector<Value> indices;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      indices.push_back(dims[map.getDimPosition(i)]);
    memref::StoreOp::create(b, loc, value, operand, indices);
  }
  SmallVector<Value> dims(Value m, Value n, Value k, OpBuilder &b) {
    SmallVector<Value> d;
    if (c.batched)
      d.push_back(blockZ);
    d.append({m, n, k});
    return d;
  }

  /// `cond ? then() : 0`.
  Value guarded(OpBuilder &b, Value cond,
                function_ref<Value(OpBuilder &)> then) {
    auto ifOp = scf::IfOp::create(
        b, loc, cond,
        [&](OpBuilder &nested, Location) {
          scf::YieldOp::create(nested, loc, then(nested));
        },
        [&](OpBuilder &nested, Location) {
          scf::YieldOp::create(nested, loc, zero(nested));
        });
    return ifOp.getResult(0);
  }

  /// Runs `body(tx, ty)` for every thread of the block: the thread ids on
  /// the GPU, a loop over all threads when emulated.
  void forEachThread(OpBuilder &b,
                     function_ref<void(OpBuilder &, Value, Value)> body) {
    if (!emulate) {
      body(b, threadX, threadY);
      return;
    }
    scf::buildLoopNest(b, loc, {index(b, 0), index(b, 0)},
                       {index(b, kThreadsY), index(b, kThreadsX)},
                       {index(b, 1), index(b, 1)},
                       [&](OpBuilder &nested, Location, ValueRange ivs) {
                         body(nested, ivs[1], ivs[0]);
                       });
  }
  void barrier(OpBuilder &b) {
    if (!emulate)
      gpu::BarrierOp::create(b, loc);
  }

  /// The accumulator `r` of thread (tx, ty).
  SmallVector<Value> accIndex(OpBuilder &b, Value tx, Value ty, int64_t r) {
    if (!emulate)
      return {index(b, r)};
    Value thread = add(b, mul(b, ty, kThreadsX), tx);
    return {add(b, mul(b, thread, kRegM * kRegN), index(b, r))};
  }

  /// The body of one block.
  void buildBlock(OpBuilder &b) {
    Value rowBase = mul(b, blockY, kTileM), colBase = mul(b, blockX, kTileN);
    auto row = [&](OpBuilder &b, Value ty, int64_t i) {
      return add(b, rowBase, add(b, ty, index(b, kThreadsY * i)));
    };
    auto col = [&](OpBuilder &b, Value tx, int64_t j) {
      return add(b, colBase, add(b, tx, index(b, kThreadsX * j)));
    };
    AffineMap mapA = c.maps[0], mapB = c.maps[1], mapC = c.maps[2];
    Value kZero = index(b, 0);

    // Accumulators from C (zero outside it).
    forEachThread(b, [&](OpBuilder &b, Value tx, Value ty) {
      for (int64_t i = 0; i < kRegM; ++i) {
        Value mi = row(b, ty, i);
        Value mIn = less(b, mi, m);
        for (int64_t j = 0; j < kRegN; ++j) {
          Value nj = col(b, tx, j);
          Value in = arith::AndIOp::create(b, loc, mIn, less(b, nj, n));
          Value v = guarded(b, in, [&](OpBuilder &b) {
            return load(b, c.c, mapC, dims(mi, nj, kZero, b));
          });
          memref::StoreOp::create(b, loc, v, acc,
                                  accIndex(b, tx, ty, i * kRegN + j));
        }
      }
    });

    Value numSlices = ceilDiv(b, k, kTileK);
    scf::buildLoopNest(
        b, loc, {index(b, 0)}, {numSlices}, {index(b, 1)},
        [&](OpBuilder &b, Location, ValueRange slice) {
          Value kBase = mul(b, slice[0], kTileK);
          // Load the slices of A (64 x 16) and B (16 x 64), consecutive
          // threads along each operand's contiguous dimension (k for A, n
          // for B); zero outside the matrices.
          auto loadSlice = [&](OpBuilder &b, Value thread, bool isA) {
            int64_t fastExtent = isA ? kTileK : kTileN;
            int64_t elements = isA ? kTileM * kTileK : kTileK * kTileN;
            for (int64_t r = 0; r < elements / kThreads; ++r) {
              Value e = add(b, thread, index(b, kThreads * r));
              Value fast =
                  arith::RemUIOp::create(b, loc, e, index(b, fastExtent));
              Value slow =
                  arith::DivUIOp::create(b, loc, e, index(b, fastExtent));
              // kk: the position in the slice's k; mn: in its rows or columns.
              Value kk = isA ? fast : slow, mn = isA ? slow : fast;
              Value kAt = add(b, kBase, kk);
              Value rowOrCol = add(b, isA ? rowBase : colBase, mn);
              Value in = arith::AndIOp::create(
                  b, loc, less(b, rowOrCol, isA ? m : n), less(b, kAt, k));
              Value v = guarded(b, in, [&](OpBuilder &b) {
                return isA ? load(b, c.a, mapA, dims(rowOrCol, kZero, kAt, b))
                           : load(b, c.b, mapB, dims(kZero, rowOrCol, kAt, b));
              });
              memref::StoreOp::create(b, loc, v, isA ? tileA : tileB,
                                      ValueRange{kk, mn});
            }
          };
          forEachThread(b, [&](OpBuilder &b, Value tx, Value ty) {
            Value thread = add(b, mul(b, ty, kThreadsX), tx);
            loadSlice(b, thread, /*isA=*/true);
            loadSlice(b, thread, /*isA=*/false);
          });
          barrier(b);
          // Up to 16 rank-1 updates of each thread's 4x4 tile (the last
          // slice stops at K: the results are the naive kernel's exactly).
          Value sliceK = arith::MinSIOp::create(
              b, loc, index(b, kTileK),
              arith::SubIOp::create(b, loc, k, kBase));
          forEachThread(b, [&](OpBuilder &b, Value tx, Value ty) {
            scf::buildLoopNest(
                b, loc, {index(b, 0)}, {sliceK}, {index(b, 1)},
                [&](OpBuilder &b, Location, ValueRange kkRange) {
                  Value kk = kkRange[0];
                  SmallVector<Value> as, bs;
                  for (int64_t i = 0; i < kRegM; ++i)
                    as.push_back(memref::LoadOp::create(
                        b, loc, tileA,
                        ValueRange{kk, add(b, ty, index(b, kThreadsY * i))}));
                  for (int64_t j = 0; j < kRegN; ++j)
                    bs.push_back(memref::LoadOp::create(
                        b, loc, tileB,
                        ValueRange{kk, add(b, tx, index(b, kThreadsX * j))}));
                  for (int64_t i = 0; i < kRegM; ++i)
                    for (int64_t j = 0; j < kRegN; ++j) {
                      SmallVector<Value> at =
                          accIndex(b, tx, ty, i * kRegN + j);
                      Value sum = memref::LoadOp::create(b, loc, acc, at);
                      Value product =
                          arith::MulFOp::create(b, loc, as[i], bs[j]);
                      sum = arith::AddFOp::create(b, loc, sum, product);
                      memref::StoreOp::create(b, loc, sum, acc, at);
                    }
                });
          });
          barrier(b);
        });

    // Store the tile of C.
    forEachThread(b, [&](OpBuilder &b, Value tx, Value ty) {
      for (int64_t i = 0; i < kRegM; ++i) {
        Value mi = row(b, ty, i);
        Value mIn = less(b, mi, m);
        for (int64_t j = 0; j < kRegN; ++j) {
          Value nj = col(b, tx, j);
          Value in = arith::AndIOp::create(b, loc, mIn, less(b, nj, n));
          auto ifOp = scf::IfOp::create(b, loc, in, /*withElse=*/false);
          OpBuilder then = ifOp.getThenBodyBuilder();
          Value v = memref::LoadOp::create(
              then, loc, acc, accIndex(then, tx, ty, i * kRegN + j));
          store(then, v, c.c, mapC, dims(mi, nj, kZero, then));
        }
      }
    });
  }

  /// Replaces the op by the kernel.
  void build() {
    Operation *op = c.op.getOperation();
    OpBuilder b(op);
    MLIRContext *context = b.getContext();
    SmallVector<Range> ranges = c.op.createLoopRanges(b, loc);
    SmallVector<Value> sizes;
    for (const Range &range : ranges)
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
    unsigned first = c.batched ? 1 : 0;
    batch = c.batched ? sizes[0] : index(b, 1);
    m = sizes[first];
    n = sizes[first + 1];
    k = sizes[first + 2];
    Value gridX = ceilDiv(b, n, kTileN);
    Value gridY = ceilDiv(b, m, kTileM);
    auto workgroup = gpu::AddressSpaceAttr::get(context,
                                                gpu::AddressSpace::Workgroup);
    auto privateSpace =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Private);
    auto typeA = MemRefType::get({kTileK, kTileM + kPadA}, c.element,
                                 AffineMap(), emulate ? Attribute() : workgroup);
    auto typeB = MemRefType::get({kTileK, kTileN}, c.element, AffineMap(),
                                 emulate ? Attribute() : workgroup);
    int64_t accSize = kRegM * kRegN * (emulate ? kThreads : 1);
    auto typeAcc = MemRefType::get({accSize}, c.element, AffineMap(),
                                   emulate ? Attribute() : privateSpace);

    if (!emulate) {
      auto launch = gpu::LaunchOp::create(
          b, loc, gridX, gridY, batch,
          index(b, kThreadsX), index(b, kThreadsY), index(b, 1),
          /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
          ValueRange(), TypeRange{typeA, typeB}, TypeRange{typeAcc});
      Block &body = launch.getBody().front();
      OpBuilder inner = OpBuilder::atBlockBegin(&body);
      tileA = launch.getWorkgroupAttributions()[0];
      tileB = launch.getWorkgroupAttributions()[1];
      acc = launch.getPrivateAttributions()[0];
      blockX = launch.getBlockIds().x;
      blockY = launch.getBlockIds().y;
      blockZ = launch.getBlockIds().z;
      threadX = launch.getThreadIds().x;
      threadY = launch.getThreadIds().y;
      buildBlock(inner);
      gpu::TerminatorOp::create(inner, loc);
      op->erase();
      return;
    }

    // Emulated: the storage of one block (reused by the next), allocated in
    // the function's entry block, freed at its end; blocks in sequence.
    auto fn = op->getParentOfType<func::FuncOp>();
    Block &entry = fn.getBody().front();
    OpBuilder top = OpBuilder::atBlockBegin(&entry);
    tileA = memref::AllocOp::create(top, loc, typeA);
    tileB = memref::AllocOp::create(top, loc, typeB);
    acc = memref::AllocOp::create(top, loc, typeAcc);
    OpBuilder end(entry.getTerminator());
    for (Value v : {tileA, tileB, acc})
      memref::DeallocOp::create(end, loc, v);
    scf::buildLoopNest(
        b, loc, {index(b, 0), index(b, 0), index(b, 0)},
        {batch, gridY, gridX},
        {index(b, 1), index(b, 1), index(b, 1)},
        [&](OpBuilder &nested, Location, ValueRange ivs) {
          blockZ = ivs[0];
          blockY = ivs[1];
          blockX = ivs[2];
          buildBlock(nested);
        });
    op->erase();
  }
};

//===----------------------------------------------------------------------===//
// Parallel reductions
//===----------------------------------------------------------------------===//

constexpr int64_t kReduceThreads = 256;
/// Reductions shorter than this stay a sequential loop per output element.
constexpr int64_t kMinReduction = 64;

/// A linalg reduction: parallel loops, then reduction loops, one float
/// output combined by one associative and commutative op.
struct Reduction {
  linalg::LinalgOp op;
  Operation *combiner;
  gpu::AllReduceOperation kind;
  SmallVector<int64_t> parallel, reduced; // loop sizes
  SmallVector<AffineMap> maps;
};

std::optional<gpu::AllReduceOperation> getAllReduceKind(Operation *op) {
  if (isa<arith::AddFOp>(op))
    return gpu::AllReduceOperation::ADD;
  if (isa<arith::MulFOp>(op))
    return gpu::AllReduceOperation::MUL;
  if (isa<arith::MaxNumFOp>(op))
    return gpu::AllReduceOperation::MAXNUMF;
  if (isa<arith::MinNumFOp>(op))
    return gpu::AllReduceOperation::MINNUMF;
  if (isa<arith::MaximumFOp>(op))
    return gpu::AllReduceOperation::MAXIMUMF;
  if (isa<arith::MinimumFOp>(op))
    return gpu::AllReduceOperation::MINIMUMF;
  return std::nullopt;
}

FailureOr<Reduction> matchReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      linalg::isaContractionOpInterface(op) ||
      isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
    return failure();
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return failure();
  }
  Reduction r;
  r.op = op;
  r.maps = op.getIndexingMapsArray();
  for (AffineMap map : r.maps)
    if (!map.isProjectedPermutation())
      return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [size, kind] : llvm::zip(ranges, iterators)) {
    if (kind == utils::IteratorType::parallel) {
      if (!r.reduced.empty())
        return failure(); // parallel loops first (tad-parallel-loops-first)
      r.parallel.push_back(size);
    } else {
      r.reduced.push_back(size);
    }
  }
  int64_t total = 1, outputs = 1;
  for (int64_t size : r.reduced)
    total *= size;
  for (int64_t size : r.parallel)
    outputs *= size;
  if (r.reduced.empty() || total < kMinReduction || outputs <= 0 ||
      outputs > std::numeric_limits<int32_t>::max())
    return failure();
  Block *body = op.getBlock();
  BlockArgument out = op.getRegionOutputArgs()[0];
  if (!out.getType().isF32() && !out.getType().isF64())
    return failure();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != body || !out.hasOneUse() ||
      *out.getUsers().begin() != combiner || combiner->getNumOperands() != 2)
    return failure();
  std::optional<gpu::AllReduceOperation> kind = getAllReduceKind(combiner);
  if (!kind || !arith::getNeutralElement(combiner))
    return failure();
  for (Operation &nested : body->without_terminator())
    if (isa<linalg::IndexOp>(nested) || nested.getNumRegions() ||
        !isMemoryEffectFree(&nested))
      return failure();
  r.combiner = combiner;
  r.kind = *kind;
  return r;
}

/// Builds the reduction kernel: a block per output element, its threads
/// accumulate strided partial results, gpu.all_reduce combines them (the
/// upstream lowering: warp shuffles, then workgroup memory across warps),
/// thread 0 combines the total with the output's initial value. Emulated:
/// the threads' partials as a loop into an array, then folded in order.
struct ReductionBuilder {
  ReductionBuilder(Reduction r, bool emulate)
      : r(std::move(r)), emulate(emulate), loc(this->r.op.getLoc()) {}

  Reduction r;
  bool emulate;
  Location loc;

  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// `linear` as indices of a row-major nest of `sizes`.
  SmallVector<Value> delinearize(OpBuilder &b, Value linear,
                                 ArrayRef<int64_t> sizes) {
    SmallVector<Value> indices(sizes.size());
    for (int64_t d = sizes.size() - 1; d >= 0; --d) {
      Value size = index(b, sizes[d]);
      indices[d] = arith::RemUIOp::create(b, loc, linear, size);
      linear = arith::DivUIOp::create(b, loc, linear, size);
    }
    return indices;
  }

  Value combine(OpBuilder &b, Value x, Value y) {
    IRMapping mapping;
    mapping.map(r.combiner->getOperand(0), x);
    mapping.map(r.combiner->getOperand(1), y);
    return b.clone(*r.combiner, mapping)->getResult(0);
  }

  /// The element of iteration (parallel, reduced) of the reduction.
  Value element(OpBuilder &b, ArrayRef<Value> parallel,
                ArrayRef<Value> reduced) {
    SmallVector<Value> loops(parallel);
    loops.append(reduced.begin(), reduced.end());
    Block *body = r.op.getBlock();
    IRMapping mapping;
    for (OpOperand *input : r.op.getDpsInputOperands()) {
      AffineMap map = r.maps[input->getOperandNumber()];
      SmallVector<Value> indices;
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        indices.push_back(loops[map.getDimPosition(i)]);
      Value loaded = memref::LoadOp::create(b, loc, input->get(), indices);
      mapping.map(body->getArgument(input->getOperandNumber()), loaded);
    }
    for (Operation &op : body->without_terminator())
      if (&op != r.combiner)
        b.clone(op, mapping);
    BlockArgument out = r.op.getRegionOutputArgs()[0];
    Value value = r.combiner->getOperand(0) == out
                      ? r.combiner->getOperand(1)
                      : r.combiner->getOperand(0);
    return mapping.lookupOrDefault(value);
  }

  /// The partial result of thread `thread` for output `parallel`.
  Value partial(OpBuilder &b, ArrayRef<Value> parallel, Value thread) {
    int64_t total = 1;
    for (int64_t size : r.reduced)
      total *= size;
    Value neutral = arith::ConstantOp::create(
        b, loc, *arith::getNeutralElement(r.combiner));
    auto loop = scf::ForOp::create(b, loc, thread, index(b, total),
                                   index(b, kReduceThreads),
                                   ValueRange{neutral});
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    SmallVector<Value> reduced =
        delinearize(body, loop.getInductionVar(), r.reduced);
    Value sum = combine(body, loop.getRegionIterArgs()[0],
                        element(body, parallel, reduced));
    scf::YieldOp::create(body, loc, sum);
    return loop.getResult(0);
  }

  /// out[parallel] = combine(out[parallel], total).
  void finish(OpBuilder &b, ArrayRef<Value> parallel, Value total) {
    Value output = r.op.getDpsInitOperand(0)->get();
    AffineMap map = r.maps[r.op.getDpsInitOperand(0)->getOperandNumber()];
    SmallVector<Value> indices;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      indices.push_back(parallel[map.getDimPosition(i)]);
    Value init = memref::LoadOp::create(b, loc, output, indices);
    memref::StoreOp::create(b, loc, combine(b, total, init), output,
                            indices);
  }

  void build() {
    Operation *op = r.op.getOperation();
    OpBuilder b(op);
    int64_t outputs = 1;
    for (int64_t size : r.parallel)
      outputs *= size;
    Type element = r.op.getRegionOutputArgs()[0].getType();

    if (!emulate) {
      Value one = index(b, 1);
      auto launch = gpu::LaunchOp::create(b, loc, index(b, outputs), one, one,
                                          index(b, kReduceThreads), one, one);
      Block &body = launch.getBody().front();
      OpBuilder inner = OpBuilder::atBlockBegin(&body);
      SmallVector<Value> parallel =
          delinearize(inner, launch.getBlockIds().x, r.parallel);
      Value thread = launch.getThreadIds().x;
      Value mine = partial(inner, parallel, thread);
      Value total = gpu::AllReduceOp::create(
          inner, loc, mine,
          gpu::AllReduceOperationAttr::get(b.getContext(), r.kind),
          inner.getUnitAttr());
      Value first = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::eq,
                                          thread, index(inner, 0));
      auto ifOp = scf::IfOp::create(inner, loc, first, /*withElse=*/false);
      OpBuilder then = ifOp.getThenBodyBuilder();
      finish(then, parallel, total);
      gpu::TerminatorOp::create(inner, loc);
      op->erase();
      return;
    }

    // Emulated: the partials of a block's threads in an array, folded in
    // thread order.
    auto fn = op->getParentOfType<func::FuncOp>();
    Block &entry = fn.getBody().front();
    OpBuilder top = OpBuilder::atBlockBegin(&entry);
    Value partials = memref::AllocOp::create(
        top, loc, MemRefType::get({kReduceThreads}, element));
    OpBuilder end(entry.getTerminator());
    memref::DeallocOp::create(end, loc, partials);
    auto blocks = scf::ForOp::create(b, loc, index(b, 0), index(b, outputs),
                                     index(b, 1));
    OpBuilder inner = OpBuilder::atBlockBegin(blocks.getBody());
    SmallVector<Value> parallel =
        delinearize(inner, blocks.getInductionVar(), r.parallel);
    auto threads = scf::ForOp::create(inner, loc, index(inner, 0),
                                      index(inner, kReduceThreads),
                                      index(inner, 1));
    {
      OpBuilder t = OpBuilder::atBlockBegin(threads.getBody());
      Value mine = partial(t, parallel, threads.getInductionVar());
      memref::StoreOp::create(t, loc, mine, partials,
                              ValueRange{threads.getInductionVar()});
    }
    Value neutral = arith::ConstantOp::create(
        inner, loc, *arith::getNeutralElement(r.combiner));
    auto fold = scf::ForOp::create(inner, loc, index(inner, 0),
                                   index(inner, kReduceThreads),
                                   index(inner, 1), ValueRange{neutral});
    {
      OpBuilder f = OpBuilder::atBlockBegin(fold.getBody());
      Value p = memref::LoadOp::create(f, loc, partials,
                                       ValueRange{fold.getInductionVar()});
      scf::YieldOp::create(f, loc,
                           combine(f, fold.getRegionIterArgs()[0], p));
    }
    finish(inner, parallel, fold.getResult(0));
    op->erase();
  }
};

struct TadGpuTileMatmulPass
    : public PassWrapper<TadGpuTileMatmulPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TadGpuTileMatmulPass)

  explicit TadGpuTileMatmulPass(bool emulate) : emulate(emulate) {}
  TadGpuTileMatmulPass(const TadGpuTileMatmulPass &other)
      : PassWrapper(other), emulate(other.emulate) {}

  StringRef getArgument() const override { return "tad-gpu-tile-matmul"; }
  StringRef getDescription() const override {
    return "linalg.matmul/batch_matmul on buffers to tiled shared-memory GPU "
           "kernels, long reductions to block-parallel ones (gpu.all_reduce); "
           "emulated: the same kernels as CPU loops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, scf::SCFDialect, memref::MemRefDialect,
                    arith::ArithDialect>();
  }

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal() || !fn.getBody().hasOneBlock())
      return;
    SmallVector<Contraction> contractions;
    SmallVector<Reduction> reductions;
    // Top-level ops only: the placement wraps anything nested into a
    // single-thread launch.
    for (Operation &op : fn.getBody().front()) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp)
        continue;
      if (FailureOr<Contraction> c = match(linalgOp); succeeded(c))
        contractions.push_back(*c);
      else if (FailureOr<Reduction> r = matchReduction(linalgOp);
               succeeded(r))
        reductions.push_back(*r);
    }
    for (Contraction &c : contractions) {
      KernelBuilder builder(c, emulate);
      builder.build();
    }
    for (Reduction &r : reductions) {
      ReductionBuilder builder(r, emulate);
      builder.build();
    }
  }

  bool emulate;
};

} // namespace

std::unique_ptr<Pass> mlir::tad::createTadGpuTileMatmulPass(bool emulate) {
  return std::make_unique<TadGpuTileMatmulPass>(emulate);
}
