//===- RecordABI.cpp - record exported signatures (tad.abi) ---------------===//
//
// Bufferization and the lowering to LLVM turn `tensor<4x8xf32>` arguments
// and results into bare pointers; the entry points of the C ABI still need
// the tensor types to check calls and to describe the module. This pass
// stores them, before anything changes the signatures, as the `tad.abi`
// attribute of each exported function (see passes/ABI.h), and marks the
// arguments read-only for bufferization.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADRECORDABIPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Checks that `type`, the `kind` #`index` of `fn`, can cross the C boundary.
LogicalResult checkBoundaryType(func::FuncOp fn, StringRef kind, unsigned index,
                                Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " of type " << type
           << "; the tad C ABI passes only ranked tensors";
  if (!tensor.hasStaticShape())
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " of dynamic shape " << type
           << "; the tad C ABI needs static shapes";
  if (!tad::abi::getDType(tensor.getElementType()))
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " with element type " << tensor.getElementType()
           << "; the tad C ABI supports f32, f64, i64, i32 and i1";
  if (tensor.getEncoding())
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " with a tensor encoding " << type
           << "; the tad C ABI passes dense row-major tensors";
  return success();
}

struct TadRecordABIPass : tad::impl::TadRecordABIPassBase<TadRecordABIPass> {
  void runOnOperation() override {
    bool failed = false;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal())
        continue;
      StringRef name = fn.getSymName();
      if (!tad::abi::isCIdentifier(name)) {
        fn.emitError("exported function '")
            << name << "' needs a name that is a C identifier";
        failed = true;
        continue;
      }
      if (tad::abi::isReservedName(name)) {
        fn.emitError("exported function '")
            << name << "' uses a name reserved for tad ('tad_', '_tad_', "
            << "'__tad' prefixes)";
        failed = true;
        continue;
      }
      FunctionType type = fn.getFunctionType();
      bool ok = true;
      for (auto [index, arg] : llvm::enumerate(type.getInputs()))
        ok &= succeeded(checkBoundaryType(fn, "argument", index, arg));
      for (auto [index, result] : llvm::enumerate(type.getResults()))
        ok &= succeeded(checkBoundaryType(fn, "result", index, result));
      if (!ok) {
        failed = true;
        continue;
      }
      fn->setAttr(tad::abi::kSignatureAttrName,
                  tad::abi::buildSignatureAttr(&getContext(), type.getInputs(),
                                               type.getResults()));
      // `const tad_tensor *args`: never bufferize in place into an argument.
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      BoolAttr::get(&getContext(), false));
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
