//===- TadCollectiveOps.td - collectives across processes -*- tablegen -*-===//
//
// Collective operations over all the processes of a data-parallel job (the
// ranks of MPI_COMM_WORLD). They are not ATen ops and not pure: every rank
// must run the same collectives in the same order, so none may be removed,
// duplicated or moved past another. The CPU lowering (tad-to-linalg) fuses
// the operands into contiguous buckets and calls the runtime
// (runtime/src/cpu/mpi.c), which loads MPI with dlopen at the first call;
// the GPU target rejects them. See docs/distributed.md.
//
// They are not differentiable (the AD passes reject them with an error):
// all-reduce the gradients instead, after the derivative.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COLLECTIVE_OPS
#define TAD_COLLECTIVE_OPS

def Tad_AllReduceOp : Tad_Op<"all_reduce"> {
  let summary = "sum or mean of each tensor over all ranks";
  let description = [{
    Every rank passes tensors of the same types; result `i` is the
    elementwise sum (`reduction = "sum"`) or mean (`"mean"`, the sum divided
    by the number of ranks) of operand `i` over the ranks, on every rank.
    The operands are packed, in the order they are computed, into
    contiguous buckets of at most `bucket_bytes` bytes (default 25 MiB,
    PyTorch DDP's cap; a tensor larger than that is a bucket of its own),
    the first of at most `first_bucket_bytes` (default 1 MiB, DDP's first
    bucket; `bucket_bytes` if smaller), per element type, and each bucket
    is one MPI_Allreduce, started as soon as its tensors are computed and
    waited for at the op. Before each bucket, the ranks compare its size
    and a hash of the operand types, so a rank whose program differs fails
    with an error on every rank instead of hanging. Example:
    `%a, %b = tad.all_reduce %g0, %g1 {reduction = "mean"} : (tensor<4x3xf64>, tensor<3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>)`
  }];
  let arguments = (ins Variadic<Tad_FloatTensor>:$inputs,
                       DefaultValuedAttr<StrAttr, "\"sum\"">:$reduction,
                       DefaultValuedAttr<I64Attr, "26214400">:$bucket_bytes,
                       DefaultValuedAttr<I64Attr, "1048576">:$first_bucket_bytes);
  let results = (outs Variadic<Tad_FloatTensor>:$results);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $results)";
  let hasVerifier = 1;
}

def Tad_BroadcastFromOp : Tad_Op<"broadcast_from"> {
  let summary = "the tensors of rank `root` on every rank";
  let description = [{
    Result `i` is operand `i` of rank `root` (default 0), on every rank:
    how a data-parallel job starts every rank from the same parameters.
    Fused into buckets and checked across ranks as `tad.all_reduce`.
    Example:
    `%w = tad.broadcast_from %w0 {root = 0} : (tensor<4x3xf32>) -> tensor<4x3xf32>`
  }];
  let arguments = (ins Variadic<Tad_FloatTensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$root,
                       DefaultValuedAttr<I64Attr, "26214400">:$bucket_bytes);
  let results = (outs Variadic<Tad_FloatTensor>:$results);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $results)";
  let hasVerifier = 1;
}

def Tad_BarrierOp : Tad_Op<"barrier"> {
  let summary = "waits until every rank has reached it";
  let description = [{
    MPI_Barrier on all ranks. Example: `tad.barrier`
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TAD_COLLECTIVE_OPS
