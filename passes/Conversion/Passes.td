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
    Option<"im2colLimitMiB", "im2col-limit-mib", "int64_t",
           /*default=*/"256",
           "With direct-convolutions, a 2-D convolution with unit strides "
           "and dilations whose im2col matrix would exceed this many MiB is "
           "computed as implicit GEMM (no im2col matrix); 0 takes implicit "
           "GEMM wherever it applies. One with bf16 operands for the bf16 "
           "kernels takes it below the limit too where padding adds at most "
           "a quarter to its positions">,
    Option<"runtimeCalls", "runtime-calls", "bool", /*default=*/"true",
           "Lower the linear-algebra ops to calls of the CPU runtime's "
           "kernels; when false (the GPU target) they are an error">,
    Option<"serialScatters", "serial-scatters", "bool", /*default=*/"true",
           "Lower embedding_dense_backward as an scf.for over the indices "
           "that adds each gradient row to its table row in place "
           "(O(indices x width)); when false (the GPU target, which runs no "
           "loops) as one generic over table rows x indices">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect", "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TadWidenLowPrecisionPass
    : Pass<"tad-widen-low-precision", "::mlir::ModuleOp"> {
  let summary = "Compute the arithmetic of bf16 and f16 tensors in f32";
  let description = [{
    Every tad op that computes with a bf16 or f16 operand gets f32 operands
    (`tad._to_copy`) and f32 results rounded back to the narrow type after
    it, the numbers ATen computes on CPU (f32 "opmath", one rounding per
    op). Ops that only move or select elements keep the narrow type. The
    tad-to-linalg lowering folds the widening of a product's operands into
    its linalg contraction (bf16 operands, f32 accumulator).
  }];
  let dependentDialects = ["::mlir::tad::TadDialect"];
}

def TadSplitDynamicBatchPass
    : Pass<"tad-split-dynamic-batch", "::mlir::ModuleOp"> {
  let summary = "Convolutions and pooling over a dynamic batch as loops "
                "over static blocks of samples";
  let description = [{
    A convolution, its backward op, a pooling op (and its backward), or a
    gather along another dimension than the batch, whose only dynamic size
    is the batch (dimension 0 of its batched operands and results) becomes
    an `scf.for` over blocks of `block` samples, `scf.for`s over blocks of
    a quarter as many on the rest (while more than one), and an `scf.for`
    over the rest one by one; each step is the
    same op with static types on `tensor.extract_slice`s of the batch. A
    result over the batch is assembled with `tensor.insert_slice`; a static
    result (the weight and bias gradients of `convolution_backward`) is
    the sum of the steps' (`tad.add.Tensor`, from zeros). Their lowerings,
    which need static shapes, then apply (docs/dynamic-shapes.md).

    The ops after such an op that read its results over the batch join its
    loops while they can run on a block of samples: further convolutions and
    pooling ops, and elementwise ops (activations and their backward ops,
    arithmetic with broadcasting) whose operands are over the batch or
    static. A convolution, its ReLU and the pooling after it are then one
    loop whose steps fuse as in the static module, and no result is
    assembled over the batch only to be sliced by the next loop. An op that
    reads a static result of the group (a weight gradient: a partial sum
    inside the loop) or cannot run on a block ends the group; a
    `tensor.dim` of a result over the batch (a run-time check between two
    ops) reads the batch size from the group's input instead and stays
    before the loops.
  }];
  let options = [
    Option<"block", "block", "int64_t", /*default=*/"64",
           "Samples per largest block">,
  ];
  let dependentDialects = [
    "::mlir::tad::TadDialect", "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
  ];
}

#endif // TAD_PASSES_CONVERSION
