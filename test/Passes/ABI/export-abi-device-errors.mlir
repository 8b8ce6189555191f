// RUN: tad-opt %s --tad-export-abi=device=cuda --split-input-file --verify-diagnostics
// RUN: not tad-opt %s --tad-export-abi=device=opencl 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: tad-export-abi: unknown device 'opencl'; expected cuda or emulated

// expected-error @below {{'__tad_cuda_enter' has type '!llvm.func<void ()>', expected '!llvm.func<i32 (ptr, ptr, ptr, ptr)>'}}
llvm.func @__tad_cuda_enter()

// -----

// expected-error @below {{symbol '__tad_check_device_call' is reserved for the tad runtime}}
llvm.mlir.global internal @__tad_check_device_call(0 : i32) : i32
