//===- JVP.cpp - forward-mode differentiation -----------------------------===//
//
// For @f(args) -> results generates
//   @f_jvp(args..., tangent per differentiable arg...)
//       -> (results..., tangent per float result...)
// by cloning f's ops in order and emitting, right after each one, the
// tangent of its results from the rules' forward formulas. Values that do
// not depend on a differentiable argument have no tangent (symbolic zero).
//
//===----------------------------------------------------------------------===//
#include "passes/AD/DerivativeRules.h"
#include "passes/AD/Differentiation.h"
#include "passes/AD/Passes.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADJVPPASS
#include "passes/AD/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

struct TadJVPPass : DerivativePass<TadJVPPass, tad::impl::TadJVPPassBase> {
  using DerivativePass::DerivativePass;
  static constexpr DerivativeMode kMode = DerivativeMode::Forward;

  /// Clones the primal's ops in order, each followed by the tangents of its
  /// results. Returns the primal's results and their tangents.
  FailureOr<SmallVector<Value>> buildBody(OpBuilder &b, DerivativeFunction &jvp,
                                          func::FuncOp primal) {
    DenseMap<Value, Value> tangents;
    for (auto [position, i] : llvm::enumerate(jvp.signature.args))
      if (Value arg = jvp.getEntryBlock().getArgument(i);
          carriesDerivative(arg.getType()))
        tangents[arg] = jvp.getSeed(position);

    Block &body = primal.getBody().front();
    for (Operation &original : body.without_terminator()) {
      Operation *op = b.clone(original, jvp.mapping);
      SmallVector<Value> operandTangents;
      bool any = false;
      for (Value operand : op->getOperands()) {
        Value t = tangents.lookup(operand);
        any |= static_cast<bool>(t);
        operandTangents.push_back(t);
      }
      if (!any || llvm::none_of(op->getResultTypes(), carriesDerivative))
        continue;
      FailureOr<SmallVector<Value>> resultTangents =
          rules->emitJVP(b, op, operandTangents);
      if (failed(resultTangents))
        return failure();
      for (auto [result, tangent] :
           llvm::zip_equal(op->getResults(), *resultTangents))
        if (tangent && carriesDerivative(result.getType()))
          tangents[result] = tangent;
    }

    SmallVector<Value> results = llvm::map_to_vector(
        body.getTerminator()->getOperands(),
        [&](Value operand) { return jvp.mapping.lookupOrDefault(operand); });
    for (unsigned i : jvp.signature.results)
      results.push_back(tangents.lookup(results[i]));
    return results;
  }
};

} // namespace
