//===- ControlFlowToLLVM.cpp - cf to LLVM, AMX tiles included -------------===//
//
// Upstream's convert-cf-to-llvm with one more type: AMX tiles. The bf16
// matmul kernel (Bf16Matmul.cpp) keeps its C tiles in tile registers across
// the k loop, so after scf-to-cf they are block arguments, which upstream's
// pass (its type converter knows no !amx.tile) cannot convert.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADCONTROLFLOWTOLLVMPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

struct TadControlFlowToLLVMPass
    : tad::impl::TadControlFlowToLLVMPassBase<TadControlFlowToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMConversionTarget target(*ctx);
    LLVMTypeConverter converter(ctx);
    converter.addConversion(
        [ctx](amx::TileType) { return LLVM::LLVMX86AMXType::get(ctx); });
    RewritePatternSet patterns(ctx);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
