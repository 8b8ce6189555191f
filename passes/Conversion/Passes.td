//===- Passes.td - tad conversion passes -------------------*- tablegen -*-===//
//
// The tad dialect to linalg, tensor, arith and math on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_PASSES_CONVERSION
#define TAD_PASSES_CONVERSION

include "mlir/Pass/PassBase.td"

def ConvertTadToLinalgPass : Pass<"tad-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower tad ops to linalg, tensor, arith and math on tensors";
  let options = [
    Option<"directConvolutions", "direct-convolutions", "bool",
           /*default=*/"false",
           "Lower 2-D convolutions with unit strides and dilations, one group "
           "and C*KH*KW <= 32 to linalg.conv_2d_nchw_fchw and their weight "
           "gradient to one generic (for tad-vectorize-convolutions) instead "
           "of im2col and matmuls; the input gradient keeps col2im">,
    Option<"runtimeCalls", "runtime-calls", "bool", /*default=*/"true",
           "Lower the linear-algebra ops to calls of the CPU runtime's "
           "kernels; when false (the GPU target) they are an error">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect", "::mlir::func::FuncDialect",
  ];
}

#endif // TAD_PASSES_CONVERSION
