//===- TadToLinalgCollectives.cpp - collectives to runtime calls ----------===//
//
// tad.all_reduce and tad.broadcast_from (TadCollectiveOps.td) become calls
// of the runtime's MPI layer (runtime/src/cpu/mpi.c), a start and a wait
// per bucket:
//
//   i64 _tad_mpi_start_T(i64 kind, i64 dtype, i64 root, i64 signature,
//                        i64 bucket, memref<*xT> in, memref<*xT> out)
//   _tad_mpi_wait_T(i64 handle, memref<*xT> out)
//
// with `kind` 0 (sum), 1 (mean) or 2 (broadcast from `root`), `dtype` the
// tad_dtype of T. The operands are grouped by element type and, in the
// order they are computed (a backward pass's last layers first, as DDP's
// buckets), packed into buckets: the first of at most `first_bucket_bytes`
// (so that communication starts early), the others of at most
// `bucket_bytes` (a tensor larger than that is a bucket of its own). Each
// bucket is one 1-D tensor built with tensor.insert_slice of the flattened
// operands (the fusion buffer; a bucket of one operand is just that
// operand, flattened), started into a fresh buffer; after every start, the
// waits, and the buffers sliced back into the results.
// tad-overlap-collectives (passes/CPU) then moves each start up to where its
// bucket is complete. `signature` is a hash of the op, its reduction and
// every operand type, so that the runtime can tell ranks running different
// programs apart (it compares the signature, the bucket index and its size
// across ranks before each bucket). tad.barrier becomes
// `_tad_mpi_barrier()`.
//
// With `runtime-calls=false` (the GPU target) the ops are rejected with a
// located error.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

constexpr StringLiteral kStartFn = "_tad_mpi_start";
constexpr StringLiteral kWaitFn = "_tad_mpi_wait";
constexpr StringLiteral kBarrierFn = "_tad_mpi_barrier";

enum CollectiveKind : int64_t { kSum = 0, kMean = 1, kBroadcast = 2 };

/// FNV-1a, 64 bits: stable across builds and processes (unlike
/// llvm::hash_value), so that ranks compiled separately agree.
uint64_t fnv1a(StringRef text, uint64_t hash = 0xcbf29ce484222325ull) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

int64_t signatureOf(Operation *op, StringRef mode) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << ":" << mode;
  for (Type type : op->getOperandTypes())
    os << ";" << type;
  return static_cast<int64_t>(fnv1a(os.str()));
}

void declare(OpBuilder &b, Operation *op, StringRef name,
             FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(b, op->getLoc(), name, type);
  decl.setPrivate();
}

/// `value` as a 1-D tensor of its elements.
Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1)
    return value;
  auto flat = RankedTensorType::get({type.getNumElements()},
                                    type.getElementType());
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, flat, value,
                                         ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, flat, value,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The 1-D tensor `flat` with the shape of `type`.
Value unflatten(OpBuilder &b, Location loc, Value flat, RankedTensorType type) {
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       ArrayRef<ReassociationIndices>{all});
}

/// A started collective: the runtime's handle and the buffer it fills.
struct StartedBucket {
  Value handle;
  Value out;
  RankedTensorType type;
  SmallVector<unsigned> members;
};

/// Starts the collective of the 1-D tensor `bucket` (a runtime call that
/// returns at once when the communication thread runs it).
StartedBucket startCollective(OpBuilder &b, Operation *op, int64_t kind,
                              int64_t root, int64_t signature, int64_t index,
                              Value bucket) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(bucket.getType());
  Type element = type.getElementType();
  auto memrefType = MemRefType::get(type.getShape(), element);
  auto unrankedType = UnrankedMemRefType::get(element, 0);
  Value in = bufferization::ToBufferOp::create(b, loc, memrefType, bucket,
                                               /*read_only=*/true);
  Value out = memref::AllocOp::create(b, loc, memrefType);
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  // The dtype argument is the tad_dtype (runtime.h): 0 f32, 1 f64.
  bool f64 = element.isF64();
  SmallVector<Value> args = {
      i64(kind),
      i64(f64 ? 1 : 0),
      i64(root),
      i64(signature),
      i64(index),
      memref::CastOp::create(b, loc, unrankedType, in),
      memref::CastOp::create(b, loc, unrankedType, out)};
  std::string name = (kStartFn + (f64 ? "_f64" : "_f32")).str();
  SmallVector<Type> argTypes;
  for (Value arg : args)
    argTypes.push_back(arg.getType());
  declare(b, op, name, b.getFunctionType(argTypes, {b.getI64Type()}));
  Value handle =
      func::CallOp::create(b, loc, name, b.getI64Type(), args).getResult(0);
  return {handle, out, type, {}};
}

/// Waits for `started`; returns its result tensor.
Value waitCollective(OpBuilder &b, Operation *op, const StartedBucket &started) {
  Location loc = op->getLoc();
  Type element = started.type.getElementType();
  Value out = memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(element, 0), started.out);
  // The wait takes the buffer too: it must stay allocated until then.
  std::string name = (kWaitFn + (element.isF64() ? "_f64" : "_f32")).str();
  declare(b, op, name, b.getFunctionType({b.getI64Type(), out.getType()}, {}));
  func::CallOp::create(b, loc, name, TypeRange{},
                       ValueRange{started.handle, out});
  return bufferization::ToTensorOp::create(b, loc, started.type, started.out,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// The indices of `values` in the order they are computed (block arguments
/// and values from enclosing blocks first, in operand order): the buckets
/// follow the backward pass, so that the first can start before the
/// backward pass ends.
SmallVector<unsigned> computeOrder(Operation *op, ValueRange values) {
  Block *block = op->getBlock();
  auto positionOf = [&](Value value) -> Operation * {
    Operation *def = value.getDefiningOp();
    return def ? block->findAncestorOpInBlock(*def) : nullptr;
  };
  SmallVector<unsigned> order(values.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order, [&](unsigned x, unsigned y) {
    Operation *a = positionOf(values[x]), *b = positionOf(values[y]);
    if (!a || !b)
      return !a && b;
    return a != b && a->isBeforeInBlock(b);
  });
  return order;
}

/// Lowers `op` (operands `inputs`) as buckets of `kind`: the first bucket
/// of each element type holds at most `firstBucketBytes` (or `bucketBytes`
/// if smaller), the others `bucketBytes`.
SmallVector<Value> lowerCollective(OpBuilder &b, Operation *op,
                                   ValueRange inputs, int64_t kind,
                                   int64_t root, int64_t bucketBytes,
                                   int64_t firstBucketBytes, StringRef mode) {
  Location loc = op->getLoc();
  int64_t signature = signatureOf(op, mode);
  SmallVector<unsigned> order = computeOrder(op, op->getOperands());
  SmallVector<StartedBucket> started;
  int64_t bucketIndex = 0;
  for (bool f64 : {false, true}) {
    // The operands of this element type, cut into buckets.
    SmallVector<SmallVector<unsigned>> buckets;
    int64_t bytes = 0;
    for (unsigned i : order) {
      auto type = cast<RankedTensorType>(inputs[i].getType());
      if (type.getElementType().isF64() != f64)
        continue;
      int64_t size = type.getNumElements() * (f64 ? 8 : 4);
      int64_t cap = buckets.size() == 1
                        ? std::min(firstBucketBytes, bucketBytes)
                        : bucketBytes;
      if (buckets.empty() || (bytes > 0 && bytes + size > cap)) {
        buckets.emplace_back();
        bytes = 0;
      }
      buckets.back().push_back(i);
      bytes += size;
    }
    for (ArrayRef<unsigned> members : buckets) {
      Type element = cast<RankedTensorType>(inputs[members[0]].getType())
                         .getElementType();
      Value bucket;
      if (members.size() == 1) {
        bucket = flatten(b, loc, inputs[members[0]]);
      } else {
        int64_t total = 0;
        for (unsigned i : members)
          total += cast<RankedTensorType>(inputs[i].getType()).getNumElements();
        bucket = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{total},
                                         element);
        int64_t offset = 0;
        for (unsigned i : members) {
          Value flat = flatten(b, loc, inputs[i]);
          int64_t n = cast<RankedTensorType>(flat.getType()).getDimSize(0);
          bucket = tensor::InsertSliceOp::create(
              b, loc, flat, bucket,
              ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
          offset += n;
        }
      }
      started.push_back(startCollective(b, op, kind, root, signature,
                                        bucketIndex++, bucket));
      started.back().members.assign(members.begin(), members.end());
    }
  }
  // Every start comes before the first wait, so that all buckets are in
  // flight together (tad-overlap-collectives moves the starts up).
  SmallVector<Value> results(inputs.size());
  for (const StartedBucket &bucket : started) {
    Value reduced = waitCollective(b, op, bucket);
    int64_t offset = 0;
    for (unsigned i : bucket.members) {
      auto type = cast<RankedTensorType>(inputs[i].getType());
      int64_t n = type.getNumElements();
      Value part = reduced;
      if (bucket.members.size() > 1)
        part = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({n}, type.getElementType()),
            reduced, ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      results[i] = unflatten(b, loc, part, type);
      offset += n;
    }
  }
  return results;
}

/// The collectives call the CPU runtime's MPI layer: where runtime calls
/// are off (the GPU target) they are reported instead of lowered.
template <typename OpTy>
struct LowerCollective : OpConversionPattern<OpTy> {
  using Adaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LowerCollective(MLIRContext *ctx, bool runtimeCalls)
      : OpConversionPattern<OpTy>(ctx), runtimeCalls(runtimeCalls) {}

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!runtimeCalls)
      return op.emitOpError("is not supported on the GPU target (it calls "
                            "the CPU runtime's MPI layer)");
    lower(op, adaptor, rewriter);
    return success();
  }

  virtual void lower(OpTy op, Adaptor adaptor,
                     ConversionPatternRewriter &rewriter) const = 0;

  bool runtimeCalls;
};

struct LowerAllReduce : LowerCollective<AllReduceOp> {
  using LowerCollective::LowerCollective;

  void lower(AllReduceOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    int64_t kind = op.getReduction() == "mean" ? kMean : kSum;
    rewriter.replaceOp(op, lowerCollective(rewriter, op, adaptor.getInputs(),
                                           kind, /*root=*/0,
                                           op.getBucketBytes(),
                                           op.getFirstBucketBytes(),
                                           op.getReduction()));
  }
};

struct LowerBroadcastFrom : LowerCollective<BroadcastFromOp> {
  using LowerCollective::LowerCollective;

  void lower(BroadcastFromOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, lowerCollective(rewriter, op, adaptor.getInputs(), kBroadcast,
                            op.getRoot(), op.getBucketBytes(),
                            op.getBucketBytes(), "broadcast"));
  }
};

struct LowerBarrier : LowerCollective<BarrierOp> {
  using LowerCollective::LowerCollective;

  void lower(BarrierOp op, Adaptor,
             ConversionPatternRewriter &rewriter) const override {
    declare(rewriter, op, kBarrierFn, rewriter.getFunctionType({}, {}));
    rewriter.replaceOpWithNewOp<func::CallOp>(op, kBarrierFn, TypeRange{},
                                              ValueRange{});
  }
};

} // namespace

void lowering::populateCollectivePatterns(RewritePatternSet &patterns,
                                          bool runtimeCalls) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LowerAllReduce, LowerBroadcastFrom, LowerBarrier>(ctx,
                                                                 runtimeCalls);
}
