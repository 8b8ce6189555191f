//===- VJP.cpp - reverse-mode differentiation -----------------------------===//
//
// For @f(args) -> results generates
//   @f_vjp(args..., cotangent per float result...)
//       -> (results..., gradient per differentiable arg...)
// by cloning f's body (the primal sweep) and then visiting its ops in reverse,
// asking the rule set for each op's contribution to its operands' adjoints.
// Only values that depend on a differentiable argument get adjoints (the
// rest are symbolic zeros), contributions to a broadcast operand are summed
// back to its shape, and fan-out is handled by accumulation.
//
//===----------------------------------------------------------------------===//
#include "passes/AD/DerivativeRules.h"
#include "passes/AD/Differentiation.h"
#include "passes/AD/Passes.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADVJPPASS
#include "passes/AD/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// Adjoints of one derivative function under construction.
class ReverseSweep {
public:
  ReverseSweep(OpBuilder &b, DerivativeRules &rules) : b(b), rules(rules) {}

  /// Adds `contribution` to the adjoint of `value`, reducing a broadcast
  /// contribution to `value`'s shape first.
  LogicalResult accumulate(Operation *user, Value value, Value contribution) {
    auto target = cast<RankedTensorType>(value.getType());
    auto source = cast<RankedTensorType>(contribution.getType());
    Location loc = user ? user->getLoc() : value.getLoc();
    if (source.getElementType() != target.getElementType())
      return emitError(loc) << "gradient has element type "
                            << source.getElementType()
                            << " but the operand has "
                            << target.getElementType();
    if (source.getShape() != target.getShape()) {
      if (!sumToSizeDims(source.getShape(), target.getShape()))
        return emitError(loc)
               << "gradient of shape " << shapeToString(source.getShape())
               << " cannot be reduced to the operand's shape "
               << shapeToString(target.getShape());
      contribution = SumToSizeOp::create(b, loc, contribution,
                                         b.getDenseI64ArrayAttr(
                                             target.getShape()));
    }
    Value &adjoint = adjoints[value];
    adjoint = adjoint ? AddTensorOp::create(b, loc, adjoint, contribution,
                                            b.getF64FloatAttr(1.0))
                            .getResult()
                      : contribution;
    return success();
  }

  Value lookup(Value value) const { return adjoints.lookup(value); }

  /// Propagates the adjoints of `op`'s results to its operands.
  LogicalResult visit(Operation *op, const DenseSet<Value> &varied) {
    SmallVector<Value> cotangents;
    bool anyCotangent = false;
    for (auto [index, result] : llvm::enumerate(op->getResults())) {
      Value ct = rules.isDifferentiableResult(op, index) ? lookup(result)
                                                          : Value();
      anyCotangent |= static_cast<bool>(ct);
      cotangents.push_back(ct);
    }
    if (!anyCotangent)
      return success();
    SmallVector<bool> wanted;
    bool anyWanted = false;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      bool want =
          varied.contains(operand) && rules.isDifferentiableOperand(op, index);
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

private:
  OpBuilder &b;
  DerivativeRules &rules;
  DenseMap<Value, Value> adjoints;
};

struct TadVJPPass : DerivativePass<TadVJPPass, tad::impl::TadVJPPassBase> {
  using DerivativePass::DerivativePass;
  static constexpr DerivativeMode kMode = DerivativeMode::Reverse;

  /// The primal sweep clones the body; the reverse sweep then visits the
  /// cloned ops last to first. Returns the primal's results and the
  /// gradients.
  FailureOr<SmallVector<Value>> buildBody(OpBuilder &b, DerivativeFunction &vjp,
                                          func::FuncOp primal) {
    Block &body = primal.getBody().front();
    SmallVector<Operation *> cloned;
    for (Operation &op : body.without_terminator())
      cloned.push_back(b.clone(op, vjp.mapping));
    SmallVector<Value> results;
    for (Value operand : body.getTerminator()->getOperands())
      results.push_back(vjp.mapping.lookupOrDefault(operand));

    // Activity: values that depend on a differentiable argument.
    Block &entry = vjp.getEntryBlock();
    DenseSet<Value> varied;
    for (unsigned i : vjp.signature.args)
      if (carriesDerivative(entry.getArgument(i).getType()))
        varied.insert(entry.getArgument(i));
    for (Operation *op : cloned)
      if (llvm::any_of(op->getOperands(),
                       [&](Value v) { return varied.contains(v); }))
        for (Value result : op->getResults())
          if (carriesDerivative(result.getType()))
            varied.insert(result);

    ReverseSweep sweep(b, *rules);
    for (auto [position, index] : llvm::enumerate(vjp.signature.results)) {
      Value result = results[index];
      if (varied.contains(result) &&
          failed(sweep.accumulate(nullptr, result, vjp.getSeed(position))))
        return failure();
    }
    for (Operation *op : llvm::reverse(cloned))
      if (failed(sweep.visit(op, varied)))
        return failure();

    for (unsigned i : vjp.signature.args)
      results.push_back(sweep.lookup(entry.getArgument(i)));
    return results;
  }
};

} // namespace
