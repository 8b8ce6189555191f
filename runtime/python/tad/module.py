"""Loading a tad-generated shared object and calling its functions."""

import ctypes
import os
import shutil
import tempfile
import threading
from typing import NamedTuple, Optional, Tuple

import numpy as np

from . import _abi, _version
from .device import DeviceArray

try:  # the C fast path of plain calls (runtime/python/fastcall.c), optional
    from . import _fastcall
except ImportError:
    _fastcall = None


# ctypes copies of the shapes passed to entry points, built once per shape
# (the module only reads them) instead of on every call.
_SHAPE_BUFFERS = {}


def _address(array):
    """The data pointer of a C-contiguous array. ``array.ctypes.data``
    builds a helper object on every use (about 0.7 us, a third of a small
    module's call with a dozen tensors); a ctypes view of a writable,
    non-empty buffer costs a third of that."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError, BufferError):  # read-only or empty
        return array.ctypes.data


def _shape_buffer(shape):
    buffer = _SHAPE_BUFFERS.get(shape)
    if buffer is None:
        buffer = _SHAPE_BUFFERS[shape] = (ctypes.c_int64 * len(shape))(*shape)
    return buffer

class TadError(ValueError):
    """A call or a module was rejected.

    ``str(error)`` is the module's message (``tad_last_error()``), e.g.
    ``"f: argument 0 has dtype f64, expected f32"``; ``status`` is the
    ``tad_status`` code the entry point returned (``tad.STATUS_*``), or None
    for errors found while loading.
    """

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.status = status


class TensorType(NamedTuple):
    """The static type of an argument or result.

    ``shape`` is a tuple of ints (None for a dynamic dimension) and
    ``dtype`` a NumPy dtype. ``symbols`` gives, per dimension, the index of
    the dynamic size it has (None where static): dimensions with one symbol
    have one size in every call (docs/dynamic-shapes.md). Prints as
    ``f32[2, 3]``, or ``f32[s0, 3]`` with a dynamic size.
    """

    shape: Tuple[Optional[int], ...]
    dtype: np.dtype
    symbols: Tuple[Optional[int], ...] = ()

    def __repr__(self) -> str:
        symbols = self.symbols or (None,) * len(self.shape)
        dims = ", ".join(("?" if k is None else f"s{k}") if d is None
                         else str(d) for d, k in zip(self.shape, symbols))
        return f"{_abi.DTYPE_NAMES[_abi.DTYPE_CODES[self.dtype]]}[{dims}]"


class Signature(NamedTuple):
    """A function's name and the types of its arguments and results.

    Prints as ``f(f32[2, 3], f32[3]) -> f32[2]``.
    """

    name: str
    args: Tuple[TensorType, ...]
    results: Tuple[TensorType, ...]

    def __repr__(self) -> str:
        args = ", ".join(map(repr, self.args))
        results = ", ".join(map(repr, self.results))
        if len(self.results) != 1:
            results = f"({results})"
        return f"{self.name}({args}) -> {results}"


class Function:
    """One exported function of a module; call it with NumPy arrays.

    ``f(*args)`` passes each NumPy array with its own dtype and shape (made
    C-contiguous, never cast); Python scalars and lists are converted to the
    signature's dtype first. Masked arrays are refused (``TadError``): the
    module has no notion of a mask. A bool array must hold the bytes 0 and 1
    only (what NumPy makes; a view of other bytes as bool is not valid
    input, see docs/abi.md). The module checks every argument; a rejected
    call raises ``TadError`` with the same message a C caller would get.
    Results are allocated from the signature and returned: one array, or a
    tuple when the function has several results (for ``f_vjp``: the results,
    then the gradients).

    GPU modules also take ``tad.DeviceArray`` arguments, used in place (no
    copy). ``out=`` gives the result buffers (a sequence with one entry per
    result, or the array itself for one result): a NumPy array (C-contiguous,
    writeable), a ``DeviceArray``, or None to allocate one. With
    ``device_results=True`` the allocated results are ``DeviceArray``s
    instead of NumPy arrays. Results must not overlap the arguments or each
    other (checked for ``out``).
    """

    def __init__(self, module: "Module", signature: Signature, entry: int):
        self.module = module  # keeps the library loaded
        self.signature = signature
        self.__name__ = signature.name
        self.__doc__ = repr(signature)
        self._entry = _abi.EntryFn(entry)
        self._entry_address = entry
        # Per thread: the ctypes tensor arrays of the last plain call, reused
        # by the next one (see _plain_call).
        self._local = threading.local()
        self._result_types = None
        if all(None not in t.shape and t.dtype in _abi.DTYPE_CODES
               for t in signature.results):
            self._result_types = [(t.shape, t.dtype)
                                  for t in signature.results]
        # Dynamic signatures: where each symbol's size is read from (the
        # first argument dimension that has it).
        self._symbol_sources = {}
        for i, t in enumerate(signature.args):
            for d, k in enumerate(t.symbols):
                if k is not None:
                    self._symbol_sources.setdefault(k, (i, d))

    @property
    def name(self) -> str:
        return self.signature.name

    def __repr__(self) -> str:
        return f"<tad.Function {self.signature!r}>"

    def _as_array(self, index: int, value) -> np.ndarray:
        """The array passed for argument ``index``."""
        if isinstance(value, np.ma.MaskedArray):
            # The module would read the data under the mask as if valid.
            raise TadError(
                f"{self.name}: argument {index} is a masked array, which tad "
                "cannot honour; pass value.filled(fill) or value.data",
                _abi.ERROR_DTYPE)
        if isinstance(value, (np.ndarray, np.generic)):
            return self._half_view(index, np.require(value,
                                                     requirements=("C", "A")))
        array = np.asarray(value)
        if array.dtype.kind in "ui" and array.dtype.itemsize == 2:
            return self._half_view(index, np.require(array,
                                                     requirements=("C", "A")))
        if index >= len(self.signature.args):
            return np.require(array, requirements=("C", "A"))
        dtype = self.signature.args[index].dtype
        if array.dtype != dtype and not np.can_cast(array.dtype, dtype,
                                                    casting="same_kind"):
            raise TadError(
                f"{self.name}: argument {index} ({type(value).__name__} of "
                f"{array.dtype}) does not convert safely to "
                f"{_abi.DTYPE_NAMES[_abi.DTYPE_CODES[dtype]]}",
                _abi.ERROR_DTYPE)
        return np.require(array, dtype=dtype, requirements=("C", "A"))

    def _half_view(self, index: int, array: np.ndarray) -> np.ndarray:
        """A 16-bit integer array given for a bf16 or f16 argument holds
        its bits (NumPy has no bf16; torch's is passed as .view(int16))."""
        if (array.dtype.kind not in "ui" or array.dtype.itemsize != 2 or
                index >= len(self.signature.args)):
            return array
        dtype = self.signature.args[index].dtype
        code = _abi.DTYPE_CODES.get(dtype)
        if code not in (_abi.DTYPE_BF16, _abi.DTYPE_F16):
            return array
        return array.view(dtype)

    def _check_device_array(self, what: str, index: int, array) -> None:
        """Rejects a freed device array, or one of another device kind
        (CPU modules reject device arrays themselves)."""
        if array.freed:
            raise TadError(f"{self.name}: {what} {index} is a freed device "
                           "array", _abi.ERROR_NULL)
        device = self.module.device
        if device is not None and array.device != device:
            raise TadError(f"{self.name}: {what} {index} is a device array of "
                           f"a '{array.device}' module; this module runs on "
                           f"'{device}'", _abi.ERROR_MEMORY)

    def _result_shape(self, t: TensorType, arrays) -> tuple:
        """The shape of a result of type ``t`` for these arguments: its
        dynamic sizes are those of the argument dimensions with the same
        symbol. Arguments of the wrong rank leave the size 0 (the module
        rejects the call)."""
        if None not in t.shape:
            return t.shape
        shape = []
        for d, k in zip(t.shape, t.symbols):
            if d is None:
                i, dim = self._symbol_sources[k]
                a_shape = arrays[i].shape if i < len(arrays) else ()
                d = a_shape[dim] if dim < len(a_shape) else 0
            shape.append(d)
        return tuple(shape)

    def _results(self, out, device_results: bool, arrays=()) -> list:
        """The result buffers: from ``out``, else allocated."""
        n = len(self.signature.results)
        if out is None:
            out = [None] * n
        elif n == 1 and not isinstance(out, (list, tuple)):
            out = [out]
        else:
            out = list(out)
            if len(out) != n:
                raise TadError(f"{self.name}: out= has {len(out)} entries, "
                               f"expected {n} (one per result)",
                               _abi.ERROR_ARG_COUNT)
        if device_results and self.module.device is None:
            raise TadError(f"{self.name}: device_results=True needs a GPU "
                           "module; this one runs on the CPU",
                           _abi.ERROR_MEMORY)
        results = []
        for i, (t, o) in enumerate(zip(self.signature.results, out)):
            if o is None:
                shape = self._result_shape(t, arrays)
                o = (self.module.device_empty(shape, t.dtype)
                     if device_results else np.empty(shape, t.dtype))
            elif isinstance(o, DeviceArray):
                self._check_device_array("result", i, o)
            elif isinstance(o, np.ndarray):
                if not (o.flags.c_contiguous and o.flags.writeable):
                    raise TadError(f"{self.name}: result {i} (out=) must be "
                                   "a writeable C-contiguous array",
                                   _abi.ERROR_MEMORY)
            else:
                raise TypeError(f"{self.name}: result {i} (out=) must be a "
                                "NumPy array, a tad.DeviceArray or None, not "
                                f"{type(o).__name__}")
            results.append(o)
        return results

    def _check_overlap(self, arrays, results, given) -> None:
        """Results given with out= must not overlap arguments or results."""
        def span(a):
            if isinstance(a, DeviceArray):
                start = a.data_ptr
                return ("device", start, start + a.nbytes)
            start = a.ctypes.data
            return ("host", start, start + a.nbytes)
        spans = [("argument", i, span(a)) for i, a in enumerate(arrays)]
        spans += [("result", i, span(r)) for i, r in enumerate(results)]
        for i in given:
            kind, lo, hi = span(results[i])
            for what, j, (other_kind, olo, ohi) in spans:
                if (what, j) == ("result", i) or other_kind != kind:
                    continue
                if lo < ohi and olo < hi:
                    raise TadError(f"{self.name}: result {i} (out=) overlaps "
                                   f"{what} {j}; results must not overlap "
                                   "arguments or other results",
                                   _abi.ERROR_MEMORY)

    def _plain_call(self, args):
        """The common call: C-contiguous NumPy arrays in, fresh NumPy results
        out; the per-call Python cost is what dominates small modules.
        Through tad._fastcall where it is built; else reuses this thread's
        ctypes tensor arrays from the previous call and rewrites only the
        data pointers unless a shape or dtype changed.
        Returns None (nothing done) for anything else, which the general
        path handles (conversions, device arrays, error messages)."""
        results_types = self._result_types
        if results_types is None:
            return None
        for a in args:
            if type(a) is not np.ndarray and isinstance(a, np.ma.MaskedArray):
                return None  # refused by the general path
        if _fastcall is not None:
            results = [np.empty(shape, dtype) for shape, dtype in results_types]
            status = _fastcall.call(self._entry_address, args, results)
            if status == _fastcall.FALLBACK:
                return None
            if status != _abi.OK:
                raise TadError(self._message(status, {}), status)
            return results[0] if len(results) == 1 else tuple(results)
        for a in args:
            if (type(a) is not np.ndarray or not a.flags.c_contiguous or
                    not a.flags.aligned or a.dtype not in _abi.DTYPE_CODES or
                    a.dtype.kind in "ui" and a.dtype.itemsize == 2):
                return None  # (16-bit integers: bf16/f16 bits, _half_view)
        state = getattr(self._local, "state", None)
        if state is None or len(state[1]) != len(args):
            cresults = (_abi.Tensor * len(results_types))()
            for slot, (shape, dtype) in zip(cresults, results_types):
                slot.shape = _shape_buffer(shape) if shape else None
                slot.rank = len(shape)
                slot.dtype = _abi.DTYPE_CODES[dtype]
            cargs = (_abi.Tensor * len(args))() if args else None
            state = self._local.state = (cargs, [None] * len(args), cresults)
        cargs, keys, cresults = state
        for i, a in enumerate(args):
            key = (a.shape, a.dtype)
            slot = cargs[i]
            if keys[i] != key:
                slot.shape = _shape_buffer(a.shape) if a.ndim else None
                slot.rank = a.ndim
                slot.dtype = _abi.DTYPE_CODES[a.dtype]
                keys[i] = key
            slot.data = _address(a)
        results = [np.empty(shape, dtype) for shape, dtype in results_types]
        for slot, r in zip(cresults, results):
            slot.data = _address(r)
        status = self._entry(cargs, len(args), cresults if results else None,
                             len(results))
        if status != _abi.OK:
            raise TadError(self._message(status, {}), status)
        return results[0] if len(results) == 1 else tuple(results)

    def __call__(self, *args, out=None, device_results=False):
        if out is None and not device_results:
            results = self._plain_call(args)
            if results is not None:
                return results
        arrays = [a if isinstance(a, DeviceArray) else self._as_array(i, a)
                  for i, a in enumerate(args)]
        for i, a in enumerate(arrays):
            if isinstance(a, DeviceArray):
                self._check_device_array("argument", i, a)
        results = self._results(out, device_results, arrays)
        if out is not None:
            given = [i for i, o in enumerate(
                out if isinstance(out, (list, tuple)) else [out])
                if o is not None]
            self._check_overlap(arrays, results, given)

        # Arrays whose NumPy dtype has no tad code are passed with an
        # invalid code, so that the module reports them in order.
        unsupported = {i: a.dtype for i, a in enumerate(arrays)
                       if not isinstance(a, DeviceArray) and
                       a.dtype not in _abi.DTYPE_CODES}
        def tensors(arrays):
            if not arrays:
                return None
            out = (_abi.Tensor * len(arrays))()
            for i, array in enumerate(arrays):
                out[i].shape = _shape_buffer(array.shape) if array.ndim else None
                out[i].rank = array.ndim
                if isinstance(array, DeviceArray):
                    out[i].data = array.data_ptr or None
                    out[i].dtype = (_abi.DTYPE_CODES[array.dtype] |
                                    _abi.MEMORY_DEVICE)
                    continue
                out[i].data = array.ctypes.data
                out[i].dtype = _abi.DTYPE_CODES.get(array.dtype,
                                                    _abi.DTYPE_UNSUPPORTED)
            return out

        status = self._entry(tensors(arrays), len(arrays), tensors(results),
                             len(results))
        if status != _abi.OK:
            raise TadError(self._message(status, unsupported), status)
        return results[0] if len(results) == 1 else tuple(results)

    def _message(self, status: int, unsupported: dict) -> str:
        """The module's message, naming NumPy dtypes it has no code for."""
        message = self.module._last_error().decode("utf-8", "replace")
        if status == _abi.ERROR_DTYPE:
            for i, dtype in unsupported.items():
                prefix = f"{self.name}: argument {i} has "
                code = f"unknown dtype {_abi.DTYPE_UNSUPPORTED},"
                if message.startswith(prefix + code):
                    message = (f"{prefix}unsupported NumPy dtype {dtype},"
                               f"{message[len(prefix + code):]}")
        return message


class Module:
    """A loaded tad module.

    Each function is an attribute (``m.f``, ``m.f_vjp``) and an item
    (``m["f"]``, for names that are not identifiers or that collide with
    the attributes below). ``m.functions`` maps names to ``Signature``s.
    """

    def __init__(self, path: str, load_path: Optional[str] = None):
        self.path = path
        try:
            self._lib = ctypes.CDLL(load_path or path,
                                    mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as e:
            raise OSError(f"cannot load tad module: {e}") from None
        try:
            module_info, self._last_error = _abi.bind(self._lib)
        except AttributeError:
            raise TadError(f"{path}: not a tad module (it does not export "
                           "tad_module_info and tad_last_error)") from None
        table = module_info().contents
        if table.abi_version != _abi.ABI_VERSION:
            newer = table.abi_version > _abi.ABI_VERSION
            raise TadError(
                f"{path}: the module has ABI version {table.abi_version}, "
                f"this tad package ({_version.__version__}) reads ABI version "
                f"{_abi.ABI_VERSION}: "
                + ("use the tad package of the tadc that compiled it"
                   if newer else "recompile it with this tad's tadc"))
        self.abi_version = table.abi_version
        #: The tad release whose tadc compiled the module ("0.1.0").
        self.tad_version = (table.tad_version.decode("utf-8")
                            if table.tad_version else None)
        self._functions = {}
        for k in range(table.num_functions):
            info = table.functions[k]
            signature = _signature(path, info)
            if not info.entry:
                raise TadError(f"{path}: function '{signature.name}' has no "
                               "entry point")
            self._functions[signature.name] = Function(self, signature,
                                                       info.entry)
        self.functions = {name: f.signature
                          for name, f in self._functions.items()}
        #: The device memory API of a GPU module, None for a CPU module.
        self._device_api = _abi.bind_device(self._lib)
        #: ``"cuda"`` or ``"emulated"`` (``--gpu-emulate``) for a GPU module,
        #: None for a CPU module.
        self.device = (self._device_api["name"]().decode("utf-8")
                       if self._device_api else None)

    def memory_stats(self) -> dict:
        """Host memory of this module's compiled code, in bytes:
        ``live_bytes`` (temporaries allocated now), ``peak_bytes`` (the most
        live at once since the module was loaded or since
        ``reset_peak_memory()``) and ``cached_bytes`` (freed, kept for
        reuse). Results (NumPy arrays) are not counted; see docs/abi.md."""
        get, _ = self._memory_stats_api()
        stats = _abi.MemoryStats()
        get(ctypes.byref(stats))
        return {name: int(getattr(stats, name))
                for name, _ in _abi.MemoryStats._fields_}

    def reset_peak_memory(self) -> None:
        """Starts ``memory_stats()["peak_bytes"]`` again from what is live."""
        _, reset = self._memory_stats_api()
        reset()

    def _memory_stats_api(self):
        api = _abi.bind_memory_stats(self._lib)
        if api is None:
            raise TadError(f"{self.path}: the module has no memory statistics "
                           "(compiled by an older tadc): recompile it")
        return api

    def device_array(self, values, dtype=None) -> DeviceArray:
        """A copy of ``values`` (a NumPy array, or anything ``np.asarray``
        takes; ``dtype`` converts it first) in this GPU module's device
        memory, for calls without copies. Raises ``TadError`` for a CPU
        module."""
        if isinstance(values, DeviceArray):
            values = values.numpy()
        array = np.asarray(values, dtype=dtype)
        result = DeviceArray(self, array.shape, array.dtype)
        return result.upload(array)

    def device_empty(self, shape, dtype=np.float32) -> DeviceArray:
        """Uninitialized device memory for an array of ``shape`` and
        ``dtype`` (for ``out=``)."""
        return DeviceArray(self, shape, dtype)

    def __getattr__(self, name: str) -> Function:
        # Only called when normal lookup fails.
        functions = self.__dict__.get("_functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"tad module {self.__dict__.get('path')!r} has "
                             f"no function {name!r}")

    def __getitem__(self, name: str) -> Function:
        return self._functions[name]

    def __contains__(self, name: str) -> bool:
        return name in self._functions

    def __iter__(self):
        return iter(self._functions.values())

    def __len__(self) -> int:
        return len(self._functions)

    def __dir__(self):
        names = set(super().__dir__())
        names.update(n for n in self._functions if n.isidentifier())
        return sorted(names)

    def __repr__(self) -> str:
        lines = [f"<tad.Module {os.path.basename(self.path)!r}"]
        lines += [f"  {signature!r}" for signature in self.functions.values()]
        return "\n".join(lines) + ">"


def _tensor_type(path: str, fn: str, what: str, index: int,
                 t: _abi.TensorType) -> TensorType:
    """Copies a signature entry out of the module's table."""
    dtype = _abi.NUMPY_DTYPES.get(t.dtype)
    if dtype is None:
        raise TadError(f"{path}: {fn}: {what} {index} has dtype code "
                       f"{t.dtype}, which this tad package does not know")
    shape = tuple(None if t.shape[d] < 0 else int(t.shape[d])
                  for d in range(t.rank))
    # A dynamic size -1 - k is symbol k.
    symbols = tuple(-1 - int(t.shape[d]) if t.shape[d] < 0 else None
                    for d in range(t.rank))
    return TensorType(shape, dtype, symbols if None in shape else ())


def _signature(path: str, info: _abi.FunctionInfo) -> Signature:
    name = info.name.decode("utf-8")
    args = tuple(_tensor_type(path, name, "argument", i, info.args[i])
                 for i in range(info.num_args))
    results = tuple(_tensor_type(path, name, "result", i, info.results[i])
                    for i in range(info.num_results))
    return Signature(name, args, results)


# The file behind each path this process has dlopen'ed, by (device, inode,
# size, mtime): dlopen hands back the library already loaded under a name,
# so a file rebuilt since must be loaded from a private copy.
_loaded_files = {}


def load(path) -> Module:
    """Loads a tad-generated shared object.

    ``path`` is the ``.so`` written by ``tadc`` (or ``tad.compile``). The
    module is opened with ``RTLD_LOCAL`` so that several modules, each with
    its own copy of the runtime, live side by side in one process. Loading
    a path again after the file was rebuilt gives the new module (from a
    private copy; the old one stays valid if the file was replaced, not
    rewritten in place).
    """
    path = os.path.abspath(os.fspath(path))
    try:
        st = os.stat(path)
    except OSError as e:
        raise OSError(f"cannot load tad module: {e}") from None
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if _loaded_files.setdefault(os.path.realpath(path), key) == key:
        return Module(path)
    workdir = tempfile.TemporaryDirectory(prefix="tad-")
    try:
        copy = os.path.join(workdir.name, os.path.basename(path))
        shutil.copyfile(path, copy)
        module = Module(path, load_path=copy)
    except BaseException:
        workdir.cleanup()
        raise
    module._workdir = workdir  # removed with the module
    return module
