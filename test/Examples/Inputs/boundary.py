"""tad.compile a real model and call it wrongly: every mistake is caught by
the .so's own boundary check and raised as tad.TadError with its message."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "runtime", "python"))
import tad  # noqa: E402

m = tad.compile(os.path.join(os.path.dirname(__file__), "..", "..", "..",
                             "examples", "c", "model.mlir"),
                vjp=["predict"], jvp=["predict"])
x = np.ones((2, 3), np.float32)
w = np.ones((3, 2), np.float32)
y = m.predict(x, w)
print("ok", y.shape, y.dtype, np.allclose(y, np.tanh(x @ w)))
y2, tx = m.predict_jvp(x, w, x, w)
# f32: from -O2 tanh is a polynomial within a few ulp of NumPy's (docs/
# performance.md), and 1 - tanh(3)^2 turns one ulp of tanh into 1.2e-5.
print("jvp", np.allclose(tx, (1 - np.tanh(x @ w) ** 2) * (2 * x @ w), rtol=1e-4))

for label, args in [("shape", (x, x)), ("dtype", (x, w.astype(np.float64))),
                    ("rank", (x, w.reshape(6))), ("count", (x,))]:
    try:
        m.predict(*args)
        print(label, "NOT CAUGHT")
    except tad.TadError as e:
        print(label, "status", e.status, ":", e)
