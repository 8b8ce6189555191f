//===- ReassociateReductions.cpp - reassoc on reduction combiners ---------===//
//
// See TadReassociateReductionsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADREASSOCIATEREDUCTIONSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

template <typename OpTy> bool allowReassociation(Operation *op) {
  auto combiner = dyn_cast<OpTy>(op);
  if (!combiner)
    return false;
  combiner.setFastmath(combiner.getFastmath() | arith::FastMathFlags::reassoc);
  return true;
}

struct TadReassociateReductionsPass
    : tad::impl::TadReassociateReductionsPassBase<
          TadReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation()->walk([](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() == 0)
        return;
      SmallVector<BlockArgument> outputs(op.getRegionOutputArgs());
      for (unsigned i = 0; i < outputs.size(); ++i) {
        SmallVector<Operation *> combiners;
        if (!matchReduction(outputs, i, combiners) || combiners.size() != 1)
          continue;
        (void)(allowReassociation<arith::AddFOp>(combiners[0]) ||
               allowReassociation<arith::MulFOp>(combiners[0]));
      }
    });
  }
};

} // namespace
