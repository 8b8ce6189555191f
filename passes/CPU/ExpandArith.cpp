//===- ExpandArith.cpp - arith ops LLVM cannot lower, min/max kept ---------===//
//
// See TadExpandArithPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADEXPANDARITHPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// An f32 -> bf16 truncation in the default rounding mode.
bool isTruncationToBf16(arith::TruncFOp op) {
  return getElementTypeOrSelf(op.getIn().getType()).isF32() &&
         getElementTypeOrSelf(op.getType()).isBF16() && !op.getRoundingmode();
}

/// Whether the host converts f32 to bf16 in hardware (AVX512-BF16's
/// vcvtneps2bf16); the object emitter compiles for the host's features.
bool hostConvertsToBf16() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512bf16");
}

struct TadExpandArithPass
    : tad::impl::TadExpandArithPassBase<TadExpandArithPass> {
  using TadExpandArithPassBase::TadExpandArithPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect>();
    target.addIllegalOp<arith::CeilDivSIOp, arith::CeilDivUIOp,
                        arith::FloorDivSIOp>();
    bool expandBf16 = expandBf16Truncations < 0 ? !hostConvertsToBf16()
                                                 : expandBf16Truncations > 0;
    if (expandBf16) {
      arith::populateExpandBFloat16Patterns(patterns);
      target.addDynamicallyLegalOp<arith::TruncFOp>(
          [](arith::TruncFOp op) { return !isTruncationToBf16(op); });
    }
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
