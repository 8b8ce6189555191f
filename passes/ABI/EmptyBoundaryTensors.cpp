//===- EmptyBoundaryTensors.cpp - zero-size tensors at the C boundary -----===//
//
// See TadEmptyBoundaryTensorsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADEMPTYBOUNDARYTENSORSPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The type that stands for `type` at the boundary: `tensor<0xT>` for a
/// zero-size tensor of another shape, `type` itself otherwise.
Type getBoundaryType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != 0 ||
      (tensor.getRank() == 1 && !tensor.getEncoding()))
    return type;
  return RankedTensorType::get({0}, tensor.getElementType());
}

/// A tensor of type `type` (zero-size, so an empty one is its value).
Value createEmpty(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                 tensor.getElementType(), tensor.getEncoding());
}

/// Rewrites `call` to `fn`'s new signature `boundary`: the zero-size
/// operands it passes become `tensor<0xT>`, the zero-size results it uses
/// empty tensors of their types.
void rewriteCall(func::CallOp call, FunctionType boundary) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  SmallVector<Value> operands;
  for (auto [operand, type] :
       llvm::zip_equal(call.getOperands(), boundary.getInputs()))
    operands.push_back(operand.getType() == type ? operand
                                                 : createEmpty(b, loc, type));
  auto replacement = func::CallOp::create(b, loc, call.getCalleeAttr(),
                                          boundary.getResults(), operands);
  replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
  for (auto [old, result] :
       llvm::zip_equal(call.getResults(), replacement.getResults()))
    old.replaceAllUsesWith(old.getType() == result.getType()
                               ? result
                               : createEmpty(b, loc, old.getType()));
  call.erase();
}

struct TadEmptyBoundaryTensorsPass
    : tad::impl::TadEmptyBoundaryTensorsPassBase<TadEmptyBoundaryTensorsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn->hasAttr(tad::abi::kSignatureAttrName))
        continue;
      FunctionType type = fn.getFunctionType();
      auto inputs = llvm::map_to_vector(type.getInputs(), getBoundaryType);
      auto results = llvm::map_to_vector(type.getResults(), getBoundaryType);
      if (TypeRange(inputs) == type.getInputs() &&
          TypeRange(results) == type.getResults())
        continue;
      auto boundary = FunctionType::get(&getContext(), inputs, results);

      // Calls from other functions pass and receive the stand-ins too.
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn, module);
      if (!uses) {
        fn.emitError("cannot find the uses of exported function '")
            << fn.getSymName() << "'";
        return signalPassFailure();
      }
      SmallVector<func::CallOp> calls;
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call) {
          use.getUser()->emitError("exported function '")
              << fn.getSymName()
              << "' has zero-size tensors in its signature and is used other "
                 "than by func.call";
          return signalPassFailure();
        }
        calls.push_back(call);
      }
      for (func::CallOp call : calls)
        rewriteCall(call, boundary);

      // A zero-size argument carries no data: an empty tensor of its type
      // replaces it, and its pointer is never read.
      Block &entry = fn.front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      for (auto [arg, newType] : llvm::zip_equal(entry.getArguments(), inputs)) {
        if (arg.getType() == newType)
          continue;
        arg.replaceAllUsesWith(createEmpty(b, arg.getLoc(), arg.getType()));
        arg.setType(newType);
      }
      // A zero-size result needs no writes: an empty `tensor<0xT>`.
      fn.walk([&](func::ReturnOp ret) {
        b.setInsertionPoint(ret);
        for (auto [operand, newType] :
             llvm::zip_equal(ret->getOpOperands(), results))
          if (operand.get().getType() != newType)
            operand.set(createEmpty(b, ret.getLoc(), newType));
      });
      fn.setFunctionType(boundary);
    }
  }
};

} // namespace
