//===- TadMatmulOps.td - batched and vector products ------*- tablegen -*-===//
//
// bmm, baddbmm, dot and mv (mm and addmm are in TadOps.td; matmul and
// linear are composites, decomposed elsewhere). Included from TadOps.td;
// inference in TadMatmulOps.cpp, lowering in
// passes/Conversion/TadToLinalg/TadToLinalgMatmul2.cpp.
//
//===----------------------------------------------------------------------===//

def Tad_BmmOp : Tad_AtenOp<"bmm", "bmm(Tensor self, Tensor mat2) -> Tensor"> {
  let summary = "batched matrix product of [b, n, k] and [b, k, m]";
  let description = [{
    Example: `%r = tad.bmm %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>`
  }];
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$mat2);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $mat2 attr-dict `:` functional-type(operands, results)";
}

def Tad_BaddbmmOp : Tad_AtenOp<"baddbmm",
    "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"> {
  let summary = "beta * self + alpha * bmm(batch1, batch2), self broadcast to [b, n, m]";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$batch1,
                       Tad_FloatTensor:$batch2, Tad_AlphaAttr:$beta,
                       Tad_AlphaAttr:$alpha);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $batch1 `,` $batch2 attr-dict `:` functional-type(operands, results)";
}

def Tad_DotOp : Tad_AtenOp<"dot", "dot(Tensor self, Tensor tensor) -> Tensor"> {
  let summary = "inner product of two 1-D tensors of equal length, rank 0";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$tensor);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $tensor attr-dict `:` functional-type(operands, results)";
}

def Tad_MvOp : Tad_AtenOp<"mv", "mv(Tensor self, Tensor vec) -> Tensor"> {
  let summary = "matrix-vector product of [n, m] and [m]";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$vec);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $vec attr-dict `:` functional-type(operands, results)";
}
