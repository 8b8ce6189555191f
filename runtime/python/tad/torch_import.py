"""Importing PyTorch modules into the tad dialect: ``tad.from_torch``.

    import torch, tad
    text = tad.from_torch(model, (x,))          # MLIR text, function @forward
    m = tad.compile(text, vjp="forward")

The module is traced at the ATen level with ``make_fx`` (after
``functionalize``, so in-place ops become their functional forms); the
module's parameters are lifted to function arguments (inputs first, then
parameters in ``named_parameters()`` order). Each ATen op
``aten.<name>.<overload>`` becomes ``tad.<name>.<overload>`` (``tad.<name>``
for the ``default`` overload), printed in MLIR's generic form: tensor
arguments are operands (``Tensor?`` None is omitted, ``Tensor[]`` is
variadic), the other arguments are attributes named as in the schema, and
result types are those of the traced tensors. An op that tad does not have is
an ``UnsupportedOpError`` naming the op and the Python source line. The
decisions (which ops are identities, how constants and buffers are treated)
are in docs/importer.md.
"""

import contextlib
import contextvars
import functools
import os
import re
import struct
import subprocess
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _dynamic, _normalization, _recurrent
from ._dynamic import DynamicShapeError

__all__ = ["TadImportError", "UnsupportedOpError", "ImportedFunction",
           "available_ops", "from_torch", "import_function", "trace"]


class TadImportError(RuntimeError):
    """The importer cannot translate a program faithfully."""


class UnsupportedOpError(TadImportError):
    """A traced ATen op that tad has no op for; ``op`` is its ATen name
    (``aten.gelu.default``) and ``location`` the user's source line."""

    def __init__(self, message, op=None, location=None):
        super().__init__(message)
        self.op = op
        self.location = location


# --------------------------------------------------------------------------
# The registered tad ops
# --------------------------------------------------------------------------

class OpInfo(NamedTuple):
    name: str            # "tad.add.Tensor"
    schema: str          # ATen schema, "" for non-ATen ops
    attributes: Tuple[str, ...]


def _repo_root() -> str:
    # runtime/python/tad/torch_import.py -> <repo>
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def _parse_ops_doc(text: str) -> Dict[str, OpInfo]:
    ops = {}
    for line in text.splitlines():
        m = re.match(r"^\| `(tad\.[\w.]+)` \| (.*?) \| .*? \| .*? \| (.*) \|\s*$", line)
        if not m:
            continue
        name, schema, attrs = m.groups()
        schema = schema.strip("`") if schema.startswith("`") else ""
        ops[name] = OpInfo(name, schema, tuple(re.findall(r"`(\w+)`:", attrs)))
    return ops


@functools.lru_cache(maxsize=None)
def available_ops() -> Dict[str, OpInfo]:
    """The ops of the tad dialect: ``{"tad.addmm": OpInfo, ...}``.

    Read from ``tadc --list-ops`` where tadc has it, else from
    ``$TAD_OPS_DOC`` or the checkout's ``docs/ops.md`` (generated from the
    dialect's ODS and checked to be current by the test suite).
    """
    from .compiler import find_tadc
    tadc = find_tadc()
    if os.path.isfile(tadc):
        try:
            proc = subprocess.run([tadc, "--list-ops"], capture_output=True,
                                  text=True, timeout=60)
            if proc.returncode == 0 and proc.stdout.strip():
                ops = _parse_ops_doc(proc.stdout) or _parse_op_lines(proc.stdout)
                if ops:
                    return ops
        except (OSError, subprocess.SubprocessError):
            pass
    path = os.environ.get("TAD_OPS_DOC") or os.path.join(_repo_root(), "docs", "ops.md")
    if not os.path.isfile(path):
        raise TadImportError(f"cannot list tad's ops: no {path} (set TAD_OPS_DOC)")
    with open(path, encoding="utf-8") as f:
        return _parse_ops_doc(f.read())


def _parse_op_lines(text: str) -> Dict[str, OpInfo]:
    """``tadc --list-ops`` lines: ``tad.NAME<TAB>SCHEMA<TAB>attr,attr``."""
    ops = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if not parts[0].startswith("tad."):
            continue
        schema = parts[1] if len(parts) > 1 and parts[1] != "-" else ""
        attrs = tuple(a for a in parts[2].split(",") if a) if len(parts) > 2 else ()
        ops[parts[0]] = OpInfo(parts[0], schema, attrs)
    return ops


def has_op(name: str) -> bool:
    return name in available_ops()


# --------------------------------------------------------------------------
# Tracing
# --------------------------------------------------------------------------

def _torch():
    import torch  # noqa: F401  (imported lazily: tad works without torch)
    return torch


def trace(fn, example_args: Sequence, recurrent: str = "loop"):
    """``fn`` traced at the ATen level: a ``torch.fx.GraphModule`` whose
    nodes carry ``stack_trace``. In-place ops are functionalized.
    ``recurrent``: "loop" traces ``nn.RNN``/``nn.LSTM``/``nn.GRU`` as one op
    each that becomes an ``scf.for`` over time (_recurrent.py); "unroll"
    lets PyTorch unroll them step by step."""
    torch = _torch()
    if recurrent not in ("loop", "unroll"):
        raise ValueError(f"recurrent must be 'loop' or 'unroll', not {recurrent!r}")
    loops = _recurrent.as_loops() if recurrent == "loop" else contextlib.nullcontext()
    from torch.fx.experimental.proxy_tensor import PythonKeyTracer, make_fx
    try:
        from functorch import functionalize
    except ImportError:  # newer torch
        from torch.func import functionalize
    saved = PythonKeyTracer.record_stack_traces
    PythonKeyTracer.record_stack_traces = True
    try:
        dynamic = _SIZES_AT_RUN_TIME.get()
        norms = _normalization.instance_norm_from_statistics() if dynamic \
            else contextlib.nullcontext()
        table = {**_decompositions(), **_normalization.group_norm_table()} if dynamic \
            else _decompositions()
        with loops, norms:
            try:
                return make_fx(functionalize(fn), decomposition_table=table)(*example_args)
            except RuntimeError as e:
                if not _missing_half_kernel(e):
                    raise
                # A decomposition (or the module) calls an op that PyTorch
                # has no CPU kernel for in this dtype (float16 floor, log,
                # addmm... in 1.13). Tracing needs only shapes and dtypes:
                # trace again on fake tensors, which run no kernel.
                try:
                    gm = make_fx(functionalize(fn), decomposition_table=table,
                                 tracing_mode="fake")(*example_args)
                    _check_no_fake_constants(gm)
                    return gm
                except Exception:
                    raise TadImportError(
                        f"cannot trace{_torch_frame(e)}: PyTorch has no CPU kernel for it "
                        f"in this dtype ({_first_line(e)}), and tracing on fake tensors "
                        f"failed too{_user_frame(e)}") from None
    except RuntimeError as e:
        if not isinstance(e, TadImportError) and _refuses_half(e, example_args):
            raise TadImportError(
                f"cannot trace{_torch_frame(e)}: PyTorch refuses the 16-bit float dtype "
                f"in an op that the function calls ({_first_line(e)}){_user_frame(e)}") from None
        if "data-dependent" in str(e) or "get value out of a tracing tensor" in str(e):
            raise TadImportError(
                f"cannot trace{_torch_frame(e)}: it reads a tensor's value in Python "
                "(data-dependent control flow or .item(), e.g. a check of its inputs' "
                "values), which an ahead-of-time trace cannot follow"
                f"{_user_frame(e)}") from None
        raise
    finally:
        PythonKeyTracer.record_stack_traces = saved


def _torch_frame(exc) -> str:
    """``" torch.nn.functional.f (file:line: code)"``: the innermost frame
    of ``exc``'s traceback in ``torch.nn`` (the library function that read
    the value), or ""."""
    import traceback
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith("/torch/nn/functional.py") or (
                "/torch/nn/modules/" in frame.filename and
                not frame.filename.endswith("/module.py")):
            module = frame.filename[frame.filename.rfind("/torch/nn/") + 1:-3].replace("/", ".")
            module = module.replace("torch.nn.modules.", "torch.nn.").replace(".__init__", "")
            return (f" {module}.{frame.name} ({os.path.basename(frame.filename)}:"
                    f"{frame.lineno}: {(frame.line or '').strip()})")
    return ""


def _missing_half_kernel(exc) -> bool:
    """Whether ``exc`` is PyTorch's "not implemented for 'Half'" (or
    'BFloat16'): a CPU kernel missing for a 16-bit float dtype."""
    return bool(re.search(r"not implemented for '(Half|BFloat16)'", str(exc)))


def _refuses_half(exc, example_args) -> bool:
    """Whether ``exc`` is PyTorch refusing a float16 or bfloat16 argument
    by design (its linalg, FFT and quantile functions take only float32 and
    float64; ``stft``'s FFT kernel, reached without that check, fails on
    its complex output type) while tracing a function called with such an
    argument."""
    torch = _torch()
    if not any(isinstance(a, torch.Tensor) and a.dtype in (torch.float16, torch.bfloat16)
               for a in torch.utils._pytree.tree_flatten(example_args)[0]):
        return False
    return bool(re.search(r"\b(Half|BFloat16|ComplexHalf)\b|Low precision dtypes|"
                          r"float or double|float, double|"
                          r"expected scalar type Complex\w* but found Complex", str(exc)))


def _check_no_fake_constants(gm):
    """Raises where a fake-tensor trace holds a constant made while tracing
    (a fake tensor, whose values the importer cannot read)."""
    from torch._subclasses import FakeTensor
    for name, value in list(gm.named_buffers()) + list(vars(gm).items()):
        if isinstance(value, FakeTensor):
            raise RuntimeError(f"the trace holds a fake constant {name}")


def _call_widened(target, args, kwargs):
    """``target`` on float32 copies of its 16-bit float tensors, float32
    results rounded back: the value of an op that PyTorch has no CPU
    kernel for in that dtype (the importer needs its shape and dtype, and
    the values of constants, which ATen computes in float32 too). A
    factory op (``eye``, ``arange``...) asked for a 16-bit ``dtype`` makes
    float32."""
    torch = _torch()
    pytree = torch.utils._pytree
    halves = (torch.float16, torch.bfloat16)

    def is_half(a):
        return isinstance(a, torch.Tensor) and a.dtype in halves
    half = next((a.dtype for a in pytree.tree_flatten((args, kwargs))[0] if is_half(a)), None)
    args, kwargs = pytree.tree_map(lambda a: a.float() if is_half(a) else a, (args, kwargs))
    if kwargs.get("dtype") in halves:
        half = half or kwargs["dtype"]
        kwargs = dict(kwargs, dtype=torch.float32)
    return pytree.tree_map(
        lambda r: r.to(half) if half and isinstance(r, torch.Tensor) and r.dtype == torch.float32
        else r, target(*args, **kwargs))


def _first_line(exc) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def _user_frame(exc) -> str:
    """``"\n  at file:line: code"`` of the innermost frame of ``exc``'s
    traceback outside torch and tad (the module's own code), or ""."""
    import traceback
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        real = os.path.realpath(frame.filename)
        if frame.filename.startswith("<") or any(real.startswith(d) for d in _internal_dirs()):
            continue
        return f"\n  at {frame.filename}:{frame.lineno}: {(frame.line or '').strip()}"
    return ""


_DECOMPOSITIONS = None


def _decompositions():
    """PyTorch's own decompositions (``torch._decomp``, into ATen ops) of
    the ops tad has no op for, applied while tracing: ``rsub.Tensor``,
    ``norm.ScalarOpt_dim``, ``xlogy.Tensor``, ... The decompositions of
    ``torch._refs`` (into ``prims``) are not used."""
    global _DECOMPOSITIONS
    if _DECOMPOSITIONS is None:
        try:
            from torch._decomp import decomposition_table
        except ImportError:
            decomposition_table = {}
        torch = _torch()
        ops = available_ops()
        table = {}
        for op, fn in decomposition_table.items():
            if not getattr(fn, "__module__", "").startswith("torch._decomp"):
                continue
            if not hasattr(op, "_schema") or op._schema.is_mutable:
                continue
            key = _op_key(op)
            name, overload = key.rsplit(".", 1)
            if key in IDENTITY_OPS or key in RENAMED_OPS or key in _KEEP_OPS:
                continue
            if tad_op_name(name, overload) not in ops:
                table[op] = fn
        from ._decompositions import table as importer_table
        for op, fn in importer_table().items():
            # index.Tensor, convolution, sum: only the forms tad's ops lack
            # (None indices, transposed, integer sums; NotImplemented for
            # the others)
            if tad_op_name(*_op_key(op).rsplit(".", 1)) not in ops or \
                    op in (torch.ops.aten.index.Tensor, torch.ops.aten.convolution.default,
                           torch.ops.aten.sum.dim_IntList, torch.ops.aten.sum.default):
                table[op] = fn
        table[torch.ops.aten._local_scalar_dense.default] = _read_bool
        _DECOMPOSITIONS = table
    return _DECOMPOSITIONS


def _read_bool(t):
    """A Python bool read from a traced tensor (``if torch.any(var < 0):``)
    is evaluated on the example values: the branch taken is baked in, as
    for any traced control flow. Reading a number is refused (it would
    become a constant of the program)."""
    torch = _torch()
    if t.dtype != torch.bool:
        raise RuntimeError("It appears that you're trying to get value out of a tracing "
                           "tensor (data-dependent control flow or similar)")
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
    import warnings
    with disable_proxy_modes_tracing():
        value = bool(torch.ops.aten._local_scalar_dense.default(t))
    warnings.warn(f"tad.from_torch: a bool read from a tensor was {value} on the example "
                  "inputs; the traced program keeps that branch", stacklevel=2)
    return value


_INTERNAL_DIRS = None


def _internal_dirs():
    global _INTERNAL_DIRS
    if _INTERNAL_DIRS is None:
        torch = _torch()
        dirs = [os.path.dirname(torch.__file__), os.path.dirname(__file__)]
        try:
            import functorch
            dirs.append(os.path.dirname(functorch.__file__))
        except ImportError:
            pass
        _INTERNAL_DIRS = [os.path.realpath(d) + os.sep for d in dirs]
    return _INTERNAL_DIRS


def source_location(node) -> Optional[str]:
    """``file:line: code`` of the innermost user frame that made ``node``."""
    trace_text = getattr(node, "stack_trace", None) or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n(?:    (.*)\n?)?', trace_text)
    for path, line, func, code in frames:
        real = os.path.realpath(path)
        if path.startswith("<") or any(real.startswith(d) for d in _internal_dirs()):
            continue
        where = f"{path}:{line}"
        return f"{where}: {code.strip()}" if code else where
    return None


# --------------------------------------------------------------------------
# Types and constants
# --------------------------------------------------------------------------

_DTYPES = None


def _dtype_table():
    global _DTYPES
    if _DTYPES is None:
        torch = _torch()
        _DTYPES = {torch.float32: "f32", torch.float64: "f64",
                   torch.bfloat16: "bf16", torch.float16: "f16",
                   torch.int64: "i64", torch.int32: "i32", torch.bool: "i1"}
    return _DTYPES


def _element_type(dtype, what) -> str:
    try:
        return _dtype_table()[dtype]
    except KeyError:
        raise TadImportError(f"{what}: dtype {dtype} is not supported by tad "
                             "(f32, f64, bf16, f16, i64, i32, bool)") from None


def tensor_type(t, what="tensor") -> str:
    dims = "".join(f"{d}x" for d in t.shape)
    return f"tensor<{dims}{_element_type(t.dtype, what)}>"


def _with_element(type_text: str, element: str) -> str:
    """A tensor type's text with another element type."""
    dims, _, _ = type_text[len("tensor<"):-1].rpartition("x")
    return "tensor<" + (dims + "x" if dims else "") + element + ">"


def format_float(v: float) -> str:
    """An MLIR float literal (hexadecimal bits for inf and nan)."""
    v = float(v)
    if v != v or v in (float("inf"), float("-inf")):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    text = repr(v)
    if "." not in text:
        text = text.replace("e", ".0e") if "e" in text else text + ".0"
    return text


def dense_literal(t) -> str:
    """``dense<...>`` for a tensor's values (raw little-endian hex bytes, so
    every value including inf and nan round-trips exactly)."""
    t = t.detach().cpu().contiguous()
    if t.dtype == _torch().bfloat16:  # NumPy has no bf16: its bits
        t = t.view(_torch().int16)
    a = t.numpy()
    if a.dtype == np.bool_:
        flat = ["true" if b else "false" for b in a.reshape(-1)]
        if len(set(flat)) == 1 and flat:
            return f"dense<{flat[0]}>"
        return "dense<[" + ", ".join(flat) + "]>" if a.ndim == 1 else \
            "dense<" + _nested(a.tolist()) + ">"
    a = a.astype(a.dtype.newbyteorder("<"), copy=False)
    if a.size and np.all(a.reshape(-1) == a.reshape(-1)[0]) and \
            not np.isnan(a.reshape(-1)[0] if a.dtype.kind == "f" else 0):
        data = a.reshape(-1)[:1].tobytes()  # splat
    else:
        data = a.tobytes()
    return 'dense<"0x' + data.hex().upper() + '">'


def _nested(x) -> str:
    if isinstance(x, list):
        return "[" + ", ".join(_nested(e) for e in x) + "]"
    return "true" if x else "false"


# --------------------------------------------------------------------------
# Mapping ATen ops to tad ops
# --------------------------------------------------------------------------

#: ATen ops that are identities on values (tad has value semantics: there is
#: no aliasing, layout or autograd state to preserve).
IDENTITY_OPS = {
    "clone.default", "alias.default", "lift_fresh_copy.default",
    "lift_fresh.default", "contiguous.default", "_to_copy.default",
    "to.dtype", "to.dtype_layout", "dropout.default",
}
#: Identities only when the result has the operand's dtype (else: a cast).
_SAME_DTYPE_ONLY = {"_to_copy.default", "to.dtype", "to.dtype_layout"}

#: Ops whose value depends on their tensor operands' shapes and dtypes only
#: (static in tad): folded into constants like input-independent subgraphs.
DATA_INDEPENDENT_OPS = {
    "new_zeros.default", "new_ones.default", "new_full.default", "zeros_like.default",
    "ones_like.default", "full_like.default", "scalar_tensor.default",
    "empty_like.default", "new_empty.default", "empty_strided.default",
    "new_empty_strided.default",
}

#: ATen ops printed as another tad op with the arguments renamed/dropped.
#: value: (tad op, {aten arg -> tad attribute}, [aten args to drop])
RENAMED_OPS = {
    "_unsafe_view.default": ("tad.view", {}, []),
    "_reshape_alias.default": ("tad.view", {}, ["stride"]),
    # "unsafe" only about autograd's view tracking (LSTM/GRU gates)
    "unsafe_split.Tensor": ("tad.split.Tensor", {}, []),
    "unsafe_split_with_sizes.default": ("tad.split_with_sizes", {}, []),
}

#: Ops that PyTorch can decompose but the importer maps itself.
_KEEP_OPS = {"detach.default", "lift.default", "lift_fresh.default", "slice.Tensor",
             "dropout.default", "native_dropout.default", "_fused_dropout.default"}

#: Ops whose result has the shape and dtype of an operand but unspecified
#: contents: evaluated as zeros (a program that reads them before writing
#: them reads garbage in PyTorch too).
_UNINITIALIZED_OPS = {"empty_like.default", "new_empty.default",
                      "empty.memory_format", "new_empty_strided.default",
                      "empty_strided.default"}

#: Schema argument types that tad never models as attributes; they must
#: have their default (None) or, for dtypes, the value the result has anyway.
_UNMODELED = ("dtype", "layout", "device", "pin_memory", "memory_format",
              "generator", "non_blocking")


def tad_op_name(aten_name: str, overload: str) -> str:
    return f"tad.{aten_name}" if overload == "default" else f"tad.{aten_name}.{overload}"


class _ConstantNode(NamedTuple):
    """A value made by the importer in place of an fx node (a constant)."""
    value: object


class _Value(NamedTuple):
    ref: str      # "%3", "%4#1", "%arg0"
    type: str     # "tensor<2x3xf32>"


class ImportedFunction(NamedTuple):
    """What ``import_function`` made: ``text`` is the ``func.func``."""

    name: str
    text: str
    arg_types: Tuple[str, ...]
    result_types: Tuple[str, ...]
    #: indices (into the traced arguments) of buffers updated by the
    #: function; their new values are the last results, in this order.
    updated_buffers: Tuple[int, ...]


class _Emitter:
    def __init__(self, gm, example_args, name, nondiff, const_args, arg_names,
                 params=(), originals=(), unused_ok=None):
        self.gm = gm
        self.args = list(example_args)
        self.name = name
        self.nondiff = set(nondiff)
        self.const_args = set(const_args)
        self.arg_names = arg_names
        self.params = list(params)
        self.originals = list(originals)
        self.unused_ok = unused_ok
        self.lines: List[str] = []
        self.counter = 0
        self.env: Dict[object, object] = {}     # node -> concrete value
        self.const: Dict[object, bool] = {}    # node -> input-independent
        self.ssa: Dict[object, object] = {}     # node -> _Value or list
        self.const_cache: Dict[int, _Value] = {}
        self.mutations = set()  # in-place ops on tensors made inside the function
        self.ops = available_ops()

    # -- helpers -----------------------------------------------------------
    def fresh(self) -> str:
        r = f"%{self.counter}"
        self.counter += 1
        return r

    def error(self, node, message, cls=TadImportError, op=None):
        loc = source_location(node)
        where = f"\n  at {loc}" if loc else "\n  (no Python source line recorded)"
        if cls is UnsupportedOpError:
            raise UnsupportedOpError(message + where, op=op, location=loc)
        raise cls(message + where)

    def constant(self, value, node=None) -> _Value:
        torch = _torch()
        if not isinstance(value, torch.Tensor):
            raise TadImportError(f"cannot make a constant of {value!r}")
        key = id(value)
        if key in self.const_cache:
            return self.const_cache[key]
        ty = tensor_type(value, "constant")
        ref = self.fresh()
        self.lines.append(f'  {ref} = "tad.constant"() {{value = {dense_literal(value)} : {ty}}}'
                          f" : () -> {ty}")
        v = _Value(ref, ty)
        self.const_cache[key] = v
        self._keep = getattr(self, "_keep", [])
        self._keep.append(value)
        return v

    def value_of(self, node, arg) -> object:
        """The SSA value(s) of an fx argument (a node or a list of nodes)."""
        fx = __import__("torch").fx
        if isinstance(arg, _ConstantNode):
            return self.constant(arg.value, node)
        if isinstance(arg, fx.Node):
            if self.const.get(arg) and arg not in self.ssa:
                val = self.env[arg]
                if isinstance(val, (list, tuple)):
                    return [self.constant(v, node) for v in val]
                return self.constant(val, node)
            return self.ssa[arg]
        if isinstance(arg, (list, tuple)):
            return [self.value_of(node, a) for a in arg]
        return arg

    # -- the walk ----------------------------------------------------------
    def run(self) -> ImportedFunction:
        torch = _torch()
        fx = torch.fx
        graph = self.gm.graph
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(self.args):
            raise TadImportError("traced graph has %d inputs for %d arguments"
                                 % (len(placeholders), len(self.args)))

        # Mutations left after functionalization: copy_ into an input.
        updated = self.batch_norm_updates(graph, placeholders)
        for n in list(graph.nodes):
            if n.op != "call_function" or not hasattr(n.target, "_schema"):
                continue
            if n.target._schema.is_mutable:
                dest = n.args[0] if n.args else None
                if n.target is torch.ops.aten.copy_.default and dest in placeholders:
                    idx = placeholders.index(dest)
                    if idx in self.const_args and \
                            self.arg_names[idx].endswith("num_batches_tracked"):
                        # BatchNorm's batch counter only matters for
                        # momentum=None, which tracing folds to a constant
                        # anyway: the buffer stays a constant (docs/importer.md).
                        graph.erase_node(n)
                        continue
                    if idx not in self.const_args:
                        self.error(n, f"the traced function writes into its input {idx} "
                                   f"({self.arg_names[idx]}); only buffers may be updated")
                    updated.append((idx, n.args[1]))
                    graph.erase_node(n)
                    continue
                if dest is None or dest in placeholders:
                    self.error(n, f"aten.{_op_key(n.target)} mutates its arguments; "
                               "tad has value semantics and cannot import it",
                               UnsupportedOpError, op=f"aten.{_op_key(n.target)}")
                # A tensor made inside the function (not seen by
                # functionalize, e.g. a mask built from a captured one):
                # evaluated at import time if it is input-independent.
                self.mutations.add(n)
        # Dead code elimination that keeps the new values of updated buffers
        # and the in-place updates of live tensors.
        live, stack = set(), [n for n in graph.nodes if n.op == "output"]
        stack += [src for _, src in updated]
        while stack:
            while stack:
                node = stack.pop()
                if node not in live:
                    live.add(node)
                    stack.extend(node.all_input_nodes)
            stack = [m for m in self.mutations if m not in live and m.args[0] in live]
        for node in reversed(list(graph.nodes)):
            if node not in live and node.op != "placeholder" and not node.users:
                graph.erase_node(node)
        self.check_parameters(graph, placeholders)

        # Evaluate the whole graph once on the example values (types of every
        # value, and the values of input-independent subgraphs).
        arg_types = []
        for i, (n, a) in enumerate(zip(placeholders, self.args)):
            self.env[n] = a
            if i in self.const_args and i not in {u for u, _ in updated}:
                self.const[n] = True
                continue
            self.const[n] = False
            ty = tensor_type(a, f"argument {i} ({self.arg_names[i]})")
            attr = " {tad.nondiff}" if i in self.nondiff and a.dtype.is_floating_point else ""
            self.ssa[n] = _Value(f"%arg{len(arg_types)}", ty)
            arg_types.append(ty + attr)

        result_refs = self.walk(graph, updated)

        lines = []
        sig = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
        res_types = [v.type for v in result_refs]
        res = res_types[0] if len(res_types) == 1 else "(" + ", ".join(res_types) + ")"
        lines.append(f"func.func @{self.name}({sig}) -> {res} {{")
        lines += self.lines
        lines.append("  return " + ", ".join(v.ref for v in result_refs) + " : "
                     + ", ".join(res_types))
        lines.append("}")
        return ImportedFunction(self.name, "\n".join(lines) + "\n",
                                tuple(t.split(" ")[0] for t in arg_types),
                                tuple(res_types), tuple(i for i, _ in updated))

    def walk(self, graph, updated=()):
        """Emits the ops of `graph` whose values depend on the inputs (the
        placeholders' values and SSA names are set); returns the values of
        its outputs, then of the buffers in `updated`."""
        torch = _torch()
        fx = torch.fx
        result_refs = []
        for n in graph.nodes:
            if n.op == "placeholder":
                continue
            if n.op == "get_attr":
                self.env[n] = _fetch_attr(self.gm, n.target)
                self.const[n] = True
                continue
            if n.op == "output":
                outs = torch.utils._pytree.tree_flatten(n.args[0])[0]
                for o in outs:
                    if not isinstance(o, fx.Node):
                        self.error(n, f"the function returns {o!r}, not a tensor")
                    v = self.value_of(n, o)
                    if isinstance(v, list):
                        self.error(n, "the function returns a list of tensors")
                    result_refs.append(v)
                for idx, src in updated:
                    result_refs.append(self.value_of(n, src))
                continue
            assert n.op == "call_function", n.op
            args = torch.fx.node.map_arg(n.args, lambda a: self.env[a])
            kwargs = torch.fx.node.map_arg(n.kwargs, lambda a: self.env[a])
            try:
                self.env[n] = n.target(*args, **kwargs)
            except RuntimeError as e:
                if not _missing_half_kernel(e):
                    raise
                self.env[n] = _call_widened(n.target, args, kwargs)
            if _op_key_or_none(n.target) in _UNINITIALIZED_OPS:
                self.env[n] = torch.zeros_like(self.env[n])
            inputs = n.all_input_nodes
            self.const[n] = all(self.const[i] for i in inputs) or \
                _op_key_or_none(n.target) in DATA_INDEPENDENT_OPS
            if n in self.mutations:
                if not self.const[n]:
                    self.error(n, f"aten.{_op_key(n.target)} mutates a tensor that depends "
                               "on the inputs; tad has value semantics and cannot import it",
                               UnsupportedOpError, op=f"aten.{_op_key(n.target)}")
                # later uses of the updated tensor get a new constant
                self.const_cache.pop(id(self.env[n.args[0]]), None)
                continue
            if self.const[n]:
                continue
            self.emit(n)
        return result_refs

    def inline(self, bindings):
        """Emits the graph's ops with its placeholders bound to the SSA
        values `bindings` (a loop body, _recurrent.py); returns the values
        of its outputs."""
        graph = self.gm.graph
        graph.eliminate_dead_code()
        for n in graph.nodes:
            if n.op == "call_function" and getattr(n.target, "_schema", None) is not None \
                    and n.target._schema.is_mutable:
                self.error(n, f"aten.{_op_key(n.target)} mutates its arguments; "
                           "tad has value semantics and cannot import it",
                           UnsupportedOpError, op=f"aten.{_op_key(n.target)}")
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        for n, example, value in zip(placeholders, self.args, bindings):
            self.env[n] = example
            self.const[n] = False
            self.ssa[n] = value
        return self.walk(graph)

    def check_parameters(self, graph, placeholders):
        """Every parameter must reach the program through its argument.

        A module that reads a parameter through something other than the
        attribute ``functional_call`` swaps (a cached list of its tensors,
        a copy) is traced with the parameter's value folded into a constant:
        the forward is right but the gradient would be zero. Such a
        constant (sharing the parameter's storage, or equal to it bit for
        bit) and a parameter without a use are errors, unless PyTorch's own
        autograd gives that parameter no gradient either.
        """
        if not self.params:
            return
        torch = _torch()

        def storage_ptr(t):
            try:
                return t.storage().data_ptr() if t.numel() else None
            except (RuntimeError, NotImplementedError):
                return None

        params = [(i, self.originals[i]) for i in self.params]
        folded = {}  # parameter index -> a node using the constant
        for n in graph.nodes:
            if n.op != "get_attr" or not n.users:
                continue
            value = _fetch_attr(self.gm, n.target)
            if not isinstance(value, torch.Tensor):
                continue
            for i, p in params:
                ptr = storage_ptr(value)
                aliased = ptr is not None and ptr == storage_ptr(p)
                # A parameter with a single value (zeros, ones) equals many
                # constants by chance; only a varied one identifies itself.
                equal = (value.shape == p.shape and value.dtype == p.dtype and
                         p.numel() > 1 and bool((p.reshape(-1) != p.reshape(-1)[0]).any())
                         and torch.equal(value.detach(), p.detach()))
                if aliased or equal:
                    folded.setdefault(i, next(iter(n.users)))
        unused = [i for i in self.params if not placeholders[i].users]
        suspects = sorted(set(folded) | set(unused))
        if not suspects:
            return
        names = [self.arg_names[i] for i in suspects]
        legit = self.unused_ok(names) if self.unused_ok else set()
        for i in suspects:
            name = self.arg_names[i]
            if name in legit:
                continue
            if i in folded:
                self.error(folded[i], f"parameter '{name}' reaches the traced program as "
                           "a constant, not through its argument (the module reads it other "
                           "than through its attribute, e.g. from a cached list or a copy); "
                           "its gradient would be silently zero")
            raise TadImportError(
                f"parameter '{name}' requires grad and PyTorch's gradient depends on it, "
                "but the traced program does not use its argument (the module reads it "
                "other than through its attribute); its gradient would be silently zero")

    def promotion(self, key, schema, bound, result):
        """The element type that PyTorch's type promotion computes an op's
        tensor operands in, where they differ (tad's ops take one element
        type): the result's for ops with several float operands (f32 and
        f64 mixed), and for the elementwise ops below also for integer
        operands (``where(mask, int_tensor, x)``, ``x / count``). None when
        nothing is to be converted."""
        torch = _torch()
        tensors = [self.env[bound[a.name]] for a in schema.arguments
                   if str(a.type) in ("Tensor", "Optional[Tensor]")
                   and isinstance(bound.get(a.name), torch.fx.Node)
                   and isinstance(self.env.get(bound[a.name]), torch.Tensor)]
        if len(tensors) < 2:
            return None
        dtypes = {t.dtype for t in tensors}
        if len(dtypes) < 2:
            return None
        if isinstance(result, torch.Tensor) and result.dtype.is_floating_point:
            target = result.dtype
        else:
            target = functools.reduce(torch.promote_types, [t.dtype for t in tensors])
        if not target.is_floating_point:
            return None
        floats = {d for d in dtypes if d.is_floating_point}
        if key.split(".")[0] not in _PROMOTING_OPS and not (floats - {target}):
            return None
        return target

    def mask_indices(self, n, key, indices):
        """Boolean mask indices (``x[mask] = v``) as the integer indices of
        their true elements, one per masked dimension; only a constant mask
        (its shape of true elements is static)."""
        torch = _torch()
        out = []
        for v in indices:
            t = self.env.get(v) if isinstance(v, torch.fx.Node) else None
            if t is None or t.dtype not in (torch.bool, torch.uint8):
                out.append(v)
                continue
            if not self.const.get(v):
                self.error(n, f"aten.{key}: a boolean mask index that depends on the inputs "
                           "(the result's shape would depend on its values)",
                           UnsupportedOpError, op=f"aten.{key}")
            for column in t.bool().nonzero().unbind(1):
                out.append(_ConstantNode(column.contiguous()))
        return out

    def cast(self, value, dtype):
        """``value`` converted to ``dtype`` with ``tad._to_copy`` (the
        element types of integer, boolean and other float operands that
        PyTorch promotes); ``value`` itself when it has that type."""
        elem = _element_type(dtype, "a promoted operand")
        inner = value.type[len("tensor<"):-1]
        dims, _, current = inner.rpartition("x")
        if current in (elem, "i1"):
            return value  # already promoted; masks (where's condition) stay
        new_type = "tensor<" + (dims + "x" if dims else "") + elem + ">"
        ref = self.fresh()
        self.lines.append(f'  {ref} = "tad._to_copy"({value.ref}) {{dtype = {elem}}}'
                          f" : ({value.type}) -> {new_type}")
        return _Value(ref, new_type)

    # -- one op ------------------------------------------------------------
    def batch_norm_updates(self, graph, placeholders):
        """The running-statistics updates of training-mode batch norms.

        ``aten.native_batch_norm`` updates ``running_mean``/``running_var``
        in place without saying so in its schema, so functionalization
        leaves no ``copy_`` for them. Where they are buffers, the update is
        added to the graph as ATen ops (ATen's formula: the unbiased batch
        variance, recovered from ``save_invstd``) and the buffers become
        updated ones: ``[(buffer's argument index, node of its new value)]``.
        """
        import operator
        torch = _torch()
        aten = torch.ops.aten
        updates = []
        for n in list(graph.nodes):
            if n.op != "call_function" or n.target is not aten.native_batch_norm.default:
                continue
            bound = _bind(n.target._schema, n.args, n.kwargs)
            rm, rv = bound.get("running_mean"), bound.get("running_var")
            if not bound.get("training") or rm not in placeholders or rv not in placeholders:
                continue
            if any(placeholders.index(b) not in self.const_args for b in (rm, rv)):
                continue  # statistics passed as inputs: the caller owns them
            m, eps = float(bound["momentum"]), float(bound["eps"])
            shape = bound["input"].meta["tensor_meta"].shape
            count = shape.numel() // shape[1]
            def call(op, *args, **kwargs):
                node = graph.call_function(op, args, kwargs)
                node.meta["stack_trace"] = n.meta.get("stack_trace")
                return node
            # inserting_before keeps the nodes in the order they are made.
            with graph.inserting_before(n.next):
                mean, invstd = call(operator.getitem, n, 1), call(operator.getitem, n, 2)
                var = call(aten.sub.Tensor, call(aten.reciprocal.default,
                                                 call(aten.mul.Tensor, invstd, invstd)), eps)
                if _SIZES_AT_RUN_TIME.get():
                    unbiased = call(aten.mul.Tensor, var,
                                    self.bessel_factor(call, bound["input"], rv))
                else:
                    unbiased = call(aten.mul.Tensor, var, count / max(count - 1, 1))
                new_mean = call(aten.add.Tensor, call(aten.mul.Tensor, rm, 1.0 - m),
                                call(aten.mul.Tensor, mean, m))
                new_var = call(aten.add.Tensor, call(aten.mul.Tensor, rv, 1.0 - m),
                               call(aten.mul.Tensor, unbiased, m))
            updates += [(placeholders.index(rm), new_mean), (placeholders.index(rv), new_var)]
        return updates

    @staticmethod
    def bessel_factor(call, x, like):
        """count / max(count - 1, 1) for the count of ``x`` per channel
        (every dimension but 1), read from its sizes at run time: the
        node, a 0-d tensor of the dtype of ``like`` (a placeholder)."""
        torch = _torch()
        aten = torch.ops.aten
        sizes = call(aten._to_copy.default, call(aten._shape_as_tensor.default, x),
                     dtype=torch.float64)
        count = None
        for d in range(len(x.meta["tensor_meta"].shape)):
            if d != 1:
                size = call(aten.select.int, sizes, 0, d)
                count = size if count is None else call(aten.mul.Tensor, count, size)
        factor = call(aten.div.Tensor, count,
                      call(aten.clamp_min.default, call(aten.sub.Tensor, count, 1), 1))
        return call(aten._to_copy.default, factor, dtype=like.meta["tensor_meta"].dtype)

    def emit(self, n):
        import operator
        torch = _torch()
        if n.target is operator.getitem:
            src = self.value_of(n, n.args[0])
            self.ssa[n] = src[n.args[1]]
            return
        if _recurrent.is_recurrent_op(n.target):
            _recurrent.emit(self, n)
            return
        if _recurrent.is_scan_op(n.target):
            _recurrent.emit_scan(self, n)
            return
        if not hasattr(n.target, "_schema"):
            self.error(n, f"cannot import the call of {n.target!r}", UnsupportedOpError,
                       op=str(n.target))
        key = _op_key(n.target)
        schema = n.target._schema
        bound = _bind(schema, n.args, n.kwargs)
        result = self.env[n]

        if key == "slice.Tensor" and bound.get("step", 1) == 1 and \
                tuple(self.env[bound["self"]].shape) == tuple(result.shape):
            self.ssa[n] = self.value_of(n, bound["self"])  # the whole dimension
            return
        if key == "slice.Tensor":
            # `x[::2]` traces end = 2^63 - 1: clamped to the dimension as
            # PyTorch does (tad's slice_backward computes end - start + step)
            size = self.env[bound["self"]].shape[bound.get("dim", 0)]
            bound = dict(bound)
            for name, default in (("start", 0), ("end", size)):
                v = bound.get(name, default)
                v = default if v is None else int(v)
                bound[name] = min(max(v + size if v < 0 else v, 0), size)
        if key == "detach.default" and "tad.detach" not in self.ops:
            # A detach that feeds the result is a stop-gradient: dropping it
            # would make tad's gradients differ from torch's.
            self.error(n, "unsupported op aten.detach.default: a live detach stops "
                       "gradients and tad has no tad.detach (remove the .detach() or "
                       "compute it outside the model)", UnsupportedOpError,
                       op="aten.detach.default")
        if key in IDENTITY_OPS:
            src = bound[schema.arguments[0].name]
            if key in _SAME_DTYPE_ONLY and self.env[src].dtype != result.dtype:
                tad_name = tad_op_name(schema.name.split("::")[-1], schema.overload_name or "default")
                if tad_name not in self.ops:
                    self.error(n, f"aten.{key} converts {self.env[src].dtype} to "
                               f"{result.dtype}; tad has no {tad_name}", UnsupportedOpError,
                               op=f"aten.{key}")
            elif key == "dropout.default" and bound.get("train") and bound.get("p"):
                pass  # dropout with p > 0 in training: fall through to the op
            else:
                self.ssa[n] = self.value_of(n, src)
                return

        drop = []
        renames = {}
        if key in RENAMED_OPS:
            tad_name, renames, drop = RENAMED_OPS[key]
        else:
            aten_name = schema.name.split("::")[-1]
            tad_name = tad_op_name(aten_name, schema.overload_name or "default")
            if tad_name not in self.ops and aten_name.endswith("_copy"):
                # functionalize's view_copy/expand_copy/...: the view itself
                base = tad_op_name(aten_name[:-5], schema.overload_name or "default")
                if base in self.ops:
                    tad_name = base
        # A Python number where the schema has a Tensor: the .Scalar overload
        # where tad has one, else a rank-0 constant of the result's dtype.
        number_args = [a.name for a in schema.arguments
                       if str(a.type) == "Tensor" and isinstance(bound.get(a.name), (int, float, bool))]
        if number_args and tad_name.endswith(".Tensor"):
            scalar_name = tad_name[:-len(".Tensor")] + ".Scalar"
            if scalar_name in self.ops and number_args == [schema.arguments[1].name]:
                tad_name = scalar_name
        if tad_name not in self.ops:
            self.error(n, f"unsupported op aten.{key}: tad has no {tad_name}",
                       UnsupportedOpError, op=f"aten.{key}")
        info = self.ops[tad_name]

        promote = self.promotion(key, schema, bound, result)
        operands, segments, attrs = [], [], []
        for a in schema.arguments:
            name, ty = a.name, str(a.type)
            value = bound.get(name, a.default_value)
            if name in drop:
                continue
            attr_name = renames.get(name, name)
            if tad_name.endswith(".Scalar") and name in number_args:
                ty = "number"  # the .Scalar overload takes it as an attribute
            if ty in ("Tensor", "Optional[Tensor]"):
                if value is None:
                    segments.append(0)
                    continue
                if isinstance(value, (int, float, bool)):
                    value = self.constant(torch.tensor(value, dtype=result.dtype
                                                       if isinstance(result, torch.Tensor)
                                                       else torch.float32), n)
                elif promote is not None and self.const.get(value) and \
                        self.env[value].dtype not in (promote, torch.bool):
                    value = self.constant(self.env[value].to(promote), n)
                else:
                    value = self.value_of(n, value)
                    if promote is not None:
                        value = self.cast(value, promote)
                operands.append(value)
                segments.append(1)
                continue
            if ty in ("List[Tensor]", "List[Optional[Tensor]]"):
                if ty == "List[Optional[Tensor]]":
                    value = self.mask_indices(n, key, value)
                vals = [self.value_of(n, v) for v in value]
                if any(v is None for v in vals):
                    self.error(n, f"aten.{key}: None in the tensor list '{name}' is not "
                               "supported", UnsupportedOpError, op=f"aten.{key}")
                operands.extend(vals)
                segments.append(len(vals))
                continue
            if attr_name not in info.attributes:
                if _is_default(name, value, a.default_value, n, self.env, result):
                    continue
                self.error(n, f"aten.{key}: argument {name}={value!r} is not modeled by "
                           f"{tad_name} (attributes: {', '.join(info.attributes) or 'none'})",
                           UnsupportedOpError, op=f"aten.{key}")
            if value is None:
                continue
            if _tad_argument_types(info.schema).get(attr_name) in ("Scalar", "float") and \
                    isinstance(value, int) and not isinstance(value, bool):
                ty = "float"  # torch 1.13's int correction where tad has Scalar
            attrs.append(f"{attr_name} = {_attribute(ty, value, n, self)}")
        if sum(1 for a in schema.arguments
               if str(a.type) in ("Optional[Tensor]", "List[Tensor]", "List[Optional[Tensor]]")) > 1:
            attrs.append("operandSegmentSizes = array<i32: "
                         + ", ".join(str(s) for s in segments) + ">")

        results = result if isinstance(result, (tuple, list)) else [result]
        res_types = [tensor_type(r, f"result of aten.{key}") for r in results]
        # With operands promoted, a float result that PyTorch gives in
        # another type (batch norm of a bf16 input with f32 statistics: a
        # bf16 output) is computed in the promoted type and rounded once.
        rounded = [promote is not None and isinstance(r, torch.Tensor) and
                   r.dtype.is_floating_point and r.dtype != promote for r in results]
        op_types = [_with_element(t, _element_type(promote, "a promoted result")) if narrow
                    else t for t, narrow in zip(res_types, rounded)]
        ref = self.fresh()
        in_types = ", ".join(v.type for v in operands)
        out = op_types[0] if len(op_types) == 1 else "(" + ", ".join(op_types) + ")"
        attr_text = " {" + ", ".join(attrs) + "}" if attrs else ""
        lhs = ref if len(results) == 1 else f"{ref}:{len(results)}"
        self.lines.append(f'  {lhs} = "{tad_name}"({", ".join(v.ref for v in operands)})'
                          f"{attr_text} : ({in_types}) -> {out}")
        values = [_Value(f"{ref}#{i}" if len(results) > 1 else ref, t)
                  for i, t in enumerate(op_types)]
        values = [self.cast(v, r.dtype) if narrow else v
                  for v, r, narrow in zip(values, results, rounded)]
        self.ssa[n] = values if isinstance(result, (tuple, list)) else values[0]


@functools.lru_cache(maxsize=None)
def _tad_argument_types(schema: str) -> Dict[str, str]:
    """``{argument: base type}`` of a tad op's ATen schema text
    (``"Scalar? correction=None"`` -> ``{"correction": "Scalar"}``)."""
    inner = schema[schema.find("(") + 1:schema.rfind(") ->")] if "(" in schema else ""
    types, depth, part = {}, 0, ""
    for ch in inner + ",":
        if ch == "," and depth == 0:
            words = re.sub(r"\(.*?\)", "", part).split("=")[0].split()
            if len(words) >= 2:
                base = re.sub(r"\?|\[\d*\]", "", words[0])
                types[words[-1]] = base + ("[]" if "[" in words[0] else "")
            part = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        part += ch
    return types


#: Elementwise ops whose integer tensor operands PyTorch promotes to the
#: float dtype of the others (the remaining ops' integer operands are
#: indices and keep their type).
_PROMOTING_OPS = {"add", "sub", "mul", "div", "where", "maximum", "minimum", "pow",
                  "lerp", "addcmul", "addcdiv", "clamp", "eq", "ne", "lt", "le", "gt",
                  "ge", "atan2", "fmod", "remainder", "xlogy", "hypot", "copysign"}


def _op_key(target) -> str:
    """``"addmm.default"`` for ``torch.ops.aten.addmm.default``."""
    schema = target._schema
    return f"{schema.name.split('::')[-1]}.{schema.overload_name or 'default'}"


def _op_key_or_none(target):
    return _op_key(target) if hasattr(target, "_schema") else None


def _fetch_attr(gm, target):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def _bind(schema, args, kwargs) -> dict:
    bound = {}
    positional = [a for a in schema.arguments if not a.kwarg_only]
    for a, v in zip(positional, args):
        bound[a.name] = v
    bound.update(kwargs)
    return bound


def _is_default(name, value, default, node, env, result) -> bool:
    torch = _torch()
    if value is None or value == default:
        return True
    if name == "dtype" and isinstance(result, torch.Tensor) and value == result.dtype:
        return True  # the dtype the op computes in anyway
    if name == "device" and str(value) == "cpu":
        return True
    if name == "layout" and value == torch.strided:
        return True
    if name == "memory_format" and value in (torch.contiguous_format, torch.preserve_format):
        return True
    if name == "pin_memory" and value is False:
        return True
    return False


def _attribute(ty: str, value, node, emitter) -> str:
    base = ty[len("Optional["):-1] if ty.startswith("Optional[") else ty
    if isinstance(value, complex) or (isinstance(value, (list, tuple)) and
                                      any(isinstance(v, complex) for v in value)):
        emitter.error(node, f"the complex number {value!r}: complex dtypes are not "
                      "supported by tad (f32, f64, bf16, f16, i64, i32, bool)")
    if isinstance(value, _torch().dtype):  # ScalarType (an int in the schema)
        return _element_type(value, f"the dtype argument of {node.target}")
    if base == "bool":
        return "true" if value else "false"
    if base in ("int", "SymInt"):
        return f"{int(value)} : i64"
    if base in ("float", "number"):
        return f"{format_float(value)} : f64"
    if base in ("List[int]", "List[SymInt]"):
        value = [int(v) for v in value]
        return "array<i64" + (": " + ", ".join(map(str, value)) if value else "") + ">"
    if base == "List[float]":
        return "array<f64" + (": " + ", ".join(format_float(v) for v in value) if value else "") + ">"
    if base == "List[bool]":
        return "array<i1" + (": " + ", ".join("true" if v else "false" for v in value)
                             if value else "") + ">"
    if base == "str":
        return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    emitter.error(node, f"cannot express the argument {value!r} of schema type {ty} "
                  "as an attribute", UnsupportedOpError)


# --------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------

def import_function(fn, example_args: Sequence, name: str = "forward",
                    nondiff: Sequence[int] = (), const_args: Sequence[int] = (),
                    arg_names: Optional[Sequence[str]] = None, params: Sequence[int] = (),
                    unused_ok=None, recurrent: str = "loop") -> ImportedFunction:
    """Traces ``fn(*example_args)`` (tensors in, a tensor or a tuple of
    tensors out) and returns it as a tad ``func.func``.

    ``nondiff``: argument indices marked ``{tad.nondiff}``. ``const_args``:
    arguments folded into the program as constants (buffers), unless the
    function updates them in place, in which case they stay arguments and
    their new values become extra results (``updated_buffers``).
    ``params``: argument indices of parameters that require grad; each must
    reach the program through its argument (``unused_ok(names)`` returns
    the unused ones whose gradient PyTorch leaves undefined too).
    ``recurrent``: how recurrent layers are imported (see ``trace``).
    """
    torch = _torch()
    example_args = [a if isinstance(a, torch.Tensor) else torch.as_tensor(a)
                    for a in example_args]
    originals = list(example_args)
    if arg_names is None:
        arg_names = [f"arg{i}" for i in range(len(example_args))]
    gm = trace(fn, [a.detach().clone() for a in example_args], recurrent)
    # The emitter evaluates the graph on copies: ops such as a training-mode
    # native_batch_norm update their arguments (the running statistics) in place.
    return _Emitter(gm, [a.detach().clone() for a in example_args], name, nondiff,
                    const_args, list(arg_names), params, originals, unused_ok).run()


def module_function(module, n_inputs: int, loss_fn=None, n_targets: int = 0):
    """``f(inputs..., targets..., params..., buffers...)`` calling ``module``
    (and ``loss_fn(output, targets...)``), with the module's state lifted to
    arguments. Returns ``(f, param_names, buffer_names)``."""
    torch = _torch()
    try:
        from torch.func import functional_call
    except ImportError:
        from torch.nn.utils.stateless import functional_call
    params = [n for n, _ in module.named_parameters()]
    buffers = [n for n, _ in module.named_buffers()]
    # nn.RNN/LSTM/GRU read their weights from the list ``_flat_weights``, not
    # through the attributes functional_call swaps: refresh the list from the
    # (swapped) attributes before each forward, restore it afterwards.
    flat = [m for m in module.modules() if hasattr(m, "_flat_weights_names")]

    def refresh(m, _inputs):
        m._flat_weights = [getattr(m, w) if hasattr(m, w) else None
                           for w in m._flat_weights_names]

    def f(*args):
        inputs = args[:n_inputs]
        targets = args[n_inputs:n_inputs + n_targets]
        state = args[n_inputs + n_targets:]
        values = dict(zip(params + buffers, state))
        saved = [(m, m._flat_weights) for m in flat]
        hooks = [m.register_forward_pre_hook(refresh) for m in flat]
        try:
            out = functional_call(module, values, tuple(inputs))
        finally:
            for h in hooks:
                h.remove()
            for m, weights in saved:
                m.__dict__["_flat_weights"] = weights
        if loss_fn is not None:
            out = loss_fn(out, *targets)
        return out

    del torch
    return f, params, buffers


def torch_unused_parameters(module, inputs, loss_fn=None, targets=()):
    """Returns ``unused_ok(names)`` for ``import_function``: of ``names``,
    the parameters whose gradient PyTorch leaves undefined (the module does
    not use them), found by running a copy of the module with autograd."""
    def unused_ok(names):
        import copy
        torch = _torch()
        model = copy.deepcopy(module)
        named = dict(model.named_parameters())
        try:
            with torch.enable_grad():
                out = model(*[torch.as_tensor(a).clone() for a in inputs])
                if loss_fn is not None:
                    out = loss_fn(out, *targets)
                outs = [o for o in torch.utils._pytree.tree_flatten(out)[0]
                        if isinstance(o, torch.Tensor) and o.requires_grad]
                grads = torch.autograd.grad(outs, [named[n] for n in names],
                                            [torch.ones_like(o) for o in outs],
                                            allow_unused=True) if outs else [None] * len(names)
        except Exception:  # cannot tell: every unused parameter is an error
            return set()
        return {n for n, g in zip(names, grads) if g is None}
    return unused_ok


# Set while tracing the two programs of a dynamic import (sizes_at_run_time):
# what the importer itself computes from sizes (batch norm's Bessel factor)
# is computed from the tensors' sizes at run time, not written as a number.
_SIZES_AT_RUN_TIME = contextvars.ContextVar("tad_sizes_at_run_time", default=False)


@contextlib.contextmanager
def sizes_at_run_time():
    token = _SIZES_AT_RUN_TIME.set(True)
    try:
        yield
    finally:
        _SIZES_AT_RUN_TIME.reset(token)


def from_torch(module, example_args, name: str = "forward", nondiff_inputs: bool = False,
               return_info: bool = False, recurrent: str = "loop",
               dynamic_shapes=None):
    """The tad MLIR text of ``module.forward`` (function ``@name``).

    ``dynamic_shapes`` makes input sizes dynamic, in the spirit of
    torch.export: ``{"x": {0: "batch"}}`` (by forward parameter name or
    input index), or a sequence aligned with the inputs (None for a static
    one); a ``tad.Dim("batch", min=..., max=...)`` in place of a name
    bounds the size (checked at every call). Inputs whose sizes share a name must agree in every call. The
    program is traced twice (docs/dynamic-shapes.md) and what depends on the
    sizes becomes dynamic; an import that cannot be generalised raises
    ``DynamicShapeError`` instead of specialising. With ``return_info``, the
    ImportedFunction describes the trace at the example sizes.

    Arguments: the example inputs, then the module's parameters in
    ``named_parameters()`` order. Buffers are constants (their current
    values), except buffers the forward pass updates (BatchNorm's running
    statistics in training mode): those follow the parameters as arguments
    and their new values follow the outputs as results. With
    ``return_info``, returns ``(text, ImportedFunction)``. ``recurrent``:
    "loop" (default) imports ``nn.RNN``/``nn.LSTM``/``nn.GRU`` as loops
    over time, "unroll" as one cell per step (the GPU target runs no
    loops yet).
    """
    torch = _torch()
    if not isinstance(example_args, (tuple, list)):
        example_args = (example_args,)
    example_args = [torch.as_tensor(a) for a in example_args]
    if dynamic_shapes is not None:
        spec = _dynamic.normalize(dynamic_shapes, example_args,
                                  _forward_arg_names(module, len(example_args)))
        if spec:
            bounds = _dynamic.declared_bounds(dynamic_shapes)
            args_a, base = _dynamic.resized(torch, example_args, spec, grow=False)
            args_b, grown = _dynamic.resized(torch, example_args, spec, grow=True)
            _dynamic.check_example_sizes(base, grown, bounds)
            with sizes_at_run_time():
                text_a, info = from_torch(module, args_a, name, nondiff_inputs, True,
                                          recurrent)
                text_b = _dynamic.trace_at(
                    lambda args: from_torch(module, args, name, nondiff_inputs, False,
                                            recurrent), args_b, grown)
            text = _dynamic.generalize(text_a, text_b, base=base, grown=grown)

            def trace(args):
                with sizes_at_run_time():
                    return from_torch(module, args, name, nondiff_inputs, False, recurrent)

            text = _dynamic.check_smaller_sizes(
                torch, trace, example_args, spec, text, text_b, grown,
                agrees=lambda text, args: _runs_like_torch(module, text, args, name),
                bounds=bounds)
            return (text, info) if return_info else text
    fn, params, buffers = module_function(module, len(example_args))
    state = [p for _, p in module.named_parameters()] + [b for _, b in module.named_buffers()]
    n = len(example_args)
    names = [f"input{i}" for i in range(n)] + params + buffers
    trained = [n + i for i, (_, p) in enumerate(module.named_parameters()) if p.requires_grad]
    imported = import_function(
        fn, list(example_args) + state, name,
        nondiff=range(n) if nondiff_inputs else (),
        const_args=range(n + len(params), n + len(params) + len(buffers)),
        arg_names=names, params=trained,
        unused_ok=torch_unused_parameters(module, example_args), recurrent=recurrent)
    if return_info:
        return imported.text, imported
    return imported.text


def _runs_like_torch(module, text: str, args, name: str) -> bool:
    """Whether ``text`` (the import of ``module``), compiled at -O0 and run
    on ``args`` and the module's parameters, gives the module's outputs.
    False where it cannot tell: the module updates buffers, the program
    does not compile (tadc missing, an op without a dynamic lowering), the
    outputs differ."""
    import numpy as np
    torch = _torch()
    from . import compiler, module as loader
    params = [p.detach() for _, p in module.named_parameters()]
    try:
        forward = getattr(compiler.compile(text, opt_level=0), name)
        with torch.no_grad():
            want = module(*[a.clone() for a in args])
        want = [w for w in (want if isinstance(want, (tuple, list)) else [want])]
        got = forward(*[a.detach().numpy() for a in args], *[p.numpy() for p in params])
    except (compiler.CompileError, loader.TadError, OSError, TypeError, ValueError,
            RuntimeError):
        return False
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    if len(got) != len(want) or not all(isinstance(w, torch.Tensor) for w in want):
        return False
    for g, w in zip(got, want):
        w = w.detach()
        if tuple(g.shape) != tuple(w.shape):
            return False
        if w.dtype.is_floating_point:
            w64 = w.to(torch.float64).numpy()
            eps = torch.finfo(w.dtype).eps
            if not np.allclose(np.asarray(g, np.float64), w64, rtol=1e3 * eps,
                               atol=1e3 * eps * max(1.0, float(np.abs(w64).max(initial=0)))):
                return False
        elif not (g == w.numpy()).all():
            return False
    return True


def _forward_arg_names(module, count: int):
    """The names of ``module.forward``'s first ``count`` parameters (inputN
    where they cannot be read)."""
    import inspect
    try:
        names = [p.name for p in inspect.signature(module.forward).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    names = names[:count]
    return names + [f"input{i}" for i in range(len(names), count)]
