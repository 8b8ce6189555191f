//===- VJP.cpp - reverse-mode differentiation -----------------------------===//
//
// For @f(args) -> results generates
//   @f_vjp(args..., cotangent per float result...)
//       -> (results..., gradient per differentiable arg...)
// by cloning f's body (the primal sweep) and then visiting its ops in reverse,
// asking the rule set for each op's contribution to its operands' adjoints.
// Only values that depend on a differentiable argument get adjoints (the
// rest are symbolic zeros), contributions to a broadcast operand are summed
// back to its shape, and fan-out is handled by accumulation. Loops and
// branches are reversed by ReverseSweep; the forward values their reverse
// bodies read are then stored or recomputed (ReverseStorage.h).
//
//===----------------------------------------------------------------------===//
#include "passes/AD/Activity.h"
#include "passes/AD/Checkpoint.h"
#include "passes/AD/Differentiation.h"
#include "passes/AD/Passes.h"
#include "passes/AD/ReverseStorage.h"
#include "passes/AD/ReverseSweep.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADVJPPASS
#include "passes/AD/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

struct TadVJPPass : DerivativePass<TadVJPPass, tad::impl::TadVJPPassBase> {
  using DerivativePass::DerivativePass;
  static constexpr DerivativeMode kMode = DerivativeMode::Reverse;

  /// The scheme of loops without a `tad.checkpoint` attribute.
  CheckpointScheme checkpointScheme;

  LogicalResult initialize(MLIRContext *context) override {
    std::optional<CheckpointScheme> scheme =
        CheckpointScheme::parse(checkpoint);
    if (!scheme)
      return emitError(UnknownLoc::get(context))
             << "tad-vjp: checkpoint must be 'store', 'sqrt', 'levels:L' "
                "(1 <= L <= 16), 'revolve:S' (1 <= S <= "
             << kMaxSnapshots << ") or a positive integer, not '"
             << checkpoint << "'";
    checkpointScheme = *scheme;
    return DerivativePass::initialize(context);
  }

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
    Activity activity;
    for (unsigned i : vjp.signature.args)
      activity.seed(entry.getArgument(i));
    activity.propagate(entry);
    if (failed(checkActiveValues(entry, activity)))
      return failure();

    SmallVector<PendingStorage> pending;
    ReverseSweep sweep(b, *rules, activity, pending);
    for (auto [position, index] : llvm::enumerate(vjp.signature.results)) {
      Value result = results[index];
      if (activity.isActive(result) &&
          failed(sweep.accumulate(nullptr, result, vjp.getSeed(position))))
        return failure();
    }
    for (Operation *op : llvm::reverse(cloned))
      if (failed(sweep.visit(op)))
        return failure();
    for (unsigned i : vjp.signature.args)
      results.push_back(sweep.lookup(entry.getArgument(i)));

    // Storing values replaces forward loops and branches (they gain
    // results): hold the returned values in an op so that they follow.
    SmallVector<unsigned> held;
    SmallVector<Value> heldValues;
    for (auto [index, value] : llvm::enumerate(results))
      if (value) {
        held.push_back(index);
        heldValues.push_back(value);
      }
    auto hold = UnrealizedConversionCastOp::create(b, primal.getLoc(),
                                                   TypeRange(), heldValues);
    if (failed(storeForReverse(pending)))
      return failure();
    b.getBlock()->getParentOp()->walk(
        [](scf::ForOp loop) {
          loop->removeAttr(kRecomputeAttr);
          loop->removeAttr(kRevolveAttr);
        });
    for (auto [index, value] : llvm::zip_equal(held, hold->getOperands()))
      results[index] = value;
    hold->erase();
    return results;
  }
};

} // namespace
