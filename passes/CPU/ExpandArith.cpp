//===- ExpandArith.cpp - arith ops LLVM cannot lower, min/max kept ---------===//
//
// See TadExpandArithPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADEXPANDARITHPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadExpandArithPass
    : tad::impl::TadExpandArithPassBase<TadExpandArithPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect>();
    target.addIllegalOp<arith::CeilDivSIOp, arith::CeilDivUIOp,
                        arith::FloorDivSIOp>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
