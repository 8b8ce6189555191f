//===- Passes.td - tad GPU passes --------------------------*- tablegen -*-===//
//
// Buffers and loops placed on the GPU, the outlined kernels merged into one
// module, and the CPU emulation of kernels used for testing.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_PASSES_GPU
#define TAD_PASSES_GPU

include "mlir/Pass/PassBase.td"

def TadParallelLoopsFirstPass : Pass<"tad-parallel-loops-first", "::mlir::func::FuncOp"> {
  let summary = "Interchange linalg ops so that parallel loops come first";
  let description = [{
    For the GPU pipeline, before `convert-linalg-to-parallel-loops`: every
    linalg op whose iterators are not all parallel loops followed by all
    reduction loops (a reduction over dimension 0, `sum_to_size`, a
    `linalg.reduce` along an outer dimension) is generalized and
    interchanged so that they are (the relative order within each kind is
    kept, so every output element is reduced in the same order as on the
    CPU). The parallel loops then become one `scf.parallel` with the
    reduction as a sequential loop inside each thread, instead of a
    sequential outer loop around a parallel one.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TadGpuPlacePass : Pass<"tad-gpu-place", "::mlir::func::FuncOp"> {
  let summary = "Put an exported function's buffers and loops on the GPU";
  let description = [{
    Runs on buffers, after `convert-linalg-to-parallel-loops`, on functions
    carrying a `tad.abi` signature (bare pointers: arguments, then
    results). Makes the function a host-side driver of GPU work:

      - arguments and results are device buffers already (the entry point
        stages host tensors in and out around the call, or passes device
        tensors through: `tad-export-abi{device=cuda}`); dynamic sizes come
        first, as host integers (`tad-bind-dynamic-sizes`);
      - run-time size checks (`tad-check-shapes`: an `scf.if` that calls a
        runtime `__tad_fail_*` function) and the sizes they compare move to
        the start of the function, so that a failing check ends the call on
        the host before any device buffer or kernel exists;
      - an `scf.for` whose body holds buffers, parallel loops or kernels and
        that carries only buffers, sizes and flags (the blocks of samples of
        `tad-split-dynamic-batch`, a differentiated loop's steps) stays on
        the host: its body is placed like the function's, launching its
        kernels every iteration; so does an `scf.if` that holds such work
        (a run-time choice between two schedules);
      - buffers that only host code reads and writes (buffer deallocation's
        arrays of pointers and ownership flags) stay in host memory;
      - `memref.alloc`/`alloca`/`dealloc` become `gpu.alloc`/`gpu.dealloc`,
        `memref.get_global` constants are copied to the device, contiguous
        `memref.copy` between whole buffers becomes `gpu.memcpy`;
      - each `scf.parallel` of the function or of a host loop is tiled
        (`tileParallelLoop`, guards instead of min/max bounds) so that
        `gpu-map-parallel-loops` maps tiles to blocks and tile elements to
        threads, innermost dimension first (coalesced accesses);
      - any other work at those levels that touches device memory
        (sequential loops of full reductions, scalar stores) is wrapped
        into a single-thread `gpu.launch`.

    Host code never dereferences a device buffer afterwards.
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"256",
           "Threads per block of a tiled parallel loop">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TadGpuMergeModulesPass : Pass<"tad-gpu-merge-modules", "::mlir::ModuleOp"> {
  let summary = "Merge the outlined gpu.modules into one (one PTX per program)";
  let description = [{
    After `gpu-kernel-outlining`, which creates one `gpu.module` per kernel,
    moves every kernel into a single `gpu.module @tad_kernels`, renamed after
    the module it came from (`f_vjp_kernel_3`), and updates the
    `gpu.launch_func` references. The program then has one PTX module,
    loaded once, and kernels have unique names for error messages.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TadGpuEmulatePass : Pass<"tad-gpu-emulate", "::mlir::func::FuncOp"> {
  let summary = "Run gpu.launch kernels and device buffers on the CPU (testing)";
  let description = [{
    A testing aid for machines without a GPU (`tadc --target=cuda
    --gpu-emulate`): after `convert-parallel-loops-to-gpu`, replaces each
    `gpu.launch` by sequential loops over its grid and block (block and
    thread ids become the induction variables) and `gpu.alloc`,
    `gpu.dealloc` and `gpu.memcpy` by their memref counterparts. The result
    runs the placement, tiling, mapping and guards of the GPU pipeline on
    the CPU, so their numerics can be checked; kernels without barriers or
    shared memory (all that tad generates so far) mean the same thing in any
    order.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // TAD_PASSES_GPU
