"""bfloat16 without ml_dtypes: conversions between float32 and bf16 bits.

NumPy has no bfloat16 dtype. Where ``ml_dtypes`` is installed, tad passes
and returns ``ml_dtypes.bfloat16`` arrays; otherwise a bf16 tensor is a
``uint16`` array of its bits (the high half of a float32), and these two
functions convert. A torch bf16 tensor is passed as ``t.view(torch.int16)``
(or ``uint16`` bits from elsewhere); tad reinterprets 16-bit integer arrays
given for a bf16 or f16 argument as that type.
"""

import numpy as np


def bf16_bits_to_float32(bits) -> np.ndarray:
    """The float32 values of bf16 ``bits`` (exact)."""
    bits = np.asarray(bits)
    if bits.dtype.itemsize != 2:
        raise TypeError(f"bf16 bits are 16-bit, got {bits.dtype}")
    wide = bits.view(np.uint16).astype(np.uint32) << np.uint32(16)
    return wide.view(np.float32)


def float32_to_bf16_bits(values) -> np.ndarray:
    """``values`` rounded to bf16 (to nearest, ties to even, as
    c10::BFloat16 and the vcvtneps2bf16 instruction do), as uint16 bits.
    NaNs stay quiet NaNs."""
    values = np.asarray(values, dtype=np.float32)
    # (ascontiguousarray alone would make a 0-d array 1-d)
    values = np.ascontiguousarray(values).reshape(values.shape)
    u = values.view(np.uint32).astype(np.uint64)
    rounded = (u + np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1)))
    bits = (rounded >> np.uint64(16)).astype(np.uint16)
    nan = np.isnan(values)
    if nan.any():
        bits[nan] = ((u[nan] >> np.uint64(16)).astype(np.uint16) |
                     np.uint16(0x0040))
    return bits
