//===- TadReductionOps.td - reductions beyond sum/mean ----*- tablegen -*-===//
//
// Extremum reductions (amax, amin, max, min, max.dim, min.dim), variance
// and standard deviation, logsumexp, vector norms, cumsum, and
// value_selecting_reduction_backward, the op that the rules of
// max.dim/min.dim emit. Included from TadOps.td; inference in
// TadReductionOps.cpp, lowering in
// passes/Conversion/TadToLinalg/TadToLinalgExtremaAndStatistics.cpp.
//
//===----------------------------------------------------------------------===//

// i64 tensors: indices produced by max.dim/min.dim and read by the
// indexing ops.
def Tad_IndicesTensor : RankedTensorOf<[I64]>;

def Tad_AmaxOp : Tad_AtenOp<"amax",
    "amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"> {
  let summary = "maximum over `dim` (all dims when empty); NaN propagates";
  let description = [{
    Example: `%r = tad.amax %x {dim = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>`
  }];
  let arguments = (ins Tad_FloatTensor:$self,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_AminOp : Tad_AtenOp<"amin",
    "amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"> {
  let summary = "minimum over `dim` (all dims when empty); NaN propagates";
  let arguments = (ins Tad_FloatTensor:$self,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MaxOp : Tad_AtenOp<"max", "max(Tensor self) -> Tensor"> {
  let summary = "maximum of all elements, as a rank-0 tensor";
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MinOp : Tad_AtenOp<"min", "min(Tensor self) -> Tensor"> {
  let summary = "minimum of all elements, as a rank-0 tensor";
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MaxDimOp : Tad_AtenOp<"max.dim",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"> {
  let summary = "maximum along `dim` and its index (the first on ties)";
  let description = [{
    `indices` is an i64 tensor: the position of the first maximal element
    along `dim` (of the first NaN when there is one, whose value is then
    the result). Example:
    `%v, %i = tad.max.dim %x {dim = 1 : i64} : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>)`
  }];
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$values, Tad_IndicesTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MinDimOp : Tad_AtenOp<"min.dim",
    "min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"> {
  let summary = "minimum along `dim` and its index (the first on ties)";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$values, Tad_IndicesTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_ValueSelectingReductionBackwardOp : Tad_AtenOp<"value_selecting_reduction_backward",
    "value_selecting_reduction_backward(Tensor grad, int dim, Tensor indices, SymInt[] sizes, bool keepdim) -> Tensor"> {
  let summary = "grad scattered into zeros of `sizes` at `indices` along `dim`";
  let description = [{
    The gradient of max.dim/min.dim: element `p` of the result is the
    element of `grad` above it when `p[dim]` is the selected index, else 0.
  }];
  let arguments = (ins Tad_FloatTensor:$grad, I64Attr:$dim,
                       Tad_IndicesTensor:$indices, DenseI64ArrayAttr:$sizes,
                       BoolAttr:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad `,` $indices attr-dict `:` functional-type(operands, results)";
}

class Tad_VarianceOp<string mnemonic, string schema>
    : Tad_AtenOp<mnemonic, schema> {
  let arguments = (ins Tad_FloatTensor:$self,
                       OptionalAttr<DenseI64ArrayAttr>:$dim,
                       OptionalAttr<Tad_ScalarAttr>:$correction,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_VarCorrectionOp : Tad_VarianceOp<"var.correction",
    "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor"> {
  let summary = "sum((x - mean)^2) / (N - correction) over `dim` (correction 1 when absent)";
  let results = (outs Tad_FloatTensor:$result);
}

def Tad_StdCorrectionOp : Tad_VarianceOp<"std.correction",
    "std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor"> {
  let summary = "square root of var.correction";
  let results = (outs Tad_FloatTensor:$result);
}

def Tad_VarMeanCorrectionOp : Tad_VarianceOp<"var_mean.correction",
    "var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)"> {
  let summary = "var.correction and mean.dim of the same reduction";
  let results = (outs Tad_FloatTensor:$var, Tad_FloatTensor:$mean);
}

def Tad_LogsumexpOp : Tad_AtenOp<"logsumexp",
    "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor"> {
  let summary = "log(sum(exp(self))) over `dim`, computed stably";
  let description = [{
    The maximum along `dim` is subtracted before exponentiating (0 is used
    where it is infinite, as in ATen). An empty `dim` reduces all dims.
  }];
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_LinalgVectorNormOp : Tad_AtenOp<"linalg_vector_norm",
    "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {
  let summary = "vector p-norm over `dim` (all dims when absent)";
  let description = [{
    `ord` = inf is max |x|, -inf min |x|, 0 the count of non-zeros, any
    other p (sum |x|^p)^(1/p).
  }];
  let arguments = (ins Tad_FloatTensor:$self,
                       DefaultValuedAttr<Tad_ScalarAttr, "2.0">:$ord,
                       OptionalAttr<DenseI64ArrayAttr>:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_CumsumOp : Tad_AtenOp<"cumsum",
    "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "inclusive prefix sum along `dim`";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}
