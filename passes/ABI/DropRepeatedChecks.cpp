//===- DropRepeatedChecks.cpp - one run-time check per condition ----------===//
//
// See TadDropRepeatedChecksPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDROPREPEATEDCHECKSPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether `op` is a check: an scf.if without results or else branch whose
/// branch only calls a runtime `__tad_fail_*` function (which does not
/// return) with the description of its site.
bool isCheck(scf::IfOp op) {
  if (op.getNumResults() != 0 || !op.getElseRegion().empty())
    return false;
  bool fails = false;
  for (Operation &inner : op.getThenRegion().front()) {
    if (auto call = dyn_cast<func::CallOp>(inner)) {
      if (!call.getCallee().starts_with("__tad_fail_"))
        return false;
      fails = true;
    } else if (!isa<memref::GetGlobalOp, scf::YieldOp>(inner) &&
               !matchPattern(&inner, m_Constant())) {
      return false;
    }
  }
  return fails;
}

struct TadDropRepeatedChecksPass
    : tad::impl::TadDropRepeatedChecksPassBase<TadDropRepeatedChecksPass> {
  void runOnOperation() override {
    SmallVector<scf::IfOp> redundant;
    getOperation().walk([&](Block *block) {
      llvm::SmallDenseSet<Value> tested;
      for (auto check : block->getOps<scf::IfOp>()) {
        if (!isCheck(check))
          continue;
        Value condition = check.getCondition();
        if (matchPattern(condition, m_Zero()) || !tested.insert(condition).second)
          redundant.push_back(check);
      }
    });
    for (scf::IfOp check : redundant)
      check.erase();
  }
};

} // namespace
