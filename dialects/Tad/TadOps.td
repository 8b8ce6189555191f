//===- TadOps.td - tad dialect ops -------------------------*- tablegen -*-===//
//
// One op per ATen overload. Op and attribute names follow the schema.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_OPS
#define TAD_OPS

include "dialects/Tad/TadBase.td"

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

// Elementwise, one float tensor in, same type out.
class Tad_UnaryOp<string mnemonic, string schema, list<Trait> traits = []>
    : Tad_AtenOp<mnemonic, schema, !listconcat(traits,
        [AllTypesMatch<["self", "result"]>])> {
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

// Elementwise on two tensors with NumPy/ATen broadcasting.

// Elementwise with one tensor and an ATen Scalar attribute.
class Tad_ScalarBinaryOp<string mnemonic, string schema, dag extraArgs = (ins)>
    : Tad_AtenOp<mnemonic, schema, [AllTypesMatch<["self", "result"]>]> {
  let arguments = !con((ins Tad_FloatTensor:$self, Tad_ScalarAttr:$other), extraArgs);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` type($result)";
}

def Tad_AlphaAttr : DefaultValuedAttr<Tad_ScalarAttr, "1.0">;

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

def Tad_AddTensorOp : Tad_AtenOp<"add.Tensor",
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "self + alpha * other, with broadcasting";
  let description = [{
    Example: `%r = tad.add.Tensor %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>`
  }];
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other, Tad_AlphaAttr:$alpha);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_SubTensorOp : Tad_AtenOp<"sub.Tensor",
    "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "self - alpha * other, with broadcasting";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other, Tad_AlphaAttr:$alpha);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_MulTensorOp : Tad_AtenOp<"mul.Tensor",
    "mul.Tensor(Tensor self, Tensor other) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "self * other, with broadcasting";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_DivTensorOp : Tad_AtenOp<"div.Tensor",
    "div.Tensor(Tensor self, Tensor other) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "self / other, with broadcasting";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_AddScalarOp : Tad_ScalarBinaryOp<"add.Scalar",
    "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    (ins Tad_AlphaAttr:$alpha)> {
  let summary = "self + alpha * other for a scalar other";
}

def Tad_SubScalarOp : Tad_ScalarBinaryOp<"sub.Scalar",
    "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    (ins Tad_AlphaAttr:$alpha)> {
  let summary = "self - alpha * other for a scalar other";
}

def Tad_RsubScalarOp : Tad_ScalarBinaryOp<"rsub.Scalar",
    "rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    (ins Tad_AlphaAttr:$alpha)> {
  let summary = "other - alpha * self for a scalar other";
}

def Tad_MulScalarOp : Tad_ScalarBinaryOp<"mul.Scalar",
    "mul.Scalar(Tensor self, Scalar other) -> Tensor"> {
  let summary = "self * other for a scalar other";
}

def Tad_DivScalarOp : Tad_ScalarBinaryOp<"div.Scalar",
    "div.Scalar(Tensor self, Scalar other) -> Tensor"> {
  let summary = "self / other for a scalar other";
}

//===----------------------------------------------------------------------===//
// Elementwise math and activations
//===----------------------------------------------------------------------===//

def Tad_NegOp : Tad_UnaryOp<"neg", "neg(Tensor self) -> Tensor"> {
  let summary = "-self";
}
def Tad_ExpOp : Tad_UnaryOp<"exp", "exp(Tensor self) -> Tensor"> {
  let summary = "elementwise e^self";
}
def Tad_LogOp : Tad_UnaryOp<"log", "log(Tensor self) -> Tensor"> {
  let summary = "elementwise natural logarithm";
}
def Tad_TanhOp : Tad_UnaryOp<"tanh", "tanh(Tensor self) -> Tensor"> {
  let summary = "elementwise hyperbolic tangent";
}
def Tad_SigmoidOp : Tad_UnaryOp<"sigmoid", "sigmoid(Tensor self) -> Tensor"> {
  let summary = "elementwise 1 / (1 + e^-self)";
}
def Tad_ReluOp : Tad_UnaryOp<"relu", "relu(Tensor self) -> Tensor"> {
  let summary = "elementwise max(self, 0)";
}

// Backward ops that first-order rules emit; they have rules of their own so
// that derivatives compose (second order).
def Tad_ThresholdBackwardOp : Tad_AtenOp<"threshold_backward",
    "threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "grad_output where self > threshold, else 0";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self,
                       Tad_ScalarAttr:$threshold);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self `,` $threshold attr-dict `:` functional-type(operands, results)";
}

def Tad_TanhBackwardOp : Tad_AtenOp<"tanh_backward",
    "tanh_backward(Tensor grad_output, Tensor output) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "grad_output * (1 - output^2)";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$output);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}

def Tad_SigmoidBackwardOp : Tad_AtenOp<"sigmoid_backward",
    "sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "grad_output * output * (1 - output)";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$output);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Tad_MmOp : Tad_AtenOp<"mm", "mm(Tensor self, Tensor mat2) -> Tensor"> {
  let summary = "matrix product of [n, k] and [k, m]";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$mat2);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $mat2 attr-dict `:` functional-type(operands, results)";
}

def Tad_AddmmOp : Tad_AtenOp<"addmm",
    "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"> {
  let summary = "beta * self + alpha * (mat1 @ mat2), self broadcast to [n, m]";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$mat1,
                       Tad_FloatTensor:$mat2, Tad_AlphaAttr:$beta, Tad_AlphaAttr:$alpha);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $mat1 `,` $mat2 attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Tad_SumOp : Tad_AtenOp<"sum", "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor"> {
  let summary = "sum of all elements, as a rank-0 tensor";
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SumDimIntListOp : Tad_AtenOp<"sum.dim_IntList",
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {
  let summary = "sum over `dim` (all dims when absent or empty)";
  let arguments = (ins Tad_FloatTensor:$self, OptionalAttr<DenseI64ArrayAttr>:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MeanOp : Tad_AtenOp<"mean", "mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"> {
  let summary = "mean of all elements, as a rank-0 tensor";
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MeanDimOp : Tad_AtenOp<"mean.dim",
    "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {
  let summary = "mean over `dim` (all dims when absent or empty)";
  let arguments = (ins Tad_FloatTensor:$self, OptionalAttr<DenseI64ArrayAttr>:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SumToSizeOp : Tad_AtenOp<"sum_to_size",
    "sum_to_size(Tensor self, SymInt[] size) -> Tensor"> {
  let summary = "sum a broadcast tensor back to `size` (the inverse of expand)";
  let description = [{
    Sums over the leading dimensions that `size` lacks and over dimensions
    where `size` is 1. The reverse pass uses it to reduce gradients of
    broadcast operands.
  }];
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$size);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Tad_TOp : Tad_AtenOp<"t", "t(Tensor(a) self) -> Tensor(a)"> {
  let summary = "transpose of a tensor of rank <= 2";
  let description = [{
    Folds `t(t(x))` and `t` of a rank <= 1 tensor to `x`. Canonicalization
    rewrites `t(mm(a, b))` to `mm(t(b), t(a))` where `a` or `b` is itself a
    transpose (which then cancels): the VJP of `x @ t(W)` computes
    `grad_W = t(t(x) @ g)`, which becomes `t(g) @ x`, one transpose of the
    smaller operand instead of two.
  }];
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tad_TransposeIntOp : Tad_AtenOp<"transpose.int",
    "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"> {
  let summary = "swap dimensions dim0 and dim1";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim0, I64Attr:$dim1);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_ExpandOp : Tad_AtenOp<"expand",
    "expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)"> {
  let summary = "broadcast to `size` (-1 keeps a dimension)";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$size,
                       DefaultValuedAttr<BoolAttr, "false">:$implicit);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_ViewOp : Tad_AtenOp<"view", "view(Tensor(a) self, SymInt[] size) -> Tensor(a)"> {
  let summary = "same elements in row-major order, new shape (one -1 allowed)";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$size);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_ReshapeOp : Tad_AtenOp<"reshape", "reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)"> {
  let summary = "same elements in row-major order, new shape (one -1 allowed)";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$shape);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_UnsqueezeOp : Tad_AtenOp<"unsqueeze", "unsqueeze(Tensor(a) self, int dim) -> Tensor(a)"> {
  let summary = "insert a dimension of size 1 at `dim`";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SqueezeDimOp : Tad_AtenOp<"squeeze.dim", "squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"> {
  let summary = "remove dimension `dim` if its size is 1";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

def Tad_MseLossOp : Tad_AtenOp<"mse_loss",
    "mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor"> {
  let summary = "(self - target)^2, reduced: 0 none, 1 mean, 2 sum";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$target,
                       DefaultValuedAttr<I64Attr, "1">:$reduction);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target attr-dict `:` functional-type(operands, results)";
}

def Tad_MseLossBackwardOp : Tad_AtenOp<"mse_loss_backward",
    "mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor"> {
  let summary = "gradient of mse_loss with respect to self";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self,
                       Tad_FloatTensor:$target, I64Attr:$reduction);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self `,` $target attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

def Tad_ZerosLikeOp : Tad_AtenOp<"zeros_like",
    "zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "zeros with the type of self";
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

def Tad_FullLikeOp : Tad_AtenOp<"full_like",
    "full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "fill_value with the type of self";
  let arguments = (ins Tad_FloatTensor:$self, Tad_ScalarAttr:$fill_value);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $fill_value attr-dict `:` type($result)";
}

def Tad_ConstantOp : Tad_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "a constant tensor";
  let description = [{
    Not an ATen op: literal tensors in programs and in derivative formulas.
    Example: `%c = tad.constant dense<1.0> : tensor<2x3xf32>`
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

include "dialects/Tad/TadElementwiseOps.td"

include "dialects/Tad/TadReductionOps.td"
include "dialects/Tad/TadMatmulOps.td"
include "dialects/Tad/TadShapeOps.td"
include "dialects/Tad/TadIndexingOps.td"

include "dialects/Tad/TadNNOps.td"
include "dialects/Tad/TadCompositeOps.td"
include "dialects/Tad/TadLinearAlgebraOps.td"
include "dialects/Tad/TadCollectiveOps.td"

#endif // TAD_OPS
