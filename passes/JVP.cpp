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
#include "passes/DerivativeRules.h"
#include "passes/Differentiation.h"
#include "passes/Passes.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADJVPPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

struct TadJVPPass : tad::impl::TadJVPPassBase<TadJVPPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<std::shared_ptr<DerivativeRules>> loaded =
        loadDerivativeRules(context, ruleFiles);
    if (failed(loaded))
      return failure();
    rules = *loaded;
    return success();
  }

  void runOnOperation() override {
    if (failed(differentiateTargets(
            getOperation(), functions, "_jvp",
            [&](SymbolTable &symbols, func::FuncOp primal) {
              return differentiate(symbols, primal);
            })))
      signalPassFailure();
  }

  LogicalResult differentiate(SymbolTable &symbols, func::FuncOp primal) {
    if (failed(checkDifferentiable(primal)))
      return failure();
    FunctionType primalType = primal.getFunctionType();
    DerivativeSignature signature = DerivativeSignature::of(primal);
    ArrayRef<unsigned> diffArgs = signature.args;
    ArrayRef<unsigned> floatResults = signature.results;

    SmallVector<Type> inputs(primalType.getInputs());
    for (unsigned i : diffArgs)
      inputs.push_back(primalType.getInput(i));
    SmallVector<Type> results(primalType.getResults());
    for (unsigned i : floatResults)
      results.push_back(primalType.getResult(i));
    FailureOr<func::FuncOp> jvp = createDerivativeFunction(
        symbols, primal, (primal.getSymName() + "_jvp").str(),
        FunctionType::get(&getContext(), inputs, results),
        /*requested=*/llvm::is_contained(functions, primal.getSymName().str()));
    if (failed(jvp))
      return failure();

    Block &entry = jvp->getBody().front();
    OpBuilder b = OpBuilder::atBlockEnd(&entry);
    IRMapping mapping;
    DenseMap<Value, Value> tangents;
    for (unsigned i = 0, e = primalType.getNumInputs(); i < e; ++i)
      mapping.map(primal.getArgument(i), entry.getArgument(i));
    for (auto [position, i] : llvm::enumerate(diffArgs))
      if (carriesDerivative(entry.getArgument(i).getType()))
        tangents[entry.getArgument(i)] =
            entry.getArgument(primalType.getNumInputs() + position);

    Block &body = primal.getBody().front();
    for (Operation &original : body.without_terminator()) {
      Operation *op = b.clone(original, mapping);
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

    SmallVector<Value> returned;
    for (Value operand : body.getTerminator()->getOperands())
      returned.push_back(mapping.lookupOrDefault(operand));
    for (unsigned i : floatResults) {
      Value tangent = tangents.lookup(returned[i]);
      returned.push_back(
          tangent ? tangent
                  : createZeros(b, primal.getLoc(), returned[i].getType()));
    }
    func::ReturnOp::create(b, primal.getLoc(), returned);
    return success();
  }

  std::shared_ptr<DerivativeRules> rules;
};

} // namespace
