//===- CheckSites.h - where a run-time check failed ---------------*- C++ -*-===//
//
// The run-time checks of tad-check-indices and tad-check-shapes name the op
// that failed in their message ("tad.embedding at model.mlir:3:8"): each
// check site is a NUL-terminated description in a constant global that the
// generated code passes to the runtime's __tad_fail_* function.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_ABI_CHECKSITES_H
#define TAD_PASSES_ABI_CHECKSITES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tad {

/// Bytes of a site's description; one size for all, so that every call of a
/// __tad_fail_* function has the same type. Longer descriptions keep their
/// end (the location).
inline constexpr int64_t kCheckSiteBytes = 96;

/// "tad.embedding at file:line:col", NUL-padded to kCheckSiteBytes.
std::string describeCheckSite(Operation *op);

/// A private constant global `memref<kCheckSiteBytes x i8>` holding the
/// description of `op`, named uniquely after `name` in `symbols`.
memref::GlobalOp createCheckSite(ModuleOp module, SymbolTable &symbols,
                                 Operation *op, StringRef name);

/// The same for a description other than an op's (`text`, cut to fit).
memref::GlobalOp createCheckSite(ModuleOp module, SymbolTable &symbols,
                                 Location loc, StringRef text, StringRef name);

/// Whether `op` is a run-time check: an scf.if without results or else
/// branch whose branch only calls a runtime `__tad_fail_*` function (which
/// does not return) with constants and the description of its site.
bool isRunTimeCheck(scf::IfOp op);

/// Declares the private function `name` (no results) unless `module` has it.
void declareFailFunction(ModuleOp module, StringRef name, TypeRange inputs);

} // namespace mlir::tad

#endif // TAD_PASSES_ABI_CHECKSITES_H
