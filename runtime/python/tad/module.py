"""Loading a tad-generated shared object and calling its functions."""

import ctypes
import os
import shutil
import tempfile
from typing import NamedTuple, Optional, Tuple

import numpy as np

from . import _abi


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
    ``dtype`` a NumPy dtype. Prints as ``f32[2, 3]``.
    """

    shape: Tuple[Optional[int], ...]
    dtype: np.dtype

    def __repr__(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
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
    signature's dtype first. The module checks every argument; a rejected
    call raises ``TadError`` with the same message a C caller would get.
    Results are allocated from the signature and returned: one array, or a
    tuple when the function has several results (for ``f_vjp``: the results,
    then the gradients).
    """

    def __init__(self, module: "Module", signature: Signature, entry: int):
        self.module = module  # keeps the library loaded
        self.signature = signature
        self.__name__ = signature.name
        self.__doc__ = repr(signature)
        self._entry = _abi.EntryFn(entry)

    @property
    def name(self) -> str:
        return self.signature.name

    def __repr__(self) -> str:
        return f"<tad.Function {self.signature!r}>"

    def _as_array(self, index: int, value) -> np.ndarray:
        """The array passed for argument ``index``."""
        if isinstance(value, (np.ndarray, np.generic)):
            return np.require(value, requirements=("C", "A"))
        array = np.asarray(value)
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

    def __call__(self, *args):
        arrays = [self._as_array(i, a) for i, a in enumerate(args)]
        results = []
        for i, t in enumerate(self.signature.results):
            if None in t.shape:
                raise TadError(f"{self.name}: result {i} has a dynamic shape, "
                               "which the Python loader cannot allocate yet",
                               _abi.ERROR_SHAPE)
            results.append(np.empty(t.shape, t.dtype))

        # Arrays whose NumPy dtype has no tad code are passed with an
        # invalid code, so that the module reports them in order.
        unsupported = {i: a.dtype for i, a in enumerate(arrays)
                       if a.dtype not in _abi.DTYPE_CODES}
        keep = []  # shape buffers, alive until the call returns

        def tensors(arrays):
            if not arrays:
                return None
            out = (_abi.Tensor * len(arrays))()
            for i, array in enumerate(arrays):
                shape = (ctypes.c_int64 * array.ndim)(*array.shape)
                keep.append(shape)
                out[i].data = array.ctypes.data
                out[i].shape = shape if array.ndim else None
                out[i].rank = array.ndim
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
            raise TadError(f"{path}: the module has ABI version "
                           f"{table.abi_version}, this tad package reads "
                           f"version {_abi.ABI_VERSION}")
        self.abi_version = table.abi_version
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
    return TensorType(shape, dtype)


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
