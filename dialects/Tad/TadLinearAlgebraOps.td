//===- TadLinearAlgebraOps.td - factorizations of square matrices -*- tablegen -*-===//
//
// The primitive linear-algebra ops: an LU factorization with partial
// pivoting (seen through `_linalg_slogdet`), the inverse and the Cholesky
// factorization, each over the last two dimensions of a batch of square
// matrices. Their CPU lowering calls the kernels of
// runtime/src/cpu/linalg.c; the GPU target rejects them. The other ATen
// linear-algebra ops (det, solve, triangular and Cholesky solves, ...) are
// decompositions of the importer onto these (docs/ops.md).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_LINEAR_ALGEBRA_OPS
#define TAD_LINEAR_ALGEBRA_OPS

def Tad_I32Tensor : RankedTensorOf<[I32]>;

def Tad_LinalgInvExOp : Tad_AtenOp<"linalg_inv_ex",
    "linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)"> {
  let summary = "inverse of a batch of square matrices, with LAPACK's info";
  let description = [{
    `A` has shape `(*, n, n)`; `inverse` has its shape and `info` (i32) the
    batch shape `*`: 0, or the 1-based index of the first zero pivot of
    the LU factorization with partial pivoting, where `inverse` is NaN.
    `check_errors` is accepted and ignored (compiled code raises no
    errors; read `info`). Example:
    `%i, %info = tad.linalg_inv_ex %a : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)`
  }];
  let arguments = (ins Tad_FloatTensor:$A,
                       DefaultValuedAttr<BoolAttr, "false">:$check_errors);
  let results = (outs Tad_FloatTensor:$inverse, Tad_I32Tensor:$info);
  let assemblyFormat = "$A attr-dict `:` functional-type(operands, results)";
}

def Tad_LinalgSlogdetOp : Tad_AtenOp<"_linalg_slogdet",
    "_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)"> {
  let summary = "sign and log |det| of a batch of square matrices, with their LU factors";
  let description = [{
    `A` has shape `(*, n, n)`. `sign` and `logabsdet` have the batch shape
    (a singular matrix has sign 0 and logabsdet -inf); `LU` holds the
    packed factors of the LU factorization with partial pivoting (unit
    lower triangle below the diagonal) and `pivots` (i32, shape `(*, n)`)
    its 1-based row swaps, as ATen. Example:
    `%s, %l, %lu, %p = tad._linalg_slogdet %a : (tensor<3x3xf64>) -> (tensor<f64>, tensor<f64>, tensor<3x3xf64>, tensor<3xi32>)`
  }];
  let arguments = (ins Tad_FloatTensor:$A);
  let results = (outs Tad_FloatTensor:$sign, Tad_FloatTensor:$logabsdet,
                      Tad_FloatTensor:$LU, Tad_I32Tensor:$pivots);
  let assemblyFormat = "$A attr-dict `:` functional-type(operands, results)";
}

def Tad_LinalgCholeskyExOp : Tad_AtenOp<"linalg_cholesky_ex",
    "linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)"> {
  let summary = "Cholesky factor of a batch of symmetric positive-definite matrices";
  let description = [{
    `self` has shape `(*, n, n)`; only its lower triangle is read. `L` is
    the lower-triangular factor with `self = L L^T` (its transpose when
    `upper`); `info` (i32, the batch shape) is 0 or the 1-based order of
    the first leading minor that is not positive definite, where `L` is 0
    from that column on. `check_errors` is accepted and ignored. Example:
    `%l, %info = tad.linalg_cholesky_ex %a : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)`
  }];
  let arguments = (ins Tad_FloatTensor:$self,
                       DefaultValuedAttr<BoolAttr, "false">:$upper,
                       DefaultValuedAttr<BoolAttr, "false">:$check_errors);
  let results = (outs Tad_FloatTensor:$L, Tad_I32Tensor:$info);
  let assemblyFormat = "$self attr-dict `:` functional-type(operands, results)";
}

#endif // TAD_LINEAR_ALGEBRA_OPS
