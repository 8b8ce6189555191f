"""Checks tad.native_dropout.key against a NumPy model of its generator.

The mask of element i under key k is `philox_uniform(k, i) < 1 - p`, with
Philox-4x32-10 (docs/dropout.md). The reference implementation below is
first checked against the known-answer vectors of Random123 (the Philox
authors' library); the compiled mask must then match it bit for bit, be a
function of the key alone, keep about 1 - p of the elements, and scale the
kept ones by 1 / (1 - p). Every check prints PASS/FAIL.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "runtime", "python"))
import tad  # noqa: E402

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK32 = 0xFFFFFFFF


def philox4x32_10(counter, key):
    c = [int(v) & MASK32 for v in counter]
    k0, k1 = (int(v) & MASK32 for v in key)
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + W0) & MASK32, (k1 + W1) & MASK32
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & MASK32,
             (p0 >> 32) ^ c[3] ^ k1, p0 & MASK32]
    return c


def uniform(key, index):
    key &= (1 << 64) - 1
    r = philox4x32_10([index & MASK32, index >> 32, 0, 0],
                      [key & MASK32, key >> 32])
    bits = (r[0] << 32) | r[1]
    return (bits >> 11) * 2.0 ** -53


def reference_mask(key, shape, p):
    n = int(np.prod(shape))
    return np.array([uniform(key, i) < 1.0 - p for i in range(n)]).reshape(shape)


PROGRAM = """
func.func @drop(%%x: tensor<%(S)sxf32>, %%key: tensor<i64>) -> (tensor<%(S)sxf32>, tensor<%(S)sxi1>) {
  %%y, %%m = tad.native_dropout.key %%x, %%key {p = %(p)s : f64%(train)s} : (tensor<%(S)sxf32>, tensor<i64>) -> (tensor<%(S)sxf32>, tensor<%(S)sxi1>)
  return %%y, %%m : tensor<%(S)sxf32>, tensor<%(S)sxi1>
}
"""


def compile_dropout(shape, p, train=None):
    extra = "" if train is None else ", train = %s" % ("true" if train else "false")
    text = PROGRAM % {"S": "x".join(str(d) for d in shape), "p": repr(float(p)),
                      "train": extra}
    return tad.compile(text).drop


failures = 0


def check(name, ok, detail=""):
    global failures
    failures += not ok
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, detail)))


def main():
    # Random123's known-answer tests for philox4x32-10.
    check("philox4x32-10 KAT zeros",
          philox4x32_10([0, 0, 0, 0], [0, 0]) ==
          [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8])
    check("philox4x32-10 KAT ones",
          philox4x32_10([MASK32] * 4, [MASK32, MASK32]) ==
          [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD])
    check("philox4x32-10 KAT pi",
          philox4x32_10([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
                        [0xA4093822, 0x299F31D0]) ==
          [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1])

    shape, p = (16, 24), 0.3
    drop = compile_dropout(shape, p)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32) + 3
    for key in (0, 42, -7, 2 ** 40 + 5):
        y, m = drop(x, np.array(key, dtype=np.int64))
        expected = reference_mask(key, shape, p)
        check("mask matches the Philox reference, key %d" % key,
              np.array_equal(m, expected),
              "%d of %d elements differ" % (np.sum(m != expected), m.size))
        check("out = x * mask / (1 - p), key %d" % key,
              np.allclose(y, x * m / np.float32(1 - p), rtol=1e-6))
    y1, m1 = drop(x, np.array(5, dtype=np.int64))
    y2, m2 = drop(x * 2, np.array(5, dtype=np.int64))
    y3, m3 = drop(x, np.array(6, dtype=np.int64))
    check("same key, same mask (independent of the input)", np.array_equal(m1, m2))
    check("different key, different mask", not np.array_equal(m1, m3))

    big = compile_dropout((128, 128), 0.3)
    _, m = big(np.ones((128, 128), np.float32), np.array(99, dtype=np.int64))
    kept = m.mean()
    # 16384 Bernoulli(0.7) draws: standard deviation 0.0036.
    check("keeps about 1 - p of the elements (%.4f)" % kept, abs(kept - 0.7) < 0.02)

    y, m = compile_dropout(shape, 0.5, train=False)(x, np.array(1, dtype=np.int64))
    check("train = false: identity, all-true mask", np.array_equal(y, x) and m.all())
    y, m = compile_dropout(shape, 1.0)(x, np.array(1, dtype=np.int64))
    check("p = 1: all dropped", not m.any() and not y.any())
    y, m = compile_dropout(shape, 0.0)(x, np.array(1, dtype=np.int64))
    check("p = 0: all kept", m.all() and np.array_equal(y, x))

    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
