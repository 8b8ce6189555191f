//===- DistinctResults.cpp - one value per returned tensor ----------------===//
//
// See TadDistinctResultsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDISTINCTRESULTSPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadDistinctResultsPass
    : tad::impl::TadDistinctResultsPassBase<TadDistinctResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder b(ret);
      llvm::SmallPtrSet<Value, 8> returned;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        if (!isa<RankedTensorType>(value.getType()) ||
            returned.insert(value).second)
          continue;
        // A copy into a fresh allocation: one-shot bufferization writes a
        // linalg.copy into a tensor.empty in place (its source's buffer).
        operand.set(bufferization::AllocTensorOp::create(
            b, ret.getLoc(), cast<RankedTensorType>(value.getType()),
            /*dynamicSizes=*/ValueRange(), /*copy=*/value));
      }
    });
  }
};

} // namespace
