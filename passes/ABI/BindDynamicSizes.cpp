//===- BindDynamicSizes.cpp - dynamic memrefs at the C boundary -----------===//
//
// See TadBindDynamicSizesPass in Passes.td. After bufferization an exported
// function with dynamic sizes takes `memref<?x784xf32>` arguments (results
// are arguments too, after buffer-results-to-out-params), which the
// bare-pointer calling convention cannot pass. This pass gives it one
// `index` argument per symbol of its signature, first, and turns each
// dynamic memref argument into a rank-0 memref (a bare pointer) that it
// reinterprets, in the body, with its sizes and row-major strides.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADBINDDYNAMICSIZESPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Rewrites `fn` (whose memref arguments are the signature's arguments,
/// then its results) to take the symbols' sizes first.
LogicalResult bindSizes(func::FuncOp fn, const tad::abi::Signature &signature) {
  Block &entry = fn.getBody().front();
  size_t numTensors = signature.args.size() + signature.results.size();
  if (entry.getNumArguments() != numTensors)
    return fn.emitError("function '")
           << fn.getSymName() << "' has " << entry.getNumArguments()
           << " arguments after bufferization, expected " << numTensors
           << " (its arguments and results)";
  MLIRContext *ctx = fn.getContext();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = fn.getLoc();
  IndexType index = b.getIndexType();

  size_t numSymbols = signature.symbols.size();
  SmallVector<unsigned> positions(numSymbols, 0);
  SmallVector<Type> indexTypes(numSymbols, index);
  SmallVector<DictionaryAttr> noAttrs(numSymbols, DictionaryAttr::get(ctx));
  SmallVector<Location> locs(numSymbols, loc);
  if (failed(fn.insertArguments(positions, indexTypes, noAttrs, locs)))
    return failure();
  SmallVector<Value> symbols(entry.getArguments().take_front(numSymbols));

  for (size_t i = 0; i < numTensors; ++i) {
    BlockArgument arg = entry.getArgument(symbols.size() + i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.hasStaticShape())
      continue;
    if (!type.getLayout().isIdentity())
      return fn.emitError("function '")
             << fn.getSymName() << "' has argument " << arg.getArgNumber()
             << " of type " << type << "; expected an identity layout";
    ArrayRef<int64_t> dims = signature.dims(i);
    SmallVector<OpFoldResult> sizes, strides(dims.size());
    for (int64_t size : dims)
      sizes.push_back(size >= 0 ? OpFoldResult(b.getIndexAttr(size))
                                : OpFoldResult(symbols[-1 - size]));
    // Row-major strides: static while the sizes after them are.
    OpFoldResult stride = b.getIndexAttr(1);
    for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
      strides[d] = stride;
      std::optional<int64_t> s = getConstantIntValue(stride);
      if (s && dims[d] >= 0) {
        stride = b.getIndexAttr(*s * dims[d]);
        continue;
      }
      Value lhs = s ? arith::ConstantIndexOp::create(b, loc, *s).getResult()
                    : cast<Value>(stride);
      Value rhs = dims[d] >= 0
                      ? arith::ConstantIndexOp::create(b, loc, dims[d])
                            .getResult()
                      : symbols[-1 - dims[d]];
      stride = arith::MulIOp::create(b, loc, lhs, rhs).getResult();
    }
    arg.setType(MemRefType::get({}, type.getElementType(), AffineMap(),
                                type.getMemorySpace()));
    auto view = memref::ReinterpretCastOp::create(
        b, loc, type, arg, b.getIndexAttr(0), sizes, strides);
    arg.replaceAllUsesExcept(view, view);
  }
  fn.setFunctionType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                       fn.getFunctionType().getResults()));
  return success();
}

struct TadBindDynamicSizesPass
    : tad::impl::TadBindDynamicSizesPassBase<TadBindDynamicSizesPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      FailureOr<std::optional<tad::abi::Signature>> signature =
          tad::abi::readSignature(fn);
      if (failed(signature))
        return signalPassFailure();
      if (!*signature || !(*signature)->isDynamic() || fn.isExternal())
        continue;
      if (failed(bindSizes(fn, **signature)))
        return signalPassFailure();
    }
  }
};

} // namespace
