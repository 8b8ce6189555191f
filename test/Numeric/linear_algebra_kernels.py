"""The runtime kernels of the linear-algebra ops (runtime/src/cpu/linalg.c)
in f32, batched, on a regular and a singular (or not positive-definite)
matrix: values against NumPy, LAPACK's pivots and info, NaN inverses and
sign 0 / logabsdet -inf for singular matrices. Prints one line per check."""

import numpy as np

import tad

T = "tensor<2x3x3xf32>"
TEXT = """
func.func @f(%%a: %(T)s) -> (%(T)s, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>, %(T)s, tensor<2xi32>, %(T)s) {
  %%0:2 = tad.linalg_inv_ex %%a : (%(T)s) -> (%(T)s, tensor<2xi32>)
  %%1:4 = tad._linalg_slogdet %%a : (%(T)s) -> (tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>)
  %%2:2 = tad.linalg_cholesky_ex %%a : (%(T)s) -> (%(T)s, tensor<2xi32>)
  %%3:2 = tad.linalg_cholesky_ex %%a {upper = true} : (%(T)s) -> (%(T)s, tensor<2xi32>)
  return %%0#0, %%0#1, %%1#0, %%1#1, %%1#2, %%1#3, %%2#0, %%2#1, %%3#0 : %(T)s, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>, %(T)s, tensor<2xi32>, %(T)s
}""" % {"T": T}


def main():
    m = tad.compile(TEXT)
    a = np.array([[[4, 1, 2], [1, 5, 1], [2, 1, 6]],
                  [[1, 2, 3], [2, 4, 6], [1, 0, 1]]], dtype=np.float32)
    inv, info, sign, logabs, lu, piv, low, cinfo, up = m.f(a)
    print("inverse:", np.allclose(inv[0], np.linalg.inv(a[0]), rtol=1e-5),
          "singular all NaN:", bool(np.isnan(inv[1]).all()), "info:", info.tolist())
    s, l = np.linalg.slogdet(a.astype(np.float64))
    print("slogdet:", sign.tolist(), bool(np.isclose(logabs[0], l[0], rtol=1e-6)),
          logabs[1])
    perm = list(range(3))
    for k, q in enumerate(piv[0] - 1):
        perm[k], perm[q] = perm[q], perm[k]
    lower = np.tril(lu[0], -1) + np.eye(3)
    print("LU reproduces A[perm]:", np.allclose(lower @ np.triu(lu[0]), a[0][perm], rtol=1e-5),
          "pivots:", piv.tolist())
    print("cholesky:", np.allclose(low[0], np.linalg.cholesky(a[0]), rtol=1e-5),
          "upper:", np.allclose(up[0], np.linalg.cholesky(a[0]).T, rtol=1e-5),
          "info:", cinfo.tolist())


if __name__ == "__main__":
    main()
