"""Calls the functions of huge_temporary.mlir: a temporary that cannot be
allocated ends the call with TAD_ERROR_MEMORY and a message naming its
size, and the module keeps working afterwards."""
import sys

import numpy as np

import tad

module = tad.load(sys.argv[1])
names = sys.argv[2:]
x = np.linspace(-1, 1, 4).astype(np.float32)
for name in names:
    fn = getattr(module, name)
    for attempt in range(2):
        try:
            fn(x)
            print(f"{name}: no error")
        except tad.TadError as e:
            ok = e.status == tad.STATUS_MEMORY
            print(f"{name}: status {'MEMORY' if ok else e.status}: {e}")
np.testing.assert_allclose(module.ok(x), np.tanh(x), rtol=1e-6)
print("ok: PASS")
