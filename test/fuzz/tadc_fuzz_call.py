"""Calls every function of two builds of one program on the same random
inputs and compares the results (the differential check of tadc_fuzz.py).

    tadc_fuzz_call.py OPTIMIZED.so REFERENCE.so SEED

Floats are compared within the tolerance of docs/contributing.md: NaN where
the reference has NaN, the same infinities, and otherwise

    |optimized - reference| <= rtol * max(1, max |reference|)

with rtol 1e-4 for f32 and 1e-10 for f64; integers and booleans bitwise.
Both builds must raise the same tad_status for a call, or none.

Exit status: 0 equal, 3 a mismatch (printed), 2 not compared (inputs it
cannot make, or too large to run quickly); anything else is a failure of
the call itself.
"""
import sys

import numpy as np

import tad

# float16 and bf16 (uint16 bits without ml_dtypes): two roundings of the
# result, where the optimized build sums in another order.
RTOL = {np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-10,
        np.dtype(np.float16): 2e-3, np.dtype(np.uint16): 1.6e-2}
MAX_ELEMENTS = 1 << 22


# The size of dynamic dimension symbol k (docs/dynamic-shapes.md): small,
# different per symbol, 1 included.
def dynamic_size(k):
    return (3, 1, 5, 2)[k % 4]


def concrete(t):
    """The shape of a signature entry, its dynamic sizes chosen."""
    symbols = t.symbols or (None,) * len(t.shape)
    return tuple(dynamic_size(k) if d is None else d
                 for d, k in zip(t.shape, symbols))


def inputs(signature, rng):
    arrays = []
    total = 0
    for t in list(signature.args) + list(signature.results):
        total += int(np.prod(concrete(t), dtype=np.float64))
    if total > MAX_ELEMENTS:
        sys.exit(2)
    # NumPy refuses some empty shapes too (0 x 2^62: its byte strides overflow).
    try:
        for t in list(signature.args) + list(signature.results):
            np.empty(concrete(t), np.dtype(t.dtype))
    except ValueError:
        sys.exit(2)
    for t in signature.args:
        dtype = np.dtype(t.dtype)
        shape = concrete(t)
        if dtype.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif dtype == np.dtype(np.uint16):  # bf16 bits
            arrays.append(tad.float32_to_bf16_bits(
                rng.standard_normal(shape).astype(np.float32)))
        elif dtype.kind == "b":
            arrays.append(rng.integers(0, 2, shape).astype(bool))
        elif dtype.kind == "i":
            # Zeros: in range wherever an integer argument is an index.
            arrays.append(np.zeros(shape, dtype))
        else:
            sys.exit(2)
    return arrays


def call(fn, arrays):
    try:
        results = fn(*arrays)
    except tad.TadError as e:
        return None, e.status, str(e)
    if not isinstance(results, tuple):
        results = (results,)
    return results, 0, ""


def differs(a, b):
    """Why `a` (optimized) differs from `b` (reference), or None."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
    rtol = RTOL.get(a.dtype)
    if a.dtype == np.dtype(np.uint16):  # bf16 bits: compare the values
        a, b = tad.bf16_bits_to_float32(a), tad.bf16_bits_to_float32(b)
    if a.dtype.kind != "f":
        if not np.array_equal(a, b):
            return "values differ"
        return None
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return f"NaN at different positions ({nan_a.sum()} vs {nan_b.sum()})"
    finite = np.isfinite(b)
    if not np.array_equal(np.isinf(a), np.isinf(b)) or \
            not np.array_equal(a[np.isinf(b)], b[np.isinf(b)]):
        return "infinities differ"
    if not finite.any():
        return None
    scale = max(1.0, float(np.abs(b[finite]).max()))
    error = float(np.abs(a[finite].astype(np.float64) -
                         b[finite].astype(np.float64)).max())
    if error > rtol * scale:
        return f"max error {error:.3g} > {rtol:g} x {scale:.3g}"
    return None


def main():
    optimized = tad.load(sys.argv[1])
    reference = tad.load(sys.argv[2])
    rng = np.random.default_rng(int(sys.argv[3]))
    mismatches = 0
    for name, signature in sorted(optimized.functions.items()):
        fn, ref = getattr(optimized, name), getattr(reference, name)
        arrays = inputs(signature, rng)
        got, status, message = call(fn, arrays)
        want, ref_status, ref_message = call(ref, arrays)
        if status != ref_status:
            print(f"{name}: status {status} ({message}) vs {ref_status} "
                  f"({ref_message})")
            mismatches += 1
            continue
        if got is None:
            continue
        for i, (a, b) in enumerate(zip(got, want)):
            why = differs(np.asarray(a), np.asarray(b))
            if why:
                print(f"{name}: result {i}: {why}")
                mismatches += 1
    return 3 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
