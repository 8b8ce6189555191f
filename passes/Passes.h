//===- Passes.h - every tad pass --------------------------------*- C++ -*-===//
//
// The pass declarations of every group (passes/README.md) and one entry
// point that registers them all, for tad-opt and `--pass-pipeline` strings.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_PASSES_H
#define TAD_PASSES_PASSES_H

#include "passes/ABI/Passes.h"
#include "passes/AD/Passes.h"
#include "passes/CPU/Passes.h"
#include "passes/Conversion/Passes.h"
#include "passes/GPU/Passes.h"

namespace mlir::tad {

/// Registers every tad pass.
inline void registerTadPasses() {
  registerTadADPasses();
  registerTadConversionPasses();
  registerTadCPUPasses();
  registerTadGPUPasses();
  registerTadABIPasses();
}

} // namespace mlir::tad

#endif // TAD_PASSES_PASSES_H
