//===- GpuMatmul.h - shared-memory tiled matmul kernels ----------*- C++ -*-===//
//
// `tad-gpu-tile-matmul` (GpuMatmul.cpp): static f32/f64 linalg.matmul and
// linalg.batch_matmul on buffers to tiled shared-memory GPU kernels
// (`gpu.launch` with workgroup memory and barriers), or, with `emulate`, to
// the same kernels written as CPU loops (phases between barriers as loops
// over the threads). Used by `tadc --target=cuda --gpu-kernels=tiled`.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_PASSES_GPU_GPUMATMUL_H
#define TAD_PASSES_GPU_GPUMATMUL_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tad {

std::unique_ptr<Pass> createTadGpuTileMatmulPass(bool emulate);

} // namespace mlir::tad

#endif // TAD_PASSES_GPU_GPUMATMUL_H
