//===- TadElementwiseOps.td - elementwise math, activations, ... -*- tablegen -*-===//
//
// The elementwise op families: unary math, activations and the
// backward ops their rules emit, binary/ternary ops with broadcasting,
// comparisons (i1 results) and dropout. Included at the end of TadOps.td;
// result-type inference is in TadElementwiseOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_ELEMENTWISE_OPS
#define TAD_ELEMENTWISE_OPS

include "dialects/Tad/TadBase.td"

//===----------------------------------------------------------------------===//
// Types and op classes
//===----------------------------------------------------------------------===//

// Boolean masks and comparison results (ATen's `bool` dtype).
def Tad_BoolTensor : RankedTensorOf<[I1]>;
// Operands of comparisons: floats and integers.
def Tad_NumericTensor : RankedTensorOf<[F32, F64, BF16, F16, I64, I32]>;

// Elementwise on one float tensor with attributes; same type out.
class Tad_UnaryAttrOp<string mnemonic, string schema, dag attrs>
    : Tad_AtenOp<mnemonic, schema, [AllTypesMatch<["self", "result"]>]> {
  let arguments = !con((ins Tad_FloatTensor:$self), attrs);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

// Elementwise on float tensors with broadcasting (inference in C++).
class Tad_BroadcastOp<string mnemonic, string schema, dag args>
    : Tad_AtenOp<mnemonic, schema, [Tad_BroadcastingOperands]> {
  let arguments = args;
  let results = (outs Tad_FloatTensor:$result);
}

// `grad_output` and one tensor, broadcast, plus attributes: the backward
// ops of activations.
class Tad_ActivationBackwardOp<string mnemonic, string schema, dag attrs = (ins)>
    : Tad_BroadcastOp<mnemonic, schema,
        !con((ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self), attrs)> {
  let assemblyFormat = "$grad_output `,` $self attr-dict `:` functional-type(operands, results)";
}

// Comparison of two tensors with broadcasting; i1 result.
class Tad_CompareTensorOp<string mnemonic, string schema, string what>
    : Tad_AtenOp<mnemonic, schema, [Tad_BroadcastingOperands]> {
  let summary = "elementwise self " # what # " other, with broadcasting (i1 result)";
  let arguments = (ins Tad_NumericTensor:$self, Tad_NumericTensor:$other);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

// Comparison with an ATen Scalar; i1 result of self's shape.
class Tad_CompareScalarOp<string mnemonic, string schema, string what>
    : Tad_AtenOp<mnemonic, schema> {
  let summary = "elementwise self " # what # " other for a scalar other (i1 result)";
  let arguments = (ins Tad_NumericTensor:$self, Tad_ScalarAttr:$other);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// A. Elementwise math
//===----------------------------------------------------------------------===//

def Tad_Log1pOp : Tad_UnaryOp<"log1p", "log1p(Tensor self) -> Tensor"> {
  let summary = "elementwise log(1 + self), accurate near 0";
}
def Tad_SqrtOp : Tad_UnaryOp<"sqrt", "sqrt(Tensor self) -> Tensor"> {
  let summary = "elementwise square root";
}
def Tad_RsqrtOp : Tad_UnaryOp<"rsqrt", "rsqrt(Tensor self) -> Tensor"> {
  let summary = "elementwise 1 / sqrt(self)";
}
def Tad_ReciprocalOp : Tad_UnaryOp<"reciprocal", "reciprocal(Tensor self) -> Tensor"> {
  let summary = "elementwise 1 / self";
}
def Tad_AbsOp : Tad_UnaryOp<"abs", "abs(Tensor self) -> Tensor"> {
  let summary = "elementwise |self| (gradient sign(self): 0 at 0)";
}
def Tad_ErfOp : Tad_UnaryOp<"erf", "erf(Tensor self) -> Tensor"> {
  let summary = "elementwise error function";
}
def Tad_ErfcOp : Tad_UnaryOp<"erfc", "erfc(Tensor self) -> Tensor"> {
  let summary = "elementwise complementary error function 1 - erf(self), accurate for large self";
}
def Tad_Expm1Op : Tad_UnaryOp<"expm1", "expm1(Tensor self) -> Tensor"> {
  let summary = "elementwise exp(self) - 1, accurate near 0";
}
def Tad_AtanOp : Tad_UnaryOp<"atan", "atan(Tensor self) -> Tensor"> {
  let summary = "elementwise inverse tangent";
}
def Tad_AsinOp : Tad_UnaryOp<"asin", "asin(Tensor self) -> Tensor"> {
  let summary = "elementwise inverse sine (NaN outside [-1, 1])";
}
def Tad_AcosOp : Tad_UnaryOp<"acos", "acos(Tensor self) -> Tensor"> {
  let summary = "elementwise inverse cosine (NaN outside [-1, 1])";
}
def Tad_LgammaOp : Tad_UnaryOp<"lgamma", "lgamma(Tensor self) -> Tensor"> {
  let summary = "elementwise log |Gamma(self)| (inf at 0 and the negative integers)";
}
def Tad_DigammaOp : Tad_UnaryOp<"digamma", "digamma(Tensor self) -> Tensor"> {
  let summary = "elementwise d/dx log Gamma(x) at self (NaN at 0 and the negative integers, as ATen)";
}
def Tad_PolygammaOp : Tad_AtenOp<"polygamma",
    "polygamma(int n, Tensor self) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "elementwise n-th derivative of digamma at self (n >= 0)";
  let arguments = (ins I64Attr:$n, Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}
def Tad_SinOp : Tad_UnaryOp<"sin", "sin(Tensor self) -> Tensor"> {
  let summary = "elementwise sine";
}
def Tad_CosOp : Tad_UnaryOp<"cos", "cos(Tensor self) -> Tensor"> {
  let summary = "elementwise cosine";
}
def Tad_SignOp : Tad_UnaryOp<"sign", "sign(Tensor self) -> Tensor"> {
  let summary = "elementwise -1, 0 or 1 (0 for 0 and for NaN, as ATen); zero gradient";
}
def Tad_FloorOp : Tad_UnaryOp<"floor", "floor(Tensor self) -> Tensor"> {
  let summary = "elementwise round toward -inf; zero gradient";
}

def Tad_PowTensorScalarOp : Tad_AtenOp<"pow.Tensor_Scalar",
    "pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "elementwise self ^ exponent for a scalar exponent";
  let description = [{
    Example: `%r = tad.pow.Tensor_Scalar %x, 2.0 : tensor<4xf32>`
  }];
  let arguments = (ins Tad_FloatTensor:$self, Tad_ScalarAttr:$exponent);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $exponent attr-dict `:` type($result)";
}

def Tad_PowTensorTensorOp : Tad_BroadcastOp<"pow.Tensor_Tensor",
    "pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$exponent)> {
  let summary = "elementwise self ^ exponent, with broadcasting";
  let assemblyFormat = "$self `,` $exponent attr-dict `:` functional-type(operands, results)";
}

def Tad_Atan2Op : Tad_BroadcastOp<"atan2",
    "atan2(Tensor self, Tensor other) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other)> {
  let summary = "elementwise angle of the point (other, self), in [-pi, pi], with broadcasting";
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// B. Activations
//===----------------------------------------------------------------------===//

def Tad_ThresholdOp : Tad_AtenOp<"threshold",
    "threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "self where self > threshold, else value";
  let arguments = (ins Tad_FloatTensor:$self, Tad_ScalarAttr:$threshold,
                       Tad_ScalarAttr:$value);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $threshold `,` $value attr-dict `:` type($result)";
}

def Tad_GeluOp : Tad_UnaryAttrOp<"gelu",
    "gelu(Tensor self, *, str approximate='none') -> Tensor",
    (ins DefaultValuedStrAttr<StrAttr, "none">:$approximate)> {
  let summary = "x * Phi(x); approximate = 'tanh' uses the tanh formula";
  let description = [{
    Example: `%r = tad.gelu %x {approximate = "tanh"} : tensor<4xf32>`
  }];
  let hasVerifier = 1;
}

def Tad_SiluOp : Tad_UnaryOp<"silu", "silu(Tensor self) -> Tensor"> {
  let summary = "elementwise self * sigmoid(self)";
}
def Tad_MishOp : Tad_UnaryOp<"mish", "mish(Tensor self) -> Tensor"> {
  let summary = "elementwise self * tanh(softplus(self))";
}
def Tad_HardswishOp : Tad_UnaryOp<"hardswish", "hardswish(Tensor self) -> Tensor"> {
  let summary = "elementwise self * clamp(self + 3, 0, 6) / 6";
}
def Tad_HardsigmoidOp : Tad_UnaryOp<"hardsigmoid", "hardsigmoid(Tensor self) -> Tensor"> {
  let summary = "elementwise clamp(self + 3, 0, 6) / 6";
}

def Tad_LeakyReluOp : Tad_UnaryAttrOp<"leaky_relu",
    "leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
    (ins DefaultValuedAttr<Tad_ScalarAttr, "0.01">:$negative_slope)> {
  let summary = "self where self > 0, else negative_slope * self";
}

def Tad_EluOp : Tad_UnaryAttrOp<"elu",
    "elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor",
    (ins Tad_AlphaAttr:$alpha, Tad_AlphaAttr:$scale, Tad_AlphaAttr:$input_scale)> {
  let summary = "scale * (self > 0 ? self : alpha * (exp(self * input_scale) - 1))";
}

def Tad_SoftplusOp : Tad_UnaryAttrOp<"softplus",
    "softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor",
    (ins Tad_AlphaAttr:$beta, DefaultValuedAttr<Tad_ScalarAttr, "20.0">:$threshold)> {
  let summary = "log(1 + exp(beta * self)) / beta; self where beta * self > threshold";
}

def Tad_HardtanhOp : Tad_UnaryAttrOp<"hardtanh",
    "hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
    (ins DefaultValuedAttr<Tad_ScalarAttr, "-1.0">:$min_val,
         DefaultValuedAttr<Tad_ScalarAttr, "1.0">:$max_val)> {
  let summary = "self clamped to [min_val, max_val] (relu6 = hardtanh(0, 6))";
}

def Tad_PreluKernelOp : Tad_BroadcastOp<"_prelu_kernel",
    "_prelu_kernel(Tensor self, Tensor weight) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$weight)> {
  let summary = "self where self > 0, else weight * self, with broadcasting";
  let assemblyFormat = "$self `,` $weight attr-dict `:` functional-type(operands, results)";
}

// Backward ops that the activation rules emit; each has a rule of its own.
def Tad_GeluBackwardOp : Tad_ActivationBackwardOp<"gelu_backward",
    "gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor",
    (ins DefaultValuedStrAttr<StrAttr, "none">:$approximate)> {
  let summary = "grad_output * gelu'(self)";
  let hasVerifier = 1;
}

def Tad_LeakyReluBackwardOp : Tad_ActivationBackwardOp<"leaky_relu_backward",
    "leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) -> Tensor",
    (ins Tad_ScalarAttr:$negative_slope, BoolAttr:$self_is_result)> {
  let summary = "grad_output where self > 0, else grad_output * negative_slope";
}

def Tad_SoftplusBackwardOp : Tad_ActivationBackwardOp<"softplus_backward",
    "softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor",
    (ins Tad_ScalarAttr:$beta, Tad_ScalarAttr:$threshold)> {
  let summary = "grad_output * sigmoid(beta * self); grad_output where beta * self > threshold";
}

def Tad_HardtanhBackwardOp : Tad_ActivationBackwardOp<"hardtanh_backward",
    "hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor",
    (ins Tad_ScalarAttr:$min_val, Tad_ScalarAttr:$max_val)> {
  let summary = "grad_output where min_val < self < max_val, else 0";
}

def Tad_HardswishBackwardOp : Tad_ActivationBackwardOp<"hardswish_backward",
    "hardswish_backward(Tensor grad_output, Tensor self) -> Tensor"> {
  let summary = "grad_output * hardswish'(self)";
}

def Tad_HardsigmoidBackwardOp : Tad_ActivationBackwardOp<"hardsigmoid_backward",
    "hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor"> {
  let summary = "grad_output / 6 where -3 < self < 3, else 0";
}

def Tad_EluBackwardOp : Tad_BroadcastOp<"elu_backward",
    "elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, Tensor self_or_result) -> Tensor",
    (ins Tad_FloatTensor:$grad_output, Tad_ScalarAttr:$alpha, Tad_ScalarAttr:$scale,
         Tad_ScalarAttr:$input_scale, BoolAttr:$is_result,
         Tad_FloatTensor:$self_or_result)> {
  let summary = "grad_output * elu'(x), from x or (is_result) from elu(x)";
  let assemblyFormat = "$grad_output `,` $self_or_result attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// C. Binary and ternary ops
//===----------------------------------------------------------------------===//

def Tad_MaximumOp : Tad_BroadcastOp<"maximum",
    "maximum(Tensor self, Tensor other) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other)> {
  let summary = "elementwise max (NaN propagates; ties split the gradient)";
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_MinimumOp : Tad_BroadcastOp<"minimum",
    "minimum(Tensor self, Tensor other) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other)> {
  let summary = "elementwise min (NaN propagates; ties split the gradient)";
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_LerpTensorOp : Tad_BroadcastOp<"lerp.Tensor",
    "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$end, Tad_FloatTensor:$weight)> {
  let summary = "self + weight * (end - self), with broadcasting";
  let assemblyFormat = "$self `,` $end `,` $weight attr-dict `:` functional-type(operands, results)";
}

def Tad_AddcmulOp : Tad_BroadcastOp<"addcmul",
    "addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$tensor1, Tad_FloatTensor:$tensor2,
         Tad_AlphaAttr:$value)> {
  let summary = "self + value * tensor1 * tensor2, with broadcasting";
  let assemblyFormat = "$self `,` $tensor1 `,` $tensor2 attr-dict `:` functional-type(operands, results)";
}

def Tad_AddcdivOp : Tad_BroadcastOp<"addcdiv",
    "addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_FloatTensor:$tensor1, Tad_FloatTensor:$tensor2,
         Tad_AlphaAttr:$value)> {
  let summary = "self + value * tensor1 / tensor2, with broadcasting";
  let assemblyFormat = "$self `,` $tensor1 `,` $tensor2 attr-dict `:` functional-type(operands, results)";
}

def Tad_ClampOp : Tad_UnaryAttrOp<"clamp",
    "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
    (ins OptionalAttr<Tad_ScalarAttr>:$min, OptionalAttr<Tad_ScalarAttr>:$max)> {
  let summary = "min(max(self, min), max); at least one bound";
  let description = [{
    Example: `%r = tad.clamp %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<4xf32>`.
    NaN propagates; when min > max every element is max (as in ATen).
  }];
  let hasVerifier = 1;
}

def Tad_ClampTensorOp : Tad_AtenOp<"clamp.Tensor",
    "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
    [AttrSizedOperandSegments, Tad_BroadcastingOperands]> {
  let summary = "min(max(self, min), max) with tensor bounds, broadcast; at least one bound";
  let description = [{
    Example: `%r = tad.clamp.Tensor %x min %lo max %hi : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>`.
    NaN in `self` propagates; where min > max the element is max (as in ATen).
  }];
  let arguments = (ins Tad_FloatTensor:$self, Optional<Tad_FloatTensor>:$min,
                       Optional<Tad_FloatTensor>:$max);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tad_ClampMinOp : Tad_AtenOp<"clamp_min",
    "clamp_min(Tensor self, Scalar min) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "elementwise max(self, min) (NaN propagates)";
  let arguments = (ins Tad_FloatTensor:$self, Tad_ScalarAttr:$min);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $min attr-dict `:` type($result)";
}

def Tad_ClampMaxOp : Tad_AtenOp<"clamp_max",
    "clamp_max(Tensor self, Scalar max) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "elementwise min(self, max) (NaN propagates)";
  let arguments = (ins Tad_FloatTensor:$self, Tad_ScalarAttr:$max);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $max attr-dict `:` type($result)";
}

def Tad_WhereSelfOp : Tad_AtenOp<"where.self",
    "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "self where condition, else other; all three broadcast";
  let description = [{
    `self` and `other` have one element type, float or integer (index
    arithmetic, as in grid_sample's decomposition); only float values
    carry gradients.
  }];
  let arguments = (ins Tad_BoolTensor:$condition, Tad_NumericTensor:$self,
                       Tad_NumericTensor:$other);
  let results = (outs Tad_NumericTensor:$result);
  let assemblyFormat = "$condition `,` $self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_WhereScalarOtherOp : Tad_BroadcastOp<"where.ScalarOther",
    "where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
    (ins Tad_BoolTensor:$condition, Tad_FloatTensor:$self, Tad_ScalarAttr:$other)> {
  let summary = "self where condition, else the scalar other";
  let assemblyFormat = "$condition `,` $self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_WhereScalarSelfOp : Tad_BroadcastOp<"where.ScalarSelf",
    "where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
    (ins Tad_BoolTensor:$condition, Tad_ScalarAttr:$self, Tad_FloatTensor:$other)> {
  let summary = "the scalar self where condition, else other";
  let assemblyFormat = "$condition `,` $self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_MaskedFillScalarOp : Tad_BroadcastOp<"masked_fill.Scalar",
    "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_BoolTensor:$mask, Tad_ScalarAttr:$value)> {
  let summary = "value where mask, else self; self and mask broadcast";
  let assemblyFormat = "$self `,` $mask `,` $value attr-dict `:` functional-type(operands, results)";
}

def Tad_MaskedFillTensorOp : Tad_BroadcastOp<"masked_fill.Tensor",
    "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
    (ins Tad_FloatTensor:$self, Tad_BoolTensor:$mask, Tad_FloatTensor:$value)> {
  let summary = "the 0-d value where mask, else self; self and mask broadcast";
  let assemblyFormat = "$self `,` $mask `,` $value attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// D. Comparisons and logical ops (not differentiable, i1 results)
//===----------------------------------------------------------------------===//

def Tad_EqTensorOp : Tad_CompareTensorOp<"eq.Tensor", "eq.Tensor(Tensor self, Tensor other) -> Tensor", "==">;
def Tad_NeTensorOp : Tad_CompareTensorOp<"ne.Tensor", "ne.Tensor(Tensor self, Tensor other) -> Tensor", "!=">;
def Tad_LtTensorOp : Tad_CompareTensorOp<"lt.Tensor", "lt.Tensor(Tensor self, Tensor other) -> Tensor", "<">;
def Tad_LeTensorOp : Tad_CompareTensorOp<"le.Tensor", "le.Tensor(Tensor self, Tensor other) -> Tensor", "<=">;
def Tad_GtTensorOp : Tad_CompareTensorOp<"gt.Tensor", "gt.Tensor(Tensor self, Tensor other) -> Tensor", ">">;
def Tad_GeTensorOp : Tad_CompareTensorOp<"ge.Tensor", "ge.Tensor(Tensor self, Tensor other) -> Tensor", ">=">;

def Tad_EqScalarOp : Tad_CompareScalarOp<"eq.Scalar", "eq.Scalar(Tensor self, Scalar other) -> Tensor", "==">;
def Tad_NeScalarOp : Tad_CompareScalarOp<"ne.Scalar", "ne.Scalar(Tensor self, Scalar other) -> Tensor", "!=">;
def Tad_LtScalarOp : Tad_CompareScalarOp<"lt.Scalar", "lt.Scalar(Tensor self, Scalar other) -> Tensor", "<">;
def Tad_LeScalarOp : Tad_CompareScalarOp<"le.Scalar", "le.Scalar(Tensor self, Scalar other) -> Tensor", "<=">;
def Tad_GtScalarOp : Tad_CompareScalarOp<"gt.Scalar", "gt.Scalar(Tensor self, Scalar other) -> Tensor", ">">;
def Tad_GeScalarOp : Tad_CompareScalarOp<"ge.Scalar", "ge.Scalar(Tensor self, Scalar other) -> Tensor", ">=">;

def Tad_IsnanOp : Tad_AtenOp<"isnan", "isnan(Tensor self) -> Tensor"> {
  let summary = "elementwise self != self (i1 result)";
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_LogicalNotOp : Tad_AtenOp<"logical_not", "logical_not(Tensor self) -> Tensor"> {
  let summary = "elementwise self == 0 (i1 result)";
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_LogicalAndOp : Tad_AtenOp<"logical_and",
    "logical_and(Tensor self, Tensor other) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "elementwise self != 0 and other != 0, with broadcasting (i1 result)";
  let arguments = (ins Tad_AnyTensor:$self, Tad_AnyTensor:$other);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_LogicalOrOp : Tad_AtenOp<"logical_or",
    "logical_or(Tensor self, Tensor other) -> Tensor",
    [Tad_BroadcastingOperands]> {
  let summary = "elementwise self != 0 or other != 0, with broadcasting (i1 result)";
  let arguments = (ins Tad_AnyTensor:$self, Tad_AnyTensor:$other);
  let results = (outs Tad_BoolTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// L. Dropout
//===----------------------------------------------------------------------===//

def Tad_NativeDropoutKeyOp : Tad_AtenOp<"native_dropout.key",
    "native_dropout.key(Tensor input, Tensor key, float p, bool? train) -> (Tensor out, Tensor mask)"> {
  let summary = "dropout with an explicit RNG key: (input * mask / (1 - p), mask)";
  let description = [{
    ATen's `native_dropout(Tensor input, float p, bool? train)` draws from a
    global generator; a compiled function has none, so tad's overload takes
    the key as an operand (a 0-d i64 tensor) and is a pure function of it:
    the same key gives the same mask, and the VJP reuses the forward's mask.
    The returns are named (`out`, `mask`) so that the rule can name the
    gradient of the only differentiable one (`grad_out`). Element `i` is kept when a Philox-4x32-10 uniform drawn for
    counter `i` under the key is below `1 - p` (docs/dropout.md). With
    `train = false` the input passes through with an all-true mask; an absent
    `train` means training, as in ATen.

    Example: `%y, %mask = tad.native_dropout.key %x, %key {p = 0.1 : f64} : (tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)`
  }];
  let arguments = (ins Tad_FloatTensor:$input, 0DTensorOf<[I64]>:$key, F64Attr:$p,
                       OptionalAttr<BoolAttr>:$train);
  let results = (outs Tad_FloatTensor:$out, Tad_BoolTensor:$mask);
  let assemblyFormat = "$input `,` $key attr-dict `:` functional-type(operands, results)";
}

def Tad_NativeDropoutBackwardOp : Tad_AtenOp<"native_dropout_backward",
    "native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor"> {
  let summary = "grad_output * mask * scale, with broadcasting";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_BoolTensor:$mask, F64Attr:$scale);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $mask attr-dict `:` functional-type(operands, results)";
}

#endif // TAD_ELEMENTWISE_OPS
