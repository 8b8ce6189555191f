//===- JVP.cpp - forward-mode differentiation -----------------------------===//
//
// For @f(args) -> results generates
//   @f_jvp(args..., tangent per differentiable arg...)
//       -> (results..., tangent per float result...)
// by cloning f's ops in order and emitting, right after each one, the
// tangent of its results from the rules' forward formulas. Values that do
// not depend on a differentiable argument have no tangent (symbolic zero).
// An scf.for becomes the same loop with the tangents of its active
// loop-carried values as extra iter_args; an scf.if the same branch with
// their tangents as extra results.
//
//===----------------------------------------------------------------------===//
#include "passes/AD/Activity.h"
#include "passes/AD/DerivativeRules.h"
#include "passes/AD/Differentiation.h"
#include "passes/AD/Passes.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADJVPPASS
#include "passes/AD/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// Clones primal ops into a JVP function with their tangents.
class ForwardSweep {
public:
  ForwardSweep(OpBuilder &b, DerivativeRules &rules, const Activity &activity,
               IRMapping &mapping)
      : b(b), rules(rules), activity(activity), mapping(mapping) {}

  /// Clones `block`'s ops (its terminator excluded) at the builder.
  LogicalResult cloneBlock(Block &block) {
    for (Operation &op : block.without_terminator()) {
      LogicalResult done = success();
      if (auto loop = dyn_cast<scf::ForOp>(op))
        done = cloneFor(loop);
      else if (auto branch = dyn_cast<scf::IfOp>(op))
        done = cloneIf(branch);
      else if (isa<scf::WhileOp>(op))
        // An iteration counter (see ExpandWhile.h): no tangents.
        b.clone(op, mapping);
      else
        done = cloneOp(op);
      if (failed(done))
        return failure();
    }
    return success();
  }

  void setTangent(Value value, Value tangent) { tangents[value] = tangent; }
  /// The tangent of primal value `value` (null: zero).
  Value lookup(Value value) const {
    return tangents.lookup(mapping.lookupOrDefault(value));
  }

private:
  Value lookupOrZeros(Value primalValue, Location loc) {
    if (Value tangent = lookup(primalValue))
      return tangent;
    return zerosFor(mapping.lookupOrDefault(primalValue), loc);
  }

  /// A zero tangent for `value` (of the JVP function). The tangent of an
  /// uninitialized tensor (a reverse loop's stack, whose slots are all
  /// written before they are read) is another uninitialized tensor, which
  /// also serves dynamic shapes.
  Value zerosFor(Value value, Location loc) {
    if (auto empty = value.getDefiningOp<tensor::EmptyOp>())
      return b.clone(*empty)->getResult(0);
    return createZerosLike(b, loc, value);
  }

  /// tensor.extract_slice and tensor.insert_slice (the stacks of a reverse
  /// loop, when a VJP is differentiated again) are linear in their tensor
  /// operands: the tangent is the same op applied to the tangents.
  void cloneSliceTangent(Operation *op, ArrayRef<Value> operandTangents) {
    // Zero tangents first: they must dominate the tangent op.
    SmallVector<Value> operands(op->getOperands());
    for (auto [index, operand] : llvm::enumerate(op->getOperands()))
      if (isFloatTensor(operand.getType()))
        operands[index] = operandTangents[index]
                              ? operandTangents[index]
                              : zerosFor(operand, op->getLoc());
    Operation *tangentOp = b.clone(*op);
    tangentOp->setOperands(operands);
    tangents[op->getResult(0)] = tangentOp->getResult(0);
  }

  LogicalResult cloneOp(Operation &original) {
    Operation *op = b.clone(original, mapping);
    SmallVector<Value> operandTangents;
    bool any = false;
    for (Value operand : op->getOperands()) {
      Value t = tangents.lookup(operand);
      any |= static_cast<bool>(t);
      operandTangents.push_back(t);
    }
    if (!any || llvm::none_of(op->getResultTypes(), carriesDerivative))
      return success();
    if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op)) {
      cloneSliceTangent(op, operandTangents);
      return success();
    }
    FailureOr<SmallVector<Value>> resultTangents =
        rules.emitJVP(b, op, operandTangents);
    if (failed(resultTangents))
      return failure();
    for (auto [result, tangent] :
         llvm::zip_equal(op->getResults(), *resultTangents))
      if (tangent && carriesDerivative(result.getType()))
        tangents[result] = tangent;
    return success();
  }

  LogicalResult cloneFor(scf::ForOp loop) {
    Location loc = loop.getLoc();
    SmallVector<unsigned> carried;
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs()))
      if (activity.isActive(arg))
        carried.push_back(index);
    SmallVector<Value> inits = llvm::map_to_vector(
        loop.getInitArgs(), [&](Value v) { return mapping.lookupOrDefault(v); });
    for (unsigned index : carried)
      inits.push_back(lookupOrZeros(loop.getInitArgs()[index], loc));
    auto tangentLoop = scf::ForOp::create(
        b, loc, mapping.lookupOrDefault(loop.getLowerBound()),
        mapping.lookupOrDefault(loop.getUpperBound()),
        mapping.lookupOrDefault(loop.getStep()), inits,
        /*bodyBuilder=*/nullptr, loop.getUnsignedCmp());
    tangentLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *body = tangentLoop.getBody();
    if (!body->empty())
      body->back().erase();
    unsigned numPrimal = loop.getNumRegionIterArgs();
    mapping.map(loop.getInductionVar(), tangentLoop.getInductionVar());
    for (auto [arg, cloned] : llvm::zip(loop.getRegionIterArgs(),
                                        tangentLoop.getRegionIterArgs()))
      mapping.map(arg, cloned);
    for (auto [position, index] : llvm::enumerate(carried))
      tangents[tangentLoop.getRegionIterArgs()[index]] =
          tangentLoop.getRegionIterArgs()[numPrimal + position];
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(body);
      if (failed(cloneBlock(*loop.getBody())))
        return failure();
      SmallVector<Value> yields = llvm::map_to_vector(
          loop.getYieldedValues(),
          [&](Value v) { return mapping.lookupOrDefault(v); });
      for (unsigned index : carried)
        yields.push_back(lookupOrZeros(loop.getYieldedValues()[index], loc));
      scf::YieldOp::create(b, loc, yields);
    }
    for (auto [index, result] : llvm::enumerate(loop.getResults()))
      mapping.map(result, tangentLoop.getResult(index));
    for (auto [position, index] : llvm::enumerate(carried))
      tangents[tangentLoop.getResult(index)] =
          tangentLoop.getResult(numPrimal + position);
    return success();
  }

  LogicalResult cloneIf(scf::IfOp branch) {
    Location loc = branch.getLoc();
    SmallVector<unsigned> active;
    SmallVector<Type> types(branch.getResultTypes());
    for (auto [index, result] : llvm::enumerate(branch.getResults()))
      if (activity.isActive(result)) {
        active.push_back(index);
        types.push_back(result.getType());
      }
    bool hasElse = !branch.getElseRegion().empty();
    auto tangentBranch = scf::IfOp::create(
        b, loc, types, mapping.lookupOrDefault(branch.getCondition()),
        /*addThenBlock=*/true, /*addElseBlock=*/hasElse);
    tangentBranch->setDiscardableAttrs(branch->getDiscardableAttrDictionary());
    for (auto [forward, cloned] :
         llvm::zip(branch->getRegions(), tangentBranch->getRegions())) {
      if (forward.empty())
        continue;
      Block *block = &cloned.front();
      if (!block->empty())
        block->back().erase();
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(block);
      if (failed(cloneBlock(forward.front())))
        return failure();
      Operation *yield = forward.front().getTerminator();
      SmallVector<Value> yields = llvm::map_to_vector(
          yield->getOperands(),
          [&](Value v) { return mapping.lookupOrDefault(v); });
      for (unsigned index : active)
        yields.push_back(lookupOrZeros(yield->getOperand(index), loc));
      scf::YieldOp::create(b, loc, yields);
    }
    unsigned numPrimal = branch.getNumResults();
    for (auto [index, result] : llvm::enumerate(branch.getResults()))
      mapping.map(result, tangentBranch.getResult(index));
    for (auto [position, index] : llvm::enumerate(active))
      tangents[tangentBranch.getResult(index)] =
          tangentBranch.getResult(numPrimal + position);
    return success();
  }

  OpBuilder &b;
  DerivativeRules &rules;
  const Activity &activity;
  IRMapping &mapping;
  /// Tangents by value of the JVP function.
  DenseMap<Value, Value> tangents;
};

struct TadJVPPass : DerivativePass<TadJVPPass, tad::impl::TadJVPPassBase> {
  using DerivativePass::DerivativePass;
  static constexpr DerivativeMode kMode = DerivativeMode::Forward;

  /// Clones the primal's ops in order, each followed by the tangents of its
  /// results. Returns the primal's results and their tangents.
  FailureOr<SmallVector<Value>> buildBody(OpBuilder &b, DerivativeFunction &jvp,
                                          func::FuncOp primal) {
    Block &body = primal.getBody().front();
    // Activity on the primal: which loop-carried values need tangents.
    Activity activity;
    for (unsigned i : jvp.signature.args)
      activity.seed(primal.getArgument(i));
    activity.propagate(body);
    if (failed(checkActiveValues(body, activity)))
      return failure();

    ForwardSweep sweep(b, *rules, activity, jvp.mapping);
    for (auto [position, i] : llvm::enumerate(jvp.signature.args))
      if (Value arg = jvp.getEntryBlock().getArgument(i);
          carriesDerivative(arg.getType()))
        sweep.setTangent(arg, jvp.getSeed(position));
    if (failed(sweep.cloneBlock(body)))
      return failure();

    Operation *terminator = body.getTerminator();
    SmallVector<Value> results = llvm::map_to_vector(
        terminator->getOperands(),
        [&](Value operand) { return jvp.mapping.lookupOrDefault(operand); });
    for (unsigned i : jvp.signature.results)
      results.push_back(sweep.lookup(terminator->getOperand(i)));
    return results;
  }
};

} // namespace
