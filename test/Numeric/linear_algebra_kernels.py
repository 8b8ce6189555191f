"""The runtime kernels of the linear-algebra ops (runtime/src/cpu/linalg.c)
in f32, batched, on a regular and a singular (or not positive-definite)
matrix: values against NumPy, LAPACK's pivots and info, NaN inverses and
sign 0 / logabsdet -inf for singular matrices. Then the same in bf16 and
f16, which the lowering extends to f32 for the kernels and rounds back
(bf16 buffers were once read as f32 ones). Prints one line per check."""

import numpy as np

import tad

TEMPLATE = """
func.func @f(%%a: %(T)s) -> (%(T)s, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>, %(T)s, tensor<2xi32>, %(T)s) {
  %%0:2 = tad.linalg_inv_ex %%a : (%(T)s) -> (%(T)s, tensor<2xi32>)
  %%1:4 = tad._linalg_slogdet %%a : (%(T)s) -> (tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>)
  %%2:2 = tad.linalg_cholesky_ex %%a : (%(T)s) -> (%(T)s, tensor<2xi32>)
  %%3:2 = tad.linalg_cholesky_ex %%a {upper = true} : (%(T)s) -> (%(T)s, tensor<2xi32>)
  return %%0#0, %%0#1, %%1#0, %%1#1, %%1#2, %%1#3, %%2#0, %%2#1, %%3#0 : %(T)s, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, %(T)s, tensor<2x3xi32>, %(T)s, tensor<2xi32>, %(T)s
}"""

# element type: (NumPy storage of an input, to float64, relative tolerance)
ELEMENTS = {
    "f32": (lambda x: x.astype(np.float32), lambda x: x.astype(np.float64), 1e-5),
    "bf16": (lambda x: tad.float32_to_bf16_bits(x.astype(np.float32)),
             lambda x: tad.bf16_bits_to_float32(x).astype(np.float64), 2.0 ** -7),
    "f16": (lambda x: x.astype(np.float16), lambda x: x.astype(np.float64), 2.0 ** -10),
}


def check(element):
    store, load, rtol = ELEMENTS[element]
    text = TEMPLATE.replace("xf32>", f"x{element}>") % {"T": f"tensor<2x3x3x{element}>"}
    m = tad.compile(text)
    a = np.array([[[4, 1, 2], [1, 5, 1], [2, 1, 6]],
                  [[1, 2, 3], [2, 4, 6], [1, 0, 1]]], dtype=np.float64)
    inv, info, sign, logabs, lu, piv, low, cinfo, up = m.f(store(a))
    inv, sign, logabs, lu, low, up = map(load, (inv, sign, logabs, lu, low, up))
    print(f"{element} inverse:", np.allclose(inv[0], np.linalg.inv(a[0]), rtol=rtol, atol=rtol),
          "singular all NaN:", bool(np.isnan(inv[1]).all()), "info:", info.tolist())
    s, l = np.linalg.slogdet(a.astype(np.float64))
    print(f"{element} slogdet:", sign.tolist(), bool(np.isclose(logabs[0], l[0], rtol=rtol)),
          logabs[1])
    perm = list(range(3))
    for k, q in enumerate(piv[0] - 1):
        perm[k], perm[q] = perm[q], perm[k]
    lower = np.tril(lu[0], -1) + np.eye(3)
    print(f"{element} LU reproduces A[perm]:",
          np.allclose(lower @ np.triu(lu[0]), a[0][perm], rtol=rtol, atol=rtol),
          "pivots:", piv.tolist())
    print(f"{element} cholesky:", np.allclose(low[0], np.linalg.cholesky(a[0]), rtol=rtol, atol=rtol),
          "upper:", np.allclose(up[0], np.linalg.cholesky(a[0]).T, rtol=rtol, atol=rtol),
          "info:", cinfo.tolist())


if __name__ == "__main__":
    for element in ELEMENTS:
        check(element)
