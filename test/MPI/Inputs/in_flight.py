"""A call that fails while its collectives are in flight (in_flight.mlir):
both ranks pass an index out of range, so both fail the check after their
first bucket started; the runtime lets the bucket finish before the call's
temporaries are freed, and the next calls (good indices) reduce correctly.

    mpirun -np 2 in_flight.py MODULE.so
"""
import numpy as np

import tad

m = tad.load(__import__("sys").argv[1])
rank, size = tad.data_parallel_rank()
g = np.full(262144, float(rank + 1))
w = np.arange(15.0).reshape(5, 3)
for attempt in range(3):
    try:
        m.step(g, w, np.array([0, 9]))
        print(f"rank {rank}: bad index ran (wrong)")
    except tad.TadError as e:
        print(f"rank {rank}: status {e.status}: {e}")
    s, e = m.step(g, w, np.array([1, 4]))
    want = sum((r + 1.0) ** 2 for r in range(size))
    ok = np.all(s == want) and np.array_equal(e, size * w[[1, 4]])
    print(f"rank {rank}: attempt {attempt}: {'sums right' if ok else 'WRONG'}")
