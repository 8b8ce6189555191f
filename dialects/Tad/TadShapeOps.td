//===- TadShapeOps.td - views, copies, joins and splits ---*- tablegen -*-===//
//
// _unsafe_view, _shape_as_tensor, expand_as, permute, squeeze, slice and select with their backward
// ops, clone, _to_copy, cat, stack, split, split_with_sizes, unbind, repeat,
// constant_pad_nd, flip and tril. Included from TadOps.td; inference in
// TadShapeOps.cpp, lowering in
// passes/Conversion/TadToLinalg/TadToLinalgViewsAndSlices.cpp.
//
//===----------------------------------------------------------------------===//

def Tad_UnsafeViewOp : Tad_AtenOp<"_unsafe_view",
    "_unsafe_view(Tensor self, SymInt[] size) -> Tensor"> {
  let summary = "view that is not an alias (same as view under value semantics)";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$size);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_ShapeAsTensorOp : Tad_AtenOp<"_shape_as_tensor",
    "_shape_as_tensor(Tensor self) -> Tensor"> {
  let summary = "the sizes of self as a 1-D i64 tensor";
  let description = [{
    How a derivative formula reads a dynamic size at run time (a mean's
    element count over a dynamic batch); folds to a constant where the
    sizes are static.
    Example: `%s = tad._shape_as_tensor %x : (tensor<?x3xf32>) -> tensor<2xi64>`
  }];
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_ExpandAsOp : Tad_AtenOp<"expand_as",
    "expand_as(Tensor(a) self, Tensor other) -> Tensor(a)"> {
  let summary = "self broadcast to the shape of other";
  let description = [{
    expand with the sizes taken from `other`, also where they are dynamic
    (the gradient of a full reduction over a dynamic batch). Only other's
    shape is read.
  }];
  let arguments = (ins Tad_AnyTensor:$self, Tad_AnyTensor:$other);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self `,` $other attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tad_PermuteOp : Tad_AtenOp<"permute", "permute(Tensor(a) self, int[] dims) -> Tensor(a)"> {
  let summary = "reorder dimensions: result dim i is self dim dims[i]";
  let description = [{
    Example: `%r = tad.permute %x {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>`
  }];
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$dims);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SqueezeOp : Tad_AtenOp<"squeeze", "squeeze(Tensor(a) self) -> Tensor(a)"> {
  let summary = "remove every dimension of size 1";
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SliceTensorOp : Tad_AtenOp<"slice.Tensor",
    "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)"> {
  let summary = "elements start, start+step, ... before end along `dim`";
  let description = [{
    ATen's bounds: missing start/end are 0 and the size, negative ones count
    from the end, and both are clamped to the dimension.
  }];
  let arguments = (ins Tad_AnyTensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim,
                       OptionalAttr<I64Attr>:$start, OptionalAttr<I64Attr>:$end,
                       DefaultValuedAttr<I64Attr, "1">:$step);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SliceBackwardOp : Tad_AtenOp<"slice_backward",
    "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) -> Tensor"> {
  let summary = "zeros of `input_sizes` with grad_output written at the slice";
  let arguments = (ins Tad_FloatTensor:$grad_output, DenseI64ArrayAttr:$input_sizes,
                       I64Attr:$dim, I64Attr:$start, I64Attr:$end, I64Attr:$step);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` functional-type(operands, results)";
}

def Tad_SelectIntOp : Tad_AtenOp<"select.int",
    "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)"> {
  let summary = "the slice at `index` along `dim`, without that dimension";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim, I64Attr:$index);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SelectBackwardOp : Tad_AtenOp<"select_backward",
    "select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor"> {
  let summary = "zeros of `input_sizes` with grad_output written at `index` along `dim`";
  let arguments = (ins Tad_FloatTensor:$grad_output, DenseI64ArrayAttr:$input_sizes,
                       I64Attr:$dim, I64Attr:$index);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` functional-type(operands, results)";
}

def Tad_CloneOp : Tad_AtenOp<"clone",
    "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "a copy of self (the identity under value semantics)";
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

def Tad_DetachOp : Tad_AtenOp<"detach",
    "detach(Tensor(a) self) -> Tensor(a)",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "self, through which no derivative flows (a stop-gradient)";
  let description = [{
    The value of `self`; its derivative is zero (no gradient reaches
    `self`, the tangent of the result is zero). Lowered to `self` after
    differentiation.
  }];
  let arguments = (ins Tad_AnyTensor:$self);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
}

def Tad_ToCopyOp : Tad_AtenOp<"_to_copy",
    "_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor"> {
  let summary = "a copy of self, converted to element type `dtype` when given";
  let description = [{
    ATen's `ScalarType` is modeled as a type attribute holding the element
    type (`{dtype = f64}`); layout, device and memory format are not
    modeled. Floats convert by extension/truncation, integers to floats as
    signed values (i1 as 0/1), floats to integers by truncation toward 0.
    Example: `%r = tad._to_copy %x {dtype = f64} : (tensor<3xf32>) -> tensor<3xf64>`
  }];
  let arguments = (ins Tad_AnyTensor:$self, OptionalAttr<TypeAttr>:$dtype);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_CatOp : Tad_AtenOp<"cat", "cat(Tensor[] tensors, int dim=0) -> Tensor"> {
  let summary = "concatenation along `dim` (at least one tensor)";
  let description = [{
    Example: `%r = tad.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>`
  }];
  let arguments = (ins Variadic<Tad_AnyTensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}

def Tad_StackOp : Tad_AtenOp<"stack", "stack(Tensor[] tensors, int dim=0) -> Tensor"> {
  let summary = "tensors of one shape stacked along a new dimension `dim`";
  let arguments = (ins Variadic<Tad_AnyTensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}

def Tad_SplitTensorOp : Tad_AtenOp<"split.Tensor",
    "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]"> {
  let summary = "pieces of `split_size` along `dim` (the last one may be shorter)";
  let description = [{
    Example: `%r:2 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<1x4xf32>)`
  }];
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$split_size,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tad_AnyTensor>:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_SplitWithSizesOp : Tad_AtenOp<"split_with_sizes",
    "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]"> {
  let summary = "consecutive pieces of the given sizes along `dim`";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$split_sizes,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tad_AnyTensor>:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_UnbindIntOp : Tad_AtenOp<"unbind.int",
    "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"> {
  let summary = "every slice along `dim`, without that dimension";
  let arguments = (ins Tad_AnyTensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tad_AnyTensor>:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_RepeatOp : Tad_AtenOp<"repeat", "repeat(Tensor self, SymInt[] repeats) -> Tensor"> {
  let summary = "tile self `repeats` times per dimension (leading ones added)";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$repeats);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_ConstantPadNdOp : Tad_AtenOp<"constant_pad_nd",
    "constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor"> {
  let summary = "pad with `value`: (low, high) pairs from the last dimension; negative crops";
  let arguments = (ins Tad_FloatTensor:$self, DenseI64ArrayAttr:$pad,
                       DefaultValuedAttr<Tad_ScalarAttr, "0.0">:$value);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

def Tad_FlipOp : Tad_AtenOp<"flip", "flip(Tensor self, int[] dims) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "reverse the order of elements along `dims`";
  let arguments = (ins Tad_AnyTensor:$self, DenseI64ArrayAttr:$dims);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tad_TrilOp : Tad_AtenOp<"tril", "tril(Tensor self, int diagonal=0) -> Tensor",
    [AllTypesMatch<["self", "result"]>]> {
  let summary = "zero the elements above `diagonal` of the last two dimensions";
  let arguments = (ins Tad_FloatTensor:$self, DefaultValuedAttr<I64Attr, "0">:$diagonal);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($result)";
  let hasVerifier = 1;
}
