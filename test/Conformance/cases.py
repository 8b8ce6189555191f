"""One conformance case: an OpInfo of ``op_db`` or a ModuleInfo of
``module_db`` (PyTorch's own test databases), checked through
``tad.from_torch`` -> ``tad.compile`` against PyTorch.

``run_case(name)`` returns ``{"name", "kind", "status", "samples", "reason",
"details"}`` with ``status`` one of ``pass``, ``unsupported``, ``fail``,
``excluded``. It raises nothing: every Python exception becomes a ``fail``
naming it. Crashes and hangs are caught one level up (``run.py`` runs cases
in worker processes with a timeout).

Cases run in float64 (``op:NAME``, ``module:NAME``), in float32
(``op:NAME@float32``, ``module:NAME@float32``), in bfloat16 (``@bfloat16``)
and, for OpInfos, in float16 (``op:NAME@float16``). An OpInfo whose
PyTorch has no CPU kernel in the 16-bit dtype is checked against PyTorch in
float32 on the same values with its results rounded (``_call_widened``), on its
float32 samples rounded (``_rounded_samples``). Per sample:
- forward: tad's results against PyTorch's (floating-point outputs);
- VJP: a random cotangent, the gradients of every floating-point input that
  the sample marks ``requires_grad`` (and, for modules, of every parameter)
  against ``torch.autograd.grad``; for ops whose PyTorch formula ignores
  some outputs' cotangents (``CENTRAL_DIFFERENCES``) against central
  differences instead;
- JVP: a random tangent against PyTorch's forward AD where the OpInfo
  supports it, else against the already checked VJP (``<v, J t> = <J^T v,
  t>``); modules always use the latter.

In float32, bfloat16 and float16 the reference is PyTorch in float64 on the
same values (inputs, parameters, cotangents and tangents upcast), and tad
may differ from it by ``RTOL32`` (``HALF_RTOL`` for a bf16 or f16 value) or
by 10 times PyTorch's own error in that dtype on that value, whichever is
larger: tad in a narrow dtype must be as accurate as PyTorch in it, not
bitwise equal to it.

Outcomes: ``unsupported`` is a ``TadImportError`` (an op, argument or dtype
the importer refuses, naming it) or tadc's diagnostic for a missing
derivative rule; anything else that stops a sample (tadc's other errors or
a crash, a raw Python exception, wrong numbers) is a ``fail``.
"""

import copy
import hashlib
import os
import random
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "Inputs"))  # the expecttest stand-in
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.utils import _pytree as pytree  # noqa: E402

import tad  # noqa: E402
from tad.torch_import import _call_widened  # noqa: E402

#: Relative tolerance (scaled by max(1, the reference's largest magnitude)),
#: float64: only summation order and libm differ.
RTOL = 1e-7
#: float32: the floor of the allowed error against the float64 reference
#: (scaled like RTOL); above it, 10 times PyTorch's own float32 error.
RTOL32 = 1e-4
F32_SLACK = 10.0
#: With central differences (step 1e-6) as the reference.
FD_RTOL = 1e-5
FD_STEP = 1e-6

#: Ops whose PyTorch backward formula ignores the cotangents of some
#: outputs (the saved mean and inverse standard deviation): their VJP and
#: JVP are checked against central differences (docs/rules.md).
CENTRAL_DIFFERENCES = {"native_layer_norm", "native_batch_norm",
                       # sgn's complex-valued formula, (g - Re(g sgn*) sgn) / |x|,
                       # cancels to rounding noise over |x| on real inputs
                       "sgn",
                       # PyTorch's forward AD gives the piecewise-constant sign
                       # a nonzero tangent (1.0) when called from the OpInfo
                       "linalg.slogdet",
                       # torch 1.13 gives self the gradient at the positions
                       # that src overwrites and 0 elsewhere (inverted; fixed
                       # upstream by as_strided_scatter_backward)
                       "as_strided_scatter"}

#: Ops that route each output's gradient to one of several tied input
#: elements, chosen by the order of a sort: PyTorch's sort is not stable on
#: large inputs (nor is its topk's order of equal values), tad's is, so with
#: ties the gradients go to different, equally valid elements. bf16 inputs
#: have many ties; in float32 and bfloat16, samples with duplicate values
#: are excluded. (kthvalue, median, nanmedian, mode and cummax pick among
#: ties deterministically and are checked.)
TIE_SENSITIVE = {"sort", "msort", "argsort", "topk"}

#: Ops with poles at the nonpositive integers (digamma's derivative,
#: polygamma and its derivative): there the true value is infinite, but
#: PyTorch computes it by reflection through sin(pi x), which is not 0 in
#: floating point, and gives a finite artifact (1e31 in float64, 1e13 in
#: bfloat16). bf16 inputs are often integers; in float32 and bfloat16,
#: the elements at a pole are left out of the comparisons (``skip``).
POLES = {"digamma", "polygamma", "special.polygamma"}

#: Points where an op has no derivative, which bf16 and f16 samples hit
#: exactly (small values round to 0, others to 3.0): sgn's jump at 0, where
#: the central difference (CENTRAL_DIFFERENCES) is 1 / FD_STEP, and the
#: kinks of hardswish and hardsigmoid at +-3, where PyTorch 1.13 returns the
#: right derivative from its vectorized loop and the left one from its
#: scalar tail. In float32, bfloat16 and float16 those elements are left
#: out of the comparisons (``skip``).
NONSMOOTH_POINTS = {"sgn": (0.0,), "nn.functional.hardswish": (-3.0, 3.0),
                    "nn.functional.hardsigmoid": (-3.0, 3.0)}

#: Samples per case unless told otherwise.
OP_SAMPLES = 2
MODULE_SAMPLES = 3

_DATABASES = None


def databases():
    global _DATABASES
    if _DATABASES is None:
        from torch.testing._internal import common_methods_invocations as cmi
        from torch.testing._internal.common_modules import module_db
        op_db = cmi.op_db
        # Random ops reseed on every call (wrapper_set_seed); without the
        # reseeding their output depends on the seed and they are excluded
        # as random (tad's generator is not PyTorch's).
        cmi.wrapper_set_seed = lambda op, *args, **kwargs: op(*args, **kwargs)
        ops = {}
        for op in op_db:
            ops["op:" + op_name(op)] = op
        modules = {}
        for info in module_db:
            modules["module:" + info.module_cls.__name__] = info
        _DATABASES = (ops, modules)
    return _DATABASES


def op_name(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def all_cases():
    """Every case: float64 first, then the float32 and bfloat16 runs, then
    the float16 runs of the OpInfos. ModuleInfos have no float16 run:
    PyTorch 1.13 has no float16 CPU kernels for their products,
    convolutions and norms, so it has no peer to compare with."""
    ops, modules = databases()
    names = list(ops) + list(modules)
    return (names + [n + "@float32" for n in names] +
            [n + "@bfloat16" for n in names] + [n + "@float16" for n in ops] +
            [n + "@dynamic" for n in names])


def split_case(name):
    """``op:add@float32`` -> (``op:add``, torch.float32, False);
    ``op:add@dynamic`` -> (``op:add``, torch.float64, True)."""
    base, _, dtype = name.partition("@")
    if dtype == "dynamic":
        return base, torch.float64, True
    return base, getattr(torch, dtype or "float64"), False


class Unsupported(Exception):
    pass


class Excluded(Exception):
    pass


class Failure(Exception):
    pass


# --------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------

#: The floor of the allowed relative error of a bf16 or f16 value (a few
#: roundings of its 8 or 11 significant bits); above it, as in float32, 10
#: times PyTorch's own error in that dtype.
HALF_RTOL = {"bfloat16": 2.0 ** -6, "float16": 2.0 ** -9}


def _np(t):
    """A tensor's values as NumPy (bf16, which NumPy lacks, as float32)."""
    t = t.detach().cpu()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def _arg(t):
    """A tensor as tad takes it: bf16 as its bits (int16), else _np."""
    t = t.detach().cpu().contiguous()
    return t.view(torch.int16).numpy() if t.dtype == torch.bfloat16 else _np(t)


def _is_half_bits(a):
    """A tad bf16 array without ml_dtypes: 16-bit integers (tad has no
    16-bit integer type)."""
    return a.dtype.kind in "ui" and a.dtype.itemsize == 2


def _values(a):
    """A tad argument or result as float64 values."""
    a = np.asarray(a)
    if _is_half_bits(a):
        a = tad.bf16_bits_to_float32(a)
    return np.asarray(a, dtype=np.float64)


def _half_rtol(a, rtol):
    """``rtol``, raised to HALF_RTOL's floor for a bf16 or f16 array."""
    a = np.asarray(a)
    if _is_half_bits(a) or a.dtype.name == "bfloat16":
        return max(rtol, HALF_RTOL["bfloat16"])
    if a.dtype == np.float16:
        return max(rtol, HALF_RTOL["float16"])
    return rtol


def compare(what, got, want, rtol, problems, peer=None, skip=None):
    """``got`` against ``want`` within ``rtol`` scaled by the largest finite
    magnitude of ``want``; with ``peer`` (PyTorch's float32 result for a
    float64 ``want``) also within ``F32_SLACK`` times the peer's error.
    ``skip``: a mask of elements not compared (poles), where it fits."""
    rtol = _half_rtol(got, rtol)
    is_f16 = np.asarray(got).dtype == np.float16
    got = _values(got)
    want = np.asarray(want, dtype=np.float64)
    if is_f16:  # beyond float16's range the correctly rounded value is inf
        want = np.where(np.abs(want) >= 65520.0, np.copysign(np.inf, want), want)
    if got.shape != want.shape:
        problems.append(f"{what}: shape {got.shape}, expected {want.shape}")
        return
    if skip is not None and skip.shape == want.shape:
        got, want = np.where(skip, 0.0, got), np.where(skip, 0.0, want)
        if peer is not None and np.shape(peer) == want.shape:
            peer = np.where(skip, 0.0, np.asarray(peer, dtype=np.float64))
    if not want.size:
        return
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    finite = np.isfinite(want)
    scale = max(1.0, float(np.max(np.abs(want[finite])))) if finite.any() else 1.0
    diff = np.where(same, 0.0, np.abs(got - want))
    err = float(np.max(np.where(np.isnan(diff), np.inf, diff)))
    allowed = rtol * scale
    if peer is not None and err > allowed:
        peer = np.asarray(peer, dtype=np.float64)
        if peer.shape == want.shape:
            pdiff = np.where((peer == want) | (np.isnan(peer) & np.isnan(want)), 0.0,
                             np.abs(peer - want))
            allowed = max(allowed, F32_SLACK * float(np.max(np.where(np.isnan(pdiff),
                                                                     np.inf, pdiff))))
    if not err <= allowed:
        bad = np.unravel_index(int(np.argmax(np.where(np.isnan(diff), np.inf, diff))),
                               want.shape)
        problems.append(f"{what}: max error {err:.3g} (scale {scale:.3g}; "
                        f"at {tuple(int(i) for i in bad)}: {got[bad]!r} vs {want[bad]!r})")


# --------------------------------------------------------------------------
# Compiling (cached per program text and tadc binary)
# --------------------------------------------------------------------------

def _cache_dir():
    path = os.environ.get("TAD_CONFORMANCE_CACHE") or \
        os.path.join(os.environ.get("TAD_BUILD_DIR") or os.path.join(ROOT, "build"),
                     "conformance-cache")
    os.makedirs(path, exist_ok=True)
    return path


_TADC_ID = None


def _tadc_id():
    global _TADC_ID
    if _TADC_ID is None:
        st = os.stat(tad.find_tadc())
        # The machine model the schedules read (lit pins one; a run outside
        # lit sees the host's) changes the compiled code as much as tadc.
        # So does the CPU: a build directory may outlive its machine.
        model = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                         if k.startswith("TAD_HOST_"))
        try:
            with open("/proc/cpuinfo") as f:
                cpu = next((line for line in f if line.startswith("flags")), "")
        except OSError:
            cpu = ""
        cpu = hashlib.sha256(cpu.encode()).hexdigest()[:8]
        _TADC_ID = f"{tad.find_tadc()}:{st.st_size}:{st.st_mtime_ns}:{model}:{cpu}"
    return _TADC_ID


def opt_level():
    """The optimization level cases compile at (run.py --opt-level)."""
    return int(os.environ.get("TAD_CONFORMANCE_OPT_LEVEL", "3"))


#: Set while a ``@dynamic`` case runs (run_case): tadc's refusals of
#: dynamic sizes are then ``unsupported``.
_DYNAMIC = False


def compile_cached(text):
    key = hashlib.sha256(f"{_tadc_id()}\n-O{opt_level()}\n{text}".encode()).hexdigest()[:32]
    path = os.path.join(_cache_dir(), key + ".so")
    if os.path.isfile(path):
        return tad.load(path)
    tmp = path + f".{os.getpid()}.tmp"
    try:
        tad.compile(text, vjp="forward", jvp="forward", output=tmp, opt_level=opt_level())
    except tad.CompileError as e:
        classify_compile_error(e)
    os.replace(tmp, path)
    return tad.load(path)


def classify_compile_error(e):
    diag = (e.diagnostics or str(e)).strip()
    lines = [line for line in diag.splitlines() if "error:" in line] or diag.splitlines() or [""]
    first = lines[0]
    first = first.split("error: ", 1)[-1] if "error: " in first else first
    first = re.sub(r"'!llvm\.func<[^']*>'", "'!llvm.func<...>'", first)
    if re.search(r"'tad\.[\w.]+' op .*\bnot supported\b", first):
        raise Unsupported(f"tadc: {first}")  # a feature the op lacks, said cleanly
    if e.returncode is not None and e.returncode < 0:
        raise Failure(f"tadc crashed (signal {-e.returncode})"
                      + (f": {first}" if first else ""))
    if "derivative rule (add one with --rules)" in first:
        raise Unsupported(f"tadc: {first}")
    # tad's own refusals of a dynamic size (an op it does not lower with
    # one, a rule that needs the size at compile time); an upstream op's
    # verifier complaining about one is a tad bug, a fail
    if _DYNAMIC and "dynamic" in first and not re.search(
            r"'(tensor|linalg|memref|arith|scf|func|bufferization|affine)\.", first):
        raise Unsupported(f"tadc: {first}")
    raise Failure(f"tadc: {first}")


# --------------------------------------------------------------------------
# The checks shared by ops and modules
# --------------------------------------------------------------------------

def import_module(module, inputs, dynamic_shapes=None):
    try:
        return tad.from_torch(module, inputs, return_info=True,
                              dynamic_shapes=dynamic_shapes)
    except tad.TadImportError as e:
        raise Unsupported(str(e).splitlines()[0])
    except tad.DynamicShapeError as e:  # a clear refusal, not a guess
        raise Unsupported("dynamic: " + str(e).splitlines()[0])
    except Exception as e:  # a raw exception out of the importer is a bug
        raise Failure(f"import raised {type(e).__name__}: {_first_line(e)}")


def _first_line(e):
    text = str(e).strip()
    return text.splitlines()[0][:300] if text else ""


def check_program(compiled, args, diff_count, outs, grads, cts, jvp_ref, tangents,
                  n_buffer_results, buffers_ref, rtol, problems, peers=None, skip=None):
    """``args``: NumPy arguments; ``diff_count``: how many of the leading
    tad gradients are compared with ``grads``; ``jvp_ref``: the reference
    tangents of ``outs``, or None for the VJP dot-product check; ``peers``:
    PyTorch's float32 results ({"outs", "grads", "jvp", "buffers"}) beside
    float64 references, for a float32 program; ``skip``: elements left out
    of every comparison of that shape (POLES)."""
    peers = peers or {}

    def peer(kind, i):
        values = peers.get(kind)
        return None if values is None or i >= len(values) else values[i]
    got = compiled.forward(*args)
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(outs) + n_buffer_results:
        problems.append(f"{len(got)} results, expected {len(outs) + n_buffer_results}")
        return
    for i, (g, w) in enumerate(zip(got, outs)):
        compare(f"output {i}", g, _np(w), rtol, problems, peer("outs", i), skip)
    for i, (g, w) in enumerate(zip(got[len(outs):], buffers_ref)):
        compare(f"updated buffer {i}", g, _np(w), rtol, problems, peer("buffers", i))

    vjp_cts = [_arg(c) for c in cts] + [np.zeros_like(b) for b in got[len(outs):]]
    res = compiled.forward_vjp(*args, *vjp_cts)
    res = res if isinstance(res, tuple) else (res,)
    n_res = len(got)
    tad_grads = res[n_res:]
    if len(tad_grads) < diff_count:
        problems.append(f"VJP returns {len(tad_grads)} gradients, expected {diff_count}")
        return
    for i, (g, w) in enumerate(zip(tad_grads[:diff_count], grads)):
        compare(f"VJP gradient {i}", g, w, rtol, problems, peer("grads", i), skip)

    float_args = [a for a in args if a.dtype.kind == "f" or _is_half_bits(a)]
    res = compiled.forward_jvp(*args, *tangents)
    res = res if isinstance(res, tuple) else (res,)
    tad_tangents = res[n_res:]
    if len(tad_tangents) != n_res:
        problems.append(f"JVP returns {len(tad_tangents)} tangents, expected {n_res}")
        return
    jvp_problems = []
    if jvp_ref is not None:
        for i, (g, w) in enumerate(zip(tad_tangents, jvp_ref)):
            compare(f"JVP tangent {i}", g, w, rtol, jvp_problems, peer("jvp", i), skip)
        # PyTorch's forward-AD formula can be NaN where its backward formula
        # (checked above) is not (logaddexp at -inf, -inf): the VJP decides.
        if jvp_problems and any(np.isnan(np.asarray(w, np.float64)).any() for w in jvp_ref):
            jvp_ref, jvp_problems = None, []
    problems += jvp_problems
    if jvp_ref is None:
        # <v, J t> against <J^T v, t>, with tad's VJP (checked above).
        def dot(a, b, magnitude=np.asarray):
            p = magnitude(_values(a) * _values(b))
            return float(np.sum(np.where(skip, 0.0, p) if skip is not None and
                                skip.shape == p.shape else p))
        lhs_pairs = list(zip(vjp_cts[:len(outs)], tad_tangents[:len(outs)]))
        rhs_pairs = list(zip(tad_grads, tangents[:len(float_args)]))
        lhs = sum(dot(c, t) for c, t in lhs_pairs)
        rhs = sum(dot(g, t) for g, t in rhs_pairs)
        scale = max(1.0, abs(lhs), abs(rhs))
        dot_rtol = rtol
        for a in list(tad_tangents) + list(tad_grads):
            dot_rtol = _half_rtol(a, dot_rtol)
        if dot_rtol > rtol:
            # bf16/f16: each product carries its factors' rounding, so the
            # sums are compared relative to the sums of the products'
            # magnitudes (a sum that cancels to a small value is still
            # within rounding); in f32 and f64 relative to the result.
            scale = max(1.0, sum(dot(c, t, np.abs) for c, t in lhs_pairs),
                        sum(dot(g, t, np.abs) for g, t in rhs_pairs))
        if not abs(lhs - rhs) <= dot_rtol * 10 * scale:
            problems.append(f"JVP: <v, J t> = {lhs!r} but <J^T v, t> = {rhs!r}")


def _float_tensors(values):
    return [v for v in pytree.tree_flatten(values)[0]
            if isinstance(v, torch.Tensor) and v.is_floating_point()]


def _no_complex_or_sparse(values, what):
    for v in pytree.tree_flatten(values)[0]:
        if isinstance(v, torch.Tensor):
            if v.is_complex():
                raise Excluded(f"complex {what}")
            if v.layout != torch.strided:
                raise Excluded(f"sparse {what}")


# --------------------------------------------------------------------------
# OpInfo
# --------------------------------------------------------------------------

class _Call(torch.nn.Module):
    """A sample as a module: its differentiable tensors are the inputs, the
    rest (integer tensors, options) is baked in."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(xs)


def _float_outputs(out):
    outs = tuple(v for v in pytree.tree_flatten(out)[0]
                 if isinstance(v, torch.Tensor) and v.is_floating_point())
    return outs[0] if len(outs) == 1 else outs


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def _upcast(values):
    """Floating-point tensors of ``values`` (a list of leaves) in float64."""
    return [v.detach().to(torch.float64) if isinstance(v, torch.Tensor) and
            v.is_floating_point() else v for v in values]


def _widen(values, dtype):
    """``values`` with their ``dtype`` tensors in float32 (differentiably)."""
    return [v.to(torch.float32) if isinstance(v, torch.Tensor) and
            v.dtype == dtype else v for v in values]


def op_sample(op, sample, index, dtype, widened=False, dynamic=False):
    """Checks one SampleInput; returns None or raises."""
    _no_complex_or_sparse((sample.input, sample.args, sample.kwargs), "input")
    leaves, spec = pytree.tree_flatten((sample.input, sample.args, sample.kwargs))
    slots, seen = [], {}
    for i, v in enumerate(leaves):
        if isinstance(v, torch.Tensor) and v.is_floating_point() and v.requires_grad:
            if id(v) in seen:  # the same tensor twice: one input
                continue
            seen[id(v)] = i
            slots.append(i)
    post = sample.output_process_fn_grad
    # A tensor that appears twice in the sample is one input.
    dups = {i: seen[id(v)] for i, v in enumerate(leaves)
            if id(v) in seen and seen[id(v)] != i}

    def caller(base):
        def call_on(xs):
            vals = list(base)
            for slot, x in zip(slots, xs):
                vals[slot] = x
            for i, j in dups.items():
                vals[i] = vals[j]
            inp, args, kwargs = pytree.tree_unflatten(vals, spec)
            return _float_outputs(post(op(inp, *args, **kwargs)))
        return call_on
    call_on = caller(leaves)
    call = _Call(call_on)
    if widened:
        # PyTorch has no CPU kernel for this op in this 16-bit dtype: its
        # peer runs in float32 on the same values and rounds its results
        # (what ATen does for the 16-bit ops it has); tad imports the op.
        # (the importer's own evaluation of such ops, whose casts are
        # differentiable, so autograd and forward AD see through them)
        peer = caller(_widen(leaves, dtype))
        call_on = lambda xs: _call_widened(peer, (xs,), {})  # noqa: E731
    # float32: the reference runs on the same values in float64
    call_on64 = caller(_upcast(leaves)) if dtype != torch.float64 else None

    inputs = [leaves[i].detach().clone() for i in slots]
    with torch.no_grad():
        torch.manual_seed(0)
        try:
            ref1 = _as_tuple(call_on([x.clone() for x in inputs]))
        except Exception as e:
            raise Excluded(f"PyTorch raises on the sample: {_first_line(e)}")
        others = []
        for seed in (1, 2, 3):
            torch.manual_seed(seed)
            others.append(_as_tuple(call_on([x.clone() for x in inputs])))
    _no_complex_or_sparse(ref1, "output")
    if not ref1 or not all(isinstance(r, torch.Tensor) for r in ref1):
        raise Excluded("no floating-point output")
    if any(not torch.equal(a, b) and not (a.isnan() | b.isnan()).any()
           for ref2 in others for a, b in zip(ref1, ref2)):
        raise Excluded("random (the output depends on the seed)")
    zero_size = any(t.numel() == 0 for t in list(ref1) + inputs)
    if not inputs:
        raise Excluded("no differentiable input")
    if dtype != torch.float64 and op.name in TIE_SENSITIVE:
        for x in inputs:
            ties = x.numel() - torch.unique(x.detach().float()).numel()
            if ties > 0:
                raise Excluded(
                    f"ties: {ties} duplicate values among {x.numel()} in a "
                    f"{str(dtype)[6:]} input; PyTorch orders tied elements "
                    f"unstably, tad stably, so their gradients differ validly")
    skip = None
    if dtype != torch.float64 and op.name in POLES and len(inputs) == 1:
        x = inputs[0].detach().double()
        skip = ((x <= 0) & (x == torch.round(x))).numpy()
        if dtype == torch.float16:
            # near a pole the derivative itself overflows float16 (inf,
            # as in PyTorch's own float16 formula) while its product with
            # a small tangent or cotangent need not: not compared there
            x = x.clone().requires_grad_(True)
            out = _as_tuple(call_on64([x]))[0]
            if out.shape == x.shape:
                d, = torch.autograd.grad(out.sum(), x)
                skip = skip | (d.detach().abs() >= 65504.0).numpy()
    if dtype != torch.float64 and op.name in NONSMOOTH_POINTS and len(inputs) == 1:
        x = inputs[0].detach().double()
        skip = sum((x == p) for p in NONSMOOTH_POINTS[op.name]).bool().numpy()
    try:
        if dynamic:
            _check_op_sample_dynamic(op, call, call_on, inputs, index)
        else:
            _check_op_sample(op, call, call_on, call_on64, inputs, index, skip)
    except Failure as e:
        if zero_size:  # said first: the cause of most such failures
            raise Failure(f"zero-size tensor: {e}")
        raise


def _op_references(op, call_on, inputs, cts, tangents, fd):
    """PyTorch's outputs, gradients (NumPy) and tangents (NumPy, or None for
    the dot-product check) of one sample."""
    leaves_rg = [x.detach().clone().requires_grad_(True) for x in inputs]
    outs = _as_tuple(call_on(leaves_rg))
    if fd:
        return outs, central_vjp(call_on, inputs, cts), central_jvp(call_on, inputs, tangents)
    try:
        grads = torch.autograd.grad([o for o in outs if o.requires_grad],
                                    leaves_rg, [c for o, c in zip(outs, cts)
                                                if o.requires_grad],
                                    allow_unused=True)
    except Exception as e:
        raise Excluded(f"torch.autograd raises: {_first_line(e)}")
    grads = [_np(g) if g is not None else np.zeros(tuple(x.shape))
             for g, x in zip(grads, inputs)]
    jvp_ref = None
    if op.supports_forward_ad:
        try:
            jvp_ref = forward_ad(call_on, inputs, tangents)
        except Exception:
            jvp_ref = None  # the dot-product check instead
    return outs, grads, jvp_ref


def _check_op_sample(op, call, call_on, call_on64, inputs, index, skip=None):
    text, info = import_module(call, inputs)
    compiled = compile_cached(text)

    gen = torch.Generator().manual_seed(index + 1)
    with torch.no_grad():
        outs = _as_tuple(call_on([x.clone() for x in inputs]))
    cts = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in outs]
    tangents = [torch.randn(x.shape, generator=gen, dtype=x.dtype) for x in inputs]
    fd = op.name in CENTRAL_DIFFERENCES
    rtol = FD_RTOL if fd else RTOL
    peers = None
    if call_on64 is None:
        outs, grads, jvp_ref = _op_references(op, call_on, inputs, cts, tangents, fd)
    else:
        outs, grads, jvp_ref = _op_references(op, call_on64, _upcast(inputs), _upcast(cts),
                                              _upcast(tangents), fd)
        rtol = max(rtol, RTOL32)
        if not fd:  # PyTorch's float32 error sets the slack
            p_outs, p_grads, p_jvp = _op_references(op, call_on, inputs, cts, tangents, fd)
            peers = {"outs": [_np(o) for o in p_outs], "grads": p_grads, "jvp": p_jvp}
    problems = []
    check_program(compiled, [_arg(x) for x in inputs], len(inputs), outs, grads, cts,
                  jvp_ref, [_arg(t) for t in tangents], 0, [], rtol, problems, peers,
                  skip)
    if problems:
        raise Failure("; ".join(problems[:3]))


def forward_ad(call_on, inputs, tangents):
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x.clone(), t) for x, t in zip(inputs, tangents)]
        outs = _as_tuple(call_on(duals))
        res = []
        for o in outs:
            t = fwAD.unpack_dual(o).tangent
            res.append(np.zeros(tuple(o.shape)) if t is None else _np(t))
        return res


def central_vjp(call_on, inputs, cts):
    def value(xs):
        with torch.no_grad():
            outs = _as_tuple(call_on(xs))
        return sum(float((o * c).sum()) for o, c in zip(outs, cts))
    grads = []
    for k, x in enumerate(inputs):
        g = np.zeros(tuple(x.shape))
        flat = x.detach().clone().reshape(-1)
        for j in range(flat.numel()):
            xs = [y.detach().clone() for y in inputs]
            plus, minus = flat.clone(), flat.clone()
            plus[j] += FD_STEP
            minus[j] -= FD_STEP
            xs[k] = plus.reshape(x.shape)
            fp = value(xs)
            xs[k] = minus.reshape(x.shape)
            fm = value(xs)
            g.reshape(-1)[j] = (fp - fm) / (2 * FD_STEP)
        grads.append(g)
    return grads


def central_jvp(call_on, inputs, tangents):
    with torch.no_grad():
        plus = _as_tuple(call_on([x + FD_STEP * t for x, t in zip(inputs, tangents)]))
        minus = _as_tuple(call_on([x - FD_STEP * t for x, t in zip(inputs, tangents)]))
    return [_np((p - m) / (2 * FD_STEP)) for p, m in zip(plus, minus)]


def _rounded_samples(op, dtype):
    """The OpInfo's float32 samples rounded to ``dtype``: its sample
    generator may itself call the float16 kernels PyTorch lacks (an SVD to
    make well-conditioned matrices). A tensor that appears twice stays one
    tensor."""
    def rounded(sample):
        memo = {}

        def to_half(t):
            if isinstance(t, torch.dtype):
                return dtype if t == torch.float32 else t
            if t.dtype != torch.float32:
                return t
            if id(t) not in memo:
                memo[id(t)] = t.detach().to(dtype).requires_grad_(t.requires_grad)
            return memo[id(t)]
        return sample.transform(to_half)
    return (rounded(s) for s in op.sample_inputs("cpu", torch.float32, requires_grad=True))


def run_op(op, max_samples, dtype=torch.float64, dynamic=False):
    if torch.float64 not in op.supported_dtypes("cpu"):
        raise Excluded("no float64 on CPU")
    # A 16-bit dtype without a CPU kernel in PyTorch: checked against
    # PyTorch in float32 rounded to it (_call_widened), as tad's 16-bit floats
    # must work whether or not PyTorch's CPU build has the kernel.
    widened = dtype in (torch.float16, torch.bfloat16) and \
        dtype not in op.supported_dtypes("cpu") and torch.float32 in op.supported_dtypes("cpu")
    if dtype not in op.supported_dtypes("cpu") and not widened:
        raise Excluded(f"no {str(dtype)[6:]} on CPU")
    if not op.supports_autograd:
        raise Excluded("no autograd")
    outcomes = []
    try:
        samples = iter(_rounded_samples(op, dtype) if widened else
                       op.sample_inputs("cpu", dtype, requires_grad=True))
        if dynamic:  # the first samples that have a batch to make dynamic
            samples = (s for s in samples if _has_batch(s))
        for index in range(max_samples):
            sample = next(samples, None)
            if sample is None:
                break
            outcomes.append(_sample_outcome(
                lambda: op_sample(op, sample, index, dtype, widened, dynamic)))
    except Exception as e:  # PyTorch's own sample generator
        outcomes.append({"status": "excluded", "reason":
                         f"PyTorch's sample_inputs raises {type(e).__name__}: {_first_line(e)}"})
    return outcomes


# --------------------------------------------------------------------------
# ModuleInfo
# --------------------------------------------------------------------------

class _ModuleCall(torch.nn.Module):
    def __init__(self, module, leaves, spec, slots):
        super().__init__()
        self.m = module
        self.leaves, self.spec, self.slots = leaves, spec, slots

    def forward(self, *xs):
        vals = list(self.leaves)
        for slot, x in zip(self.slots, xs):
            vals[slot] = x
        args, kwargs = pytree.tree_unflatten(vals, self.spec)
        return _float_outputs(self.m(*args, **kwargs))


def _has_random_dropout(module):
    for m in module.modules():
        p = getattr(m, "p", None) if isinstance(m, torch.nn.modules.dropout._DropoutNd) \
            else getattr(m, "dropout", None)
        if isinstance(p, float) and p > 0 and m.training:
            return True
    return False


def _module_references(ref_module, inputs, cts):
    """PyTorch's outputs, the gradients (NumPy) of the inputs and then the
    parameters, and the module's buffers after the call."""
    leaves_rg = [x.clone().requires_grad_(True) for x in inputs]
    outs = _as_tuple(ref_module(*leaves_rg))
    diff = leaves_rg + [p for _, p in ref_module.named_parameters()]
    try:
        grads = torch.autograd.grad(list(outs), diff, cts, allow_unused=True)
    except Exception as e:
        raise Excluded(f"torch.autograd raises: {_first_line(e)}")
    grads = [_np(g) if g is not None else np.zeros(tuple(d.shape))
             for g, d in zip(grads, diff)]
    return outs, grads, dict(ref_module.named_buffers())


def module_sample(info, module_input, training, index, dtype, dynamic=False):
    cargs, ckwargs = module_input.constructor_input.args, module_input.constructor_input.kwargs
    fargs, fkwargs = module_input.forward_input.args, module_input.forward_input.kwargs
    _no_complex_or_sparse((fargs, fkwargs), "input")
    torch.manual_seed(index)
    module = info.module_cls(*cargs, **ckwargs).to(dtype)
    module.train(training)
    if info.module_cls.__name__.startswith("Lazy"):
        # the first call materializes the parameters, as in any use
        try:
            with torch.no_grad():
                module(*[a.detach() if isinstance(a, torch.Tensor) else a for a in fargs],
                       **fkwargs)
        except Exception as e:
            raise Excluded(f"PyTorch raises on the sample: {_first_line(e)}")
        module = module.to(dtype)
    if _has_random_dropout(module):
        raise Excluded("random (dropout in training mode)")
    leaves, spec = pytree.tree_flatten((fargs, fkwargs))
    slots = [i for i, v in enumerate(leaves)
             if isinstance(v, torch.Tensor) and v.is_floating_point() and v.requires_grad]
    leaves = [v.detach() if isinstance(v, torch.Tensor) else v for v in leaves]
    inputs = [leaves[i].clone() for i in slots]
    wrapper = _ModuleCall(module, leaves, spec, slots)
    if dynamic:
        return _check_module_sample_dynamic(wrapper, inputs, index)

    ref_module = copy.deepcopy(wrapper)
    try:
        with torch.no_grad():
            outs = _as_tuple(copy.deepcopy(wrapper)(*inputs))
    except Exception as e:
        raise Excluded(f"PyTorch raises on the sample: {_first_line(e)}")
    _no_complex_or_sparse(outs, "output")
    if not outs or not all(isinstance(o, torch.Tensor) for o in outs):
        raise Excluded("no floating-point output")
    gen = torch.Generator().manual_seed(index + 1)
    cts = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in outs]
    peers = None
    if dtype == torch.float64:
        outs, grads, ref_buffers = _module_references(ref_module, inputs, cts)
        rtol = RTOL
    else:  # the reference: the same values in float64
        ref64 = _ModuleCall(copy.deepcopy(module).to(torch.float64), _upcast(leaves),
                            spec, slots)
        outs, grads, ref_buffers = _module_references(ref64, _upcast(inputs), _upcast(cts))
        p_outs, p_grads, p_buffers = _module_references(ref_module, inputs, cts)
        peers = {"outs": [_np(o) for o in p_outs], "grads": p_grads}
        rtol = RTOL32

    # the imported module starts from the same state as the reference did
    text, imp = import_module(wrapper, [x.clone() for x in inputs])
    compiled = compile_cached(text)
    n_in = len(inputs)
    state = [t for _, t in wrapper.named_parameters()] + \
        [b for _, b in wrapper.named_buffers()]
    updated = [state[i - n_in] for i in imp.updated_buffers]
    buffer_names = [n for n, _ in wrapper.named_parameters()] + \
        [n for n, _ in wrapper.named_buffers()]
    buffers_ref = [ref_buffers[buffer_names[i - n_in]] for i in imp.updated_buffers]
    if peers is not None:
        peers["buffers"] = [_np(p_buffers[buffer_names[i - n_in]]) for i in imp.updated_buffers]
    args = [_arg(x) for x in inputs] + [_arg(p) for _, p in wrapper.named_parameters()] + \
        [_arg(b) for b in updated]
    tangents = [_arg(torch.randn(tuple(t.shape), generator=gen, dtype=torch.float64)
                     .to(t.dtype))
                for t in list(inputs) + [p for _, p in wrapper.named_parameters()] +
                list(updated) if t.is_floating_point()]
    problems = []
    check_program(compiled, args, len(grads), outs, grads, cts, None, tangents,
                  len(updated), buffers_ref, rtol, problems, peers)
    if problems:
        raise Failure("; ".join(problems[:3]))


def run_module(info, max_samples, dtype=torch.float64, dynamic=False):
    outcomes = []
    for training in (True, False):
        samples = info.module_inputs_func(info, device="cpu", dtype=dtype,
                                          requires_grad=True, training=training)
        for index, mi in enumerate(samples[:max_samples]):
            mode = "train" if training else "eval"
            out = _sample_outcome(
                lambda: module_sample(info, mi, training, index, dtype, dynamic))
            out["sample"] = f"{mode} {index} ({mi.desc})" if mi.desc else f"{mode} {index}"
            outcomes.append(out)
    return outcomes


# --------------------------------------------------------------------------
# A dynamic batch (``NAME@dynamic``)
# --------------------------------------------------------------------------

#: The batch sizes a dynamic case runs at besides its sample's own: 1 (where
#: PyTorch would broadcast a size, a dynamic size must still be the batch)
#: and a prime that no trace used.
DYNAMIC_BATCHES = (1, 7)


def _with_batch(inputs, batched, size):
    """``inputs`` with dimension 0 of those in ``batched`` resized to
    ``size``, rows repeated cyclically (as the importer's traces do)."""
    return [x.detach().index_select(0, torch.arange(size) % x.shape[0])
            if i in batched else x.detach().clone() for i, x in enumerate(inputs)]


def _has_batch(sample):
    """Whether a differentiable input of ``sample`` has a dimension 0."""
    return any(isinstance(v, torch.Tensor) and v.requires_grad and v.dim() >= 1
               and v.shape[0] > 0
               for v in pytree.tree_flatten((sample.input, sample.args,
                                             sample.kwargs))[0])


def _accepts(call_on, inputs):
    try:
        with torch.no_grad():
            call_on([x.clone() for x in inputs])
        return True
    except Exception:
        return False


def _batch_inputs(call_on, inputs):
    """The inputs whose dimension 0 is the batch: those of rank >= 1 whose
    dimension 0 has the first such input's size, or only that first input
    where PyTorch refuses them resized together (a square matrix's rows and
    columns). The batch is the size dimension 0 takes in each."""
    ranked = [i for i, x in enumerate(inputs) if x.dim() >= 1]
    if not ranked:
        raise Excluded("no batch dimension (only 0-d inputs)")
    n = inputs[ranked[0]].shape[0]
    if n == 0:
        raise Excluded("zero-size batch")
    together = [i for i in ranked if inputs[i].shape[0] == n]
    traced = max(n, 2)  # the importer's two traces: at max(n, 2) and one more
    for batched in dict.fromkeys((tuple(together), (ranked[0],))):
        if _accepts(call_on, _with_batch(inputs, batched, traced)) and \
                _accepts(call_on, _with_batch(inputs, batched, traced + 1)):
            return list(batched)
    raise Excluded("PyTorch raises with dimension 0 of the inputs resized "
                   "(no batch dimension)")


_MINIMUM = re.compile(r'tad\.dim_min = array<i64: (\d+)')


def _check_batches(compiled, text, inputs, batched, check_at, accepts):
    """Runs ``check_at(xs, size, problems)`` at the sample's batch and at
    DYNAMIC_BATCHES. Where PyTorch refuses a batch (``accepts``), tad must
    refuse it too, with an error rather than numbers; so must it below the
    minimum the importer gave the batch (``tad.dim_min``: the program
    differs there)."""
    n = inputs[batched[0]].shape[0]
    minimum = _MINIMUM.search(text)
    minimum = int(minimum.group(1)) if minimum else 0
    for size in dict.fromkeys((n,) + DYNAMIC_BATCHES):
        xs = _with_batch(inputs, batched, size)
        if size < minimum or not accepts(xs):
            try:
                compiled.forward(*[_arg(x) for x in xs])
            except tad.TadError as e:
                if size < minimum and "must be at least" not in str(e):
                    raise Failure(f"batch {size}: below the minimum {minimum}, "
                                  f"tad fails otherwise: {e}")
                continue
            raise Failure(f"batch {size}: " + (f"below the minimum {minimum}"
                                               if size < minimum else "PyTorch raises")
                          + ", tad returns a result")
        problems = []
        check_at(xs, size, problems)
        if problems:
            raise Failure(f"batch {size}: " + "; ".join(problems[:3]))


def _check_op_sample_dynamic(op, call, call_on, inputs, index):
    """One OpInfo sample imported once with a dynamic batch (dimension 0 of
    its batched inputs) and checked, forward, VJP and JVP, against PyTorch
    at several batch sizes (float64)."""
    batched = _batch_inputs(call_on, inputs)
    text, _ = import_module(call, inputs, {i: {0: "B"} for i in batched})
    compiled = compile_cached(text)
    fd = op.name in CENTRAL_DIFFERENCES

    def check_at(xs, size, problems):
        gen = torch.Generator().manual_seed(index + 1)
        with torch.no_grad():
            outs = _as_tuple(call_on([x.clone() for x in xs]))
        cts = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in outs]
        tangents = [torch.randn(x.shape, generator=gen, dtype=x.dtype) for x in xs]
        outs, grads, jvp_ref = _op_references(op, call_on, xs, cts, tangents, fd)
        check_program(compiled, [_arg(x) for x in xs], len(xs), outs, grads, cts,
                      jvp_ref, [_arg(t) for t in tangents], 0, [],
                      FD_RTOL if fd else RTOL, problems)
    _check_batches(compiled, text, inputs, batched, check_at,
                   lambda xs: _accepts(call_on, xs))


def _check_module_sample_dynamic(wrapper, inputs, index):
    """One ModuleInfo sample imported once with a dynamic batch and checked
    (outputs, input and parameter gradients, updated buffers, the VJP
    dot-product check of the JVP) against PyTorch at several batch sizes."""
    def accepts(xs):
        try:
            with torch.no_grad():
                copy.deepcopy(wrapper)(*[x.clone() for x in xs])
            return True
        except Exception:
            return False
    batched = _batch_inputs(lambda xs: copy.deepcopy(wrapper)(*xs), inputs)
    text, imp = import_module(copy.deepcopy(wrapper), [x.clone() for x in inputs],
                              {i: {0: "B"} for i in batched})
    compiled = compile_cached(text)
    n_in = len(inputs)
    params = [p for _, p in wrapper.named_parameters()]
    state = params + [b for _, b in wrapper.named_buffers()]
    names = [n for n, _ in wrapper.named_parameters()] + \
        [n for n, _ in wrapper.named_buffers()]
    updated = [state[i - n_in] for i in imp.updated_buffers]

    def check_at(xs, size, problems):
        gen = torch.Generator().manual_seed(index + 1)
        with torch.no_grad():
            outs = _as_tuple(copy.deepcopy(wrapper)(*[x.clone() for x in xs]))
        cts = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in outs]
        outs, grads, ref_buffers = _module_references(copy.deepcopy(wrapper), xs, cts)
        buffers_ref = [ref_buffers[names[i - n_in]] for i in imp.updated_buffers]
        args = [_arg(x) for x in xs] + [_arg(p) for p in params] + \
            [_arg(b) for b in updated]
        tangents = [_arg(torch.randn(tuple(t.shape), generator=gen, dtype=t.dtype))
                    for t in list(xs) + params + updated if t.is_floating_point()]
        check_program(compiled, args, len(grads), outs, grads, cts, None, tangents,
                      len(updated), buffers_ref, RTOL, problems)
    _check_batches(compiled, text, inputs, batched, check_at, accepts)


# --------------------------------------------------------------------------
# Outcomes
# --------------------------------------------------------------------------

def _sample_outcome(check):
    try:
        check()
        return {"status": "pass", "reason": ""}
    except Excluded as e:
        return {"status": "excluded", "reason": str(e)}
    except Unsupported as e:
        return {"status": "unsupported", "reason": str(e)}
    except Failure as e:
        return {"status": "fail", "reason": str(e)}
    except tad.TadError as e:
        return {"status": "fail", "reason": f"call rejected: {_first_line(e)}"}
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        where = f" ({os.path.basename(tb[-1].filename)}:{tb[-1].lineno})" if tb else ""
        return {"status": "fail", "reason": f"{type(e).__name__}: {_first_line(e)}{where}"}


def summarize(outcomes):
    """One status for a case: fail if any sample fails, else unsupported if
    any is, else pass if any passes, else excluded."""
    counts = {s: sum(1 for o in outcomes if o["status"] == s)
              for s in ("pass", "unsupported", "fail", "excluded")}
    for status in ("fail", "unsupported"):
        if counts[status]:
            reason = next(o["reason"] for o in outcomes if o["status"] == status)
            return status, reason, counts
    if counts["pass"]:
        return "pass", "", counts
    reason = outcomes[0]["reason"] if outcomes else "no samples"
    return "excluded", reason, counts


def case_seed(name):
    """The seed of a case's samples: from its name, so that a case draws
    the same samples alone or after any others in a worker."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:8], 16)


def run_case(name, max_samples=None):
    global _DYNAMIC
    ops, modules = databases()
    base, dtype, dynamic = split_case(name)
    _DYNAMIC = dynamic
    # Some sample generators draw from Python's random too (huber_loss's
    # delta): without its seed a case's samples changed from run to run.
    seed = case_seed(name)
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)
    try:
        if base.startswith("op:"):
            outcomes = run_op(ops[base], max_samples or OP_SAMPLES, dtype, dynamic)
        else:
            outcomes = run_module(modules[base], max_samples or MODULE_SAMPLES, dtype,
                                  dynamic)
    except Excluded as e:
        outcomes = [{"status": "excluded", "reason": str(e)}]
    except Exception as e:
        outcomes = [{"status": "fail", "reason":
                     f"sample generation raised {type(e).__name__}: {_first_line(e)}"}]
    status, reason, counts = summarize(outcomes)
    return {"name": name, "status": status, "reason": reason, "counts": counts,
            "samples": outcomes}
