"""Checks bf16 and f16 arguments and results through the Python loader,
against NumPy references that compute each op in float32 and round once
per op (ATen's semantics, tad-widen-low-precision), and tad's bf16
conversions against torch's.

usage: half_precision.py half_precision.mlir OPT_LEVEL [ctypes]

Compiles the module with tad.compile at -O<OPT_LEVEL>. With "ctypes",
calls go through ctypes instead of the C fast path (tad._fastcall).
Prints one "PASS: <check>" line per check; the first failing check raises
and ends the script with a non-zero status.
"""

import sys

import numpy as np
import torch

import tad

source, opt_level = sys.argv[1], int(sys.argv[2])
if sys.argv[3:] == ["ctypes"]:
    tad.module._fastcall = None
    print("calls through ctypes")
else:
    assert tad.module._fastcall is not None, "tad._fastcall was not built"
    print("calls through tad._fastcall")

m = tad.compile(source, opt_level=opt_level)
print(m)
print(repr(m.chain))
print(repr(m.half))

to_bits = tad.float32_to_bf16_bits
to_f32 = tad.bf16_bits_to_float32
rng = np.random.default_rng(7)


def passed(name):
    print(f"PASS: {name}", flush=True)


def bf16(values):
    """bf16 bits of ``values`` (rounded to nearest even)."""
    return to_bits(np.asarray(values, np.float32))


def round_bf16(values):
    """``values`` (float32) rounded once to bf16, as float32."""
    return to_f32(to_bits(values))


def torch_bits(values):
    """torch's own float32 -> bf16 conversion, as uint16 bits."""
    t = torch.from_numpy(np.ascontiguousarray(values, np.float32))
    return t.bfloat16().view(torch.int16).numpy().view(np.uint16)


def same_bits(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    bad = got.view(np.uint8).reshape(got.size, -1) != want.view(np.uint8).reshape(want.size, -1)
    assert not bad.any(), f"{what}: got {got!r}, expected {want!r}"


def expect_error(fn, args, status, message):
    """Calls fn(*args) and checks the TadError it must raise."""
    try:
        fn(*args)
    except tad.TadError as e:
        assert e.status == status, (e.status, status, str(e))
        assert str(e) == message, f"got {str(e)!r}, expected {message!r}"
        return
    raise AssertionError(f"no TadError, expected {message!r}")


# --- Signatures -------------------------------------------------------------
bf16_storage = tad.module._abi.BF16_STORAGE
assert m.chain.signature.args[0].dtype == bf16_storage
assert m.half.signature.args[0].dtype == np.float16
assert m.widen.signature.results[0].dtype == np.float32
passed("signatures")

# --- mm + add + tanh in bf16: bit-exact against a per-op bf16 reference -----
# Multiples of 1/16 in [-1, 1]: the f32 products and sums are exact whatever
# the summation order, so only the roundings to bf16 are checked.
x = bf16(rng.integers(-16, 17, (4, 8)) / 16)
w = bf16(rng.integers(-16, 17, (8, 3)) / 16)
b = bf16(rng.normal(size=3))
mm = round_bf16(to_f32(x) @ to_f32(w))
ref = to_bits(np.tanh(round_bf16(mm + to_f32(b))))
# The sums of products are rounded: the reference depends on the rounding.
assert not np.array_equal(mm, to_f32(x) @ to_f32(w))
out = m.chain(x, w, b)
same_bits(out, ref, "chain")
passed("chain bf16 bit-exact")

# The same call with int16 views (torch's t.view(torch.int16).numpy()).
tx = torch.from_numpy(to_f32(x).copy()).bfloat16().view(torch.int16).numpy()
tw = torch.from_numpy(to_f32(w).copy()).bfloat16().view(torch.int16).numpy()
assert tx.dtype == np.int16
same_bits(m.chain(tx, tw, b.view(np.int16)), ref, "chain int16 views")
passed("chain int16 views")

# Non-contiguous uint16 bits are copied, not misread.
xt = np.ascontiguousarray(x.T).T
assert not xt.flags.c_contiguous
same_bits(m.chain(xt, w, b), ref, "chain non-contiguous")
passed("chain non-contiguous")

# --- One rounding per op: x*y rounded to bf16 before + z --------------------
xs, ys, zs = (bf16(rng.normal(size=6) * 3) for _ in range(3))
prod = round_bf16(to_f32(xs) * to_f32(ys))
ref = to_bits(prod + to_f32(zs))
fused = to_bits(to_f32(xs) * to_f32(ys) + to_f32(zs))
assert not np.array_equal(ref, fused), "inputs do not tell the roundings apart"
same_bits(m.muladd(xs, ys, zs), ref, "muladd")
# torch's bf16 kernels agree.
tref = (torch.from_numpy(to_f32(xs)).bfloat16() * torch.from_numpy(to_f32(ys)).bfloat16()
        + torch.from_numpy(to_f32(zs)).bfloat16())
same_bits(m.muladd(xs, ys, zs), tref.view(torch.int16).numpy().view(np.uint16), "muladd torch")
passed("muladd one rounding per op")

# --- Conversions -----------------------------------------------------------
special = np.array([1.0, -2.5, 3.0e38, -1e-40, 0.0, -0.0, np.inf, -np.inf], np.float32)
wide = m.widen(bf16(special[:4]))
same_bits(wide, round_bf16(special[:4]), "widen")
passed("widen exact")

# Ties to even, overflow to inf, subnormals, signed zeros, infinities.
ties = np.array([0x3F808000, 0x3F818000, 0xBF808000, 0x7F7FFFFF,
                 0x00008000, 0x80000000, 0x7F800000, 0x3F80C001], np.uint32).view(np.float32)
got = m.narrow(ties)
same_bits(got, np.array([0x3F80, 0x3F82, 0xBF80, 0x7F80, 0x0000, 0x8000, 0x7F80, 0x3F81],
                        np.uint16), "narrow ties")
same_bits(got, torch_bits(ties), "narrow vs torch")
nans = m.narrow(np.array([np.nan, -np.nan, 1, 2, 3, 4, 5, 6], np.float32))
assert np.isnan(to_f32(nans[:2])).all(), nans
passed("narrow ties to even, inf, nan")

# --- f16 -------------------------------------------------------------------
a = rng.normal(size=5).astype(np.float16) * np.float16(4)
c = rng.normal(size=5).astype(np.float16)
p = (a.astype(np.float32) * c.astype(np.float32)).astype(np.float16)
e = np.exp(p.astype(np.float32)).astype(np.float16)
h, h32 = m.half(a, c)
same_bits(h, e, "half")
same_bits(h32, e.astype(np.float32), "half widened")
same_bits(p, (torch.from_numpy(a) * torch.from_numpy(c)).numpy(), "f16 product torch")
# f16 bits as uint16 or int16 are read as f16.
h2, _ = m.half(a.view(np.uint16), c.view(np.int16))
same_bits(h2, e, "half bits")
passed("f16 bit-exact")

# bf16 -> f16 (overflow to inf) and an f16 add.
am = bf16([1.5, 70000.0, -3.140625])
hm = np.array([0.25, 1.0, 1e-3], np.float16)
with np.errstate(over="ignore"):
    ref = (to_f32(am).astype(np.float16).astype(np.float32) +
           hm.astype(np.float32)).astype(np.float16)
assert np.isinf(ref[1])
same_bits(m.mixed(am, hm), ref, "mixed")
passed("bf16 to f16")

# --- Wrong dtypes are refused, never converted -----------------------------
f32_args = (x.astype(np.float32), w, b)
expect_error(m.chain, f32_args, tad.STATUS_DTYPE,
             "chain: argument 0 has dtype f32, expected bf16")
expect_error(m.chain, (to_f32(x), to_f32(w), to_f32(b)), tad.STATUS_DTYPE,
             "chain: argument 0 has dtype f32, expected bf16")
expect_error(m.widen, (np.ones(4, np.float64),), tad.STATUS_DTYPE,
             "widen: argument 0 has dtype f64, expected bf16")
expect_error(m.widen, (np.ones(4, np.float16),), tad.STATUS_DTYPE,
             "widen: argument 0 has dtype f16, expected bf16")
expect_error(m.half, (np.ones(5, np.float32), c), tad.STATUS_DTYPE,
             "half: argument 0 has dtype f32, expected f16")
expect_error(m.mixed, (am, np.ones(3, np.float32)), tad.STATUS_DTYPE,
             "mixed: argument 1 has dtype f32, expected f16")
expect_error(m.widen, ([1.0, 2.0, 3.0, 4.0],), tad.STATUS_DTYPE,
             "widen: argument 0 (list of float64) does not convert safely to bf16")
# 16-bit bits have the argument's shape like any other array.
expect_error(m.widen, (np.zeros(5, np.uint16),), tad.STATUS_SHAPE,
             "widen: argument 0 has shape [5], expected [4]")
# The module keeps working.
same_bits(m.chain(x, w, b), out, "chain after errors")
passed("dtype errors")

# --- tad's conversion helpers against torch -------------------------------
bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
ours = to_f32(bits)
theirs = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16).float().numpy()
same_bits(ours, theirs, "bf16_bits_to_float32")
assert to_f32(bits.view(np.int16)).dtype == np.float32
finite = ~np.isnan(ours)
same_bits(to_bits(ours[finite]), bits[finite], "round trip")
assert np.isnan(to_f32(to_bits(ours[~np.isnan(ours)] * np.nan))).all()
passed("bf16_bits_to_float32 exact")

# Every float32 near the bf16 rounding points of several binades (ties,
# one ulp either side), random values, subnormals, infinities, NaNs.
hi = rng.integers(0, 1 << 16, 4096, dtype=np.uint32) << np.uint32(16)
near = np.concatenate([hi | np.uint32(lo) for lo in
                       (0x7FFF, 0x8000, 0x8001, 0x0001, 0xFFFF, 0x0000, 0xC000)])
values = np.concatenate([near.view(np.float32),
                         rng.normal(size=4096).astype(np.float32) * 1e3,
                         np.array([3.4028235e38, -3.4028235e38, 3.3961776e38, 1e-45,
                                   -1e-45, 1.1754942e-38, np.inf, -np.inf], np.float32)])
finite = ~np.isnan(values)
same_bits(to_bits(values[finite]), torch_bits(values[finite]), "float32_to_bf16_bits")
nan_in = np.concatenate([values[~finite], np.array([np.nan, -np.nan], np.float32),
                         np.array([0x7F800001, 0xFF800001, 0x7FBFFFFF], np.uint32)
                         .view(np.float32)])
assert np.isnan(to_f32(to_bits(nan_in))).all(), to_bits(nan_in)
assert np.isnan(to_f32(torch_bits(nan_in))).all()
# Scalars stay scalars.
assert to_bits(np.float32(np.inf)).shape == () and to_bits(np.float32(np.inf)) == 0x7F80
assert to_bits(-np.inf) == 0xFF80 and to_bits(-np.inf).dtype == np.uint16
assert to_f32(to_bits(1.0)).shape == () and to_f32(to_bits(1.0)) == 1.0
passed("float32_to_bf16_bits matches torch")
print("ALL PASSED")
