//===- DropRepeatedChecks.cpp - one run-time check per condition ----------===//
//
// See TadDropRepeatedChecksPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/CheckSites.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDROPREPEATEDCHECKSPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadDropRepeatedChecksPass
    : tad::impl::TadDropRepeatedChecksPassBase<TadDropRepeatedChecksPass> {
  void runOnOperation() override {
    SmallVector<scf::IfOp> redundant;
    getOperation().walk([&](Block *block) {
      llvm::SmallDenseSet<Value> tested;
      for (auto check : block->getOps<scf::IfOp>()) {
        if (!tad::isRunTimeCheck(check))
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
