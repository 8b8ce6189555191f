"""A module with collectives where MPI cannot be loaded (TAD_MPI_LIBRARY
names a missing file): it loads, its other functions run, and a collective
is a TadError (TAD_ERROR_RUNTIME) with the reason; later calls fail the
same way rather than crash.

    TAD_MPI_LIBRARY=/nonexistent/libmpi.so no_mpi.py MODULE.so
"""
import sys

import numpy as np

import tad

m = tad.load(sys.argv[1])
x = np.ones((4, 3))
y = np.zeros((4, 1))
w = np.ones((3, 1))
b = np.zeros(1)
print("loss:", float(m.loss(x, y, w, b)))
for fn, args in (("sync_parameters", (w, b)), ("train_step", (x, y, w, b)),
                 ("sync_parameters", (w, b))):
    try:
        getattr(m, fn)(*args)
        print(fn, "ran (wrong)")
    except tad.TadError as e:
        print(f"{fn}: status {e.status}: {e}")
