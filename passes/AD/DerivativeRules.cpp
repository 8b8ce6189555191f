//===- DerivativeRules.cpp - rule-set loader hook -------------------------===//
#include "passes/AD/DerivativeRules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace mlir::tad;

DerivativeRules::~DerivativeRules() = default;

static DerivativeRulesLoader &installedLoader() {
  static DerivativeRulesLoader loader;
  return loader;
}

void mlir::tad::setDerivativeRulesLoader(DerivativeRulesLoader loader) {
  installedLoader() = std::move(loader);
}

FailureOr<std::shared_ptr<DerivativeRules>>
mlir::tad::loadDerivativeRules(MLIRContext *context,
                               ArrayRef<std::string> extraRuleFiles) {
  if (!installedLoader())
    return emitError(UnknownLoc::get(context),
                     "no derivative rule loader is installed in this tool");
  return installedLoader()(context, extraRuleFiles);
}
