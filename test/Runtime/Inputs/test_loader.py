"""Checks the tad Python loader against fake_module.c.

usage: test_loader.py FAKE.so LAYOUT.txt NOT_TAD.so FUTURE_ABI.so OLD_ABI.so
                      [ctypes]

With "ctypes", the checks run without the C fast path (tad._fastcall);
without it, they require it.

Prints one "PASS: <check>" line per check; the first failing check raises
and ends the script with a non-zero status.
"""

import ctypes
import sys
import threading

import numpy as np

import tad
from tad import _abi

fake_path, layout_path, not_tad_path, future_path, old_path = sys.argv[1:6]
if sys.argv[6:] == ["ctypes"]:
    tad.module._fastcall = None
    print("calls through ctypes")
else:
    assert tad.module._fastcall is not None, "tad._fastcall was not built"
    print("calls through tad._fastcall")
m = tad.load(fake_path)


def passed(name):
    print(f"PASS: {name}", flush=True)


def expect_error(fn, args, status, message):
    """Calls fn(*args) and checks the TadError it must raise."""
    try:
        fn(*args)
    except tad.TadError as e:
        assert isinstance(e, ValueError)
        assert e.status == status, (e.status, status, str(e))
        assert str(e) == message, f"got {str(e)!r}, expected {message!r}"
        return
    raise AssertionError(f"no TadError, expected {message!r}")


# --- The ctypes mirror matches the C header --------------------------------
layout = dict(line.rsplit(" ", 1) for line in open(layout_path).read().split("\n") if line)
for c_name, struct in [("tad_tensor", _abi.Tensor), ("tad_tensor_type", _abi.TensorType),
                       ("tad_function_info", _abi.FunctionInfo),
                       ("tad_module_table", _abi.ModuleTable)]:
    assert int(layout[c_name]) == ctypes.sizeof(struct), c_name
    for field, _ in struct._fields_:
        assert int(layout[f"{c_name}.{field}"]) == getattr(struct, field).offset, field
assert int(layout["TAD_ABI_VERSION"]) == _abi.ABI_VERSION
for name in ["F32", "F64", "I64", "I32", "BOOL", "BF16", "F16"]:
    assert int(layout[f"TAD_DTYPE_{name}"]) == getattr(_abi, f"DTYPE_{name}"), name
for name in ["OK", "ERROR_ARG_COUNT", "ERROR_NULL", "ERROR_DTYPE", "ERROR_RANK",
             "ERROR_SHAPE", "ERROR_RUNTIME", "ERROR_MEMORY", "MEMORY_DEVICE"]:
    assert int(layout[f"TAD_{name}"]) == getattr(_abi, name), name
passed("abi layout")

# --- Signatures ---------------------------------------------------------------
assert list(m.functions) == ["add", "stats", "mix", "fail"], list(m.functions)
sig = m.functions["add"]
assert sig.name == "add"
assert sig.args == (tad.TensorType((2, 3), np.dtype(np.float32)),) * 2
assert sig.results == (tad.TensorType((2, 3), np.dtype(np.float32)),)
assert m.functions["stats"].results[0].shape == ()
assert [t.dtype for t in m.functions["mix"].args] == [np.dtype(np.int64), np.dtype(np.int32),
                                                      np.dtype(np.bool_)]
assert m.abi_version == tad.ABI_VERSION
assert m.tad_version == "0.0-fake", m.tad_version
assert len(m) == 4 and "stats" in m and "nope" not in m
assert m["add"] is m.add and m.add.signature is sig
assert "add" in dir(m)
print(repr(m))
print(repr(m.add))
passed("signatures")

# --- Calls ----------------------------------------------------------------------
a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.full((2, 3), 0.5, dtype=np.float32)
y = m.add(a, b)
assert isinstance(y, np.ndarray) and y.dtype == np.float32 and y.shape == (2, 3)
np.testing.assert_array_equal(y, a + b)
# Plain calls reuse this thread's argument structs: new data pointers and
# results every call, and a call whose shapes differ (rejected) in between
# does not leave stale shapes behind.
c = np.full((2, 3), 2.0, dtype=np.float32)
y2 = m.add(a, c)
assert y2 is not y
np.testing.assert_array_equal(y, a + b)
np.testing.assert_array_equal(y2, a + c)
try:
    m.add(a, np.zeros((3, 2), np.float32))
except tad.TadError:
    pass
np.testing.assert_array_equal(m.add(c, b), c + b)
# Read-only arguments take the fallback for their data pointer.
r = c.copy()
r.flags.writeable = False
np.testing.assert_array_equal(m.add(r, b), c + b)
# NumPy scalars and other buffers are tensors too; an unaligned array is
# copied first.
np.testing.assert_array_equal(m.stats(memoryview(np.ones(4)))[1], np.full(4, 2.0))
raw = np.frombuffer(bytearray(4 * 6 + 1), np.float32, count=6, offset=1).reshape(2, 3)
assert not raw.flags.aligned
np.testing.assert_array_equal(m.add(raw, b), b)
passed("add")

# A non-contiguous view is made contiguous, not rejected or misread.
t = np.arange(6, dtype=np.float32).reshape(3, 2).T
np.testing.assert_array_equal(m.add(t, b), t + b)
np.testing.assert_array_equal(m.add(a[:, ::-1], b), a[:, ::-1] + b)
passed("add non-contiguous")

# Python lists are converted to the signature's dtype.
np.testing.assert_array_equal(m.add([[1, 2, 3], [4, 5, 6]], [[0.5] * 3] * 2),
                              np.array([[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]], np.float32))
passed("add lists")

x = np.array([1.0, 2.0, 3.0, 4.5])
out = m.stats(x)
assert isinstance(out, tuple) and len(out) == 2
total, doubled = out
assert total.shape == () and total.dtype == np.float64 and float(total) == 10.5
np.testing.assert_array_equal(doubled, 2 * x)
passed("stats two results")

s = m.mix(np.array([1, 2, 3], np.int64), np.array([10, 20, 30], np.int32),
          np.array([True, False, True]))
assert s.dtype == np.int64 and int(s) == 44, s
assert int(m.mix([1, 2, 3], [10, 20, 30], [True, True, False])) == 33
passed("mix dtypes")

# --- Errors: the module's own messages ------------------------------------------------
f32 = np.float32
expect_error(m.add, (a, np.zeros((3, 2), f32)), tad.STATUS_SHAPE,
             "add: argument 1 has shape [3, 2], expected [2, 3]")
expect_error(m.add, (np.zeros((2, 4), f32), b), tad.STATUS_SHAPE,
             "add: argument 0 has shape [2, 4], expected [2, 3]")
expect_error(m.add, (a.astype(np.float64), b), tad.STATUS_DTYPE,
             "add: argument 0 has dtype f64, expected f32")
expect_error(m.add, (a, np.zeros(6, f32)), tad.STATUS_RANK,
             "add: argument 1 has rank 1, expected rank 2 (shape [2, 3])")
expect_error(m.stats, (np.zeros(4, np.float32),), tad.STATUS_DTYPE,
             "stats: argument 0 has dtype f32, expected f64")
expect_error(m.stats, (np.float64(1.0),), tad.STATUS_RANK,
             "stats: argument 0 has rank 0, expected rank 1 (shape [4])")
passed("shape dtype rank errors")

expect_error(m.add, (a, b, b), tad.STATUS_ARG_COUNT, "add: expected 2 arguments, got 3")
expect_error(m.add, (a,), tad.STATUS_ARG_COUNT, "add: expected 2 arguments, got 1")
expect_error(m.add, (), tad.STATUS_ARG_COUNT, "add: expected 2 arguments, got 0")
expect_error(m.add, (a,) * 40, tad.STATUS_ARG_COUNT, "add: expected 2 arguments, got 40")
# The count is reported first, whatever the extra argument is.
expect_error(m.add, (a, b, "text"), tad.STATUS_ARG_COUNT, "add: expected 2 arguments, got 3")
passed("argument count errors")

# NumPy dtypes the ABI has no code for are never cast, and reported in order.
expect_error(m.add, (a.astype(np.int8), b), tad.STATUS_DTYPE,
             "add: argument 0 has unsupported NumPy dtype int8, expected f32")
expect_error(m.add, (a, b.astype(">f4")), tad.STATUS_DTYPE,
             "add: argument 1 has unsupported NumPy dtype >f4, expected f32")
expect_error(m.add, (np.zeros((3, 3), f32), b.astype(np.float16)), tad.STATUS_SHAPE,
             "add: argument 0 has shape [3, 3], expected [2, 3]")
expect_error(m.mix, ([1.5, 2, 3], [1, 2, 3], [True] * 3), tad.STATUS_DTYPE,
             "mix: argument 0 (list of float64) does not convert safely to i64")
passed("unsupported dtype errors")

expect_error(m.fail, (np.float32(1),), tad.STATUS_RUNTIME,
             "fail: simulated device failure (code 700)")
passed("runtime error")

# A good call clears the thread's error.
try:
    m.add(a, a[:1])
except tad.TadError:
    pass
assert m._last_error() != b""
m.add(a, b)
assert m._last_error() == b"", m._last_error()
passed("error cleared")

# --- Errors are per thread -----------------------------------------------------------
failures = []


def worker(args, status, message):
    try:
        for _ in range(2000):
            expect_error(m.add, args, status, message)
    except AssertionError as e:
        failures.append(str(e))


threads = [
    threading.Thread(target=worker, args=((a, np.zeros((1, 3), f32)), tad.STATUS_SHAPE,
                                          "add: argument 1 has shape [1, 3], expected [2, 3]")),
    threading.Thread(target=worker, args=((a.astype(np.float64), b), tad.STATUS_DTYPE,
                                          "add: argument 0 has dtype f64, expected f32")),
]
for th in threads:
    th.start()
for th in threads:
    th.join()
assert not failures, failures[:3]
passed("per-thread errors")

# --- Masked arrays ---------------------------------------------------------------------
# Refused, by the fast path and the general one: the mask would be ignored.
masked = np.ma.masked_array(a, mask=np.zeros_like(a, bool))
for call in (lambda: m.add(masked, b), lambda: m.add(a, masked, out=None),
             lambda: m.add(a, np.ma.masked_array(b), out=np.empty_like(a))):
    try:
        call()
        raise AssertionError("accepted a masked array")
    except tad.TadError as e:
        assert "is a masked array" in str(e), str(e)
        assert e.status == tad.STATUS_DTYPE, e.status
np.testing.assert_array_equal(m.add(masked.data, b), y)
passed("masked arrays refused")

# --- Loading ---------------------------------------------------------------------------
try:
    m.nope
    raise AssertionError("no AttributeError")
except AttributeError as e:
    assert "no function 'nope'" in str(e), str(e)
try:
    tad.load(not_tad_path)
    raise AssertionError("loaded a library that is not a tad module")
except tad.TadError as e:
    assert "not a tad module" in str(e), str(e)
try:
    tad.load(future_path)
    raise AssertionError("loaded a module of a future ABI")
except tad.TadError as e:
    assert str(e) == (
        f"{future_path}: the module has ABI version 99, this tad package "
        f"({tad.__version__}) reads ABI version {tad.ABI_VERSION}: use the tad "
        "package of the tadc that compiled it"), str(e)
try:
    tad.load(old_path)
    raise AssertionError("loaded a module of an older ABI")
except tad.TadError as e:
    assert str(e) == (
        f"{old_path}: the module has ABI version 1, this tad package "
        f"({tad.__version__}) reads ABI version {tad.ABI_VERSION}: recompile "
        "it with this tad's tadc"), str(e)
try:
    tad.load(fake_path + ".missing")
    raise AssertionError("loaded a missing file")
except OSError as e:
    assert "cannot load tad module" in str(e), str(e)
# Two loads of one file are independent objects over the same library.
m2 = tad.load(fake_path)
np.testing.assert_array_equal(m2.add(a, b), y)
passed("load errors")

print("ALL PASSED")
