"""The installed tad package on its own: imported from the install prefix,
running the installed tadc, compiling and differentiating a model.

usage: check_installed.py PREFIX MODEL.mlir (through run_installed.py)
"""

import os
import sys

import numpy as np

import tad

prefix, model_path = (os.path.realpath(p) for p in sys.argv[1:3])
package = os.path.realpath(os.path.dirname(tad.__file__))
assert package.startswith(prefix + os.sep), package
print("package under the prefix:", os.path.relpath(package, prefix))
print("version", tad.__version__, "abi", tad.ABI_VERSION)
tadc = tad.find_tadc()
assert tadc == os.path.join(prefix, "bin", "tadc"), tadc
print("find_tadc: <prefix>/bin/tadc")
import tad._fastcall  # noqa: E402  (the C extension was installed too)

m = tad.compile(model_path, vjp=["predict"])
assert m.tad_version == tad.__version__, (m.tad_version, tad.__version__)
assert m.abi_version == tad.ABI_VERSION
print("module compiled by tad", m.tad_version)
x = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], np.float32)
w = np.array([[1.0, -1.0], [0.5, 0.25], [-0.5, 2.0]], np.float32)
y, dx, dw = m.predict_vjp(x, w, np.ones((2, 2), np.float32))
expected = np.tanh(x @ w)
assert np.allclose(y, expected, atol=1e-6), y
g = 1 - expected ** 2
assert np.allclose(dx, g @ w.T, atol=1e-6) and np.allclose(dw, x.T @ g, atol=1e-6)
print("predict_vjp matches NumPy")
