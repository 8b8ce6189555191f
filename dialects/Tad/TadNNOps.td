//===- TadNNOps.td - softmax, normalization, conv, pooling, losses -*- tablegen -*-===//
//
// Neural-network ops (softmax, normalization, convolution, pooling,
// losses) and the backward ops their rules emit that cannot be written as
// formulas over other ops (scatters: convolution, pooling and nll_loss
// gradients). The softmax and normalization backward passes are helper
// formulas (rules/helpers.yaml) instead, so they are differentiable again.
// Included at the end of TadOps.td; inference in TadNNOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_NN_OPS
#define TAD_NN_OPS

def Tad_NNReductionAttr : DefaultValuedAttr<I64Attr, "1">;

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

def Tad_SoftmaxOp : Tad_AtenOp<"_softmax",
    "_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "exp(self) / sum(exp(self), dim), computed with the max subtracted";
  let description = [{
    `half_to_float` must be false (tad has no f16). Example:
    `%p = tad._softmax %x {dim = 1 : i64, half_to_float = false} : tensor<4x10xf32>`
  }];
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim, BoolAttr:$half_to_float);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tad_LogSoftmaxOp : Tad_AtenOp<"_log_softmax",
    "_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "self - logsumexp(self, dim), computed with the max subtracted";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim, BoolAttr:$half_to_float);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Tad_NativeLayerNormOp : Tad_AtenOp<"native_layer_norm",
    "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
    [AttrSizedOperandSegments]> {
  let summary = "layer normalization over the trailing `normalized_shape` dims";
  let description = [{
    Results: the normalized output, the mean and the reciprocal standard
    deviation (biased variance), both of shape `input.shape[:axis] + [1] *
    len(normalized_shape)`. `weight` and `bias` have `normalized_shape`.
  }];
  let arguments = (ins Tad_FloatTensor:$input, DenseI64ArrayAttr:$normalized_shape,
                       Optional<Tad_FloatTensor>:$weight, Optional<Tad_FloatTensor>:$bias,
                       F64Attr:$eps);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$mean, Tad_FloatTensor:$rstd);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_NativeBatchNormOp : Tad_AtenOp<"native_batch_norm",
    "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    [AttrSizedOperandSegments]> {
  let summary = "batch normalization over all dims but 1 (batch statistics when training)";
  let description = [{
    Results: output, save_mean and save_invstd (shape [C] when training,
    [0] otherwise, as ATen). Value semantics: the running statistics are
    read (eval) but never updated, so `momentum` has no effect.
  }];
  let arguments = (ins Tad_FloatTensor:$input, Optional<Tad_FloatTensor>:$weight,
                       Optional<Tad_FloatTensor>:$bias, Optional<Tad_FloatTensor>:$running_mean,
                       Optional<Tad_FloatTensor>:$running_var, BoolAttr:$training,
                       F64Attr:$momentum, F64Attr:$eps);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$save_mean, Tad_FloatTensor:$save_invstd);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? (`running_mean` $running_mean^)? (`running_var` $running_var^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_NativeBatchNormLegitOp : Tad_AtenOp<"_native_batch_norm_legit",
    "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    [AttrSizedOperandSegments]> {
  let summary = "batch normalization with running statistics (not updated: value semantics)";
  let arguments = (ins Tad_FloatTensor:$input, Optional<Tad_FloatTensor>:$weight,
                       Optional<Tad_FloatTensor>:$bias, Tad_FloatTensor:$running_mean,
                       Tad_FloatTensor:$running_var, BoolAttr:$training,
                       F64Attr:$momentum, F64Attr:$eps);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$save_mean, Tad_FloatTensor:$save_invstd);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? `running` $running_mean `,` $running_var attr-dict `:` functional-type(operands, results)";
}

def Tad_NativeBatchNormLegitNoTrainingOp : Tad_AtenOp<"_native_batch_norm_legit_no_training",
    "_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    [AttrSizedOperandSegments]> {
  let summary = "batch normalization with the running statistics (eval mode)";
  let arguments = (ins Tad_FloatTensor:$input, Optional<Tad_FloatTensor>:$weight,
                       Optional<Tad_FloatTensor>:$bias, Tad_FloatTensor:$running_mean,
                       Tad_FloatTensor:$running_var, F64Attr:$momentum, F64Attr:$eps);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$save_mean, Tad_FloatTensor:$save_invstd);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? `running` $running_mean `,` $running_var attr-dict `:` functional-type(operands, results)";
}

def Tad_NativeGroupNormOp : Tad_AtenOp<"native_group_norm",
    "native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)",
    [AttrSizedOperandSegments]> {
  let summary = "group normalization: statistics per (sample, group of C/group channels)";
  let description = [{
    `input` is [N, C, *] with HxW the product of the trailing sizes; mean and
    rstd are [N, group].
  }];
  let arguments = (ins Tad_FloatTensor:$input, Optional<Tad_FloatTensor>:$weight,
                       Optional<Tad_FloatTensor>:$bias, I64Attr:$N, I64Attr:$C,
                       I64Attr:$HxW, I64Attr:$group, F64Attr:$eps);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$mean, Tad_FloatTensor:$rstd);
  let assemblyFormat = "$input (`weight` $weight^)? (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

def Tad_ConvolutionOp : Tad_AtenOp<"convolution",
    "convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, SymInt[] padding, int[] dilation, bool transposed, SymInt[] output_padding, int groups) -> Tensor"> {
  let summary = "N-d cross-correlation [N, C, *] x [F, C/groups, *k] (+ bias [F])";
  let description = [{
    `stride`, `padding` and `dilation` have one entry per spatial dimension
    or a single one for all. Only `transposed = false` is supported.
  }];
  let arguments = (ins Tad_FloatTensor:$input, Tad_FloatTensor:$weight,
                       Optional<Tad_FloatTensor>:$bias, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$padding, DenseI64ArrayAttr:$dilation,
                       BoolAttr:$transposed, DenseI64ArrayAttr:$output_padding,
                       I64Attr:$groups);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$input `,` $weight (`bias` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_ConvolutionBackwardOp : Tad_AtenOp<"convolution_backward",
    "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, int[] stride, SymInt[] padding, int[] dilation, bool transposed, SymInt[] output_padding, int groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"> {
  let summary = "gradients of convolution for input, weight and bias";
  let description = [{
    Results have the shapes of input, weight and [F]; a result whose
    `output_mask` entry is false is zeros.
  }];
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$input,
                       Tad_FloatTensor:$weight, OptionalAttr<DenseI64ArrayAttr>:$bias_sizes,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, BoolAttr:$transposed,
                       DenseI64ArrayAttr:$output_padding, I64Attr:$groups,
                       DenseBoolArrayAttr:$output_mask);
  let results = (outs Tad_FloatTensor:$grad_input, Tad_FloatTensor:$grad_weight,
                      Tad_FloatTensor:$grad_bias);
  let assemblyFormat = "$grad_output `,` $input `,` $weight attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Tad_MaxPool2dWithIndicesOp : Tad_AtenOp<"max_pool2d_with_indices",
    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"> {
  let summary = "2-D max pooling over [N, C, H, W] or [C, H, W], with flat H*W indices (i64)";
  let description = [{
    Ties: the first maximum in window order (row-major over the kernel)
    wins, as in ATen's CPU kernel (`val > max || isnan(val)`); a NaN wins.
    An empty `stride` means `kernel_size`.
  }];
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$kernel_size,
                       OptionalAttr<DenseI64ArrayAttr>:$stride,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let results = (outs Tad_FloatTensor:$result, TensorOf<[I64]>:$indices);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_MaxPool2dWithIndicesBackwardOp : Tad_AtenOp<"max_pool2d_with_indices_backward",
    "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor"> {
  let summary = "scatter-add of grad_output to the positions in indices";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self,
                       DenseI64ArrayAttr:$kernel_size, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$padding, DenseI64ArrayAttr:$dilation,
                       BoolAttr:$ceil_mode, TensorOf<[I64]>:$indices);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Tad_AvgPool2dOp : Tad_AtenOp<"avg_pool2d",
    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"> {
  let summary = "2-D average pooling over [N, C, H, W] or [C, H, W]";
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$kernel_size,
                       OptionalAttr<DenseI64ArrayAttr>:$stride,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "true">:$count_include_pad,
                       OptionalAttr<I64Attr>:$divisor_override);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_AvgPool2dBackwardOp : Tad_AtenOp<"avg_pool2d_backward",
    "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor"> {
  let summary = "gradient of avg_pool2d: each window's share spread back over it";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self,
                       DenseI64ArrayAttr:$kernel_size, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$padding, BoolAttr:$ceil_mode,
                       BoolAttr:$count_include_pad, OptionalAttr<I64Attr>:$divisor_override);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self attr-dict `:` functional-type(operands, results)";
}

def Tad_AdaptiveAvgPool2dOp : Tad_AtenOp<"_adaptive_avg_pool2d",
    "_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"> {
  let summary = "average over the adaptive windows [floor(i*H/O), ceil((i+1)*H/O))";
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$output_size);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_AdaptiveAvgPool2dBackwardOp : Tad_AtenOp<"_adaptive_avg_pool2d_backward",
    "_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor"> {
  let summary = "gradient of _adaptive_avg_pool2d (output size from grad_output)";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

class Tad_NllLossForwardBase<string name, string summaryText>
    : Tad_AtenOp<name,
        name # "(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)"> {
  let summary = summaryText;
  let arguments = (ins Tad_FloatTensor:$self, TensorOf<[I64]>:$target,
                       Optional<Tad_FloatTensor>:$weight, I64Attr:$reduction,
                       I64Attr:$ignore_index);
  let results = (outs Tad_FloatTensor:$output, Tad_FloatTensor:$total_weight);
  let assemblyFormat = "$self `,` $target (`weight` $weight^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_NllLossForwardOp : Tad_NllLossForwardBase<"nll_loss_forward",
    "-self[n, target[n]] * weight[target[n]] over [N, C] or [C] log-probabilities">;
def Tad_NllLoss2dForwardOp : Tad_NllLossForwardBase<"nll_loss2d_forward",
    "nll_loss over [N, C, H, W] log-probabilities and [N, H, W] targets">;

class Tad_NllLossBackwardBase<string name>
    : Tad_AtenOp<name,
        name # "(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index, Tensor total_weight) -> Tensor"> {
  let summary = "gradient of nll_loss: -weight[c] * grad where c is the target";
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_FloatTensor:$self,
                       TensorOf<[I64]>:$target, Optional<Tad_FloatTensor>:$weight,
                       I64Attr:$reduction, I64Attr:$ignore_index,
                       Tad_FloatTensor:$total_weight);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $self `,` $target (`weight` $weight^)? `total_weight` $total_weight attr-dict `:` functional-type(operands, results)";
}

def Tad_NllLossBackwardOp : Tad_NllLossBackwardBase<"nll_loss_backward">;
def Tad_NllLoss2dBackwardOp : Tad_NllLossBackwardBase<"nll_loss2d_backward">;

def Tad_BinaryCrossEntropyOp : Tad_AtenOp<"binary_cross_entropy",
    "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean) -> Tensor"> {
  let summary = "-weight * (target * log(self) + (1 - target) * log(1 - self)), logs clamped at -100";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$target,
                       Optional<Tad_FloatTensor>:$weight, Tad_NNReductionAttr:$reduction);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target (`weight` $weight^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_BinaryCrossEntropyWithLogitsOp : Tad_AtenOp<"binary_cross_entropy_with_logits",
    "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=Mean) -> Tensor",
    [AttrSizedOperandSegments]> {
  let summary = "binary cross entropy of sigmoid(self), computed stably; pos_weight scales positives";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$target,
                       Optional<Tad_FloatTensor>:$weight, Optional<Tad_FloatTensor>:$pos_weight,
                       Tad_NNReductionAttr:$reduction);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target (`weight` $weight^)? (`pos_weight` $pos_weight^)? attr-dict `:` functional-type(operands, results)";
}

def Tad_SmoothL1LossOp : Tad_AtenOp<"smooth_l1_loss",
    "smooth_l1_loss(Tensor self, Tensor target, int reduction=Mean, float beta=1.0) -> Tensor"> {
  let summary = "0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = self - target)";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$target,
                       Tad_NNReductionAttr:$reduction, DefaultValuedAttr<F64Attr, "1.0">:$beta);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target attr-dict `:` functional-type(operands, results)";
}

def Tad_HuberLossOp : Tad_AtenOp<"huber_loss",
    "huber_loss(Tensor self, Tensor target, int reduction=Mean, float delta=1.0) -> Tensor"> {
  let summary = "0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (d = self - target)";
  let arguments = (ins Tad_FloatTensor:$self, Tad_FloatTensor:$target,
                       Tad_NNReductionAttr:$reduction, DefaultValuedAttr<F64Attr, "1.0">:$delta);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $target attr-dict `:` functional-type(operands, results)";
}

#endif // TAD_NN_OPS
