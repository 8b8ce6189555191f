"""ctypes mirror of ``runtime/include/tad/runtime.h``.

The layouts, enum values and the entry signature here must match the C
header of ``ABI_VERSION`` exactly; ``test/Runtime`` compares them with the C
compiler's.
"""

import ctypes

import numpy as np

from ._version import ABI_VERSION


class Tensor(ctypes.Structure):
    """``tad_tensor``: a caller-owned, contiguous, row-major buffer."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("rank", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
    ]


class TensorType(ctypes.Structure):
    """``tad_tensor_type``: the static type of an argument or result."""

    _fields_ = [
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
    ]


#: ``tad_entry_fn``. CFUNCTYPE calls release the GIL while the code runs.
EntryFn = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    ctypes.POINTER(Tensor),
    ctypes.c_int64,
    ctypes.POINTER(Tensor),
    ctypes.c_int64,
)


class FunctionInfo(ctypes.Structure):
    """``tad_function_info``: one exported function and its signature."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("entry", ctypes.c_void_p),
        ("num_args", ctypes.c_int32),
        ("num_results", ctypes.c_int32),
        ("args", ctypes.POINTER(TensorType)),
        ("results", ctypes.POINTER(TensorType)),
    ]


class ModuleTable(ctypes.Structure):
    """``tad_module_table`` (``struct tad_module_info``)."""

    _fields_ = [
        ("abi_version", ctypes.c_int32),
        ("num_functions", ctypes.c_int32),
        ("functions", ctypes.POINTER(FunctionInfo)),
        ("tad_version", ctypes.c_char_p),
    ]


# tad_dtype
DTYPE_F32 = 0
DTYPE_F64 = 1
DTYPE_I64 = 2
DTYPE_I32 = 3
DTYPE_BOOL = 4
DTYPE_BF16 = 5
DTYPE_F16 = 6

try:  # NumPy has no bfloat16; ml_dtypes (JAX's) adds one where installed
    import ml_dtypes
    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    BFLOAT16 = None

#: The NumPy dtype that holds bf16 values: ml_dtypes.bfloat16 where it is
#: installed, else uint16 arrays of the bf16 bits (tad.bf16_bits_to_float32
#: and tad.float32_to_bf16_bits convert them).
BF16_STORAGE = BFLOAT16 if BFLOAT16 is not None else np.dtype(np.uint16)

#: tad_dtype code -> NumPy dtype (native byte order).
NUMPY_DTYPES = {
    DTYPE_F32: np.dtype(np.float32),
    DTYPE_F64: np.dtype(np.float64),
    DTYPE_I64: np.dtype(np.int64),
    DTYPE_I32: np.dtype(np.int32),
    DTYPE_BOOL: np.dtype(np.bool_),
    DTYPE_BF16: BF16_STORAGE,
    DTYPE_F16: np.dtype(np.float16),
}
#: NumPy dtype -> tad_dtype code; other dtypes (and byte orders) have none.
#: A uint16 array is bf16 bits (and, passed for an f16 argument, f16 bits:
#: Function converts raw 16-bit views to the signature's type).
DTYPE_CODES = {dtype: code for code, dtype in NUMPY_DTYPES.items()}
#: tad_dtype code -> the name the runtime prints ("f32", ...).
DTYPE_NAMES = {
    DTYPE_F32: "f32",
    DTYPE_F64: "f64",
    DTYPE_I64: "i64",
    DTYPE_I32: "i32",
    DTYPE_BOOL: "bool",
    DTYPE_BF16: "bf16",
    DTYPE_F16: "f16",
}

# tad_status
OK = 0
ERROR_ARG_COUNT = 1
ERROR_NULL = 2
ERROR_DTYPE = 3
ERROR_RANK = 4
ERROR_SHAPE = 5
ERROR_RUNTIME = 6
ERROR_MEMORY = 7
ERROR_INDEX = 8

#: Memory flag or'ed into ``Tensor.dtype``: ``data`` is device memory.
MEMORY_DEVICE = 0x10000

#: Passed as the dtype of an array whose NumPy dtype has no tad code, so
#: that the module's own check reports it in its place among the others.
DTYPE_UNSUPPORTED = -1


def bind(lib):
    """Declares the exported runtime functions of a loaded module ``lib``.

    Returns ``(tad_module_info, tad_last_error)`` as ctypes functions, or
    raises ``AttributeError`` if ``lib`` does not export them.
    """
    module_info = lib.tad_module_info
    module_info.argtypes = []
    module_info.restype = ctypes.POINTER(ModuleTable)
    last_error = lib.tad_last_error
    last_error.argtypes = []
    last_error.restype = ctypes.c_char_p
    return module_info, last_error


class MemoryStats(ctypes.Structure):
    """``tad_memory_stats``."""
    _fields_ = [("live_bytes", ctypes.c_int64),
                ("peak_bytes", ctypes.c_int64),
                ("cached_bytes", ctypes.c_int64)]


def bind_memory_stats(lib):
    """``(tad_get_memory_stats, tad_reset_peak_memory)`` of ``lib``, or None
    for a module compiled by a tadc without them."""
    try:
        get, reset = lib.tad_get_memory_stats, lib.tad_reset_peak_memory
    except AttributeError:
        return None
    get.argtypes = [ctypes.POINTER(MemoryStats)]
    get.restype = None
    reset.argtypes = []
    reset.restype = None
    return get, reset


def bind_device(lib):
    """The device memory API of a GPU module ``lib`` as a dict of ctypes
    functions (``name``, ``alloc``, ``free``, ``upload``, ``download``), or
    None for a module without it (a CPU module)."""
    try:
        functions = {
            "name": lib.tad_device_name, "alloc": lib.tad_device_alloc,
            "free": lib.tad_device_free, "upload": lib.tad_device_upload,
            "download": lib.tad_device_download}
    except AttributeError:
        return None
    functions["name"].argtypes = []
    functions["name"].restype = ctypes.c_char_p
    functions["alloc"].argtypes = [ctypes.c_int64,
                                   ctypes.POINTER(ctypes.c_void_p)]
    functions["free"].argtypes = [ctypes.c_void_p]
    functions["upload"].argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                    ctypes.c_int64]
    functions["download"].argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_int64]
    for name in ("alloc", "free", "upload", "download"):
        functions[name].restype = ctypes.c_int32
    return functions
