"""tad: load and call tad-compiled modules from Python.

    import numpy as np, tad
    m = tad.load("model.so")            # or tad.compile("model.mlir", vjp="f")
    print(m)                            # lists the functions and signatures
    y = m.f(x, w)                       # NumPy in, NumPy out
    y, gx, gw = m.f_vjp(x, w, np.ones_like(y))

Every call goes through the module's own boundary check, so a wrong shape,
dtype or argument count raises ``tad.TadError`` with the message a C caller
would read from ``tad_last_error()``. See docs/abi.md for the C ABI.

GPU modules (``tad.compile(..., target="cuda")``) also take arrays that stay
in device memory across calls (``m.device_array(x)``, ``tad.DeviceArray``;
docs/gpu.md).
"""

import os as _os
from pathlib import Path as _Path

# An installed package (cmake --install, the .deb; docs/install.md) holds
# every file, the generated ones included. In a checkout, CMake generates
# _version.py and builds the optional C extension tad._fastcall
# (runtime/python/fastcall.c) into <build>/python/tad/, which the package
# adds to its search path ($TAD_BUILD_DIR, else this checkout's build/).
if not _os.path.isfile(_os.path.join(__path__[0], "_version.py")):
    for _build in (_os.environ.get("TAD_BUILD_DIR"),
                   _Path(__file__).resolve().parents[3] / "build"):
        _extension_dir = _os.path.join(_build, "python", "tad") if _build else None
        if (_extension_dir and _os.path.isdir(_extension_dir) and
                _extension_dir not in __path__):
            __path__.append(_extension_dir)

try:
    from ._version import ABI_VERSION, __version__
except ImportError:
    raise ImportError(
        "tad: _version.py not found; in a checkout, CMake generates it into "
        "<build>/python/tad: build tad (scripts/setup.sh) or set TAD_BUILD_DIR "
        "to its build directory") from None
from ._abi import ERROR_ARG_COUNT as STATUS_ARG_COUNT
from ._abi import ERROR_DTYPE as STATUS_DTYPE
from ._abi import ERROR_INDEX as STATUS_INDEX
from ._abi import ERROR_MEMORY as STATUS_MEMORY
from ._abi import ERROR_NULL as STATUS_NULL
from ._abi import ERROR_RANK as STATUS_RANK
from ._abi import ERROR_RUNTIME as STATUS_RUNTIME
from ._abi import ERROR_SHAPE as STATUS_SHAPE
from ._abi import OK as STATUS_OK
from .compiler import CompileError, compile, find_tadc
from .device import DeviceArray, device_array
from .module import (Function, Module, Signature, TadError, TensorType,
                     load)
from ._recurrent import scan
from .bfloat16 import bf16_bits_to_float32, float32_to_bf16_bits
from ._dynamic import Dim
from .torch_import import (DynamicShapeError, TadImportError, UnsupportedOpError,
                           from_torch)
from .train import (SGD, Adam, AdamW, TrainStep, compile_train_step,
                    data_parallel_rank)

__all__ = [
    "__version__", "ABI_VERSION", "CompileError", "Function", "Module", "Signature",
    "TadError", "TensorType", "compile", "find_tadc", "load",
    "STATUS_OK", "STATUS_ARG_COUNT", "STATUS_NULL", "STATUS_DTYPE",
    "STATUS_RANK", "STATUS_SHAPE", "STATUS_RUNTIME", "STATUS_MEMORY",
    "STATUS_INDEX",
    "DeviceArray", "device_array",
    "from_torch", "scan", "Dim", "DynamicShapeError", "TadImportError",
    "UnsupportedOpError",
    "compile_train_step", "TrainStep", "SGD", "Adam", "AdamW",
    "data_parallel_rank", "bf16_bits_to_float32", "float32_to_bf16_bits",
]
