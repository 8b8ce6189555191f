//===- Passes.td - tad C ABI passes ------------------------*- tablegen -*-===//
//
// The tensor signature of each exported function, recorded before
// bufferization, and the C ABI entry points built from it on the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TAD_PASSES_ABI
#define TAD_PASSES_ABI

include "mlir/Pass/PassBase.td"

def TadRecordABIPass : Pass<"tad-record-abi", "::mlir::ModuleOp"> {
  let summary = "Record the tensor signature of each exported function (tad.abi)";
  let description = [{
    Runs on linalg on tensors, before bufferization. Every public
    `func.func` with a body is exported through the tad C ABI; this pass
    checks that its signature fits the ABI (a C identifier as name, ranked
    tensors of static shape with element type f32, f64, i64, i32 or i1) and
    records it as `tad.abi = {args = [...], results = [...]}`, which the
    lowering to LLVM carries along and `tad-export-abi` consumes. Arguments
    are caller-owned and read-only at the C boundary, so it also marks them
    `bufferization.writable = false`: bufferization then never writes into
    an argument's buffer.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def TadCheckIndicesPass : Pass<"tad-check-indices", "::mlir::ModuleOp"> {
  let summary = "Check at run time that index operands are in range";
  let description = [{
    Runs on tad ops, before their lowering (CPU modules). An index that is
    out of range makes the lowered gather read outside its tensor (garbage,
    or a crash) and the lowered scatter drop the value; ATen raises an
    error instead. Before each op that reads or writes at computed positions
    (`index_select`, `gather`, `embedding`, `scatter*`, `index_add`,
    `index.Tensor`, `index_put`, `embedding_dense_backward`, `nll_loss*`
    targets other than `ignore_index`), this pass computes the least and
    the greatest index (one reduction over the index tensor) and, if either
    lies outside the dimension it indexes (`[0, size)`, or `[-size, size)`
    where the op wraps negative indices), calls the runtime's
    `__tad_fail_index`, which ends the call: the entry point returns
    `TAD_ERROR_INDEX` with a message naming the function, the index, the
    range and the op with its location. Likewise before each
    `tensor.extract_slice` and `tensor.insert_slice` whose offsets, sizes,
    strides or sliced sizes are not all static (the verifier checks those
    that are): in each such dimension a slice of positive size must lie in
    `[0, size)` at its first and its last position.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
  ];
}

def TadCheckShapesPass : Pass<"tad-check-shapes", "::mlir::ModuleOp"> {
  let summary = "Check at run time that dynamic sizes agree where ops need it";
  let description = [{
    Runs on tad ops, before their lowering (CPU modules). Type inference
    treats a dynamic size (`?`) as agreeing with every size it meets: it
    never broadcasts (against a static size other than 1 it is that size,
    against another `?` the two are equal), the inner dimensions of a
    matrix product are equal, and a view keeps the element count (a `-1`
    in its sizes divides it exactly). The lowering relies on that. Before
    each op where such an assumption involves a dynamic size (ops with
    `Tad_BroadcastingOperands`, `mm`, `addmm`, `bmm`, `mv`, `dot`,
    `mse_loss`, `nll_loss_forward` and their backward ops, `gather`, the scatters, `view`,
    `reshape`, `_unsafe_view`, `expand_as`, `cat`, `stack`, the slice
    backward ops, `embedding_dense_backward`, the batches of the
    convolution and pooling backward ops), and before each `tensor.insert_slice` whose source or
    sizes are dynamic (the reverse sweep stores a loop's values of dynamic
    shape with them: a value whose size changes from one iteration to the
    next would be written outside its slot), this
    pass compares the sizes at run time and, where they differ, calls the
    runtime's `__tad_fail_shape`, which ends the call: the entry point
    returns `TAD_ERROR_SHAPE` with a message naming the function, the
    operand, the dimension, both sizes and the op with its location.

    Arguments may declare a least size per dimension (`tad.dim_min =
    array<i64: 2, 0>`, 0 for none; dynamic dimensions only): at each
    function's entry, a size below its minimum calls the runtime's
    `__tad_fail_minimum` (`TAD_ERROR_SHAPE`, naming the argument, the
    dimension and the size's `tad.dim_names` name).
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
  ];
}

def TadDropRepeatedChecksPass
    : Pass<"tad-drop-repeated-checks", "::mlir::func::FuncOp"> {
  let summary = "Drop run-time checks that an earlier identical check makes redundant";
  let description = [{
    The checks of tad-check-shapes and tad-check-indices are `scf.if`s whose
    branch only calls a runtime `__tad_fail_*` function, which ends the
    call. Once sizes are read from the arguments (after
    `resolve-ranked-shaped-type-result-dims` and CSE), many of them test the
    same condition: a gradient's size against the input's before each of
    hundreds of ops. A check whose condition an earlier check in the same
    block has already tested is erased (the call would have ended there),
    and a check whose condition is the constant false is erased too. Fewer
    branches also keep `convert-scf-to-cf`, which splits the block at each
    one, from growing quadratically on large functions.
  }];
}

def TadBindDynamicSizesPass
    : Pass<"tad-bind-dynamic-sizes", "::mlir::ModuleOp"> {
  let summary = "Pass the sizes of dynamic exported tensors as leading index arguments";
  let description = [{
    Runs after bufferization and buffer-results-to-out-params, on exported
    functions whose `tad.abi` signature has symbols (dynamic sizes). The
    bare-pointer calling convention of the entry points passes only memrefs
    of static shape: each such function gets one `index` argument per
    symbol, before the others, and each dynamic memref argument becomes a
    rank-0 memref of its element type (a bare pointer) that the body
    reinterprets with its sizes (the symbols' values, or static sizes) and
    row-major strides. `tad-export-abi` passes the sizes the caller's
    tensors have (runtime/src/boundary.c checked that the dimensions of one
    symbol agree).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
  ];
}

def TadEmptyBoundaryTensorsPass
    : Pass<"tad-empty-boundary-tensors", "::mlir::ModuleOp"> {
  let summary = "Pass zero-size tensors through the C boundary as tensor<0xT>";
  let description = [{
    Runs after `tad-record-abi`, on linalg on tensors. MLIR's bare-pointer
    calling convention, which the entry points use, cannot express a memref
    that is empty in a dimension after the first (`memref<2x0xf32>`); a
    zero-size tensor carries no data, so nothing is lost by passing it as a
    `tensor<0xT>` of its element type instead. In every exported function
    (one with a `tad.abi` signature), each zero-size argument or result of
    another shape becomes a `tensor<0xT>`: inside the body, an argument is
    replaced by a `tensor.empty` of its recorded type (its pointer is never
    read), and a result is returned as an empty `tensor<0xT>` (nothing is
    written). Calls to the function are rewritten the same way. The
    recorded `tad.abi` signature keeps the real shapes, which the runtime
    checks at every call.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TadExportABIPass : Pass<"tad-export-abi", "::mlir::ModuleOp"> {
  let summary = "Wrap exported functions in the tad C ABI (boundary checks, metadata)";
  let description = [{
    Runs on the LLVM dialect. Each public function carrying a `tad.abi`
    signature attribute becomes an internal implementation plus an exported
    entry point `int32_t name(const tad_tensor *args, int64_t nargs,
    tad_tensor *results, int64_t nresults)` that checks ranks, shapes and
    dtypes through the runtime before calling it. Emits the module metadata
    table that `tad_module_info()` returns.
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"\"",
           "GPU targets: 'cuda' or 'emulated'. The implementation then runs "
           "on device pointers that the device runtime stages around it "
           "(__tad_<device>_enter/exit), and tensors flagged "
           "TAD_MEMORY_DEVICE are accepted">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TadDistinctResultsPass
    : Pass<"tad-distinct-results", "::mlir::func::FuncOp"> {
  let summary = "Give every tensor a function returns a value of its own";
  let description = [{
    Before one-shot bufferization. Each result of a public function becomes
    a buffer of the caller's (buffer-results-to-out-params), so a function
    that returns one value twice -- `return %0, %0`, as the VJP of
    `tanh(x + y)` does for `x` and `y`, or as CSE makes of two equal
    constants -- needs that value in two buffers. The second and later
    occurrences of a value in a `func.return` are replaced by a copy of it
    in a new allocation (`bufferization.alloc_tensor ... copy`).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

#endif // TAD_PASSES_ABI
