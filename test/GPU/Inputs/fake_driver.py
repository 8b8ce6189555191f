"""The CUDA runtime's staging and device memory API against a fake driver
(fake_libcuda.c: host memory, no kernels): host tensors copied in and out,
device tensors used in place, pointer checks, clean failures, no leaks."""
import ctypes
import sys

import numpy as np

import tad
from tad import _abi

m = tad.load(sys.argv[1])
print("device:", m.device)
x = np.arange(6, dtype=np.float32).reshape(2, 3)
y = np.array([1.0, 2.0, 3.0])

a, b = m.copy(x, y)
print("host copy:", np.array_equal(a, y) and np.array_equal(b, x))
print("constant:", m.constant())

xd, yd = m.device_array(x), m.device_array(y)
outd = m.device_empty((2, 3), np.float32)
a, b = m.copy(xd, yd, out=[None, outd])
print("device copy:", b is outd, np.array_equal(a, y), np.array_equal(outd.numpy(), x))


def raw(fn, args, results):
    """Calls `fn` with hand-made tad_tensors: (data, shape, dtype code)."""
    keep = []

    def tensors(items):
        out = (_abi.Tensor * len(items))()
        for i, (data, shape, dtype) in enumerate(items):
            s = (ctypes.c_int64 * len(shape))(*shape)
            keep.append(s)
            out[i].data, out[i].shape, out[i].rank, out[i].dtype = data, s, len(shape), dtype
        return out
    status = fn._entry(tensors(args), len(args), tensors(results), len(results))
    return status, m._last_error().decode()


F32, F64, DEV = _abi.DTYPE_F32, _abi.DTYPE_F64, _abi.MEMORY_DEVICE
host_out = np.zeros(3), np.zeros((2, 3), np.float32)
res = [(host_out[0].ctypes.data, (3,), F64), (host_out[1].ctypes.data, (2, 3), F32)]
print("host memory flagged as device: %d: %s" % raw(
    m.copy, [(x.ctypes.data, (2, 3), F32 | DEV), (y.ctypes.data, (3,), F64)], res))
small = m.device_empty((2,), np.float32)
print("allocation too small: %d: %s" % raw(
    m.copy, [(small.data_ptr, (2, 3), F32 | DEV), (y.ctypes.data, (3,), F64)], res))
freed = m.device_array(x)
pointer = freed.data_ptr
freed.free()
print("freed memory: %d: %s" % raw(
    m.copy, [(pointer, (2, 3), F32 | DEV), (y.ctypes.data, (3,), F64)], res))
print("unknown flag: %d: %s" % raw(
    m.copy, [(x.ctypes.data, (2, 3), F32 | 0x20000), (y.ctypes.data, (3,), F64)], res))

try:
    m.neg(np.ones(4, np.float32))
except tad.TadError as e:
    print("kernel: status %d: %s" % (e.status, e))
print("after a failure:", np.array_equal(m.copy(x, y)[1], x))

api = m._device_api
print("upload to host memory: %d: %s" % (
    api["upload"](x.ctypes.data, y.ctypes.data, 8), m._last_error().decode()))
print("download past the end: %d: %s" % (
    api["download"](y.ctypes.data, small.data_ptr, 24), m._last_error().decode()))
pointer = ctypes.c_void_p()
print("alloc -1: %d: %s" % (api["alloc"](-1, ctypes.byref(pointer)),
                            m._last_error().decode()))
for array in (xd, yd, outd, small):
    array.free()
print("done", flush=True)
