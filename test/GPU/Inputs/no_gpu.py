"""Calls a --target=cuda module where the CUDA driver cannot be loaded: every
call fails with TAD_ERROR_RUNTIME and a message naming the function and the
driver, again on the next call; boundary errors still come first."""
import sys

import numpy as np

import tad

m = tad.load(sys.argv[1])
print("functions:", " ".join(fn.name for fn in m))
x = np.ones((4, 8), np.float32)
w = np.ones((8, 3), np.float32)
for attempt in range(2):
    try:
        m.f(x, w)
        print("call %d: unexpectedly succeeded" % attempt)
    except tad.TadError as e:
        print("call %d: status %s: %s" % (attempt, e.status, e))
try:
    m.f_vjp(x, w, np.ones((), np.float32))
except tad.TadError as e:
    print("vjp: status %s: %s" % (e.status, e))
try:
    m.f(x, np.ones((3, 8), np.float32))
except tad.TadError as e:
    print("shape: status %s: %s" % (e.status, e))
