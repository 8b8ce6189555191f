//===- Passes.h - tad CPU schedule passes -----------------------*- C++ -*-===//
#ifndef TAD_PASSES_CPU_PASSES_H
#define TAD_PASSES_CPU_PASSES_H

#include "dialects/Tad/TadDialect.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tad {

#define GEN_PASS_DECL
#include "passes/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/CPU/Passes.h.inc"

} // namespace mlir::tad

#endif // TAD_PASSES_CPU_PASSES_H
