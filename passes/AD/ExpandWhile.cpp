//===- ExpandWhile.cpp - scf.while as a counted scf.for --------------------===//
#include "passes/AD/ExpandWhile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tad;

/// Clones `block`'s ops but its terminator at `b`, its arguments mapped to
/// `arguments`; returns the terminator's operands as mapped.
static SmallVector<Value> cloneBody(OpBuilder &b, Block &block,
                                    ValueRange arguments,
                                    ValueRange terminatorOperands) {
  IRMapping mapping;
  mapping.map(block.getArguments(), arguments);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(terminatorOperands, [&](Value v) {
    return mapping.lookupOrDefault(v);
  });
}

static LogicalResult expand(scf::WhileOp loop) {
  WalkResult effects = loop->walk([&](Operation *op) {
    // Running the body again repeats its effects; an op that is only not
    // speculatable (a division) computes the same again.
    if (op == loop.getOperation() || op->hasTrait<OpTrait::IsTerminator>() ||
        isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return WalkResult::advance();
    op->emitError("cannot differentiate this scf.while: its body has side "
                  "effects, and its reverse runs the body again");
    return WalkResult::interrupt();
  });
  if (effects.wasInterrupted())
    return failure();

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Block &before = *loop.getBeforeBody();
  Block &after = *loop.getAfterBody();
  scf::ConditionOp condition = loop.getConditionOp();
  scf::YieldOp yield = loop.getYieldOp();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);

  // 1. The iteration count.
  SmallVector<Value> inits(loop.getInits());
  inits.push_back(zero);
  SmallVector<Type> types(loop.getResultTypes());
  types.push_back(b.getIndexType());
  auto counting = scf::WhileOp::create(
      b, loc, types, inits,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(before.getArguments(), args.drop_back());
        for (Operation &op : before.without_terminator())
          nb.clone(op, mapping);
        SmallVector<Value> forwarded = llvm::map_to_vector(
            condition.getArgs(),
            [&](Value v) { return mapping.lookupOrDefault(v); });
        forwarded.push_back(args.back());
        scf::ConditionOp::create(
            nb, l, mapping.lookupOrDefault(condition.getCondition()),
            forwarded);
      },
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> next =
            cloneBody(nb, after, args.drop_back(), yield.getResults());
        next.push_back(arith::AddIOp::create(nb, l, args.back(), one));
        scf::YieldOp::create(nb, l, next);
      });
  Value count = counting.getResults().back();

  // 2. The replay: count iterations of before-then-after.
  auto replay = scf::ForOp::create(
      b, loc, zero, count, one, loop.getInits(),
      [&](OpBuilder &nb, Location l, Value, ValueRange state) {
        SmallVector<Value> forwarded =
            cloneBody(nb, before, state, condition.getArgs());
        scf::YieldOp::create(
            nb, l, cloneBody(nb, after, forwarded, yield.getResults()));
      });

  // 3. The evaluation where the condition failed.
  SmallVector<Value> results =
      cloneBody(b, before, replay.getResults(), condition.getArgs());
  loop->replaceAllUsesWith(results);
  loop.erase();
  return success();
}

LogicalResult mlir::tad::expandWhileLoops(Operation *root) {
  SmallVector<scf::WhileOp> loops;
  // Post-order: an inner loop is expanded before the loop that holds it, so
  // the outer expansion clones the expanded form.
  root->walk([&](scf::WhileOp loop) { loops.push_back(loop); });
  for (scf::WhileOp loop : loops)
    if (failed(expand(loop)))
      return failure();
  return success();
}
