"""Functions whose results share a value (the same value returned twice,
one gradient for two arguments, one tangent for two results, two equal
folded constants): every result buffer is written, at every -O level."""
import sys

import numpy as np
import tad

PROGRAMS = {
    "same value twice": ("""
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = tad.exp %x : tensor<3xf32>
  return %0, %0 : tensor<3xf32>, tensor<3xf32>
}""", {}),
    "argument twice": ("""
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  return %x, %x : tensor<3xf32>, tensor<3xf32>
}""", {}),
    "one gradient for two arguments": ("""
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %s = tad.add.Tensor %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = tad.tanh %s : tensor<3xf32>
  return %t : tensor<3xf32>
}""", {"vjp": ["f"]}),
    "one tangent for two results": ("""
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %t = tad.tanh %x : tensor<3xf32>
  %a = tad.add.Scalar %t, 1.0 : tensor<3xf32>
  %b = tad.add.Scalar %t, 2.0 : tensor<3xf32>
  return %a, %b : tensor<3xf32>, tensor<3xf32>
}""", {"jvp": ["f"]}),
    "equal folded constants": ("""
func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tad.div.Scalar %a, 0x7FF8000000000000 : tensor<4xf32>
  %1 = tad.sigmoid %0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}""", {}),
}


def expected(name, args):
    x = args[0]
    if name == "same value twice":
        return [np.exp(x), np.exp(x)]
    if name == "argument twice":
        return [x, x]
    if name == "one gradient for two arguments":
        y, ct = args[1], args[2]
        g = ct * (1 - np.tanh(x + y) ** 2)
        return [np.tanh(x + y), g, g]
    if name == "one tangent for two results":
        tx = args[1]
        t = (1 - np.tanh(x) ** 2) * tx
        return [np.tanh(x) + 1, np.tanh(x) + 2, t, t]
    return [np.full(4, np.nan, np.float32)] * 2


def main():
    rng = np.random.default_rng(0)
    failures = 0
    for name, (text, kw) in PROGRAMS.items():
        for opt in (0, 1, 2, 3):
            m = tad.compile(text, opt_level=opt, **kw)
            x = rng.standard_normal(4 if "constants" in name else 3).astype(np.float32)
            if kw.get("vjp"):
                fn, args = m.f_vjp, [x, rng.standard_normal(3).astype(np.float32),
                                     rng.standard_normal(3).astype(np.float32)]
            elif kw.get("jvp"):
                fn, args = m.f_jvp, [x, rng.standard_normal(3).astype(np.float32)]
            else:
                fn, args = m.f, [x]
            # Results into buffers that hold garbage first: a result that is
            # never written keeps it.
            want = expected(name, args)
            out = [np.full(np.shape(w), 7.0, np.float32) for w in want]
            got = fn(*args, out=out if len(out) > 1 else out[0])
            got = got if isinstance(got, tuple) else (got,)
            ok = len(got) == len(want) and all(
                np.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True)
                for g, w in zip(got, want))
            if not ok:
                failures += 1
                print(f"FAIL: {name} -O{opt}: {got} != {want}")
        print(f"PASS: {name}" if not failures else f"checked: {name}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
