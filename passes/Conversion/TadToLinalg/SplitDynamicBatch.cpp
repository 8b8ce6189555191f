//===- SplitDynamicBatch.cpp - per-sample ops over a dynamic batch --------===//
//
// See TadSplitDynamicBatchPass in Passes.td. Convolutions and pooling treat
// each sample of a batch on its own (their weight and bias gradients sum
// over the samples), and their lowerings need static shapes: over a
// dynamic batch, such an op becomes loops over blocks of samples, each the
// same op with static types on a slice of the batch. The elementwise ops
// that consume their results join the same loops (a convolution, its ReLU
// and the pooling after it), so that they fuse as in the static module and
// no result is assembled over the batch only to be sliced again.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/Passes.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADSPLITDYNAMICBATCHPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// Whether `type` is a tensor whose only dynamic size is the batch (dim 0).
bool isDynamicBatch(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0) &&
         llvm::none_of(tensor.getShape().drop_front(), ShapedType::isDynamic);
}

bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !tensor || tensor.hasStaticShape();
}

/// The ops that compute each sample on its own: a result over the batch
/// has the batch as dimension 0, a static result (a weight or bias
/// gradient) is a sum over the samples.
bool isPerSample(Operation *op) {
  if (!isa<ConvolutionOp, ConvolutionBackwardOp, MaxPool2dWithIndicesOp,
           MaxPool2dWithIndicesBackwardOp, AvgPool2dOp, AvgPool2dBackwardOp,
           AdaptiveAvgPool2dOp, AdaptiveAvgPool2dBackwardOp>(op))
    return false;
  bool anyDynamic = false;
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes())) {
    if (isDynamicBatch(type))
      anyDynamic = true;
    else if (!isStaticTensor(type))
      return false;
  }
  return anyDynamic;
}

/// Elementwise ops (each result element reads the operands' elements at its
/// own index, broadcasting) whose dynamic-batch operands can be sliced with
/// their result: the activations between convolutions and pooling, forward
/// and backward. Not dropout: its mask reads the element's index in the
/// whole batch.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::tad::BroadcastingOperands>() ||
         isa<ReluOp, TanhOp, SigmoidOp, NegOp, ExpOp, GeluOp, SiluOp, MishOp,
             HardswishOp, HardsigmoidOp, LeakyReluOp, EluOp, SoftplusOp,
             HardtanhOp, ThresholdOp, ClampOp, ClampMinOp, ClampMaxOp,
             AddScalarOp, SubScalarOp, RsubScalarOp, MulScalarOp,
             DivScalarOp>(op);
}

/// An elementwise op that can run on a block of samples: every result and
/// every shaped operand is either over the batch (dynamic in dimension 0
/// only, the result's rank) or static (broadcast, never over the batch).
bool isPerSampleElementwise(Operation *op) {
  if (!isElementwise(op) || op->getNumRegions() != 0)
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !isDynamicBatch(result))
    return false;
  for (Type type : op->getResultTypes())
    if (type != result && (!isDynamicBatch(type) ||
                           cast<RankedTensorType>(type).getRank() !=
                               result.getRank()))
      return false;
  for (Type type : op->getOperandTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.hasStaticShape())
      continue;
    if (!isDynamicBatch(tensor) || tensor.getRank() != result.getRank())
      return false;
  }
  return true;
}

/// `type` with `batch` samples.
RankedTensorType withBatch(Type type, int64_t batch) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[0] = batch;
  return tensor.clone(shape);
}

/// Samples [start, start + count) of `value` (batch dimension 0).
Value samples(OpBuilder &b, Location loc, Value value, Value start,
              int64_t count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(count)};
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = start;
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(size));
  return tensor::ExtractSliceOp::create(b, loc, withBatch(type, count), value,
                                        offsets, sizes, strides);
}

/// `into` with `piece` written at samples [start, start + its batch).
Value insertSamples(OpBuilder &b, Location loc, Value piece, Value into,
                    Value start) {
  auto type = cast<RankedTensorType>(piece.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = start;
  for (int64_t size : type.getShape())
    sizes.push_back(b.getIndexAttr(size));
  return tensor::InsertSliceOp::create(b, loc, piece, into, offsets, sizes,
                                       strides);
}

/// Replaces the per-sample ops `group` (in block order; the loops go after
/// the last one, which every value the group reads follows) by a loop over
/// blocks of `block` samples, loops over blocks of a quarter as many on the
/// rest, ..., and a loop over the remaining samples one by one; each step
/// runs the whole group on slices of the batch. The results used after the
/// group are carried.
void splitBatch(ArrayRef<Operation *> group, int64_t block) {
  DenseSet<Operation *> members(group.begin(), group.end());
  Operation *last = group.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Location loc = group.front()->getLoc();
  // The batched values read from outside the group, sliced in each step.
  llvm::SetVector<Value> inputs;
  for (Operation *op : group)
    for (Value operand : op->getOperands())
      if (isDynamicBatch(operand.getType()) &&
          !members.contains(operand.getDefiningOp()))
        inputs.insert(operand);
  // The results used after the group.
  SmallVector<Value> outputs;
  for (Operation *op : group)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        outputs.push_back(result);
  if (inputs.empty())
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value size = tensor::DimOp::create(b, loc, inputs.front(), 0);
  // The loop-carried results: a tensor of the batch for each result over
  // it, zeros for each sum.
  SmallVector<Value> inits;
  for (Value output : outputs) {
    auto tensor = cast<RankedTensorType>(output.getType());
    if (isDynamicBatch(tensor)) {
      inits.push_back(
          tensor::EmptyOp::create(b, loc, tensor, ValueRange{size}));
      continue;
    }
    inits.push_back(arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensor, b.getZeroAttr(
                                                   tensor.getElementType()))));
  }
  // Samples [start, start + count) of every batched input through copies
  // of the group's ops with static types, into the loop-carried values.
  auto step = [&](OpBuilder &lb, Location ll, Value start, int64_t count,
                  ValueRange carried) {
    IRMapping mapping;
    for (Value input : inputs)
      mapping.map(input, samples(lb, ll, input, start, count));
    for (Operation *op : group) {
      Operation *piece = lb.clone(*op, mapping);
      for (Value result : piece->getResults())
        if (isDynamicBatch(result.getType()))
          result.setType(withBatch(result.getType(), count));
    }
    SmallVector<Value> next;
    for (auto [output, acc] : llvm::zip(outputs, carried)) {
      Value result = mapping.lookup(output);
      if (isDynamicBatch(output.getType())) {
        next.push_back(insertSamples(lb, ll, result, acc, start));
      } else {
        next.push_back(AddTensorOp::create(lb, ll, acc, result,
                                           lb.getF64FloatAttr(1.0)));
      }
    }
    scf::YieldOp::create(lb, ll, next);
  };
  // Blocks of `block` samples, then of a quarter as many on the rest, ...,
  // then single samples.
  SmallVector<int64_t> sizes;
  for (int64_t count = block; count > 1; count /= 4)
    sizes.push_back(count);
  sizes.push_back(1);
  Value start = zero;
  ValueRange carried = inits;
  scf::ForOp rest;
  for (int64_t count : sizes) {
    Value countValue = arith::ConstantIndexOp::create(b, loc, count);
    // The end of the last whole block of `count` after `start`.
    Value end = arith::AddIOp::create(
        b, loc, start,
        arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(
                b, loc, arith::SubIOp::create(b, loc, size, start),
                countValue),
            countValue));
    rest = scf::ForOp::create(
        b, loc, start, end, countValue, carried,
        [&](OpBuilder &lb, Location ll, Value at, ValueRange values) {
          step(lb, ll, at, count, values);
        });
    start = end;
    carried = rest.getResults();
  }
  for (auto [output, result] : llvm::zip(outputs, rest.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !members.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(group))
    op->erase();
}

/// Whether `op`, or an op nested in it, reads a value of `values`.
bool readsAny(Operation *op, const DenseSet<Value> &values) {
  WalkResult found = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (values.contains(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The groups of `block` (then of the blocks nested in its ops): runs of
/// per-sample ops, each a convolution or pooling op followed by the ops
/// that read its results over the batch (other per-sample ops, elementwise
/// ops), until an op that reads one of them and cannot join. An op joins
/// only where it reads no static result of the group (a partial sum over a
/// block of samples). The batched inputs of a group have one batch size:
/// those of its first op (checked alike by tad-check-shapes), and those an
/// op that reads the group's results has beside them (checked equal to
/// them by tad-check-shapes, before the group's loops).
void collectGroups(Block &block, SmallVector<SmallVector<Operation *>> &groups) {
  SmallVector<Operation *> group;
  DenseSet<Value> batched, sums; // the group's results
  // The batched input each batched result has its batch size from.
  DenseMap<Value, Value> batchOf;
  bool anyPerSample = false;
  auto close = [&] {
    if (anyPerSample)
      groups.push_back(group);
    group.clear();
    batched.clear();
    sums.clear();
    batchOf.clear();
    anyPerSample = false;
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    // A size of a result over the batch (tad-check-shapes compares sizes
    // before the ops that assume them equal) is the batch size of the input
    // it comes from, or a static size: it does not end the group.
    if (auto dim = dyn_cast<tensor::DimOp>(&op);
        dim && batched.contains(dim.getSource()) && dim.getConstantIndex()) {
      int64_t index = *dim.getConstantIndex();
      auto type = cast<RankedTensorType>(dim.getSource().getType());
      if (index == 0) {
        dim.getSourceMutable().assign(batchOf.lookup(dim.getSource()));
      } else if (index > 0 && index < type.getRank()) {
        OpBuilder b(dim);
        dim.replaceAllUsesWith(arith::ConstantIndexOp::create(
                                   b, dim.getLoc(), type.getDimSize(index))
                                   .getResult());
        dim.erase();
      }
      continue;
    }
    bool perSample = isPerSample(&op);
    bool readsGroup = readsAny(&op, batched) || readsAny(&op, sums);
    // A per-sample op that does not read the group starts a group of its
    // own: its batch may be another size than the group's (two inputs with
    // batches of their own), and one loop slices every input alike.
    if (perSample && !readsGroup)
      close();
    bool joins = !readsAny(&op, sums) &&
                 (perSample || (readsGroup && isPerSampleElementwise(&op)));
    if (!joins && readsGroup)
      close();
    if (joins) {
      group.push_back(&op);
      anyPerSample |= perSample;
      Value batch;
      for (Value operand : op.getOperands())
        if (isDynamicBatch(operand.getType())) {
          batch = batched.contains(operand) ? batchOf.lookup(operand) : operand;
          break;
        }
      for (Value result : op.getResults()) {
        if (!isDynamicBatch(result.getType())) {
          sums.insert(result);
          continue;
        }
        batched.insert(result);
        batchOf[result] = batch;
      }
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        collectGroups(nested, groups);
  }
  close();
}

struct TadSplitDynamicBatchPass
    : tad::impl::TadSplitDynamicBatchPassBase<TadSplitDynamicBatchPass> {
  using Base::Base;
  void runOnOperation() override {
    if (block <= 0) {
      getOperation()->emitError("tad-split-dynamic-batch: block must be "
                                "positive, got ")
          << block;
      return signalPassFailure();
    }
    SmallVector<SmallVector<Operation *>> groups;
    for (Region &region : getOperation()->getRegions())
      for (Block &b : region)
        collectGroups(b, groups);
    for (ArrayRef<Operation *> group : groups)
      splitBatch(group, block);
  }
};

} // namespace
