//===- TadCompositeOps.td - composite ops (decomposed before AD) -*- tablegen -*-===//
//
// Ops that PyTorch implements as CompositeImplicitAutograd: they have no
// derivative rule and no lowering; tad-decompose replaces them by their
// formulas in rules/decompositions.yaml before differentiation (tadc runs
// it first). Included at the end of TadOps.td; inference in
// TadCompositeOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPOSITE_OPS
#define TAD_COMPOSITE_OPS

def Tad_SoftmaxIntOp : Tad_AtenOp<"softmax.int",
    "softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "softmax over `dim` (composite: _softmax)";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

def Tad_LogSoftmaxIntOp : Tad_AtenOp<"log_softmax.int",
    "log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "log_softmax over `dim` (composite: _log_softmax)";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

def Tad_LayerNormOp : Tad_AtenOp<"layer_norm",
    "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
    [AttrSizedOperandSegments]> {
  let summary = "layer normalization (composite: native_layer_norm)";
  let arguments = (ins Tad_FloatTensor:$input, DenseI64ArrayAttr:$normalized_shape,
                       Optional<Tad_FloatTensor>:$weight, Optional<Tad_FloatTensor>:$bias,
                       DefaultValuedAttr<F64Attr, "1e-05">:$eps,
                       DefaultValuedAttr<BoolAttr, "true">:$cudnn_enable);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_BatchNormOp : Tad_AtenOp<"batch_norm",
    "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
    [AttrSizedOperandSegments]> {
  let summary = "batch normalization (composite: native_batch_norm)";
  let arguments = (ins Tad_FloatTensor:$input, Optional<Tad_FloatTensor>:$weight,
                       Optional<Tad_FloatTensor>:$bias, Optional<Tad_FloatTensor>:$running_mean,
                       Optional<Tad_FloatTensor>:$running_var, BoolAttr:$training,
                       F64Attr:$momentum, F64Attr:$eps, BoolAttr:$cudnn_enabled);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? (`running_mean` $running_mean^)? (`running_var` $running_var^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_GroupNormOp : Tad_AtenOp<"group_norm",
    "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
    [AttrSizedOperandSegments]> {
  let summary = "group normalization (composite: native_group_norm)";
  let arguments = (ins Tad_FloatTensor:$input, I64Attr:$num_groups,
                       Optional<Tad_FloatTensor>:$weight, Optional<Tad_FloatTensor>:$bias,
                       DefaultValuedAttr<F64Attr, "1e-05">:$eps,
                       DefaultValuedAttr<BoolAttr, "true">:$cudnn_enabled);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_LinearOp : Tad_AtenOp<"linear",
    "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"> {
  let summary = "input @ weight^T + bias over the last dimension (composite: mm / addmm)";
  let arguments = (ins Tad_FloatTensor:$input, Tad_FloatTensor:$weight,
                       Optional<Tad_FloatTensor>:$bias);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input `,` $weight (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_CrossEntropyLossOp : Tad_AtenOp<"cross_entropy_loss",
    "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor"> {
  let summary = "nll_loss of log_softmax over the class dim (composite); class-index targets";
  let arguments = (ins Tad_FloatTensor:$self, TensorOf<[I64]>:$target,
                       Optional<Tad_FloatTensor>:$weight,
                       DefaultValuedAttr<I64Attr, "1">:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
                       DefaultValuedAttr<F64Attr, "0.0">:$label_smoothing);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target (`weight` $weight^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_NllLossOp : Tad_AtenOp<"nll_loss",
    "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor"> {
  let summary = "negative log likelihood (composite: nll_loss_forward / nll_loss2d_forward)";
  let arguments = (ins Tad_FloatTensor:$self, TensorOf<[I64]>:$target,
                       Optional<Tad_FloatTensor>:$weight,
                       DefaultValuedAttr<I64Attr, "1">:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target (`weight` $weight^)? attr-dict `:` functional-type(operands, results)";
}

class Tad_ConvNdOp<string name, string n>
    : Tad_AtenOp<name,
        name # "(Tensor input, Tensor weight, Tensor? bias=None, SymInt[" # n # "] stride=1, SymInt[" # n # "] padding=0, SymInt[" # n # "] dilation=1, SymInt groups=1) -> Tensor"> {
  let summary = n # "-d convolution (composite: convolution)";
  let arguments = (ins Tad_FloatTensor:$input, Tad_FloatTensor:$weight,
                       Optional<Tad_FloatTensor>:$bias,
                       OptionalAttr<DenseI64ArrayAttr>:$stride,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input `,` $weight (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_Conv1dOp : Tad_ConvNdOp<"conv1d", "1">;
def Tad_Conv2dOp : Tad_ConvNdOp<"conv2d", "2">;

def Tad_MaxPool2dOp : Tad_AtenOp<"max_pool2d",
    "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor"> {
  let summary = "2-D max pooling (composite: max_pool2d_with_indices)";
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$kernel_size,
                       OptionalAttr<DenseI64ArrayAttr>:$stride,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_AdaptiveAvgPool2dCompositeOp : Tad_AtenOp<"adaptive_avg_pool2d",
    "adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"> {
  let summary = "adaptive average pooling (composite: _adaptive_avg_pool2d)";
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$output_size);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_FlattenUsingIntsOp : Tad_AtenOp<"flatten.using_ints",
    "flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"> {
  let summary = "merge dims start_dim..end_dim into one (composite: reshape)";
  let arguments = (ins Tad_AnyTensor:$self, DefaultValuedAttr<I64Attr, "0">:$start_dim,
                       DefaultValuedAttr<I64Attr, "-1">:$end_dim);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_NarrowOp : Tad_AtenOp<"narrow",
    "narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)"> {
  let summary = "`length` elements from `start` along `dim` (composite: slice.Tensor)";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim, I64Attr:$start, I64Attr:$length);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_ChunkOp : Tad_AtenOp<"chunk",
    "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"> {
  let summary = "split into `chunks` pieces of ceil(size / chunks) (composite: split.Tensor)";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$chunks,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tad_AnyTensor>:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MatmulOp : Tad_AtenOp<"matmul", "matmul(Tensor self, Tensor other) -> Tensor"> {
  let summary = "NumPy matmul: dot, mv, mm, and batched products with broadcast batch dims (composite)";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$other);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
}

def Tad_DropoutOp : Tad_AtenOp<"dropout",
    "dropout(Tensor input, float p, bool train) -> Tensor",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "identity unless training (composite); training dropout needs native_dropout.key";
  let description = [{
    tad's dropout takes its randomness from an explicit key
    (`native_dropout.key`); this schema has none, so its decomposition is
    the identity for `train = false` or `p = 0` and an error otherwise.
  }];
  let arguments = (ins Tad_FloatTensor:$input, F64Attr:$p, BoolAttr:$train);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Tad_GluOp : Tad_AtenOp<"glu", "glu(Tensor self, int dim=-1) -> Tensor"> {
  let summary = "first half of `dim` times sigmoid of the second half (composite: slice, sigmoid)";
  let arguments = (ins Tad_FloatTensor:$self, DefaultValuedAttr<I64Attr, "-1">:$dim);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_LogSigmoidForwardOp : Tad_AtenOp<"log_sigmoid_forward",
    "log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)",
    [AllTypesMatch<["self", "output", "buffer"]>]> {
  let summary = "log(sigmoid(self)) as min(self, 0) - log1p(exp(-|self|)), and exp(-|self|) (composite)";
  let description = [{
    `buffer` is what ATen's CPU kernel saves for the backward; tad
    differentiates the decomposition instead.
  }];
  let arguments = (ins Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$buffer);
  let assemblyFormat = "$self attr-dict `:` type($self)";
}

#endif // TAD_COMPOSITE_OPS
