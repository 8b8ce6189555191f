//===- TadIndexingOps.td - gather, scatter and indexing ---*- tablegen -*-===//
//
// index_select, gather, scatter (src, value, add), index_add, advanced
// indexing (index.Tensor, index_put), embedding and
// embedding_dense_backward. Index operands are i64 tensors and never
// differentiable. Included from TadOps.td; inference in TadIndexingOps.cpp,
// lowering in passes/Conversion/TadToLinalg/TadToLinalgIndexing.cpp.
//
// Out-of-range indices are undefined behaviour (no runtime checks).
//
//===----------------------------------------------------------------------===//

def Tad_IndexSelectOp : Tad_AtenOp<"index_select",
    "index_select(Tensor self, int dim, Tensor index) -> Tensor"> {
  let summary = "the slices of self at the positions `index` (1-D) along `dim`";
  let description = [{
    Example: `%r = tad.index_select %x, %i {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>`
  }];
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim, Tad_IndicesTensor:$index);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}

def Tad_GatherOp : Tad_AtenOp<"gather",
    "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor"> {
  let summary = "result[p] = self[p with p[dim] = index[p]]; the shape of index";
  let arguments = (ins Tad_AnyTensor:$self, I64Attr:$dim, Tad_IndicesTensor:$index,
                       DefaultValuedAttr<BoolAttr, "false">:$sparse_grad);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}

class Tad_ScatterOp<string mnemonic, string schema, string what>
    : Tad_AtenOp<mnemonic, schema> {
  let summary = "self with " # what;
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim,
                       Tad_IndicesTensor:$index, Tad_FloatTensor:$src);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}

def Tad_ScatterSrcOp : Tad_ScatterOp<"scatter.src",
    "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    "self[q with q[dim] = index[q]] = src[q] for q over index (last write wins)">;

def Tad_ScatterAddOp : Tad_ScatterOp<"scatter_add",
    "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    "src[q] added at q with q[dim] = index[q] for q over index">;

def Tad_ScatterValueOp : Tad_AtenOp<"scatter.value",
    "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor"> {
  let summary = "self with `value` written at q with q[dim] = index[q] for q over index";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim,
                       Tad_IndicesTensor:$index, Tad_ScalarAttr:$value);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $index `,` $value attr-dict `:` functional-type(operands, results)";
}

def Tad_IndexAddOp : Tad_AtenOp<"index_add",
    "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor"> {
  let summary = "self with alpha * source's slice i added at index[i] along `dim`";
  let arguments = (ins Tad_FloatTensor:$self, I64Attr:$dim,
                       Tad_IndicesTensor:$index, Tad_FloatTensor:$source,
                       Tad_AlphaAttr:$alpha);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` $index `,` $source attr-dict `:` functional-type(operands, results)";
}

def Tad_IndexTensorOp : Tad_AtenOp<"index.Tensor",
    "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor"> {
  let summary = "advanced indexing self[i0, i1, ...] with index tensors for the leading dims";
  let description = [{
    tad supports one i64 index tensor for each of the first k dimensions
    (no `None` entries): they broadcast together to a shape B, and the
    result is B followed by the remaining dimensions of self. Negative
    indices count from the end. Example:
    `%r = tad.index.Tensor %x, %i : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>`
  }];
  let arguments = (ins Tad_AnyTensor:$self, Variadic<Tad_IndicesTensor>:$indices);
  let results = (outs Tad_AnyTensor:$result);
  let assemblyFormat = "$self `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Tad_IndexPutOp : Tad_AtenOp<"index_put",
    "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor"> {
  let summary = "self with values written (or added) at self[i0, i1, ...]";
  let description = [{
    The indices are as for index.Tensor; `values` broadcasts to the shape of
    the indexed result. Without `accumulate`, the last write to a repeated
    position wins.
  }];
  let arguments = (ins Tad_FloatTensor:$self, Variadic<Tad_IndicesTensor>:$indices,
                       Tad_FloatTensor:$values,
                       DefaultValuedAttr<BoolAttr, "false">:$accumulate);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$self `,` `[` $indices `]` `,` $values attr-dict `:` functional-type(operands, results)";
}

def Tad_EmbeddingOp : Tad_AtenOp<"embedding",
    "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor"> {
  let summary = "rows of the 2-D weight at `indices`: shape indices.shape + [D]";
  let arguments = (ins Tad_FloatTensor:$weight, Tad_IndicesTensor:$indices,
                       DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
                       DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq,
                       DefaultValuedAttr<BoolAttr, "false">:$sparse);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$weight `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Tad_EmbeddingDenseBackwardOp : Tad_AtenOp<"embedding_dense_backward",
    "embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt padding_idx, bool scale_grad_by_freq) -> Tensor"> {
  let summary = "rows of grad_output summed into [num_weights, D] by index";
  let description = [{
    Row `padding_idx` of the result is 0. `scale_grad_by_freq` is not
    supported (an error).
  }];
  let arguments = (ins Tad_FloatTensor:$grad_output, Tad_IndicesTensor:$indices,
                       I64Attr:$num_weights, I64Attr:$padding_idx,
                       BoolAttr:$scale_grad_by_freq);
  let results = (outs Tad_FloatTensor:$result);
  let assemblyFormat = "$grad_output `,` $indices attr-dict `:` functional-type(operands, results)";
}
