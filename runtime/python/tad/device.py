"""Arrays in device memory, for GPU modules (``tadc --target=cuda``).

    m = tad.compile("model.mlir", vjp="loss", target="cuda")
    w = m.device_array(w0)              # copied to the GPU once
    for x in batches:
        loss, gw = m.loss_vjp(x, w, one, device_results=True)
        ...
    w.numpy()                           # back to the host

A ``DeviceArray`` is memory from a GPU module's ``tad_device_alloc``
(docs/gpu.md). Passed to a function of a GPU module it is used in place:
nothing is copied. NumPy arguments are still copied to the device (and
NumPy results back) on each call. Device memory of one module is valid in
every GPU module of the process with the same ``device`` (``"cuda"``, or
``"emulated"`` for ``--gpu-emulate`` modules, whose "device" memory is host
memory); CPU modules reject device arrays.
"""

import ctypes
import math
from typing import Tuple

import numpy as np

from . import _abi


class DeviceArray:
    """A contiguous, row-major array in device memory.

    ``shape``, ``dtype``, ``ndim``, ``size``, ``nbytes`` as in NumPy;
    ``device`` is the device kind (``"cuda"``, ``"emulated"``). Create one
    with ``Module.device_array(values)`` or ``Module.device_empty(shape,
    dtype)``. ``numpy()`` (or ``np.asarray``) copies it to the host,
    ``upload(values)`` overwrites it from the host, ``free()`` releases it
    (also done when it is garbage-collected, or at the end of a ``with``
    block). Using a freed array raises ``TadError``.
    """

    def __init__(self, module, shape, dtype):
        from .module import TadError
        api = module._device_api
        if api is None:
            raise TadError(f"{module.path}: this module runs on the CPU and "
                           "has no device memory (compile with "
                           "target='cuda')", _abi.ERROR_MEMORY)
        dtype = np.dtype(dtype)
        if dtype not in _abi.DTYPE_CODES:
            raise TypeError(f"tad has no dtype for NumPy {dtype}")
        self.shape: Tuple[int, ...] = tuple(int(d) for d in shape)
        if any(d < 0 for d in self.shape):
            raise ValueError(f"negative dimension in shape {self.shape}")
        self.dtype = dtype
        self.device = module.device
        self.nbytes = math.prod(self.shape) * dtype.itemsize
        self._module = module  # keeps the library (and its runtime) loaded
        self._api = api
        self._ptr = None
        pointer = ctypes.c_void_p()
        status = api["alloc"](self.nbytes, ctypes.byref(pointer))
        if status != _abi.OK:
            raise TadError(module._last_error().decode("utf-8", "replace"),
                           status)
        self._ptr = pointer.value or 0

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def freed(self) -> bool:
        return self._ptr is None

    @property
    def data_ptr(self) -> int:
        """The device address (0 for an empty array)."""
        self._check_alive("data_ptr")
        return self._ptr

    def _check_alive(self, what):
        if self._ptr is None:
            from .module import TadError
            raise TadError(f"{what}: the device array was freed",
                           _abi.ERROR_NULL)

    def _status(self, status):
        if status != _abi.OK:
            from .module import TadError
            raise TadError(
                self._module._last_error().decode("utf-8", "replace"), status)

    def numpy(self) -> np.ndarray:
        """A host copy."""
        self._check_alive("numpy")
        out = np.empty(self.shape, self.dtype)
        if self.nbytes:
            self._status(self._api["download"](out.ctypes.data, self._ptr,
                                               self.nbytes))
        return out

    def __array__(self, dtype=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def upload(self, values) -> "DeviceArray":
        """Overwrites the array with ``values`` (same shape; converted to
        the array's dtype if that is safe). Returns the array."""
        from .module import TadError
        self._check_alive("upload")
        array = np.asarray(values)
        if array.shape != self.shape:
            raise TadError(f"upload: values of shape {list(array.shape)} into "
                           f"a device array of shape {list(self.shape)}",
                           _abi.ERROR_SHAPE)
        if array.dtype != self.dtype and not np.can_cast(
                array.dtype, self.dtype, casting="same_kind"):
            raise TadError(f"upload: {array.dtype} values into a "
                           f"{_abi.DTYPE_NAMES[_abi.DTYPE_CODES[self.dtype]]} "
                           "device array", _abi.ERROR_DTYPE)
        array = np.require(array, dtype=self.dtype, requirements=("C", "A"))
        if self.nbytes:
            self._status(self._api["upload"](self._ptr, array.ctypes.data,
                                             self.nbytes))
        return self

    def free(self) -> None:
        """Releases the device memory (nothing if already freed)."""
        pointer, self._ptr = self._ptr, None
        if pointer:
            self._status(self._api["free"](pointer))

    def __del__(self):
        try:
            if getattr(self, "_ptr", None):
                self.free()
        except Exception:  # interpreter shutdown, driver gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __repr__(self) -> str:
        dims = ", ".join(map(str, self.shape))
        name = _abi.DTYPE_NAMES[_abi.DTYPE_CODES[self.dtype]]
        state = ", freed" if self.freed else ""
        return f"<tad.DeviceArray {name}[{dims}] on {self.device}{state}>"


def device_array(values, module, dtype=None) -> DeviceArray:
    """``module.device_array(values, dtype)``: a device copy of ``values``."""
    return module.device_array(values, dtype)
