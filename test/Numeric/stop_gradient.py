"""tad.detach is a stop-gradient: f(x) = x * detach(exp(x)) has the
gradient exp(x) (as torch.autograd computes for x * x.exp().detach()), not
the derivative exp(x) (1 + x) that central differences see; a function
that only returns detach(x) has zero gradients and tangents."""
import sys

import numpy as np
import tad

PRODUCT = """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %e = tad.exp %x : tensor<2x3xf64>
  %d = tad.detach %e : tensor<2x3xf64>
  %0 = tad.mul.Tensor %x, %d : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}"""

ONLY = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tad.detach %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def main():
    rng = np.random.default_rng(0)
    failures = 0

    def report(name, ok, detail=""):
        nonlocal failures
        failures += not ok
        print(("PASS: " if ok else "FAIL: ") + name + ("" if ok else "\n  " + detail))

    for opt in (0, 2):
        m = tad.compile(PRODUCT, vjp=["f"], jvp=["f"], opt_level=opt)
        x, ct, dx = (rng.standard_normal((2, 3)) for _ in range(3))
        value = m.f(x)
        report(f"-O{opt} value", np.allclose(value, x * np.exp(x)), repr(value))
        _, grad = m.f_vjp(x, ct)
        report(f"-O{opt} gradient exp(x)", np.allclose(grad, ct * np.exp(x)), repr(grad))
        _, tangent = m.f_jvp(x, dx)
        report(f"-O{opt} tangent exp(x) dx", np.allclose(tangent, dx * np.exp(x)),
               repr(tangent))

        m = tad.compile(ONLY, vjp=["f"], jvp=["f"], opt_level=opt)
        x = rng.standard_normal(4).astype(np.float32)
        _, grad = m.f_vjp(x, np.ones(4, np.float32))
        _, tangent = m.f_jvp(x, np.ones(4, np.float32))
        report(f"-O{opt} detach only: zero gradient and tangent",
               np.array_equal(m.f(x), x) and not grad.any() and not tangent.any(),
               f"{grad!r} {tangent!r}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
