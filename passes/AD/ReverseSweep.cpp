//===- ReverseSweep.cpp - adjoints of one region, last op first -----------===//
#include "passes/AD/ReverseSweep.h"
#include "passes/AD/Checkpoint.h"
#include "passes/AD/Differentiation.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tad;

LogicalResult ReverseSweep::accumulate(Operation *user, Value value,
                                       Value contribution) {
  auto target = cast<RankedTensorType>(value.getType());
  auto source = cast<RankedTensorType>(contribution.getType());
  Location loc = user ? user->getLoc() : value.getLoc();
  if (source.getElementType() != target.getElementType())
    return emitError(loc) << "gradient has element type "
                          << source.getElementType() << " but the operand has "
                          << target.getElementType();
  // A gradient whose sizes are the operand's once the dynamic ones are
  // known (a product with a dynamic inner size: [?, ?] for an operand
  // [?, 3], or [8, 3] for [?, 3]) takes the operand's type through
  // expand_as, which tad-check-shapes checks at run time. A broadcast
  // gradient is first summed to the static sizes the operand's dynamic
  // ones face ([2, 8, 3] for [?, 3]: to [8, 3]).
  if (source.getShape() != target.getShape() &&
      source.getRank() > target.getRank())
    if (std::optional<SmallVector<int64_t>> resolved =
            staticSumTarget(source.getShape(), target.getShape());
        resolved && sumToSizeDims(source.getShape(), *resolved)) {
      contribution = SumToSizeOp::create(b, loc, contribution,
                                         b.getDenseI64ArrayAttr(*resolved));
      source = cast<RankedTensorType>(contribution.getType());
    }
  if (source.getShape() != target.getShape() &&
      refinesTo(source.getShape(), target.getShape())) {
    contribution = ExpandAsOp::create(b, loc, contribution, value);
    source = cast<RankedTensorType>(contribution.getType());
  }
  if (source.getShape() != target.getShape()) {
    if (!sumToSizeDims(source.getShape(), target.getShape()))
      return emitError(loc)
             << "gradient of shape " << shapeToString(source.getShape())
             << " cannot be reduced to the operand's shape "
             << shapeToString(target.getShape());
    contribution = SumToSizeOp::create(
        b, loc, contribution, b.getDenseI64ArrayAttr(target.getShape()));
  }
  Value &adjoint = adjoints[value];
  adjoint = adjoint ? AddTensorOp::create(b, loc, adjoint, contribution,
                                          b.getF64FloatAttr(1.0))
                          .getResult()
                    : contribution;
  return success();
}

void ReverseSweep::set(Value value, Value adjoint) {
  if (adjoint)
    adjoints[value] = adjoint;
  else
    adjoints.erase(value);
}

Value ReverseSweep::lookupOrZeros(Value value, Location loc, Value like) {
  if (Value adjoint = lookup(value))
    return adjoint;
  return createZerosLike(b, loc, like ? like : value);
}

LogicalResult ReverseSweep::visitBlock(Block &block) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(block.without_terminator())))
    if (failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult ReverseSweep::visit(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return visitFor(loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return visitIf(branch);
  // An iteration counter (see ExpandWhile.h): nothing to differentiate.
  if (isa<scf::WhileOp>(op))
    return success();
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitExtractSlice(slice);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitInsertSlice(insert);

  SmallVector<Value> cotangents;
  bool anyCotangent = false;
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    Value ct =
        rules.isDifferentiableResult(op, index) ? lookup(result) : Value();
    anyCotangent |= static_cast<bool>(ct);
    cotangents.push_back(ct);
  }
  if (!anyCotangent)
    return success();
  SmallVector<bool> wanted;
  bool anyWanted = false;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    bool want = activity.isActive(operand) &&
                rules.isDifferentiableOperand(op, index);
    anyWanted |= want;
    wanted.push_back(want);
  }
  if (!anyWanted)
    return success();
  FailureOr<SmallVector<Value>> contributions =
      rules.emitVJP(b, op, cotangents, wanted);
  if (failed(contributions))
    return failure();
  for (auto [index, contribution] : llvm::enumerate(*contributions))
    if (contribution && wanted[index] &&
        failed(accumulate(op, op->getOperand(index), contribution)))
      return failure();
  return success();
}

LogicalResult ReverseSweep::visitExtractSlice(tensor::ExtractSliceOp op) {
  Value ct = lookup(op.getResult());
  Value source = op.getSource();
  if (!ct || !activity.isActive(source))
    return success();
  Location loc = op.getLoc();
  // The cotangent lands in the slice of the source's adjoint: added to what
  // is there (an update of the slice alone, in place after bufferization,
  // so that reading one row per loop iteration costs a row, not the whole
  // tensor), or into zeros.
  Value adjoint = lookup(source);
  Value update = ct;
  if (adjoint) {
    Value current = tensor::ExtractSliceOp::create(
        b, loc, op.getResultType(), adjoint, op.getMixedOffsets(),
        op.getMixedSizes(), op.getMixedStrides());
    update = AddTensorOp::create(b, loc, current, ct, b.getF64FloatAttr(1.0));
  } else {
    adjoint = createZerosLike(b, loc, source);
  }
  set(source, tensor::InsertSliceOp::create(b, loc, update, adjoint,
                                            op.getMixedOffsets(),
                                            op.getMixedSizes(),
                                            op.getMixedStrides()));
  return success();
}

LogicalResult ReverseSweep::visitInsertSlice(tensor::InsertSliceOp op) {
  Value ct = lookup(op.getResult());
  if (!ct)
    return success();
  Location loc = op.getLoc();
  Value source = op.getSource(), dest = op.getDest();
  // The source's part: the slice of the cotangent. The destination's: the
  // cotangent with the slice the source overwrote set to zero.
  if (activity.isActive(source)) {
    Value part = tensor::ExtractSliceOp::create(
        b, loc, op.getSourceType(), ct, op.getMixedOffsets(),
        op.getMixedSizes(), op.getMixedStrides());
    if (failed(accumulate(op, source, part)))
      return failure();
  }
  if (activity.isActive(dest)) {
    Value rest = tensor::InsertSliceOp::create(
        b, loc, createZerosLike(b, loc, source), ct,
        op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides());
    if (failed(accumulate(op, dest, rest)))
      return failure();
  }
  return success();
}

/// The active values that `regions` use but do not define, in first-use
/// order: their adjoints leave the reverse construct as results.
static SmallVector<Value> activeCaptures(MutableArrayRef<Region> regions,
                                         const Activity &activity) {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(regions, used);
  SmallVector<Value> captured;
  for (Value value : used)
    if (activity.isActive(value))
      captured.push_back(value);
  return captured;
}

Value mlir::tad::buildTripCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Type type = loop.getInductionVar().getType();
  if (std::optional<APInt> count = loop.getStaticTripCount())
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(type, count->getSExtValue()));
  Value span = arith::SubIOp::create(b, loc, loop.getUpperBound(),
                                     loop.getLowerBound());
  Value count = arith::CeilDivSIOp::create(b, loc, span, loop.getStep());
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  return arith::MaxSIOp::create(b, loc, count, zero);
}

/// Replaces the terminator a builder may have added to `block`.
static void dropTerminator(Block *block) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    block->back().erase();
}

LogicalResult ReverseSweep::visitFor(scf::ForOp loop) {
  Location loc = loop.getLoc();
  // Active loop-carried values; nothing flows back without a cotangent.
  SmallVector<unsigned> carried;
  bool anyCotangent = false;
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (activity.isActive(arg)) {
      carried.push_back(index);
      anyCotangent |= static_cast<bool>(lookup(loop.getResult(index)));
    }
  if (!anyCotangent)
    return success();
  if (loop.getUnsignedCmp())
    return loop.emitError("cannot differentiate an scf.for with an unsigned "
                          "comparison");
  SmallVector<Value> captured = activeCaptures(loop->getRegions(), activity);
  SmallVector<Value> carriedResults = llvm::map_to_vector(
      carried, [&](unsigned i) { return Value(loop.getResult(i)); });

  OpBuilder before(loop);
  Value tripCount = buildTripCount(before, loop);

  // iter_args: the adjoints of the carried values, then of the captures.
  SmallVector<Value> inits;
  for (Value result : carriedResults)
    inits.push_back(lookupOrZeros(result, loc));
  for (Value value : captured)
    inits.push_back(lookupOrZeros(value, loc));
  Type indexType = loop.getInductionVar().getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(indexType, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(indexType, 1));
  auto reverse = scf::ForOp::create(b, loc, zero, tripCount, one, inits);
  Block *body = reverse.getBody();
  dropTerminator(body);

  OpBuilder inner = OpBuilder::atBlockEnd(body);
  // Step k of the reverse loop handles forward iteration n - 1 - k.
  Value last = arith::SubIOp::create(inner, loc, tripCount, one);
  Value iteration =
      arith::SubIOp::create(inner, loc, last, reverse.getInductionVar());
  Value offset = arith::MulIOp::create(inner, loc, iteration, loop.getStep());
  auto iv = arith::AddIOp::create(inner, loc, loop.getLowerBound(), offset);

  ReverseSweep nested(inner, rules, activity, pending);
  ValueRange reverseArgs = reverse.getRegionIterArgs();
  for (auto [position, value] : llvm::enumerate(captured))
    nested.set(value, reverseArgs[carried.size() + position]);
  Operation *yield = loop.getBody()->getTerminator();
  for (auto [position, index] : llvm::enumerate(carried)) {
    Value yielded = yield->getOperand(index);
    if (activity.isActive(yielded) &&
        failed(nested.accumulate(yield, yielded, reverseArgs[position])))
      return failure();
  }
  if (failed(nested.visitBlock(*loop.getBody())))
    return failure();
  SmallVector<Value> yields;
  for (auto [position, index] : llvm::enumerate(carried))
    yields.push_back(nested.lookupOrZeros(loop.getRegionIterArgs()[index], loc,
                                          reverseArgs[position]));
  for (Value value : captured)
    yields.push_back(nested.lookup(value));
  scf::YieldOp::create(inner, loc, yields);
  PendingStorage storage;
  storage.forward = loop;
  storage.reverse = reverse;
  storage.tripCount = tripCount;
  storage.reverseIv = iv.getResult();
  storage.reverseIteration = iteration;
  storage.readPoint = iv.getOperation();
  storage.recompute = loop->hasAttr(kRecomputeAttr);
  if (auto snapshots = loop->getAttrOfType<IntegerAttr>(kRevolveAttr)) {
    storage.recompute = true;
    storage.revolveSnapshots = snapshots.getInt();
  }
  pending.push_back(storage);

  // The captures' results already include their adjoints from before the
  // loop; an initial value may be a capture too, so its contribution is
  // added after.
  for (auto [position, value] : llvm::enumerate(captured))
    set(value, reverse.getResult(carried.size() + position));
  for (auto [position, index] : llvm::enumerate(carried)) {
    Value init = loop.getInitArgs()[index];
    if (activity.isActive(init) &&
        failed(accumulate(loop, init, reverse.getResult(position))))
      return failure();
  }
  return success();
}

LogicalResult ReverseSweep::visitIf(scf::IfOp branch) {
  Location loc = branch.getLoc();
  SmallVector<Value> cotangents;
  bool anyCotangent = false;
  for (Value result : branch.getResults()) {
    Value ct = activity.isActive(result) ? lookup(result) : Value();
    anyCotangent |= static_cast<bool>(ct);
    cotangents.push_back(ct);
  }
  if (!anyCotangent)
    return success();
  // Adjoints leave the reverse branch only through values captured from
  // above (a yielded capture included).
  SmallVector<Value> captured = activeCaptures(branch->getRegions(), activity);
  if (captured.empty())
    return success();

  auto reverse = scf::IfOp::create(
      b, loc, TypeRange(ValueRange(captured)), branch.getCondition(),
      /*withElseRegion=*/true);
  for (auto [forward, backward] :
       llvm::zip_equal(branch->getRegions(), reverse->getRegions())) {
    Block *block = &backward.front();
    dropTerminator(block);
    OpBuilder inner = OpBuilder::atBlockEnd(block);
    ReverseSweep nested(inner, rules, activity, pending);
    for (Value value : captured)
      nested.set(value, lookup(value));
    if (!forward.empty()) {
      Block &forwardBlock = forward.front();
      Operation *yield = forwardBlock.getTerminator();
      for (auto [index, ct] : llvm::enumerate(cotangents)) {
        Value yielded = yield->getOperand(index);
        if (ct && activity.isActive(yielded) &&
            failed(nested.accumulate(yield, yielded, ct)))
          return failure();
      }
      if (failed(nested.visitBlock(forwardBlock)))
        return failure();
    }
    SmallVector<Value> yields;
    for (Value value : captured)
      yields.push_back(nested.lookupOrZeros(value, loc));
    scf::YieldOp::create(inner, loc, yields);
  }
  PendingStorage storage;
  storage.forward = branch;
  storage.reverse = reverse;
  pending.push_back(storage);
  for (auto [position, value] : llvm::enumerate(captured))
    set(value, reverse.getResult(position));
  return success();
}
