//===- AliasScopes.cpp - noalias arguments as scoped alias metadata -------===//
//
// See TadAliasScopesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADALIASSCOPESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The argument of `func` that `pointer` is an address within (through
/// getelementptr), or null.
BlockArgument baseArgument(Value pointer, LLVM::LLVMFuncOp func) {
  while (auto gep = pointer.getDefiningOp<LLVM::GEPOp>())
    pointer = gep.getBase();
  auto arg = dyn_cast<BlockArgument>(pointer);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return {};
  return arg;
}

struct TadAliasScopesPass
    : tad::impl::TadAliasScopesPassBase<TadAliasScopesPass> {
  void runOnOperation() override {
    LLVM::LLVMFuncOp func = getOperation();
    if (func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    // One scope per noalias pointer argument, in a domain of the function.
    auto domain = LLVM::AliasScopeDomainAttr::get(
        ctx, StringAttr::get(ctx, func.getName()));
    llvm::MapVector<BlockArgument, LLVM::AliasScopeAttr> scopes;
    for (BlockArgument arg : func.getArguments())
      if (func.getArgAttr(arg.getArgNumber(),
                          LLVM::LLVMDialect::getNoAliasAttrName()))
        scopes[arg] = LLVM::AliasScopeAttr::get(domain);
    if (scopes.size() < 2)
      return;

    func.walk([&](LLVM::AliasAnalysisOpInterface op) {
      // Every address the op accesses must come from one noalias argument.
      BlockArgument base;
      for (Value pointer : op.getAccessedOperands()) {
        BlockArgument arg = baseArgument(pointer, func);
        if (!arg || !scopes.count(arg) || (base && base != arg))
          return;
        base = arg;
      }
      if (!base)
        return;
      SmallVector<Attribute> others;
      for (auto [arg, scope] : scopes)
        if (arg != base)
          others.push_back(scope);
      op.setAliasScopes(ArrayAttr::get(ctx, {scopes[base]}));
      op.setNoAliasScopes(ArrayAttr::get(ctx, others));
    });
  }
};

} // namespace
