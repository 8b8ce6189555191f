//===- TadToLinalgLinearAlgebra.cpp - factorizations to runtime calls -----===//
//
// The ops of TadLinearAlgebraOps.td become calls of the C kernels of
// runtime/src/cpu/linalg.c (`_tad_linalg_<kernel>_<f32|f64>`), which every
// CPU module links: each tensor operand is viewed as a read-only buffer
// (bufferization.to_buffer), each result is a fresh memref.alloc that the
// kernel fills and bufferization.to_tensor (restrict, writable) turns back
// into a tensor. The kernel sees every buffer as an unranked memref (its
// rank and descriptor), so one symbol serves all ranks and layouts; leading
// i64 arguments carry the op's flags. One-shot bufferization keeps the
// buffers and the deallocation pipeline frees the allocations.
//
// With `runtime-calls=false` (the GPU target, whose device code cannot call
// the host runtime) the ops are rejected with a located error instead.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

/// Calls `_tad_linalg_<kernel>_<f32|f64>(flags..., inputs..., results...)`
/// and returns the results as tensors of `resultTypes`.
SmallVector<Value> callKernel(OpBuilder &b, Operation *op, StringRef kernel,
                              ArrayRef<int64_t> flags, ValueRange inputs,
                              TypeRange resultTypes) {
  Location loc = op->getLoc();
  auto firstType = cast<RankedTensorType>(inputs.front().getType());
  std::string name = ("_tad_linalg_" + kernel + "_" +
                      (firstType.getElementType().isF64() ? "f64" : "f32"))
                         .str();

  SmallVector<Value> args;
  for (int64_t flag : flags)
    args.push_back(arith::ConstantIntOp::create(b, loc, flag, 64));
  auto unranked = [&](Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    return memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(type.getElementType(), 0), memref);
  };
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()), input,
        /*read_only=*/true);
    args.push_back(unranked(buffer));
  }
  SmallVector<Value> buffers;
  for (Type result : resultTypes) {
    auto type = cast<RankedTensorType>(result);
    Value buffer = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    buffers.push_back(buffer);
    args.push_back(unranked(buffer));
  }

  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<Type> argTypes;
  for (Value arg : args)
    argTypes.push_back(arg.getType());
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(b, loc, name,
                                     b.getFunctionType(argTypes, {}));
    decl.setPrivate();
  }
  func::CallOp::create(b, loc, name, TypeRange{}, args);

  SmallVector<Value> results;
  for (auto [buffer, type] : llvm::zip(buffers, resultTypes))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, type, buffer, /*restrict=*/true, /*writable=*/true));
  return results;
}

template <typename OpTy>
struct LowerToKernel : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using FlagsFn = SmallVector<int64_t> (*)(OpTy);

  LowerToKernel(MLIRContext *ctx, StringRef kernel, FlagsFn flags,
                bool runtimeCalls)
      : OpConversionPattern<OpTy>(ctx), kernel(kernel), flags(flags),
        runtimeCalls(runtimeCalls) {}

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasStaticShapes(op))
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    if (!runtimeCalls)
      return op.emitOpError(
          "is not supported on the GPU target (it calls a CPU runtime kernel)");
    // The kernels read f32 or f64 buffers; tad-widen-low-precision gives
    // bf16 and f16 ops f32 operands first (a 16-bit buffer would be read
    // as f32).
    for (Type type : op->getOperandTypes())
      if (!getElementTypeOrSelf(type).isF32() &&
          !getElementTypeOrSelf(type).isF64())
        return op.emitOpError("needs f32 or f64 operands for its runtime "
                              "kernel (tad-widen-low-precision extends bf16 "
                              "and f16 ones first)");
    rewriter.replaceOp(op, callKernel(rewriter, op, kernel, flags(op),
                                      adaptor.getOperands(),
                                      op->getResultTypes()));
    return success();
  }

  StringRef kernel;
  FlagsFn flags;
  bool runtimeCalls;
};

template <typename OpTy>
SmallVector<int64_t> noFlags(OpTy) {
  return {};
}

SmallVector<int64_t> choleskyFlags(LinalgCholeskyExOp op) {
  return {op.getUpper() ? 1 : 0};
}

} // namespace

void lowering::populateLinearAlgebraPatterns(RewritePatternSet &patterns,
                                             bool runtimeCalls) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LowerToKernel<LinalgInvExOp>>(
      ctx, "inv", noFlags<LinalgInvExOp>, runtimeCalls);
  patterns.add<LowerToKernel<LinalgSlogdetOp>>(
      ctx, "slogdet", noFlags<LinalgSlogdetOp>, runtimeCalls);
  patterns.add<LowerToKernel<LinalgCholeskyExOp>>(ctx, "cholesky",
                                                  choleskyFlags, runtimeCalls);
}
