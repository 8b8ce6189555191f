//===- Revolve.cpp - binomial checkpointing of a reverse loop -------------===//
#include "passes/AD/Revolve.h"
#include "passes/AD/ReverseStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tad;

SmallVector<Value> mlir::tad::cloneIteration(OpBuilder &b, scf::ForOp loop,
                                             Value iteration,
                                             ValueRange carried) {
  Location loc = loop.getLoc();
  Value offset = arith::MulIOp::create(b, loc, iteration, loop.getStep());
  Value iv = arith::AddIOp::create(b, loc, loop.getLowerBound(), offset);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  mapping.map(loop.getRegionIterArgs(), carried);
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(
      body->getTerminator()->getOperands(),
      [&](Value v) { return mapping.lookupOrDefault(v); });
}

namespace {
/// Index arithmetic at one insertion point.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value less(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
};

/// Slots of snapshots: one stack per carried value with a leading slot
/// dimension, and the iteration each slot was taken at.
struct Snapshots {
  SmallVector<Value> stacks;
  Value taken;

  SmallVector<Value> all() const {
    SmallVector<Value> values(stacks);
    values.push_back(taken);
    return values;
  }
};
} // namespace

/// Writes `values` into slot `slot` of `stacks`.
static SmallVector<Value> writeSlot(OpBuilder &b, Location loc,
                                    ValueRange stacks, ValueRange values,
                                    Value slot,
                                    ArrayRef<SmallVector<OpFoldResult>> sizes) {
  SmallVector<Value> written;
  for (auto [stack, value, valueSizes] : llvm::zip_equal(stacks, values, sizes)) {
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) {
      SmallVector<OpFoldResult> offsets, slotSizes, strides;
      sliceOf(b, valueSizes, slot, offsets, slotSizes, strides);
      written.push_back(tensor::InsertSliceOp::create(
          b, loc, value, stack, offsets, slotSizes, strides));
    } else {
      written.push_back(tensor::InsertOp::create(b, loc, value, stack, slot));
    }
  }
  return written;
}

/// Reads slot `slot` of `stacks` as values of `types`.
static SmallVector<Value> readSlot(OpBuilder &b, Location loc,
                                   ValueRange stacks, TypeRange types,
                                   Value slot,
                                   ArrayRef<SmallVector<OpFoldResult>> sizes) {
  SmallVector<Value> read;
  for (auto [stack, type, valueSizes] : llvm::zip_equal(stacks, types, sizes)) {
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      SmallVector<OpFoldResult> offsets, slotSizes, strides;
      sliceOf(b, valueSizes, slot, offsets, slotSizes, strides);
      read.push_back(tensor::ExtractSliceOp::create(
          b, loc, tensor, stack, offsets, slotSizes, strides));
    } else {
      read.push_back(tensor::ExtractOp::create(b, loc, stack, slot));
    }
  }
  return read;
}

/// How many iterations after the latest snapshot the next one goes, for
/// `left` iterations to reverse and `free` free slots (Revolve.h).
static Value nextSnapshotDistance(IndexMath &m, Value left, Value free) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Value one = m.constant(1);
  Value g = m.add(free, one);
  // B(g, r) for r = 0, 1, ... until it reaches `left`, with B(g, r-1) and
  // B(g, r-2): B(g, r+1) = B(g, r) (g + r + 1) / (r + 1), exactly.
  Type index = b.getIndexType();
  SmallVector<Type> types(4, index);
  Value zero = m.constant(0);
  auto search = scf::WhileOp::create(
      b, loc, types, ValueRange{zero, one, zero, zero},
      [&](OpBuilder &wb, Location l, ValueRange args) {
        IndexMath w{wb, l};
        scf::ConditionOp::create(wb, l, w.less(args[1], left), args);
      },
      [&](OpBuilder &wb, Location l, ValueRange args) {
        IndexMath w{wb, l};
        Value r = args[0], beta = args[1];
        Value next = w.add(r, w.constant(1));
        Value grown = w.div(w.mul(beta, w.add(g, next)), next);
        scf::YieldOp::create(wb, l, ValueRange{next, grown, beta, args[2]});
      });
  Value r = search.getResult(0), beta = search.getResult(1),
        beforeLast = search.getResult(3);
  // B(g-1, r) = B(g, r) g / (g + r), exactly.
  Value fewer = m.div(m.mul(beta, g), m.add(g, r));
  return m.max(m.max(one, beforeLast), m.sub(left, fewer));
}

/// Empty stacks of `snapshots` slots for values of `types` and `sizes`, slot
/// 0 holding `initial`, taken at iteration 0; built at `b`.
static Snapshots firstSnapshot(OpBuilder &b, Location loc, TypeRange types,
                               ValueRange initial, int64_t snapshots,
                               ArrayRef<SmallVector<OpFoldResult>> sizes) {
  Snapshots slots;
  for (auto [type, valueSizes] : llvm::zip_equal(types, sizes)) {
    SmallVector<OpFoldResult> shape{b.getIndexAttr(snapshots)};
    Type element = type;
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      element = tensor.getElementType();
      llvm::append_range(shape, valueSizes);
    }
    slots.stacks.push_back(tensor::EmptyOp::create(b, loc, shape, element));
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  slots.stacks = writeSlot(b, loc, slots.stacks, initial, zero, sizes);
  slots.taken = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{snapshots},
                                        b.getIndexType());
  slots.taken = tensor::InsertOp::create(b, loc, zero, slots.taken, zero);
  return slots;
}

FailureOr<SmallVector<Value>>
mlir::tad::restoreByRevolve(scf::ForOp forward, scf::ForOp &reverse,
                            Operation *readPoint, Value iteration,
                            int64_t snapshots,
                            ArrayRef<SmallVector<OpFoldResult>> sizes) {
  Location loc = forward.getLoc();
  SmallVector<Type> carriedTypes(
      ValueRange(forward.getRegionIterArgs()).getTypes());
  Type ivType = forward.getInductionVar().getType();

  // The reverse starts from slot 0 alone; takeForwardSnapshots makes the
  // forward loop fill more.
  OpBuilder before(forward);
  Snapshots initial = firstSnapshot(before, loc, carriedTypes,
                                    forward.getInitArgs(), snapshots, sizes);
  SmallVector<Value> inits = initial.all();
  inits.push_back(arith::ConstantIndexOp::create(before, loc, 1));

  SmallVector<Value> restored;
  IRRewriter rewriter(reverse.getContext());
  FailureOr<LoopLikeOpInterface> replaced = reverse.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
        OpBuilder b(readPoint->getContext());
        b.setInsertionPointAfter(readPoint);
        IndexMath m{b, loc};
        unsigned count = carriedTypes.size();
        Snapshots slots;
        for (BlockArgument arg : args.take_front(count))
          slots.stacks.push_back(arg);
        slots.taken = args[count];
        Value used = args[count + 1];
        Value target = getValueOrCreateCastToIndexLike(b, loc, b.getIndexType(), iteration);
        Value one = m.constant(1);

        // Drop the snapshots taken after the target (slot 0 never is).
        auto drop = scf::WhileOp::create(
            b, loc, TypeRange{b.getIndexType()}, ValueRange{used},
            [&](OpBuilder &wb, Location l, ValueRange args) {
              IndexMath w{wb, l};
              Value last = w.sub(args[0], w.constant(1));
              Value at = tensor::ExtractOp::create(wb, l, slots.taken, last);
              scf::ConditionOp::create(wb, l, w.less(target, at), args);
            },
            [&](OpBuilder &wb, Location l, ValueRange args) {
              IndexMath w{wb, l};
              scf::YieldOp::create(wb, l, w.sub(args[0], w.constant(1)));
            });
        used = drop.getResult(0);
        Value latest = m.sub(used, one);
        Value at = tensor::ExtractOp::create(b, loc, slots.taken, latest);
        SmallVector<Value> state =
            readSlot(b, loc, slots.stacks, carriedTypes, latest, sizes);

        // Advance to the target, taking snapshots on the way. Loop state:
        // the iteration reached, the slots in use, the slots, the values.
        SmallVector<Value> loopInits{at, used};
        llvm::append_range(loopInits, slots.all());
        llvm::append_range(loopInits, state);
        auto advance = scf::WhileOp::create(
            b, loc, ValueRange(loopInits).getTypes(), loopInits,
            [&](OpBuilder &wb, Location l, ValueRange args) {
              IndexMath w{wb, l};
              scf::ConditionOp::create(wb, l, w.less(args[0], target), args);
            },
            [&](OpBuilder &wb, Location l, ValueRange args) {
              IndexMath w{wb, l};
              Value reached = args[0], inUse = args[1];
              ValueRange stacks = args.slice(2, count);
              Value taken = args[2 + count];
              ValueRange values = args.drop_front(3 + count);
              Value left = w.sub(w.add(target, w.constant(1)), reached);
              Value free = w.sub(w.constant(snapshots), inUse);
              Value next =
                  w.add(reached, nextSnapshotDistance(w, left, free));
              auto run = scf::ForOp::create(
                  wb, l, reached, next, w.constant(1), values,
                  [&](OpBuilder &fb, Location fl, Value j, ValueRange carried) {
                    Value i =
                        getValueOrCreateCastToIndexLike(fb, fl, ivType, j);
                    scf::YieldOp::create(
                        fb, fl, cloneIteration(fb, forward, i, carried));
                  });
              SmallVector<Value> kept{inUse};
              llvm::append_range(kept, stacks);
              kept.push_back(taken);
              auto take = scf::IfOp::create(
                  wb, l, ValueRange(kept).getTypes(), w.less(next, target),
                  /*withElseRegion=*/true);
              {
                OpBuilder tb = take.getThenBodyBuilder();
                IndexMath t{tb, l};
                SmallVector<Value> yields{t.add(inUse, t.constant(1))};
                llvm::append_range(yields, writeSlot(tb, l, stacks,
                                                     run.getResults(), inUse,
                                                     sizes));
                yields.push_back(
                    tensor::InsertOp::create(tb, l, next, taken, inUse));
                scf::YieldOp::create(tb, l, yields);
                OpBuilder eb = take.getElseBodyBuilder();
                scf::YieldOp::create(eb, l, kept);
              }
              SmallVector<Value> yields{next};
              llvm::append_range(yields, take.getResults());
              llvm::append_range(yields, run.getResults());
              scf::YieldOp::create(wb, l, yields);
            });
        ValueRange results = advance.getResults();
        llvm::append_range(restored, results.drop_front(3 + count));
        SmallVector<Value> yields(results.slice(2, count + 1));
        yields.push_back(results[1]);
        return yields;
      });
  if (failed(replaced))
    return forward.emitError("cannot add snapshots to this loop's reverse");
  reverse = cast<scf::ForOp>(replaced->getOperation());
  return restored;
}

LogicalResult mlir::tad::takeForwardSnapshots(scf::ForOp forward,
                                              scf::ForOp reverse,
                                              Value tripCount,
                                              int64_t snapshots,
                                              ArrayRef<SmallVector<OpFoldResult>> sizes) {
  Location loc = forward.getLoc();
  unsigned count = forward.getNumRegionIterArgs();
  // The reverse loop's last inits: the slots, then the slots in use.
  unsigned firstSlotInit = reverse.getInitArgs().size() - (count + 2);
  OpBuilder before(forward);
  IndexMath outer{before, loc};
  Value n = getValueOrCreateCastToIndexLike(before, loc, before.getIndexType(),
                                           tripCount);
  Value one = outer.constant(1);
  // The first snapshot after slot 0, as the reverse's first iteration (the
  // last forward one, n - 1) would place it.
  SmallVector<Value> inits(
      reverse.getInitArgs().drop_front(firstSlotInit));
  inits.push_back(
      nextSnapshotDistance(outer, n, outer.constant(snapshots - 1)));
  Value last = outer.sub(n, one);

  Value iv = forward.getInductionVar();
  SmallVector<Value> carried(forward.getRegionIterArgs());
  IRRewriter rewriter(forward.getContext());
  FailureOr<LoopLikeOpInterface> replaced = forward.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
        // At the start of the body, where `carried` are this iteration's.
        OpBuilder b = OpBuilder::atBlockBegin(forward.getBody());
        IndexMath m{b, loc};
        Snapshots slots;
        for (BlockArgument arg : args.take_front(count))
          slots.stacks.push_back(arg);
        slots.taken = args[count];
        Value inUse = args[count + 1], next = args[count + 2];
        Value offset = arith::SubIOp::create(b, loc, iv,
                                             forward.getLowerBound());
        Value j = getValueOrCreateCastToIndexLike(
            b, loc, b.getIndexType(),
            arith::DivSIOp::create(b, loc, offset, forward.getStep()));
        Value take = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j, next),
            m.less(j, last));
        SmallVector<Value> kept(args.begin(), args.end());
        auto branch = scf::IfOp::create(b, loc, ValueRange(kept).getTypes(),
                                        take, /*withElseRegion=*/true);
        OpBuilder tb = branch.getThenBodyBuilder();
        IndexMath t{tb, loc};
        SmallVector<Value> yields =
            writeSlot(tb, loc, slots.stacks, carried, inUse, sizes);
        yields.push_back(tensor::InsertOp::create(tb, loc, j, slots.taken, inUse));
        Value used = t.add(inUse, t.constant(1));
        yields.push_back(used);
        Value free = t.sub(t.constant(snapshots), used);
        yields.push_back(t.add(j, nextSnapshotDistance(t, t.sub(n, j), free)));
        scf::YieldOp::create(tb, loc, yields);
        OpBuilder eb = branch.getElseBodyBuilder();
        scf::YieldOp::create(eb, loc, kept);
        return SmallVector<Value>(branch.getResults());
      });
  if (failed(replaced))
    return forward.emitError("cannot take snapshots in this loop");
  ValueRange results = replaced->getOperation()->getResults().take_back(
      count + 3);
  for (unsigned i = 0; i < count + 2; ++i)
    reverse.getInitArgsMutable()[firstSlotInit + i].set(results[i]);
  return success();
}
