"""Calls the functions of index_checks.mlir with indices in and out of
range: in range, the results match NumPy; out of range, the call returns
TAD_ERROR_INDEX with a message naming the index, the range and the op, and
the module keeps working. Usage: index_checks.py MODULE.so"""
import sys

import numpy as np

import tad

m = tad.load(sys.argv[1])
w = np.arange(15.0).reshape(5, 3)
x32 = np.arange(15, dtype=np.float32).reshape(3, 5)
ok = True


def expect(name, got, want):
    global ok
    if not np.array_equal(got, want):
        ok = False
        print(f"{name}: wrong result {got!r}, expected {want!r}")


def fails(name, *args):
    """Prints the status and the message of a call that must fail."""
    global ok
    try:
        getattr(m, name)(*args)
    except tad.TadError as e:
        status = "INDEX" if e.status == tad.STATUS_INDEX else e.status
        print(f"{name}: status {status}: {e}")
        return
    ok = False
    print(f"{name}: accepted")


expect("embedding", m.embedding(w, np.array([0, 4, 1, 2])), w[[0, 4, 1, 2]])
fails("embedding", w, np.array([0, 5, 1, 2]))
fails("embedding", w, np.array([0, -1, 1, 2]))
fails("embedding", w, np.array([0, 1 << 40, 1, 2]))
expect("embedding after failures", m.embedding(w, np.array([4, 3, 2, 1])), w[[4, 3, 2, 1]])

expect("index_select", m.index_select(x32, np.array([4, 0])), x32[:, [4, 0]])
fails("index_select", x32, np.array([4, 5]))

# index.Tensor wraps negative indices, as ATen does: [-5, 5) is in range.
expect("index", m.index(w, np.array([-5, 4])), w[[-5, 4]])
fails("index", w, np.array([-6, 0]))
fails("index", w, np.array([0, 5]))

expect("scatter_add", m.scatter_add(np.zeros(4), np.array([3, 0, 3]), np.ones(3)),
       np.array([1.0, 0.0, 0.0, 2.0]))
fails("scatter_add", np.zeros(4), np.array([3, 4, 0]), np.ones(3))

# nll_loss: ignore_index (-100) is no class and is accepted.
logp = np.log(np.full((3, 4), 0.25))
expect("nll", m.nll(logp, np.array([0, -100, 3])), np.array(np.log(4.0)))
fails("nll", logp, np.array([0, 4, 3]))
fails("nll", logp, np.array([0, -1, 3]))
# Slices at run-time positions (tensor.extract_slice / insert_slice).
k = lambda v: np.array(v, dtype=np.int64)
expect("rows", m.rows(w, k(3)), w[3:5])
fails("rows", w, k(4))
fails("rows", w, k(-1))
row = np.array([7.0, 8.0, 9.0])
expect("put_row", m.put_row(w, row, k(4)), np.vstack([w[:4], row]))
fails("put_row", w, row, k(5))
print("ok:", "PASS" if ok else "FAIL")
