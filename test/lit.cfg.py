# -*- Python -*- lit configuration for tad.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "tad"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".yaml.test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tad_obj_root, "test")

config.environment["PYTHONPATH"] = os.path.join(config.tad_src_root, "runtime", "python")
config.environment["TADC"] = os.path.join(config.tad_tools_dir, "tadc")
config.environment["TAD_BUILD_DIR"] = config.tad_obj_root
# Numeric checks record their results here (docs/ops.md's coverage table).
config.environment["TAD_RESULTS_DIR"] = os.path.join(config.tad_obj_root, "test", "results")

# Pin the machine model the CPU schedules size their tiles from (an AVX-512
# core with 32 KiB L1, 1 MiB L2, two cores), so that a schedule test gives
# the same verdict whatever the host's sysfs, sysconf or core count say.
# The generated code still runs on the host (it targets the host's CPU).
for name, value in (("TAD_HOST_VECTOR_BITS", "512"),
                    ("TAD_HOST_VECTOR_REGISTERS", "32"),
                    ("TAD_HOST_L1_BYTES", "32768"),
                    ("TAD_HOST_L2_BYTES", "1048576"),
                    ("TAD_HOST_CORES", "2")):
    config.environment[name] = value

# The sanitized build (scripts/test-sanitized.sh) passes its settings.
llvm_config.with_system_environment(["HOME", "TMPDIR", "ASAN_OPTIONS",
                                     "UBSAN_OPTIONS", "LD_PRELOAD"])
# FileCheck, not, count, mlir-opt, mlir-runner from Debian's LLVM 22.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tad_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

# Debian's numpy/torch belong to /usr/bin/python3, not the pyenv python on PATH.
config.substitutions.append(("%python", "/usr/bin/python3"))
# The include flags of tad/runtime.h in the checkout: the header, and the
# tad/version.h that CMake generates into the build.
config.substitutions.append(("%tad_cflags", "-I{} -I{}".format(
    os.path.join(config.tad_src_root, "runtime", "include"),
    os.path.join(config.tad_obj_root, "include"))))
config.substitutions.append(("%tad_src", config.tad_src_root))
config.substitutions.append(("%tad_obj", config.tad_obj_root))
# The version of tad's top-level CMakeLists.txt (tadc --version, tad/version.h).
config.substitutions.append(("%tad_version", config.tad_version))
config.substitutions.append(("%tad_abi_version", config.tad_abi_version))
config.substitutions.append(("%tad_lib", config.tad_lib_dir))
# A sanitized build's runtime archive is instrumented by the compiler that
# built it (GCC, scripts/test-sanitized.sh): programs and modules that tests
# link against it are built by that compiler with the same sanitizers.
if "address" in getattr(config, "tad_sanitize", ""):
    config.available_features.add("asan")
if getattr(config, "tad_sanitize", ""):
    config.substitutions.append(
        ("%cc", "cc -fsanitize={}".format(config.tad_sanitize)))
else:
    config.substitutions.append(
        ("%cc", shutil.which("clang-22") or shutil.which("cc") or "cc"))

tool_dirs = [config.tad_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tad-opt", "tadc"], tool_dirs)

if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")


def _has_cuda_gpu():
    """Whether the CUDA driver loads and sees a device (GPU execution
    tests); without one they are reported UNSUPPORTED, not passed."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return (cuda.cuInit(0) == 0 and
                cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and
                count.value > 0)
    except (OSError, AttributeError):
        return False


if _has_cuda_gpu():
    config.available_features.add("cuda-gpu")

# The numeric and Python tests need Debian's NumPy; without it they are
# reported unsupported, not passed.
import subprocess

try:
    subprocess.run(["/usr/bin/python3", "-c", "import numpy"], check=True,
                   capture_output=True)
    config.available_features.add("numpy")
except (OSError, subprocess.CalledProcessError):
    pass

# The importer, example and benchmark tests need Debian's torch
# (python3-torch); the digits demo also python3-sklearn and python3-matplotlib.
for feature, module in (("torch", "torch"), ("sklearn", "sklearn"),
                        ("matplotlib", "matplotlib")):
    try:
        subprocess.run(["/usr/bin/python3", "-c", f"import {module}"], check=True,
                       capture_output=True)
        config.available_features.add(feature)
    except (OSError, subprocess.CalledProcessError):
        pass

# The data-parallel tests (test/MPI) run ranks with Open MPI's mpirun
# (openmpi-bin); the Python ones also need mpi4py (python3-mpi4py). As root,
# on a machine with few cores, in a container: the flags of %mpirun
# (docs/distributed.md).
if shutil.which("mpirun"):
    config.available_features.add("mpi")
    config.substitutions.append((
        "%mpirun",
        "timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none "
        "--mca btl self,vader --mca btl_vader_single_copy_mechanism none"))
    # Open MPI's headers (libopenmpi-dev), for C programs that call MPI.
    if os.path.exists("/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h"):
        config.available_features.add("mpi-dev")
    try:
        subprocess.run(["/usr/bin/python3", "-c", "import mpi4py"], check=True,
                       capture_output=True)
        config.available_features.add("mpi4py")
    except (OSError, subprocess.CalledProcessError):
        pass
