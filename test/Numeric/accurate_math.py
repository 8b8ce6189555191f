"""Forward values of the math ops whose naive formulas lose digits where
users rely on them (log1p and expm1 near 0, erfc in its tail, tanh and erf
of tiny arguments, ...) against Python's correctly rounded-ish libm in
float64, in f64 and f32, at -O0 and -O2. A relative error above a few ulp
of the dtype is a FAIL (log(1 + x) for log1p has a relative error of 1e-8
at x = 1e-8)."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "python"))
import tad  # noqa: E402

X = [1e-300, -1e-300, 1e-30, 1e-12, -1e-12, 1e-8, -1e-8, 3e-5, -3e-5, 1e-3,
     0.1, -0.1, 0.5, -0.5, 0.9, 1.0, 2.0, 4.5, 10.0, -3.0, 25.0]

OPS = {
    # op: (reference, domain filter)
    "log1p": (math.log1p, lambda x: x > -1),
    "expm1": (math.expm1, lambda x: x < 80),
    "tanh": (math.tanh, lambda x: True),
    "erf": (math.erf, lambda x: True),
    "erfc": (math.erfc, lambda x: x < 26),
    "asin": (math.asin, lambda x: abs(x) <= 1),
    "atan": (math.atan, lambda x: True),
    "sin": (math.sin, lambda x: abs(x) < 100),
    "exp": (math.exp, lambda x: x < 80),
    "log": (math.log, lambda x: x > 0),
    "sqrt": (math.sqrt, lambda x: x >= 0),
}

# Allowed relative error, in ulps of the dtype (f32 values below its
# normal range are flushed: compared absolutely against its tiny).
ULPS = 8


def main():
    failures = []
    for dtype, ty in ((np.float64, "f64"), (np.float32, "f32")):
        eps = float(np.finfo(dtype).eps)
        tiny = float(np.finfo(dtype).tiny)
        for op, (ref, domain) in OPS.items():
            # The domain of the values as the dtype holds them (1e-300 is 0
            # in f32).
            xs = np.array([x for x in np.array(X, dtype=dtype)
                           if domain(float(x))], dtype=dtype)
            n = len(xs)
            text = (f"func.func @f(%x: tensor<{n}x{ty}>) -> tensor<{n}x{ty}> {{\n"
                    f"  %0 = tad.{op} %x : tensor<{n}x{ty}>\n"
                    f"  return %0 : tensor<{n}x{ty}>\n}}")
            for opt in (0, 2):
                got = np.asarray(tad.compile(text, opt_level=opt).f(xs)).astype(np.float64)
                worst, where = 0.0, None
                for x, g in zip(xs.astype(np.float64), got):
                    want = ref(float(x))
                    if abs(want) < tiny:
                        err = abs(g - want) / tiny
                    else:
                        err = abs(g - want) / abs(want)
                    if not err <= ULPS * eps:
                        if where is None or err > worst:
                            worst, where = err, (x, g, want)
                what = f"{op} {ty} -O{opt}"
                if where is None:
                    print(f"PASS {what}")
                else:
                    x, g, want = where
                    print(f"FAIL {what}: at x = {x!r} got {g!r}, want {want!r} "
                          f"(relative error {worst:.3g})")
                    failures.append(what)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
