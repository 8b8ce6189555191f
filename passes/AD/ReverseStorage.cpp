//===- ReverseStorage.cpp - forward values for reverse bodies -------------===//
#include "passes/AD/ReverseStorage.h"
#include "passes/AD/Revolve.h"

#include "dialects/Tad/TadDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::tad;

/// Whether `value` is defined in one of `op`'s regions.
static bool isDefinedInside(Operation *op, Value value) {
  Region *region = value.getParentRegion();
  return region && op->isAncestor(region->getParentOp());
}

/// The values defined inside `forward` that ops inside `reverse` read, in
/// first-use order.
static SmallVector<Value> readsFrom(Operation *forward, Operation *reverse) {
  llvm::SetVector<Value> values;
  reverse->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isDefinedInside(forward, operand))
        values.insert(operand);
  });
  return values.takeVector();
}

/// Replaces the uses of `value` inside `reverse` with `replacement`.
static void redirect(Value value, Value replacement, Operation *reverse) {
  value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
    return reverse->isAncestor(use.getOwner());
  });
}

/// Recomputing is cheaper than storing for constants and for pure scalar
/// arithmetic (index computations, often on the induction variable). Not
/// for a scalar read from a tensor (`tensor.dim` of a carried stack, whose
/// sizes a rule needs): recomputed, it would store the whole tensor per
/// iteration; stored, it is one scalar (a 32-step loop over a dynamic
/// batch copied its 32 x batch x 256 stack every step).
static bool isCheapToRecompute(Operation *op) {
  if (op->getNumRegions() != 0 || !isPure(op))
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::FromElementsOp>(op))
    return true;
  auto isShaped = [](Type type) { return isa<ShapedType>(type); };
  return llvm::none_of(op->getResultTypes(), isShaped) &&
         llvm::none_of(op->getOperandTypes(), isShaped);
}

/// Whether a value of `type` can be stored per iteration or yielded.
static bool isStorable(Type type) {
  return isa<RankedTensorType>(type) || type.isIntOrIndexOrFloat();
}

static Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

void mlir::tad::sliceOf(OpBuilder &b, ArrayRef<OpFoldResult> valueSizes,
                        Value iteration,
                        SmallVectorImpl<OpFoldResult> &offsets,
                        SmallVectorImpl<OpFoldResult> &sizes,
                        SmallVectorImpl<OpFoldResult> &strides) {
  offsets.push_back(iteration);
  sizes.push_back(b.getIndexAttr(1));
  strides.push_back(b.getIndexAttr(1));
  for (OpFoldResult size : valueSizes) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(size);
    strides.push_back(b.getIndexAttr(1));
  }
}

/// The op of `block` that holds `value`'s definition.
static Operation *holderIn(Block *block, Value value) {
  Operation *owner = value.getDefiningOp();
  if (!owner)
    owner = cast<BlockArgument>(value).getOwner()->getParentOp();
  return block->findAncestorOpInBlock(*owner);
}

/// The values `op` reads: its operands and those its regions use from
/// above.
static llvm::SetVector<Value> inputsOf(Operation *op) {
  llvm::SetVector<Value> inputs(llvm::from_range, op->getOperands());
  getUsedValuesDefinedAbove(op->getRegions(), inputs);
  return inputs;
}

/// The sizes that each of `stored` (values of `loop`'s body) has in the
/// loop's first iteration, computed before the loop: static sizes as
/// attributes; where a size is dynamic, the body's ops that the value
/// depends on are cloned before the loop with the lower bound for the
/// induction variable and the initial values for the carried ones (under an
/// scf.if where the loop may run no iterations: its sizes are then 0 and
/// never read). After lowering, the sizes of the clones fold to sizes of
/// values defined before the loop and the clones die. A size that changes
/// in a later iteration is caught by tad-check-shapes' check of the
/// insert_slice that stores it.
static FailureOr<SmallVector<SmallVector<OpFoldResult>>>
firstIterationSizes(OpBuilder &before, scf::ForOp loop, Value tripCount,
                    ArrayRef<Value> stored) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  SmallVector<SmallVector<OpFoldResult>> sizes(stored.size());
  SmallVector<std::pair<unsigned, int64_t>> dynamicDims;
  for (auto [index, value] : llvm::enumerate(stored)) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      continue;
    for (auto [dim, size] : llvm::enumerate(tensor.getShape())) {
      sizes[index].push_back(before.getIndexAttr(size));
      if (ShapedType::isDynamic(size))
        dynamicDims.push_back({index, dim});
    }
  }
  if (dynamicDims.empty())
    return sizes;

  // The ops of the body that the values with dynamic sizes depend on.
  SmallVector<Operation *> cloned;
  DenseSet<Operation *> seen;
  std::function<LogicalResult(Value)> collect =
      [&](Value value) -> LogicalResult {
    if (!isDefinedInside(loop, value) ||
        (isa<BlockArgument>(value) && value.getParentBlock() == body))
      return success();
    Operation *holder = holderIn(body, value);
    if (!seen.insert(holder).second)
      return success();
    if (!isMemoryEffectFree(holder))
      return emitError(value.getLoc())
             << "cannot size the per-iteration storage of this value of "
                "dynamic shape for the reverse sweep: it depends on an op "
                "with side effects";
    for (Value input : inputsOf(holder))
      if (failed(collect(input)))
        return failure();
    cloned.push_back(holder);
    return success();
  };
  for (auto [index, dim] : dynamicDims)
    if (failed(collect(stored[index])))
      return failure();
  llvm::sort(cloned,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // The first iteration's sizes, built at `b`.
  auto firstSizes = [&](OpBuilder &b) {
    IRMapping first;
    first.map(loop.getInductionVar(), loop.getLowerBound());
    first.map(loop.getRegionIterArgs(), loop.getInitArgs());
    for (Operation *op : cloned)
      b.clone(*op, first);
    SmallVector<Value> dims;
    for (auto [index, dim] : dynamicDims)
      dims.push_back(tensor::DimOp::create(
          b, loc, first.lookupOrDefault(stored[index]), dim));
    return dims;
  };
  SmallVector<Value> dims;
  std::optional<int64_t> count = getConstantIntValue(tripCount);
  if (count && *count > 0) {
    dims = firstSizes(before);
  } else {
    Value zero = arith::ConstantOp::create(
        before, loc, before.getIntegerAttr(tripCount.getType(), 0));
    Value runs = arith::CmpIOp::create(before, loc, arith::CmpIPredicate::sgt,
                                       tripCount, zero);
    auto branch = scf::IfOp::create(
        before, loc, runs,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, firstSizes(b));
        },
        [&](OpBuilder &b, Location l) {
          Value none = arith::ConstantIndexOp::create(b, l, 0);
          scf::YieldOp::create(
              b, l, SmallVector<Value>(dynamicDims.size(), none));
        });
    llvm::append_range(dims, branch.getResults());
  }
  for (auto [entry, dim] : llvm::zip_equal(dynamicDims, dims))
    sizes[entry.first][entry.second] = dim;
  return sizes;
}

/// Marks the loops of a checkpointed loop's reverse (`reverse` included):
/// their memory is bounded on purpose (kBoundedMemoryAttr).
static void markBoundedMemory(Operation *reverse) {
  reverse->walk([](scf::ForOp loop) {
    loop->setAttr(kBoundedMemoryAttr, UnitAttr::get(loop.getContext()));
  });
}

/// The reverse of a loop under binomial checkpointing: restores the carried
/// values of the iteration to reverse from snapshots (Revolve.h) and clones
/// `recomputed`, the ops that `reads` depend on, after them.
static LogicalResult
recomputeFromSnapshots(const PendingStorage &pending, ArrayRef<Value> reads,
                       ArrayRef<Operation *> recomputed, IRMapping &available) {
  auto loop = cast<scf::ForOp>(pending.forward);
  auto reverse = cast<scf::ForOp>(pending.reverse);
  SmallVector<Value> carried(loop.getRegionIterArgs());
  for (Value value : carried)
    if (!isStorable(value.getType()))
      return loop.emitError("cannot keep snapshots of a value of type ")
             << value.getType() << " carried by this loop";
  OpBuilder before(loop);
  FailureOr<SmallVector<SmallVector<OpFoldResult>>> sizes =
      firstIterationSizes(before, loop, pending.tripCount, carried);
  if (failed(sizes))
    return failure();
  FailureOr<SmallVector<Value>> restored =
      restoreByRevolve(loop, reverse, pending.readPoint,
                       pending.reverseIteration, pending.revolveSnapshots,
                       *sizes);
  if (failed(restored))
    return failure();
  available.map(loop.getInductionVar(), pending.reverseIv);
  available.map(loop.getRegionIterArgs(), *restored);
  OpBuilder reader(loop.getContext());
  reader.setInsertionPointAfter(restored->empty()
                                    ? pending.readPoint
                                    : restored->front().getDefiningOp());
  for (Operation *op : recomputed)
    reader.clone(*op, available);
  for (Value value : reads)
    redirect(value, available.lookup(value), reverse);
  markBoundedMemory(reverse);
  return takeForwardSnapshots(loop, reverse, pending.tripCount,
                              pending.revolveSnapshots, *sizes);
}

/// Stores per iteration (or recomputes) the values of `pending.forward` that
/// its reverse reads. In recompute mode only the loop-carried values are
/// stored and the ops that the reads depend on, nested loops and branches
/// included, are cloned into the reverse body; `cloned` maps them there.
static LogicalResult storeLoopValues(const PendingStorage &pending,
                                     IRMapping &available) {
  auto loop = cast<scf::ForOp>(pending.forward);
  Operation *reverse = pending.reverse;
  SmallVector<Value> reads = readsFrom(loop, reverse);
  if (reads.empty())
    return success();
  Block *body = loop.getBody();
  Location loc = loop.getLoc();

  // What is recomputed and what is stored.
  SmallVector<Operation *> recomputed;
  DenseSet<Operation *> seen;
  llvm::SetVector<Value> stored;
  auto store = [&](Value value) -> LogicalResult {
    if (!isStorable(value.getType()))
      return loop.emitError("cannot store a value of type ")
             << value.getType()
             << " per iteration of this loop for the reverse sweep";
    stored.insert(value);
    return success();
  };
  std::function<LogicalResult(Value)> classify =
      [&](Value value) -> LogicalResult {
    if (!isDefinedInside(loop, value) || value == loop.getInductionVar() ||
        stored.contains(value))
      return success();
    if (pending.recompute) {
      if (isa<BlockArgument>(value) && value.getParentBlock() == body)
        return store(value);
      Operation *holder = holderIn(body, value);
      if (!seen.insert(holder).second)
        return success();
      for (Value input : inputsOf(holder))
        if (failed(classify(input)))
          return failure();
      recomputed.push_back(holder);
      return success();
    }
    if (value.getParentBlock() != body)
      return emitError(value.getLoc())
             << "cannot keep this value for the reverse sweep: it is defined "
                "in a region nested in the loop";
    Operation *def = value.getDefiningOp();
    if (def && isCheapToRecompute(def)) {
      if (!seen.insert(def).second)
        return success();
      for (Value operand : def->getOperands())
        if (failed(classify(operand)))
          return failure();
      recomputed.push_back(def);
      return success();
    }
    return store(value);
  };
  for (Value value : reads)
    if (failed(classify(value)))
      return failure();
  llvm::sort(recomputed,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  if (pending.revolveSnapshots)
    return recomputeFromSnapshots(pending, reads, recomputed, available);

  // One stack per stored value, with a leading iteration dimension.
  OpBuilder before(loop);
  std::optional<int64_t> count = getConstantIntValue(pending.tripCount);
  SmallVector<Value> dynamicCount;
  if (!count)
    dynamicCount.push_back(toIndex(before, loc, pending.tripCount));
  FailureOr<SmallVector<SmallVector<OpFoldResult>>> valueSizes =
      firstIterationSizes(before, loop, pending.tripCount,
                          stored.getArrayRef());
  if (failed(valueSizes))
    return failure();
  SmallVector<Value> stacks;
  for (auto [value, sizes] : llvm::zip_equal(stored, *valueSizes)) {
    SmallVector<OpFoldResult> shape{count ? OpFoldResult(before.getIndexAttr(
                                                *count))
                                          : OpFoldResult(dynamicCount.front())};
    llvm::append_range(shape, sizes);
    Type element = value.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(element))
      element = tensor.getElementType();
    stacks.push_back(tensor::EmptyOp::create(before, loc, shape, element));
  }

  // The reverse body reads iteration `reverseIteration` of each stack. The
  // stacks are the new forward loop's results, which do not exist yet: the
  // reads start on the empty stacks and are redirected below.
  OpBuilder reader(loop.getContext());
  reader.setInsertionPointAfter(pending.readPoint);
  Value readIndex = toIndex(reader, loc, pending.reverseIteration);
  available.map(loop.getInductionVar(), pending.reverseIv);
  SmallVector<Operation *> stackReads;
  for (auto [value, stack, slotSizes] :
       llvm::zip_equal(stored, stacks, *valueSizes)) {
    Operation *read;
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      sliceOf(reader, slotSizes, readIndex, offsets, sizes, strides);
      read = tensor::ExtractSliceOp::create(reader, loc, tensor, stack, offsets,
                                            sizes, strides);
    } else {
      read = tensor::ExtractOp::create(reader, loc, stack, readIndex);
    }
    available.map(value, read->getResult(0));
    stackReads.push_back(read);
  }
  for (Operation *op : recomputed)
    reader.clone(*op, available);
  for (Value value : reads)
    redirect(value, available.lookup(value), reverse);
  if (pending.recompute)
    markBoundedMemory(reverse);

  // The forward loop writes iteration (iv - lb) / step of each stack.
  IRRewriter rewriter(loop.getContext());
  Value iv = loop.getInductionVar();
  Value lowerBound = loop.getLowerBound(), step = loop.getStep();
  SmallVector<Value> storedValues = stored.takeVector();
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, stacks, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &w, Location l, ArrayRef<BlockArgument> stackArgs) {
        Value offset = arith::SubIOp::create(w, l, iv, lowerBound);
        Value iteration = toIndex(
            w, l, arith::DivSIOp::create(w, l, offset, step).getResult());
        SmallVector<Value> written;
        for (auto [value, stack, slotSizes] :
             llvm::zip_equal(storedValues, stackArgs, *valueSizes)) {
          if (isa<RankedTensorType>(value.getType())) {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            sliceOf(w, slotSizes, iteration, offsets, sizes, strides);
            written.push_back(tensor::InsertSliceOp::create(
                w, l, value, stack, offsets, sizes, strides));
          } else {
            written.push_back(
                tensor::InsertOp::create(w, l, value, stack, iteration));
          }
        }
        return written;
      });
  if (failed(replaced))
    return loop.emitError("cannot add the stored values to this loop");
  Operation *newLoop = replaced->getOperation();
  unsigned first = newLoop->getNumResults() - stacks.size();
  for (auto [index, read] : llvm::enumerate(stackReads))
    read->setOperand(0, newLoop->getResult(first + index));
  return success();
}

/// A value of `type` for the branch that does not define it; never read.
static Value placeholder(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    // Dynamic sizes 0: nothing to allocate.
    Value none = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> dynamicSizes(tensor.getNumDynamicDims(), none);
    return tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                   tensor.getElementType(), dynamicSizes);
  }
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
}

static LogicalResult storeBranchValues(const PendingStorage &pending) {
  auto branch = cast<scf::IfOp>(pending.forward);
  Operation *reverse = pending.reverse;
  Location loc = branch.getLoc();
  OpBuilder reader(reverse);
  SmallVector<Value> yielded;
  for (Value value : readsFrom(branch, reverse)) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      Operation *copy = reader.clone(*def);
      redirect(value, copy->getResult(cast<OpResult>(value).getResultNumber()),
               reverse);
      continue;
    }
    if (value.getParentBlock()->getParentOp() != branch)
      return emitError(value.getLoc())
             << "cannot keep this value for the reverse sweep: it is defined "
                "in a region nested in the branch";
    if (!isStorable(value.getType()))
      return branch.emitError("cannot keep a value of type ")
             << value.getType() << " of this branch for the reverse sweep";
    yielded.push_back(value);
  }
  if (yielded.empty())
    return success();
  if (branch.getElseRegion().empty())
    return branch.emitError("cannot keep values of a branch without 'else'");

  OpBuilder b(branch);
  SmallVector<Type> types(branch.getResultTypes());
  for (Value value : yielded)
    types.push_back(value.getType());
  auto replacement = scf::IfOp::create(b, loc, types, branch.getCondition(),
                                       /*addThenBlock=*/false,
                                       /*addElseBlock=*/false);
  replacement.getThenRegion().takeBody(branch.getThenRegion());
  replacement.getElseRegion().takeBody(branch.getElseRegion());
  for (Region *region :
       {&replacement.getThenRegion(), &replacement.getElseRegion()}) {
    Operation *yield = region->front().getTerminator();
    OpBuilder w(yield);
    SmallVector<Value> extra;
    for (Value value : yielded)
      extra.push_back(value.getParentRegion() == region
                          ? value
                          : placeholder(w, loc, value.getType()));
    yield->insertOperands(yield->getNumOperands(), extra);
  }
  unsigned first = branch.getNumResults();
  branch->replaceAllUsesWith(replacement->getResults().take_front(first));
  branch.erase();
  for (auto [index, value] : llvm::enumerate(yielded))
    redirect(value, replacement.getResult(first + index), reverse);
  return success();
}

LogicalResult
mlir::tad::storeForReverse(MutableArrayRef<PendingStorage> pending) {
  // Recomputed loops first, outermost first (the sweep records innermost
  // first): the constructs nested in one are cloned into its reverse body,
  // and their entries then refer to those clones, whose values their own
  // reverses read (the forward loop keeps its nested loops as they are,
  // storing nothing).
  for (size_t i = pending.size(); i-- > 0;) {
    if (!pending[i].recompute)
      continue;
    Operation *loop = pending[i].forward;
    SmallVector<PendingStorage *> nested;
    for (PendingStorage &entry : pending.take_front(i))
      if (loop->isProperAncestor(entry.forward))
        nested.push_back(&entry);
    IRMapping cloned;
    if (failed(storeLoopValues(pending[i], cloned)))
      return failure();
    for (PendingStorage *entry : nested)
      if (Operation *copy = cloned.lookupOrNull(entry->forward)) {
        entry->forward = copy;
        entry->tripCount = cloned.lookupOrDefault(entry->tripCount);
      }
  }
  // Then the others, innermost first: an inner construct's stored values
  // become values of the enclosing body, which its own entry stores in turn.
  for (PendingStorage &entry : pending) {
    if (entry.recompute)
      continue;
    IRMapping cloned;
    if (failed(isa<scf::ForOp>(entry.forward)
                   ? storeLoopValues(entry, cloned)
                   : storeBranchValues(entry)))
      return failure();
  }
  return success();
}
