//===- HeaderGen.h - C header of a compiled module ---------------*- C++
//-*-===//
//
// `tadc --emit=header` writes a C header declaring the module's entry points
// (runtime/include/tad/runtime.h), with each function's signature (dtypes
// and shapes of its arguments and results) as a comment. The header stops
// the C compiler with an #error when the tad/runtime.h it includes is of
// another ABI version than the module's.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_HEADERGEN_H
#define TAD_COMPILER_HEADERGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tad {

/// Writes the header of `module`, whose exported functions carry `tad.abi`
/// signatures (after tad-record-abi). `name` (e.g. the output file's stem)
/// names the include guard.
LogicalResult emitCHeader(ModuleOp module, StringRef name,
                          llvm::raw_ostream &os);

} // namespace mlir::tad

#endif // TAD_COMPILER_HEADERGEN_H
